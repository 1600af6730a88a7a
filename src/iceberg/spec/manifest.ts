/**
 * Manifests (§ Manifests): `manifest_entry` records with their `data_file`, resolved by field id.
 * Sequence-number inheritance (§ Sequence Number Inheritance): a null snapshot_id / sequence_number /
 * file_sequence_number of an ADDED entry comes from the manifest list entry; v1 manifests have seq 0.
 * First row id inheritance (v3, § First Row ID Inheritance): a data file's null first_row_id is the manifest's
 * first_row_id plus the record counts of the earlier data files of the manifest with a null one.
 */
import { pgError } from '../../common/errors.ts';
import type { IcebergIO } from '../io.ts';
import { FieldsById, readAvroFile, nonNull, type AvroFieldSchema } from './avro-file.ts';
import { fileReadError } from '../read-errors.ts';
import type { ManifestFile } from './manifest-list.ts';

export const EntryStatus = { EXISTING: 0, ADDED: 1, DELETED: 2 } as const;
export const DataFileContent = { DATA: 0, POSITION_DELETES: 1, EQUALITY_DELETES: 2 } as const;

export interface DataFile {
  readonly content: number;
  readonly filePath: string;
  readonly fileFormat: string;
  /** partition field id → raw Avro value (see spec/types.ts fromAvroValue to convert) */
  readonly partition: ReadonlyMap<number, unknown>;
  readonly specId: number;
  readonly recordCount: bigint;
  readonly fileSizeInBytes: bigint;
  readonly columnSizes: ReadonlyMap<number, bigint>;
  readonly valueCounts: ReadonlyMap<number, bigint>;
  readonly nullValueCounts: ReadonlyMap<number, bigint>;
  readonly nanValueCounts: ReadonlyMap<number, bigint>;
  /** single-value binary serialization per field id (decode with spec/types.ts decodeSingleValue) */
  readonly lowerBounds: ReadonlyMap<number, Uint8Array>;
  readonly upperBounds: ReadonlyMap<number, Uint8Array>;
  readonly keyMetadata: Uint8Array | null;
  readonly splitOffsets: readonly bigint[] | null;
  readonly equalityIds: readonly number[] | null;
  readonly sortOrderId: number | null;
  readonly referencedDataFile: string | null;
  readonly firstRowId: bigint | null;
  readonly contentOffset: bigint | null;
  readonly contentSizeInBytes: bigint | null;
}

export interface ManifestEntry {
  readonly status: number;
  readonly snapshotId: bigint | null;
  /** data sequence number (after inheritance) */
  readonly sequenceNumber: bigint;
  readonly fileSequenceNumber: bigint;
  readonly dataFile: DataFile;
}

const ID = {
  status: 0, snapshot_id: 1, sequence_number: 3, file_sequence_number: 4, data_file: 2,
  content: 134, file_path: 100, file_format: 101, partition: 102, record_count: 103, file_size_in_bytes: 104,
  column_sizes: 108, value_counts: 109, null_value_counts: 110, nan_value_counts: 137, lower_bounds: 125,
  upper_bounds: 128, key_metadata: 131, split_offsets: 132, equality_ids: 135, sort_order_id: 140,
  referenced_data_file: 143, first_row_id: 142, content_offset: 144, content_size_in_bytes: 145,
} as const;

const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(v as bigint));

/** Iceberg maps are Avro arrays of {key, value} records (logicalType map) or, from some writers, Avro maps. */
function readIdMap<V>(v: unknown, conv: (x: unknown) => V): Map<number, V> {
  const out = new Map<number, V>();
  if (Array.isArray(v)) {
    for (const kv of v as Record<string, unknown>[]) {
      const vals = Object.values(kv);
      out.set(Number(vals[0]), conv(vals[1]));
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) out.set(Number(k), conv(x));
  }
  return out;
}
const toBig = (x: unknown): bigint => BigInt(x as bigint);
const toBytes = (x: unknown): Uint8Array => Uint8Array.from(x as Uint8Array);

export interface ParsedManifest {
  readonly entries: ManifestEntry[];
  /** header `partition-spec-id` (falls back to the manifest list's) */
  readonly specId: number;
  readonly formatVersion: number;
  readonly meta: ReadonlyMap<string, string>;
}

