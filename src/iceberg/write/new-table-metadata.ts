/**
 * The first metadata document of a table lakegate creates: format-version 2, one schema (field ids 1..n),
 * the unpartitioned spec, the unsorted order, no snapshot. Field names, types and `required` come from
 * the CREATE TABLE column list (see iceberg-type-of.ts). The document is what `stringifyMetadata` writes.
 */
import { randomUUID } from 'node:crypto';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { icebergTypeOf, icebergTypeText } from './iceberg-type-of.ts';

export type MetadataDoc = Record<string, unknown>;

export const DEFAULT_TABLE_PROPERTIES: Readonly<Record<string, string>> = {
  'write.format.default': 'parquet',
  'write.parquet.compression-codec': 'zstd',
};

export function newTableMetadata(location: string, columns: readonly ColumnDef[], nowMs = Date.now()): MetadataDoc {
  const fields = columns.map((c, i) => ({ id: i + 1, name: c.name, required: !c.nullable, type: icebergTypeText(icebergTypeOf(c.type)) }));
  return {
    'format-version': 2,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 0,
    'last-updated-ms': nowMs,
    'last-column-id': columns.length,
    'current-schema-id': 0,
    schemas: [{ type: 'struct', 'schema-id': 0, fields }],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'last-partition-id': 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: { ...DEFAULT_TABLE_PROPERTIES },
    'current-snapshot-id': -1,
    refs: {},
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
  };
}
