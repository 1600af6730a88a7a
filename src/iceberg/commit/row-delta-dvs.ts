/**
 * The v3 half of a row delta (§ Deletion Vectors; writers must not add position delete files to v3 tables):
 * the rows an UPDATE / DELETE removes from each partly-deleted data file become one deletion vector per data
 * file, merged with whatever already deleted rows of that file (its current DV, or the v2 position delete
 * files of an upgraded table), so the new DV is complete and supersedes them. All DVs of the statement go
 * into one Puffin file in the table's data folder (puffin/deletion-vector-file.ts) and one delete manifest
 * per partition spec (file_format PUFFIN, content 1, referenced_data_file, content_offset,
 * content_size_in_bytes, record_count = cardinality). The replaced DVs are returned so the commit removes
 * their entries (at most one DV per data file).
 */
import { randomUUID } from 'node:crypto';
import type { DeleteLoader } from '../read/delete-loader.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { DataFile } from '../spec/manifest.ts';
import type { Schema } from '../spec/schema.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { writeDeletionVectorFile } from '../puffin/deletion-vector-file.ts';
import { writeManifestEntries } from '../write/manifest-writer.ts';
import { fieldSummaries, partitionRecord, type ManifestPartitioning } from '../write/partition-avro.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import type { AddedManifest } from './row-delta-commit.ts';
import { dataLocation } from './table-writer.ts';

/** one partly-deleted data file of the statement */
export interface DeletedRows {
  readonly task: FileScanTask;
  readonly partitioning: ManifestPartitioning;
  readonly tuple: readonly unknown[];
  /** positions the statement deletes */
  readonly positions: readonly bigint[];
}

export interface WrittenDvs {
  readonly manifests: AddedManifest[];
  /** DVs replaced by the new ones (their manifest entries are to be removed) */
  readonly replaced: DataFile[];
  /** the Puffin file written (removed again when the commit fails before its swap) */
  readonly file: string;
}

/** the deletion vector a scan task applies, if any (planScan makes it the task's only position delete) */
export function currentDv(task: FileScanTask): DataFile | null {
  const d = task.positionDeletes[0]?.file;
  return d !== undefined && d.fileFormat === 'PUFFIN' ? d : null;
}

export async function writeDeletionVectors(
  io: IcebergWriteIO, md: TableMetadata, schema: Schema, deletes: DeleteLoader, files: readonly DeletedRows[], metadataDir: string,
  bump: (summaryKey: string, v: bigint) => void,
): Promise<WrittenDvs> {
  const vectors = new Map<string, number[]>();
  const replaced: DataFile[] = [];
  for (const f of files) {
    const path = f.task.file.filePath;
    const positions = f.positions.map(Number);
    for (const d of f.task.positionDeletes) positions.push(...(await deletes.positionsFor(d.file, path)));
    const old = currentDv(f.task);
    if (old !== null) replaced.push(old);
    vectors.set(path, positions);
  }
  const puffin = writeDeletionVectorFile(vectors);
  const puffinPath = `${dataLocation(md)}/${randomUUID()}-deletes.puffin`;
  await io.write(puffinPath, puffin.bytes);
  const bySpec = new Map<number, { partitioning: ManifestPartitioning; records: Record<string, unknown>[]; tuples: (readonly unknown[])[]; rows: bigint }>();
  files.forEach((f, i) => {
    const v = puffin.vectors[i]!;
    let s = bySpec.get(f.partitioning.specId);
    if (s === undefined) bySpec.set(f.partitioning.specId, (s = { partitioning: f.partitioning, records: [], tuples: [], rows: 0n }));
    s.records.push({
      content: 1, file_path: puffinPath, file_format: 'PUFFIN', partition: partitionRecord(f.partitioning, f.tuple),
      record_count: BigInt(v.cardinality), file_size_in_bytes: BigInt(puffin.bytes.byteLength),
      column_sizes: null, value_counts: null, null_value_counts: null, nan_value_counts: null, lower_bounds: null, upper_bounds: null,
      key_metadata: null, split_offsets: null, equality_ids: null, sort_order_id: null, referenced_data_file: v.referencedDataFile,
      first_row_id: null, content_offset: BigInt(v.contentOffset), content_size_in_bytes: BigInt(v.contentSizeInBytes),
    });
    s.tuples.push(f.tuple);
    s.rows += BigInt(v.cardinality);
    bump('added-dvs', 1n); bump('added-delete-files', 1n); bump('added-position-deletes', BigInt(v.cardinality));
    // Java counts a DV's size as its blob's (ScanTaskUtil.contentSizeInBytes)
    bump('added-files-size', BigInt(v.contentSizeInBytes));
  });
  const manifests: AddedManifest[] = [];
  for (const [specId, s] of bySpec) {
    const bytes = writeManifestEntries(schema, s.partitioning, 'deletes', s.records.map((dataFile) => ({
      status: 1, snapshotId: null, sequenceNumber: null, fileSequenceNumber: null, dataFile,
    })), md.formatVersion);
    const path = `${metadataDir}/${randomUUID()}-m0.avro`;
    await io.write(path, bytes);
    manifests.push({
      path, length: BigInt(bytes.byteLength), specId, content: 1, filesCount: s.records.length, rowsCount: s.rows,
      partitions: fieldSummaries(s.partitioning, s.tuples),
    });
  }
  return { manifests, replaced, file: puffinPath };
}
