/**
 * v3 row lineage as metadata columns (§ Row Lineage, § Reserved Field IDs): `_row_id` (2147483540) and
 * `_last_updated_sequence_number` (2147483539), both long. A data file may store them; a null (or a file
 * without the column) inherits: `_row_id` = the file's first_row_id + the row's position in the file,
 * `_last_updated_sequence_number` = the file's data sequence number. A file without a first_row_id (written
 * before the table had lineage) gives NULL row ids.
 *
 * They are system columns: an IcebergTableSource built with `rowLineage` appends them to its schema as
 * optional long pseudo-fields (their reserved ids make the Parquet reader pick up stored values), the
 * TableSource marks them `system` (selectable by name, not in `*`), and the file reader fills the
 * inherited values (fillRowLineage). Predicates on them are never used for pruning: stored statistics
 * cover only the stored, non-inherited values.
 */
import type { NestedField, Schema } from '../spec/schema.ts';

export const ROW_ID_FIELD_ID = 2147483540;
export const LAST_UPDATED_SEQUENCE_NUMBER_FIELD_ID = 2147483539;

const LONG = { kind: 'primitive', name: 'long' } as const;

export const ROW_LINEAGE_FIELDS: readonly NestedField[] = [
  { id: ROW_ID_FIELD_ID, name: '_row_id', required: false, type: LONG, doc: 'Implicit row ID that is automatically assigned' },
  { id: LAST_UPDATED_SEQUENCE_NUMBER_FIELD_ID, name: '_last_updated_sequence_number', required: false, type: LONG, doc: 'Sequence number when the row was last updated' },
];

export const ROW_LINEAGE_NAMES: readonly string[] = ROW_LINEAGE_FIELDS.map((f) => f.name);

export function isRowLineageField(f: { readonly id: number }): boolean {
  return f.id === ROW_ID_FIELD_ID || f.id === LAST_UPDATED_SEQUENCE_NUMBER_FIELD_ID;
}

/** the schema with the lineage pseudo-fields appended (a table column of the same name keeps its name: no pseudo-field then) */
export function rowLineageSchema(schema: Schema): Schema {
  const extra = ROW_LINEAGE_FIELDS.filter((l) => !schema.fields.some((f) => f.name === l.name || f.id === l.id));
  return extra.length === 0 ? schema : { ...schema, fields: [...schema.fields, ...extra] };
}

/** what a file contributes to inheritance */
export interface LineageSource {
  readonly file: { readonly firstRowId: bigint | null };
  readonly dataSequenceNumber: bigint;
}

/** a decoded chunk of one file (read/parquet-reader.ts ColumnChunk) */
export interface LineageChunk {
  readonly firstRowPosition: number;
  readonly length: number;
  readonly columns: unknown[][];
  /** row positions of the chunk's rows when rows were skipped (late materialization) */
  readonly positions?: readonly number[];
}

/**
 * For the requested columns of one file: a function that replaces the lineage columns' nulls with the
 * inherited values in place, or null when no lineage column is requested (the common case costs nothing).
 */
export function rowLineageFiller(requests: readonly { readonly fieldId: number }[], task: LineageSource): ((chunk: LineageChunk) => void) | null {
  const rowId = requests.findIndex((r) => r.fieldId === ROW_ID_FIELD_ID);
  const seq = requests.findIndex((r) => r.fieldId === LAST_UPDATED_SEQUENCE_NUMBER_FIELD_ID);
  if (rowId < 0 && seq < 0) return null;
  const first = task.file.firstRowId;
  return (chunk) => {
    if (rowId >= 0 && first !== null) {
      const col = chunk.columns[rowId]!;
      const at = chunk.positions;
      for (let r = 0; r < chunk.length; r++) {
        if (col[r] === null || col[r] === undefined) col[r] = first + BigInt(at === undefined ? chunk.firstRowPosition + r : at[r]!);
      }
    }
    if (seq >= 0) {
      const col = chunk.columns[seq]!;
      for (let r = 0; r < chunk.length; r++) if (col[r] === null || col[r] === undefined) col[r] = task.dataSequenceNumber;
    }
  };
}
