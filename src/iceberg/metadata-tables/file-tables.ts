/**
 * Metadata tables read from a snapshot's manifest list and manifests, as Trino's Iceberg connector names
 * them: $manifests, $files, $entries, $partitions. Trino's row/map columns (partition, metrics, bounds,
 * partition_summaries) are jsonb here; bounds and partition values are decoded to their typed values.
 * $files lists the snapshot's live files (DELETED entries are not current files); $entries keeps them.
 */
import type { ColumnDef } from '../../catalog/table-source.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import type { IcebergIO } from '../io.ts';
import { indexById, type IcebergType, type NestedField } from '../spec/schema.ts';
import { currentSchema, specById, type Snapshot, type TableMetadata } from '../spec/table-metadata.ts';
import { partitionResultType, type PartitionSpec } from '../spec/partition-spec.ts';
import { readManifest, DataFileContent, type DataFile, type ManifestEntry } from '../spec/manifest.ts';
import { decodeSingleValue, fromAvroValue } from '../spec/types.ts';
import { manifestsOfSnapshot } from '../scan/table-scan.ts';
import { idCountMap } from './json-values.ts';
import { jsonLeaf, rawJson, toJsonb } from '../spec/json-values.ts';
import { col } from './snapshot-tables.ts';

export const MANIFESTS_COLUMNS: readonly ColumnDef[] = [
  col('path', Oid.text, false), col('length', Oid.int8, false), col('partition_spec_id', Oid.int4, false),
  col('added_snapshot_id', Oid.int8), col('added_data_files_count', Oid.int4), col('added_rows_count', Oid.int8),
  col('existing_data_files_count', Oid.int4), col('existing_rows_count', Oid.int8),
  col('deleted_data_files_count', Oid.int4), col('deleted_rows_count', Oid.int8),
  col('partition_summaries', Oid.jsonb), col('content', Oid.int4, false), col('sequence_number', Oid.int8, false),
];

/** field id → field, over every schema version (current wins), for bounds of dropped or renamed columns */
function fieldsById(md: TableMetadata): Map<number, NestedField> {
  // reserved ids of position-delete files (§ Reserved Field IDs)
  const byId = new Map<number, NestedField>([
    [2147483546, { id: 2147483546, name: 'file_path', required: true, type: { kind: 'primitive', name: 'string' } }],
    [2147483545, { id: 2147483545, name: 'pos', required: true, type: { kind: 'primitive', name: 'long' } }],
  ]);
  for (const s of md.schemas) for (const [id, f] of indexById(s)) byId.set(id, f);
  for (const [id, f] of indexById(currentSchema(md))) byId.set(id, f);
  return byId;
}

function partitionTypes(md: TableMetadata, spec: PartitionSpec): IcebergType[] {
  const schema = currentSchema(md);
  const fields = fieldsById(md);
  return spec.fields.map((f) => {
    const t = partitionResultType(f, schema);
    return t.kind === 'primitive' && t.name === 'unknown' ? fields.get(f.sourceId)?.type ?? t : t;
  });
}

export async function manifestsRows(io: IcebergIO, md: TableMetadata, snap: Snapshot | null): Promise<unknown[][]> {
  if (snap === null) return [];
  const out: unknown[][] = [];
  for (const m of await manifestsOfSnapshot(io, md, snap)) {
    const spec = md.partitionSpecs.find((s) => s.specId === m.partitionSpecId);
    const types = spec === undefined ? [] : partitionTypes(md, spec);
    const summaries = m.partitions === null ? null : toJsonb(m.partitions.map((p, i) => {
      const t = types[i];
      const decode = (b: Uint8Array | null): unknown => (b === null || t === undefined ? null : jsonLeaf(t, decodeSingleValue(t, b)));
      return { contains_null: p.containsNull, contains_nan: p.containsNan, lower_bound: decode(p.lowerBound), upper_bound: decode(p.upperBound) };
    }));
    out.push([
      m.manifestPath, m.manifestLength, m.partitionSpecId, m.addedSnapshotId,
      m.addedFilesCount, m.addedRowsCount, m.existingFilesCount, m.existingRowsCount, m.deletedFilesCount, m.deletedRowsCount,
      summaries, m.content, m.sequenceNumber,
    ]);
  }
  return out;
}

export const FILES_COLUMNS: readonly ColumnDef[] = [
  col('content', Oid.int4, false), col('file_path', Oid.text, false), col('file_format', Oid.text, false),
  col('spec_id', Oid.int4, false), col('partition', Oid.jsonb), col('record_count', Oid.int8, false),
  col('file_size_in_bytes', Oid.int8, false), col('column_sizes', Oid.jsonb), col('value_counts', Oid.jsonb),
  col('null_value_counts', Oid.jsonb), col('nan_value_counts', Oid.jsonb), col('lower_bounds', Oid.jsonb),
  col('upper_bounds', Oid.jsonb), col('key_metadata', Oid.bytea), col('split_offsets', Oid._int8),
  col('equality_ids', Oid._int4), col('sort_order_id', Oid.int4), col('referenced_data_file', Oid.text),
  // v3: deletion vector blob position in its Puffin file, row lineage
  col('content_offset', Oid.int8), col('content_size_in_bytes', Oid.int8), col('first_row_id', Oid.int8),
];