/** `includeDeleted`: keep status=2 entries (metadata tables want them; scans skip them). */
export function parseManifest(bytes: Uint8Array, manifest: ManifestFile, uri = manifest.manifestPath, includeDeleted = false): ParsedManifest {
  const file = readAvroFile(bytes, uri);
  const e = new FieldsById(file.schema);
  const dfSchema = e.schemaOf(ID.data_file);
  if (!dfSchema || !e.has(ID.status)) throw pgError('XX000', `${uri} is not an Iceberg manifest (no field ids 0 and 2)`);
  const d = new FieldsById(dfSchema.type);
  const partSchema = d.schemaOf(ID.partition) as AvroFieldSchema | undefined;
  const p = partSchema ? new FieldsById(nonNull(partSchema.type)) : null;
  const partIds = partSchema ? ((nonNull(partSchema.type) as { fields?: AvroFieldSchema[] }).fields ?? []).map((f) => Number(f['field-id'])) : [];
  const headerSpec = file.meta.get('partition-spec-id');
  const specId = headerSpec === undefined ? manifest.partitionSpecId : Number(headerSpec);
  const formatVersion = Number(file.meta.get('format-version') ?? 1);
  const hasSeq = e.has(ID.sequence_number);

  const entries: ManifestEntry[] = [];
  let nextRowId = manifest.firstRowId;
  for (const r of file.records) {
    const status = Number(e.get(r, ID.status));
    const df = e.get(r, ID.data_file) as Record<string, unknown>;
    let firstRowId = bigOrNull(d.get(df, ID.first_row_id));
    if (firstRowId === null && nextRowId !== null && Number(d.get(df, ID.content) ?? 0) === DataFileContent.DATA) {
      firstRowId = nextRowId;
      nextRowId += BigInt(d.get(df, ID.record_count) as bigint);
    }
    if (status === EntryStatus.DELETED && !includeDeleted) continue;
    const partRec = (d.get(df, ID.partition) as Record<string, unknown> | null) ?? {};
    const partition = new Map<number, unknown>();
    for (const id of partIds) partition.set(id, p!.get(partRec, id) ?? null);
    const eq = d.get(df, ID.equality_ids);
    const split = d.get(df, ID.split_offsets);
    const dataFile: DataFile = {
      content: Number(d.get(df, ID.content) ?? 0),
      filePath: String(d.get(df, ID.file_path)),
      fileFormat: String(d.get(df, ID.file_format)).toUpperCase(),
      partition,
      specId,
      recordCount: BigInt(d.get(df, ID.record_count) as bigint),
      fileSizeInBytes: BigInt(d.get(df, ID.file_size_in_bytes) as bigint),
      columnSizes: readIdMap(d.get(df, ID.column_sizes), toBig),
      valueCounts: readIdMap(d.get(df, ID.value_counts), toBig),
      nullValueCounts: readIdMap(d.get(df, ID.null_value_counts), toBig),
      nanValueCounts: readIdMap(d.get(df, ID.nan_value_counts), toBig),
      lowerBounds: readIdMap(d.get(df, ID.lower_bounds), toBytes),
      upperBounds: readIdMap(d.get(df, ID.upper_bounds), toBytes),
      keyMetadata: d.get(df, ID.key_metadata) instanceof Uint8Array ? toBytes(d.get(df, ID.key_metadata)) : null,
      splitOffsets: Array.isArray(split) ? split.map(toBig) : null,
      equalityIds: Array.isArray(eq) ? eq.map(Number) : null,
      sortOrderId: d.get(df, ID.sort_order_id) == null ? null : Number(d.get(df, ID.sort_order_id)),
      referencedDataFile: (d.get(df, ID.referenced_data_file) as string | null | undefined) ?? null,
      firstRowId,
      contentOffset: bigOrNull(d.get(df, ID.content_offset)),
      contentSizeInBytes: bigOrNull(d.get(df, ID.content_size_in_bytes)),
    };
    // inheritance applies to ADDED entries only; others must carry explicit values
    const added = status === EntryStatus.ADDED;
    const snap = bigOrNull(e.get(r, ID.snapshot_id)) ?? (added ? manifest.addedSnapshotId : null);
    const seq = hasSeq ? (bigOrNull(e.get(r, ID.sequence_number)) ?? (added ? manifest.sequenceNumber : 0n)) : 0n;
    const fileSeq = e.has(ID.file_sequence_number)
      ? (bigOrNull(e.get(r, ID.file_sequence_number)) ?? (added ? manifest.sequenceNumber : seq))
      : seq;
    entries.push({ status, snapshotId: snap, sequenceNumber: seq, fileSequenceNumber: fileSeq, dataFile });
  }
  return { entries, specId, formatVersion, meta: file.meta };
}

/** A missing file is 58030 (from IcebergIO); undecodable content is XX001 naming the file. */
export async function readManifest(io: IcebergIO, manifest: ManifestFile, includeDeleted = false): Promise<ParsedManifest> {
  const bytes = await io.read(manifest.manifestPath);
  try {
    return parseManifest(bytes, manifest, manifest.manifestPath, includeDeleted);
  } catch (e) {
    throw fileReadError('manifest', manifest.manifestPath, e);
  }
}
