/**
 * The unique constraints lakegate enforces on an Iceberg table, read from its metadata: the PRIMARY KEY
 * (the schema's `identifier-field-ids`, constraint `<table>_pkey` as PostgreSQL names it) and the unique
 * indexes of CREATE UNIQUE INDEX (table property `lakegate.indexes`, engine/iceberg-tables.ts), in
 * PostgreSQL's checking order (index creation order, the primary key first). Key checks
 * (key-check.ts) run only when this list is not empty: a table without keys pays nothing.
 * @see https://iceberg.apache.org/spec/#identifier-field-ids
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { NestedField, PrimitiveType, Schema } from '../spec/schema.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { toSqlType } from '../spec/types.ts';

export interface KeyColumn {
  /** position in the schema's top-level fields (= the column of a table row Batch) */
  readonly index: number;
  readonly field: NestedField & { readonly type: PrimitiveType };
  /** the declared SQL type (for the DETAIL text and char(n) comparison) */
  readonly sqlType: SqlType;
}

export interface UniqueKey {
  /** constraint (index) name, as PostgreSQL's 23505 names it */
  readonly name: string;
  readonly primary: boolean;
  readonly columns: readonly KeyColumn[];
}

/**
 * Table property naming the primary key constraint. PostgreSQL names it `<table>_pkey` at creation (or as
 * `CONSTRAINT name PRIMARY KEY` says) and keeps that name when the table is renamed; without the property
 * the key is `<table>_pkey` of the current name.
 */
export const PRIMARY_KEY_NAME_PROPERTY = 'lakegate.primary-key-name';

/** the primary key's constraint name */
export function primaryKeyName(md: TableMetadata, relName: string): string {
  return md.properties[PRIMARY_KEY_NAME_PROPERTY] ?? `${relName}_pkey`.slice(0, 63);
}

/** `lakegate.column-type.<id>`: `<oid>:<typmod>:<iceberg type>` written by lakegate's CREATE TABLE */
function sqlTypeOf(md: TableMetadata, f: NestedField): SqlType {
  const m = /^(\d+):(-?\d+):/.exec(md.properties[`lakegate.column-type.${f.id}`] ?? '');
  return m === null ? toSqlType(f.type) : { oid: Number(m[1]), typmod: Number(m[2]) };
}

/** the table's unique keys over top-level primitive columns of `schema`; keys naming other columns are left out */
export function uniqueKeysOf(md: TableMetadata, schema: Schema, relName: string): UniqueKey[] {
  const column = (f: NestedField | undefined): KeyColumn | null => {
    if (f === undefined || f.type.kind !== 'primitive') return null;
    return { index: schema.fields.indexOf(f), field: f as KeyColumn['field'], sqlType: sqlTypeOf(md, f) };
  };
  const keys: UniqueKey[] = [];
  const pk = schema.identifierFieldIds.map((id) => column(schema.fields.find((f) => f.id === id)));
  if (pk.length > 0 && pk.every((c) => c !== null)) keys.push({ name: primaryKeyName(md, relName), primary: true, columns: pk as KeyColumn[] });
  const text = md.properties['lakegate.indexes'];
  if (text === undefined) return keys;
  let stored: unknown;
  try { stored = JSON.parse(text); } catch { return keys; }
  if (!Array.isArray(stored)) return keys;
  for (const ix of stored as { name?: unknown; columns?: unknown; unique?: unknown }[]) {
    if (ix.unique !== true || typeof ix.name !== 'string' || !Array.isArray(ix.columns)) continue;
    const cols = (ix.columns as unknown[]).map((n) => column(schema.fields.find((f) => f.name === n)));
    if (cols.length > 0 && cols.every((c) => c !== null)) keys.push({ name: ix.name, primary: false, columns: cols as KeyColumn[] });
  }
  return keys;
}
