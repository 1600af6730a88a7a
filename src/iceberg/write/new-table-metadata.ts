/**
 * The first metadata document of a table lakegate creates: format-version 2, one schema (field ids 1..n),
 * the unpartitioned spec, the unsorted order, no snapshot. Field names, types and `required` come from
 * the CREATE TABLE column list (see iceberg-type-of.ts); column comments become field `doc`, a primary key
 * the schema's identifier-field-ids, DEFAULT expressions `lakegate.column-default.<field-id>` properties. The document is what `stringifyMetadata` writes.
 */
import { randomUUID } from 'node:crypto';
import { icebergColumnTypeOf, icebergTypeJson } from './iceberg-type-of.ts';
import { assignFreshIds } from './iceberg-type-text.ts';
import type { IcebergColumnDef } from './iceberg-types-option.ts';
import { toSqlType } from '../spec/types.ts';
import { partitionFieldsFromOption } from '../transforms/partitioning-option.ts';
import { checkV3Types } from '../variant/v3-type-rules.ts';

export type MetadataDoc = Record<string, unknown>;

export const DEFAULT_TABLE_PROPERTIES: Readonly<Record<string, string>> = {
  'write.format.default': 'parquet',
  'write.parquet.compression-codec': 'snappy',
};

/** table property holding a column's PostgreSQL DEFAULT expression (Iceberg v2 has no write-default) */
export function columnDefaultProperty(fieldId: number): string {
  return `lakegate.column-default.${fieldId}`;
}

/**
 * table property holding the declared PostgreSQL type when the Iceberg type reads back as another one
 * (int2, varchar(n), bpchar(n), json, jsonb): `<oid>:<typmod>:<iceberg type>`; readers apply it only while
 * the field still has that Iceberg type (see iceberg-table-source.ts declaredType)
 */
export function columnTypeProperty(fieldId: number): string {
  return `lakegate.column-type.${fieldId}`;
}

/** `primaryKey`: 0-based column positions; they become the schema's identifier-field-ids (required fields) */
/** `partitioning`: the `partitioning` option items (`day(ts)`, `bucket(16, id)`, …; see partitioning-option.ts) */
/** `formatVersion`: 2 by default; 3 adds `next-row-id` (row lineage) */
/** a column with an `icebergType` (the iceberg_types option, iceberg-types-option.ts) gets that type, ids numbered as Iceberg does */
export function newTableMetadata(location: string, columns: readonly IcebergColumnDef[], primaryKey: readonly number[] = [], nowMs = Date.now(), partitioning: readonly string[] = [], formatVersion: 1 | 2 | 3 = 2): MetadataDoc {
  let lastId = columns.length;
  const nextId = (): number => ++lastId;
  const types = columns.map((c) => (c.icebergType === undefined ? icebergColumnTypeOf(c.type, nextId) : assignFreshIds(c.icebergType, nextId)));
  checkV3Types(columns.map((c, i) => ({ name: c.name, type: types[i]!, required: !c.nullable })), formatVersion);
  const fields = columns.map((c, i) => ({
    id: i + 1, name: c.name, required: !c.nullable, type: icebergTypeJson(types[i]!),
    ...(c.comment === undefined ? {} : { doc: c.comment }),
  }));
  const declared = Object.fromEntries(columns.flatMap((c, i) => {
    const back = toSqlType(types[i]!);
    return back.oid === c.type.oid && back.typmod === c.type.typmod ? [] : [[columnTypeProperty(i + 1), `${c.type.oid}:${c.type.typmod}:${JSON.stringify(icebergTypeJson(types[i]!))}`]];
  }));
  const partitionFields = partitionFieldsFromOption(partitioning, columns.map((c, i) => ({ id: i + 1, name: c.name, type: types[i]! })));
  const defaults = Object.fromEntries(columns.flatMap((c, i) => (c.defaultExpr === undefined ? [] : [[columnDefaultProperty(i + 1), c.defaultExpr]])));
  return {
    'format-version': formatVersion,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 0,
    'last-updated-ms': nowMs,
    'last-column-id': lastId,
    'current-schema-id': 0,
    schemas: [{ type: 'struct', 'schema-id': 0, fields, ...(primaryKey.length === 0 ? {} : { 'identifier-field-ids': primaryKey.map((i) => i + 1) }) }],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: partitionFields }],
    'last-partition-id': 999 + partitionFields.length,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: { ...DEFAULT_TABLE_PROPERTIES, ...declared, ...defaults },
    'current-snapshot-id': -1,
    refs: {},
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    ...(formatVersion >= 3 ? { 'next-row-id': 0 } : {}),
  };
}
