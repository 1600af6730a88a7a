/**
 * Writes v2 manifests (§ Manifests) and manifest lists (§ Manifest Lists) as Avro with Iceberg's field
 * ids, in the shape Iceberg Java 1.8 writes (schemas copied from ../shared/spec/avro-schemas). Added
 * entries carry null snapshot_id / sequence numbers so they inherit them from the manifest list entry
 * (§ Sequence Number Inheritance): a manifest written once is reused unchanged across commit retries.
 * Unpartitioned tables get an empty `partition` record and spec 0; partitioned ones the record of
 * partition-avro.ts. v3 tables (`formatVersion` 3) get the v3 fields: data_file first_row_id (142),
 * content_offset (144), content_size_in_bytes (145) (deletion vectors), manifest_file first_row_id (520).
 */
import type { IcebergType, Schema } from '../spec/schema.ts';
import type { ManifestFile } from '../spec/manifest-list.ts';
import type { DataFile } from '../spec/manifest.ts';
import { fromAvroValue } from '../spec/types.ts';
import type { DataFileInfo } from './parquet-data-writer.ts';
import { writeAvroFile } from './avro-writer.ts';
import { partitionRecord, partitionRecordSchema, partitionSpecHeader, type ManifestPartitioning } from './partition-avro.ts';

const opt = (name: string, type: unknown, id: number): object => ({ name, type: ['null', type], default: null, 'field-id': id });
const idMap = (name: string, id: number, k: number, v: number, valueType: string): object =>
  opt(name, { type: 'array', items: { type: 'record', name: `k${k}_v${v}`, fields: [{ name: 'key', type: 'int', 'field-id': k }, { name: 'value', type: valueType, 'field-id': v }] }, logicalType: 'map' }, id);

export const MANIFEST_ENTRY_SCHEMA = {
  type: 'record', name: 'manifest_entry', fields: [
    { name: 'status', type: 'int', 'field-id': 0 },
    opt('snapshot_id', 'long', 1), opt('sequence_number', 'long', 3), opt('file_sequence_number', 'long', 4),
    { name: 'data_file', 'field-id': 2, type: { type: 'record', name: 'r2', fields: [
      { name: 'content', type: 'int', 'field-id': 134 },
      { name: 'file_path', type: 'string', 'field-id': 100 },
      { name: 'file_format', type: 'string', 'field-id': 101 },
      { name: 'partition', type: { type: 'record', name: 'r102', fields: [] }, 'field-id': 102 },
      { name: 'record_count', type: 'long', 'field-id': 103 },
      { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
      idMap('column_sizes', 108, 117, 118, 'long'), idMap('value_counts', 109, 119, 120, 'long'),
      idMap('null_value_counts', 110, 121, 122, 'long'), idMap('nan_value_counts', 137, 138, 139, 'long'),
      idMap('lower_bounds', 125, 126, 127, 'bytes'), idMap('upper_bounds', 128, 129, 130, 'bytes'),
      opt('key_metadata', 'bytes', 131),
      opt('split_offsets', { type: 'array', items: 'long', 'element-id': 133 }, 132),
      opt('equality_ids', { type: 'array', items: 'int', 'element-id': 136 }, 135),
      opt('sort_order_id', 'int', 140),
      opt('referenced_data_file', 'string', 143),
    ] } },
  ],
};

/** v3 `data_file` fields, placed as Java's DataFile.getType orders them */
const V3_DATA_FILE_FIELDS = {
  first_row_id: opt('first_row_id', 'long', 142),
  content_offset: opt('content_offset', 'long', 144),
  content_size_in_bytes: opt('content_size_in_bytes', 'long', 145),
};

export const MANIFEST_FILE_SCHEMA = {
  type: 'record', name: 'manifest_file', fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
    opt('partitions', { type: 'array', 'element-id': 508, items: { type: 'record', name: 'r508', fields: [
      { name: 'contains_null', type: 'boolean', 'field-id': 509 },
      opt('contains_nan', 'boolean', 518), opt('lower_bound', 'bytes', 510), opt('upper_bound', 'bytes', 511),
    ] } }, 507),
    opt('key_metadata', 'bytes', 519),
  ],
};

export const MANIFEST_FILE_SCHEMA_V3 = { ...MANIFEST_FILE_SCHEMA, fields: [...MANIFEST_FILE_SCHEMA.fields, opt('first_row_id', 'long', 520)] };

