/**
 * `CALL system.rewrite_data_files(table => 'schema.table')` (Iceberg's RewriteDataFiles action, bin-pack
 * strategy): the small data files of each partition (rewrite-plan.ts) are read and written again as files of
 * the target size — one streaming multi-row-group file per partition until the target (streaming-data-writer.ts)
 * — and swapped in by ONE atomic commit: a `replace` snapshot that adds the new files and marks the old ones
 * DELETED (row-delta-commit.ts, which also fails with 40001 if a concurrent commit removed one of them or added a
 * delete file that may apply to one). The table's rows and answers do not change.
 *
 * The target size is the table's write.target-file-size-bytes, else `targetFileSizeBytes`, else 48 MiB, and here
 * counts Parquet bytes (Iceberg's meaning), whereas regular writes roll at Arrow bytes, so compacted files come out
 * larger than freshly written ones. Files with delete files are skipped (not rewritten); v3 tables are refused
 * (a rewrite must carry row lineage `_row_id`s, not implemented).
 */
import { randomUUID } from 'node:crypto';
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { newSnapshotId, metadataDir } from '../commit/append-commit.ts';
import { commitRowDelta, type AddedManifest } from '../commit/row-delta-commit.ts';
import { dataLocation } from '../commit/table-writer.ts';
import { DeleteLoader } from '../read/delete-loader.ts';
import { readFileScanTask } from '../read/file-scan-task-reader.ts';
import { planScan } from '../scan/table-scan.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';
import type { DataFile } from '../spec/manifest.ts';
import { currentSchema, findSnapshot, specById, type TableMetadata } from '../spec/table-metadata.ts';
import { TARGET_FILE_SIZE_PROPERTY } from '../table-properties.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import { writeDataManifest } from '../write/manifest-writer.ts';
import { DEFAULT_TARGET_FILE_SIZE, type DataFileInfo } from '../write/parquet-data-writer.ts';
import { fieldSummaries } from '../write/partition-avro.ts';
import { PartitionedDataWriter } from '../write/partitioned-data-writer.ts';
import { StreamingDataWriter } from '../write/streaming-data-writer.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { planRewrite } from './rewrite-plan.ts';

export interface RewriteDataFilesRequest {
  readonly catalog: IcebergCatalog;
  readonly io: IcebergWriteIO;
  readonly id: TableIdentifier;
  /** the server's target when the table sets none */
  readonly targetFileSizeBytes?: number;
  readonly minInputFiles?: number;
  readonly maxRetries?: number;
}

/** Spark's result columns of rewrite_data_files, plus what was skipped */
export interface RewriteDataFilesResult {
  readonly rewrittenDataFilesCount: number;
  readonly addedDataFilesCount: number;
  readonly rewrittenBytesCount: bigint;
  readonly skippedWithDeletes: number;
  readonly skippedOtherSpec: number;
}

/** the table's target in file bytes: its property as written (not capped: nothing is buffered per file), or the fallback */
function targetOf(md: TableMetadata, fallback: number | undefined): number {
  const v = md.properties[TARGET_FILE_SIZE_PROPERTY];
  if (v !== undefined && /^\d+$/.test(v) && Number(v) > 0) return Number(v);
  return fallback ?? DEFAULT_TARGET_FILE_SIZE;
}