interface Decoder {
  partition(f: DataFile): string;
  bounds(m: ReadonlyMap<number, Uint8Array>): string | null;
}

function decoderFor(md: TableMetadata): Decoder {
  const fields = fieldsById(md);
  const specs = new Map<number, { spec: PartitionSpec; types: IcebergType[] }>();
  return {
    partition(f) {
      let s = specs.get(f.specId);
      if (s === undefined) {
        const spec = specById(md, f.specId);
        s = { spec, types: partitionTypes(md, spec) };
        specs.set(f.specId, s);
      }
      const obj = new Map<string, unknown>();
      s.spec.fields.forEach((pf, i) => {
        const t = s.types[i]!;
        obj.set(pf.name, jsonLeaf(t, fromAvroValue(t, f.partition.get(pf.fieldId) ?? null)));
      });
      return toJsonb(obj);
    },
    bounds(m) {
      if (m.size === 0) return null;
      const obj = new Map<string, unknown>();
      for (const [id, b] of [...m].sort((x, y) => x[0] - y[0])) {
        const t = fields.get(id)?.type;
        obj.set(String(id), t === undefined ? '\\x' + Buffer.from(b).toString('hex') : jsonLeaf(t, decodeSingleValue(t, b)));
      }
      return toJsonb(obj);
    },
  };
}

function fileRow(f: DataFile, d: Decoder): unknown[] {
  return [
    f.content, f.filePath, f.fileFormat, f.specId, d.partition(f), f.recordCount, f.fileSizeInBytes,
    idCountMap(f.columnSizes), idCountMap(f.valueCounts), idCountMap(f.nullValueCounts), idCountMap(f.nanValueCounts),
    d.bounds(f.lowerBounds), d.bounds(f.upperBounds), f.keyMetadata,
    f.splitOffsets === null ? null : pgArray(Oid.int8, f.splitOffsets),
    f.equalityIds === null ? null : pgArray(Oid.int4, f.equalityIds),
    f.sortOrderId, f.referencedDataFile, f.contentOffset, f.contentSizeInBytes, f.firstRowId,
  ];
}

async function entriesOf(io: IcebergIO, md: TableMetadata, snap: Snapshot, includeDeleted: boolean): Promise<ManifestEntry[]> {
  const out: ManifestEntry[] = [];
  for (const m of await manifestsOfSnapshot(io, md, snap)) out.push(...(await readManifest(io, m, includeDeleted)).entries);
  return out;
}

export async function filesRows(io: IcebergIO, md: TableMetadata, snap: Snapshot | null): Promise<unknown[][]> {
  if (snap === null) return [];
  const d = decoderFor(md);
  return (await entriesOf(io, md, snap, false)).map((e) => fileRow(e.dataFile, d));
}

export const ENTRIES_COLUMNS: readonly ColumnDef[] = [
  col('status', Oid.int4, false), col('snapshot_id', Oid.int8), col('sequence_number', Oid.int8),
  col('file_sequence_number', Oid.int8), col('data_file', Oid.jsonb, false),
];

/** every manifest entry of the snapshot, DELETED (status 2) ones included; data_file as jsonb */
export async function entriesRows(io: IcebergIO, md: TableMetadata, snap: Snapshot | null): Promise<unknown[][]> {
  if (snap === null) return [];
  const d = decoderFor(md);
  const names = FILES_COLUMNS.map((c) => c.name);
  return (await entriesOf(io, md, snap, true)).map((e) => {
    const row = fileRow(e.dataFile, d);
    const obj = new Map<string, unknown>();
    names.forEach((n, i) => {
      const v = row[i];
      obj.set(n, v instanceof Uint8Array ? '\\x' + Buffer.from(v).toString('hex')
        : typeof v === 'object' && v !== null && 'values' in v ? (v as { values: unknown[] }).values
        : typeof v === 'string' && FILES_COLUMNS[i]!.type.oid === Oid.jsonb ? rawJson(v)
        : v);
    });
    return [e.status, e.snapshotId, e.sequenceNumber, e.fileSequenceNumber, toJsonb(obj)];
  });
}

export const PARTITIONS_COLUMNS: readonly ColumnDef[] = [
  col('partition', Oid.jsonb, false), col('spec_id', Oid.int4, false), col('record_count', Oid.int8, false),
  col('file_count', Oid.int8, false), col('total_size', Oid.int8, false),
];

/** live data files grouped by (spec, partition tuple); delete files are not counted (as Trino) */
export async function partitionsRows(io: IcebergIO, md: TableMetadata, snap: Snapshot | null): Promise<unknown[][]> {
  if (snap === null) return [];
  const d = decoderFor(md);
  const groups = new Map<string, { partition: string; specId: number; records: bigint; files: bigint; size: bigint }>();
  for (const e of await entriesOf(io, md, snap, false)) {
    const f = e.dataFile;
    if (f.content !== DataFileContent.DATA) continue;
    const partition = d.partition(f);
    const key = `${f.specId}\u0000${partition}`;
    const g = groups.get(key) ?? { partition, specId: f.specId, records: 0n, files: 0n, size: 0n };
    g.records += f.recordCount;
    g.files += 1n;
    g.size += f.fileSizeInBytes;
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => [g.partition, g.specId, g.records, g.files, g.size]);
}