/** Iceberg schema JSON (§ Appendix C) of a primitive-only schema, for the manifest header */
export function schemaJson(schema: Schema): string {
  const typeJson = (t: IcebergType): unknown => {
    if (t.kind === 'primitive') return t.name === 'decimal' ? `decimal(${t.precision}, ${t.scale})` : t.name === 'fixed' ? `fixed[${t.length}]` : t.name;
    if (t.kind === 'list') return { type: 'list', 'element-id': t.elementId, element: typeJson(t.element), 'element-required': t.elementRequired };
    if (t.kind === 'map') return { type: 'map', 'key-id': t.keyId, key: typeJson(t.key), 'value-id': t.valueId, value: typeJson(t.value), 'value-required': t.valueRequired };
    return { type: 'struct', fields: t.fields.map((f) => ({ id: f.id, name: f.name, required: f.required, type: typeJson(f.type) })) };
  };
  return JSON.stringify({ type: 'struct', 'schema-id': schema.schemaId, fields: schema.fields.map((f) => ({ id: f.id, name: f.name, required: f.required, type: typeJson(f.type) })) });
}

const kv = <V>(entries: [number, V][]): { key: number; value: V }[] => entries.map(([key, value]) => ({ key, value }));

/** MANIFEST_ENTRY_SCHEMA with the `partition` record of a partitioned spec, and the v3 fields for v3 */
function entrySchemaFor(p: ManifestPartitioning | undefined, formatVersion: number): object {
  if (p === undefined && formatVersion < 3) return MANIFEST_ENTRY_SCHEMA;
  const entry = MANIFEST_ENTRY_SCHEMA.fields[4] as { type: { fields: { name: string }[] } };
  const dataFields = entry.type.fields.flatMap((f): object[] => {
    if (f.name === 'partition') return [p === undefined ? f : { ...f, type: partitionRecordSchema(p) }];
    if (formatVersion < 3) return [f];
    if (f.name === 'sort_order_id') return [f, V3_DATA_FILE_FIELDS.first_row_id];
    if (f.name === 'referenced_data_file') return [f, V3_DATA_FILE_FIELDS.content_offset, V3_DATA_FILE_FIELDS.content_size_in_bytes];
    return [f];
  });
  const fields = MANIFEST_ENTRY_SCHEMA.fields.map((f, i) => (i === 4 ? { ...f, type: { ...entry.type, fields: dataFields } } : f));
  return { ...MANIFEST_ENTRY_SCHEMA, fields };
}

/** the Avro `data_file` record of a file this writer wrote (content 0 data, 1 position deletes) */
export function newFileRecord(
  f: DataFileInfo & { readonly partition?: readonly unknown[] },
  partitioning: ManifestPartitioning | undefined,
  content = 0,
  referencedDataFile: string | null = null,
): Record<string, unknown> {
  const lower: [number, Buffer][] = [];
  const upper: [number, Buffer][] = [];
  // nested columns are counted per leaf field id (column-metrics.ts)
  const metrics = f.metrics.flatMap((m) => m.written());
  for (const m of metrics) {
    const lo = m.lowerBound();
    const hi = m.upperBound();
    if (lo !== null) lower.push([m.fieldId, Buffer.from(lo)]);
    if (hi !== null) upper.push([m.fieldId, Buffer.from(hi)]);
  }
  const floating = metrics.filter((m) => m.type.name === 'float' || m.type.name === 'double');
  const counted = metrics;
  return {
    content, file_path: f.path, file_format: 'PARQUET', partition: partitioning === undefined ? {} : partitionRecord(partitioning, f.partition ?? []),
    record_count: BigInt(f.recordCount), file_size_in_bytes: BigInt(f.fileSizeInBytes),
    column_sizes: null,
    value_counts: kv(counted.map((m) => [m.fieldId, BigInt(m.valueCount)])),
    null_value_counts: kv(counted.map((m) => [m.fieldId, BigInt(m.nullCount)])),
    nan_value_counts: kv(floating.map((m) => [m.fieldId, BigInt(m.nanCount)])),
    lower_bounds: kv(lower), upper_bounds: kv(upper),
    key_metadata: null, split_offsets: null, equality_ids: null, sort_order_id: content === 0 ? 0 : null, referenced_data_file: referencedDataFile,
    first_row_id: null, content_offset: null, content_size_in_bytes: null,
  };
}

/** the partition tuple (JS values, spec order) of a file read from a manifest */
export function partitionTupleOf(f: DataFile, partitioning: ManifestPartitioning): unknown[] {
  return partitioning.fields.map((p) => fromAvroValue(p.transform.resultType, f.partition.get(p.fieldId)));
}

/**
 * the Avro `data_file` record of a file read from a manifest, for EXISTING / DELETED entries of a rewrite;
 * `firstRowId`: the file's inherited first_row_id (v3: written explicitly, § First Row ID Inheritance)
 */
