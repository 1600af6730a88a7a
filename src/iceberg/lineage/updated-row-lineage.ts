/**
 * Row lineage of rows a writer moves to a new data file (v3, § Row Lineage → Row lineage assignment): "the
 * row's existing non-null `_row_id` must be copied into the new data file"; a modified row's
 * `_last_updated_sequence_number` is written null, so it inherits the new file's data sequence number — the
 * commit's. UPDATE (merge-on-read: the old version is deleted, the new one written) is such a move of a
 * modified row: its new version keeps its id and takes the commit's sequence number.
 * Rows inserted without a previous version (`previous` absent) get nulls in both: fresh ids by inheritance.
 * An old row without an id (a file from before the table had lineage) has none to copy: its new version
 * inherits a fresh one.
 */
import type { Batch } from '../../common/batch.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { NestedField, Schema } from '../spec/schema.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { LAST_UPDATED_SEQUENCE_NUMBER_FIELD_ID, ROW_ID_FIELD_ID, rowLineageSchema } from './row-lineage-columns.ts';

/**
 * The lineage pseudo-fields a row-level writer reads and writes after the table's columns (v3 only; the same
 * ones IcebergTableSource.withSystemColumns offers, so the binder's view of the target lines up), as fields
 * and as system ColumnDefs.
 */
export function lineageColumnsOf(md: TableMetadata, schema: Schema): { fields: readonly NestedField[]; columns: readonly ColumnDef[] } {
  if (md.formatVersion < 3) return { fields: [], columns: [] };
  const fields = rowLineageSchema(schema).fields.slice(schema.fields.length);
  return { fields, columns: fields.map((f) => ({ name: f.name, type: { oid: Oid.int8, typmod: -1 }, nullable: true, system: true })) };
}

/**
 * `batch` (the table's columns) with the lineage columns appended: `_row_id` copied from `previous` (the old
 * versions' lineage values, in `lineage` order), `_last_updated_sequence_number` null
 */
export function updatedLineage(batch: Batch, lineage: readonly NestedField[], previous: Batch | undefined): Batch {
  const n = batch.length;
  const extra = lineage.map((f, k): unknown[] => {
    const old = previous?.columns[k];
    if (f.id === ROW_ID_FIELD_ID && old !== undefined) return Array.from({ length: n }, (_, i) => old[i] ?? null);
    return new Array<unknown>(n).fill(null);
  });
  return { columns: [...batch.columns, ...extra], length: n };
}

/**
 * After the commit: what an updated row reads as (RETURNING) — its old `_row_id` and the commit's sequence
 * number. An old row without an id reads NULL here (its new id is assigned by inheritance at read time).
 */
export function updatedLineageValues(lineage: readonly NestedField[], previous: readonly unknown[], sequenceNumber: bigint | null): unknown[] {
  return lineage.map((f, k) => {
    if (f.id === ROW_ID_FIELD_ID) return previous[k] ?? null;
    return f.id === LAST_UPDATED_SEQUENCE_NUMBER_FIELD_ID ? sequenceNumber : null;
  });
}
