/**
 * Where the v3 types may appear (§ Schemas and Data Types, § Default values): variant, geometry, geography,
 * unknown and the nanosecond timestamps need format version 3; an `unknown` column must be optional (it is
 * never stored, so it can only ever be NULL). Checked when lakegate creates a table (write/new-table-metadata.ts).
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IcebergType } from '../spec/schema.ts';

const V3_ONLY = new Set(['variant', 'geometry', 'geography', 'unknown', 'timestamp_ns', 'timestamptz_ns']);

/** the first v3-only primitive inside `t`, if any */
function v3TypeIn(t: IcebergType): string | undefined {
  switch (t.kind) {
    case 'primitive': return V3_ONLY.has(t.name) ? t.name : undefined;
    case 'list': return v3TypeIn(t.element);
    case 'map': return v3TypeIn(t.key) ?? v3TypeIn(t.value);
    case 'struct': for (const f of t.fields) { const x = v3TypeIn(f.type); if (x !== undefined) return x; } return undefined;
  }
}

export function checkV3Types(columns: readonly { name: string; type: IcebergType; required: boolean }[], formatVersion: number): void {
  for (const c of columns) {
    const v3 = v3TypeIn(c.type);
    if (v3 !== undefined && formatVersion < 3) {
      throw pgError(SqlState.feature_not_supported, `Iceberg type ${v3} (column "${c.name}") requires table format version 3`, {
        hint: 'Create the table WITH (format_version = 3).',
      });
    }
    if (c.type.kind === 'primitive' && c.type.name === 'unknown' && c.required) {
      throw pgError('42P16', `column "${c.name}" of Iceberg type unknown cannot be NOT NULL`, {
        detail: 'Iceberg unknown columns are never stored and always read as NULL.',
      });
    }
  }
}

/** § Parquet / Avro / ORC type mappings: `unknown` columns are omitted from data files (write/parquet-data-writer.ts) */
export function storedInDataFiles(f: { readonly type: IcebergType }): boolean {
  return !(f.type.kind === 'primitive' && f.type.name === 'unknown');
}

/** an `unknown` column's values about to be dropped: each must be NULL (22023 otherwise); always null, so the writer can skip it */
export function onlyNulls(f: { readonly name: string }, values: readonly unknown[] | undefined, length: number, relation = ''): null {
  for (let i = 0; i < length; i++) {
    const v = values?.[i];
    if (v !== null && v !== undefined) {
      throw pgError(SqlState.invalid_parameter_value, `column "${f.name}"${relation === '' ? '' : ` of relation "${relation}"`} is of Iceberg type unknown and can only hold NULL`, {
        column: f.name, ...(relation === '' ? {} : { table: relation }),
      });
    }
  }
  return null;
}
