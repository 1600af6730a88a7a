/**
 * Manifest lists (§ Manifest Lists): one `manifest_file` record per manifest of a snapshot, read by field id.
 * v1 lists have no content/sequence-number columns: content = data, sequence numbers = 0.
 */
import { pgError } from '../../common/errors.ts';
import type { IcebergIO } from '../io.ts';
import { FieldsById, readAvroFile, nonNull } from './avro-file.ts';
import { fileReadError } from '../read-errors.ts';

export const ManifestContent = { data: 0, deletes: 1 } as const;

export interface FieldSummary {
  readonly containsNull: boolean;
  readonly containsNan: boolean | null;
  /** single-value binary serialization of the partition field's result type */
  readonly lowerBound: Uint8Array | null;
  readonly upperBound: Uint8Array | null;
}

export interface ManifestFile {
  readonly manifestPath: string;
  readonly manifestLength: bigint;
  readonly partitionSpecId: number;
  readonly content: number;
  readonly sequenceNumber: bigint;
  readonly minSequenceNumber: bigint;
  /** null only for synthesized entries of v1 snapshots that list manifests inline */
  readonly addedSnapshotId: bigint | null;
  readonly addedFilesCount: number | null;
  readonly existingFilesCount: number | null;
  readonly deletedFilesCount: number | null;
  readonly addedRowsCount: bigint | null;
  readonly existingRowsCount: bigint | null;
  readonly deletedRowsCount: bigint | null;
  readonly partitions: readonly FieldSummary[] | null;
  readonly keyMetadata: Uint8Array | null;
  readonly firstRowId: bigint | null;
}

const ID = {
  manifest_path: 500, manifest_length: 501, partition_spec_id: 502, content: 517, sequence_number: 515,
  min_sequence_number: 516, added_snapshot_id: 503, added_files_count: 504, existing_files_count: 505,
  deleted_files_count: 506, added_rows_count: 512, existing_rows_count: 513, deleted_rows_count: 514,
  partitions: 507, contains_null: 509, contains_nan: 518, lower_bound: 510, upper_bound: 511,
  key_metadata: 519, first_row_id: 520,
} as const;

const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(v as bigint));
const bytesOrNull = (v: unknown): Uint8Array | null => (v instanceof Uint8Array ? Uint8Array.from(v) : null);

export function parseManifestList(bytes: Uint8Array, uri = 'manifest list'): ManifestFile[] {
  const file = readAvroFile(bytes, uri);
  const f = new FieldsById(file.schema);
  if (!f.has(ID.manifest_path)) throw pgError('XX000', `${uri} is not an Iceberg manifest list (no field id 500)`);
  // partitions: list<field_summary>; the element record has its own field ids
  const partsSchema = f.schemaOf(ID.partitions);
  const arr = partsSchema ? (nonNull(partsSchema.type) as { items?: unknown }) : undefined;
  const s = arr?.items === undefined ? null : new FieldsById(arr.items);
  return file.records.map((r): ManifestFile => {
    const parts = f.get(r, ID.partitions);
    return {
      manifestPath: String(f.get(r, ID.manifest_path)),
      manifestLength: BigInt(f.get(r, ID.manifest_length) as bigint),
      partitionSpecId: Number(f.get(r, ID.partition_spec_id) ?? 0),
      content: Number(f.get(r, ID.content) ?? 0),
      sequenceNumber: bigOrNull(f.get(r, ID.sequence_number)) ?? 0n,
      minSequenceNumber: bigOrNull(f.get(r, ID.min_sequence_number)) ?? 0n,
      addedSnapshotId: bigOrNull(f.get(r, ID.added_snapshot_id)),
      addedFilesCount: numOrNull(f.get(r, ID.added_files_count)),
      existingFilesCount: numOrNull(f.get(r, ID.existing_files_count)),
      deletedFilesCount: numOrNull(f.get(r, ID.deleted_files_count)),
      addedRowsCount: bigOrNull(f.get(r, ID.added_rows_count)),
      existingRowsCount: bigOrNull(f.get(r, ID.existing_rows_count)),
      deletedRowsCount: bigOrNull(f.get(r, ID.deleted_rows_count)),
      partitions: !Array.isArray(parts) || s === null ? null : parts.map((p: Record<string, unknown>) => ({
        containsNull: Boolean(s.get(p, ID.contains_null)),
        containsNan: s.has(ID.contains_nan) ? ((s.get(p, ID.contains_nan) as boolean | null) ?? null) : null,
        lowerBound: bytesOrNull(s.get(p, ID.lower_bound)),
        upperBound: bytesOrNull(s.get(p, ID.upper_bound)),
      })),
      keyMetadata: bytesOrNull(f.get(r, ID.key_metadata)),
      firstRowId: bigOrNull(f.get(r, ID.first_row_id)),
    };
  });
}

/** A missing file is 58030 (from IcebergIO); undecodable content is XX001 naming the file. */
export async function readManifestList(io: IcebergIO, uri: string): Promise<ManifestFile[]> {
  const bytes = await io.read(uri);
  try {
    return parseManifestList(bytes, uri);
  } catch (e) {
    throw fileReadError('manifest list', uri, e);
  }
}