export function existingFileRecord(f: DataFile, partitioning: ManifestPartitioning | undefined, firstRowId: bigint | null = f.firstRowId): Record<string, unknown> {
  const big = (m: ReadonlyMap<number, bigint>): { key: number; value: bigint }[] => kv([...m]);
  const bytes = (m: ReadonlyMap<number, Uint8Array>): { key: number; value: Buffer }[] => kv([...m].map(([k, v]): [number, Buffer] => [k, Buffer.from(v)]));
  return {
    content: f.content, file_path: f.filePath, file_format: f.fileFormat,
    partition: partitioning === undefined ? {} : partitionRecord(partitioning, partitionTupleOf(f, partitioning)),
    record_count: f.recordCount, file_size_in_bytes: f.fileSizeInBytes,
    column_sizes: f.columnSizes.size === 0 ? null : big(f.columnSizes),
    value_counts: big(f.valueCounts), null_value_counts: big(f.nullValueCounts), nan_value_counts: big(f.nanValueCounts),
    lower_bounds: bytes(f.lowerBounds), upper_bounds: bytes(f.upperBounds),
    key_metadata: f.keyMetadata === null ? null : Buffer.from(f.keyMetadata),
    split_offsets: f.splitOffsets === null ? null : [...f.splitOffsets],
    equality_ids: f.equalityIds === null ? null : [...f.equalityIds],
    sort_order_id: f.sortOrderId, referenced_data_file: f.referencedDataFile,
    first_row_id: firstRowId, content_offset: f.contentOffset, content_size_in_bytes: f.contentSizeInBytes,
  };
}

/** one manifest entry: explicit snapshot id / sequence numbers, or null ones inherited (ADDED only) */
export interface ManifestEntryRecord {
  readonly status: 0 | 1 | 2;
  readonly snapshotId: bigint | null;
  readonly sequenceNumber: bigint | null;
  readonly fileSequenceNumber: bigint | null;
  readonly dataFile: Record<string, unknown>;
}

/** a v2 (or v3) manifest of one spec holding data files (`content` data) or delete files (`content` deletes) */
export function writeManifestEntries(schema: Schema, partitioning: ManifestPartitioning | undefined, content: 'data' | 'deletes', entries: readonly ManifestEntryRecord[], formatVersion = 2): Uint8Array {
  const records = entries.map((e) => ({
    status: e.status, snapshot_id: e.snapshotId, sequence_number: e.sequenceNumber, file_sequence_number: e.fileSequenceNumber, data_file: e.dataFile,
  }));
  return writeAvroFile(entrySchemaFor(partitioning, formatVersion), {
    schema: schemaJson(schema), 'schema-id': String(schema.schemaId),
    'partition-spec': partitioning === undefined ? '[]' : partitionSpecHeader(partitioning),
    'partition-spec-id': String(partitioning?.specId ?? 0),
    'format-version': String(Math.max(2, formatVersion)), content,
  }, records);
}

/**
 * one manifest of ADDED data files (status 1, inherited snapshot id and sequence numbers); with
 * `partitioning`, each file's `partition` (its tuple, spec order) fills the partition record
 */
export function writeDataManifest(schema: Schema, files: readonly (DataFileInfo & { readonly partition?: readonly unknown[] })[], partitioning?: ManifestPartitioning, formatVersion = 2): Uint8Array {
  return writeManifestEntries(schema, partitioning, 'data', files.map((f) => ({
    status: 1, snapshotId: null, sequenceNumber: null, fileSequenceNumber: null, dataFile: newFileRecord(f, partitioning),
  })), formatVersion);
}

const buf = (b: Uint8Array | null): Buffer | null => (b === null ? null : Buffer.from(b));

/** v3 (`firstRowId` non-null: the snapshot's first-row-id): manifest_file first_row_id and the v3 header */
export function writeManifestList(manifests: readonly ManifestFile[], snapshotId: bigint, parentId: bigint | null, sequenceNumber: bigint, firstRowId: bigint | null = null): Uint8Array {
  const records = manifests.map((m) => ({
    manifest_path: m.manifestPath, manifest_length: m.manifestLength, partition_spec_id: m.partitionSpecId, content: m.content,
    sequence_number: m.sequenceNumber, min_sequence_number: m.minSequenceNumber, added_snapshot_id: m.addedSnapshotId ?? 0n,
    added_files_count: m.addedFilesCount ?? 0, existing_files_count: m.existingFilesCount ?? 0, deleted_files_count: m.deletedFilesCount ?? 0,
    added_rows_count: m.addedRowsCount ?? 0n, existing_rows_count: m.existingRowsCount ?? 0n, deleted_rows_count: m.deletedRowsCount ?? 0n,
    partitions: m.partitions === null ? null : m.partitions.map((p) => ({
      contains_null: p.containsNull, contains_nan: p.containsNan, lower_bound: buf(p.lowerBound), upper_bound: buf(p.upperBound),
    })),
    key_metadata: buf(m.keyMetadata),
    first_row_id: m.firstRowId,
  }));
  const v3 = firstRowId !== null;
  return writeAvroFile(v3 ? MANIFEST_FILE_SCHEMA_V3 : MANIFEST_FILE_SCHEMA, {
    'snapshot-id': String(snapshotId), ...(parentId === null ? {} : { 'parent-snapshot-id': String(parentId) }),
    'sequence-number': String(sequenceNumber), ...(v3 ? { 'first-row-id': String(firstRowId) } : {}), 'format-version': v3 ? '3' : '2',
  }, records);
}