export async function rewriteDataFiles(req: RewriteDataFilesRequest): Promise<RewriteDataFilesResult> {
  const { catalog, io, id } = req;
  const { metadataLocation } = await catalog.loadTableLocation(id);
  const md = await loadTableMetadata(io, metadataLocation);
  if (md.formatVersion >= 3) throw notSupported('rewrite_data_files on Iceberg format version 3 tables (row lineage)');
  const none: RewriteDataFilesResult = { rewrittenDataFilesCount: 0, addedDataFilesCount: 0, rewrittenBytesCount: 0n, skippedWithDeletes: 0, skippedOtherSpec: 0 };
  const snapshot = findSnapshot(md, null);
  if (snapshot === null) return none;
  const target = targetOf(md, req.targetFileSizeBytes);
  const scan = await planScan(io, md);
  const plan = planRewrite(scan.tasks, { defaultSpecId: md.defaultSpecId, targetFileSizeBytes: target, ...(req.minInputFiles === undefined ? {} : { minInputFiles: req.minInputFiles }) });
  const skipped = { skippedWithDeletes: plan.skippedWithDeletes, skippedOtherSpec: plan.skippedOtherSpec };
  if (plan.groups.length === 0) return { ...none, ...skipped };

  const schema = currentSchema(md);
  const spec = specById(md, md.defaultSpecId);
  const partitioning = { specId: spec.specId, fields: bindPartitionSpec(spec, schema) };
  const options = { relationName: id.name, targetFileSizeBytes: target, targetCountsFileBytes: true } as const;
  const writer = partitioning.fields.length === 0
    ? new StreamingDataWriter(io, dataLocation(md), schema, options)
    : new PartitionedDataWriter(io, dataLocation(md), schema, partitioning.fields, options);
  const byId = new Map(schema.fields.map((f) => [f.id, f]));
  const deletes = new DeleteLoader(io, (fid) => byId.get(fid));
  const touched = new Map<string, DataFile>();
  let written: (DataFileInfo & { readonly partition?: readonly unknown[] })[];
  try {
    for (const g of plan.groups) {
      for (const task of g.tasks) {
        let rows = 0n;
        for await (const b of readFileScanTask(io, task, schema.fields, deletes)) {
          rows += BigInt(b.length);
          await writer.add(b);
        }
        // every row of the file must be carried over: a short read would lose rows in the swap
        if (rows !== task.file.recordCount) {
          throw pgError(SqlState.data_corrupted, `could not rewrite data file "${task.file.filePath}": read ${rows} rows, the manifest says ${task.file.recordCount}`);
        }
        touched.set(task.file.filePath, task.file);
      }
    }
    written = await writer.close();
  } catch (e) {
    await writer.abort();
    throw e;
  }

  const recordsIn = plan.groups.reduce((s, g) => s + g.records, 0n);
  const recordsOut = written.reduce((s, f) => s + BigInt(f.recordCount), 0n);
  const bytesOut = written.reduce((s, f) => s + BigInt(f.fileSizeInBytes), 0n);
  const removeWritten = async (): Promise<void> => {
    const del = io.delete?.bind(io);
    if (del !== undefined) await Promise.allSettled(written.map((f) => del(f.path)));
  };
  let added: AddedManifest;
  try {
    if (recordsOut !== recordsIn) throw pgError(SqlState.internal_error, `rewrite_data_files wrote ${recordsOut} rows for ${recordsIn}`);
    const bytes = writeDataManifest(schema, written, partitioning, md.formatVersion);
    const path = `${metadataDir(md)}/${randomUUID()}-m0.avro`;
    await io.write(path, bytes);
    added = {
      path, length: BigInt(bytes.byteLength), specId: spec.specId, content: 0, filesCount: written.length, rowsCount: recordsOut,
      partitions: fieldSummaries(partitioning, written.map((f) => f.partition ?? [])),
    };
  } catch (e) {
    await removeWritten();
    throw e;
  }
  // a failed commit may still have swapped the catalog pointer (an I/O error after the swap): the new files stay
  await commitRowDelta(catalog, io, id, {
    op: 'replace', snapshotId: newSnapshotId(), baseSnapshotId: snapshot.snapshotId, schema, touched, removed: new Set(touched.keys()),
    added: [added], dataSpecId: spec.specId,
    addedSummary: { 'added-data-files': BigInt(written.length), 'added-records': recordsOut, 'added-files-size': bytesOut },
    changedPartitions: new Set(plan.groups.map((g) => g.key)),
    ...(req.maxRetries === undefined ? {} : { maxRetries: req.maxRetries }),
  });
  return {
    rewrittenDataFilesCount: touched.size, addedDataFilesCount: written.length,
    rewrittenBytesCount: plan.groups.reduce((s, g) => s + g.bytes, 0n), ...skipped,
  };
}
