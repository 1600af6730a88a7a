/**
 * TRUNCATE of an Iceberg table: one snapshot (operation `delete`) that drops every live data and delete file
 * of the current snapshot, metadata only — no data file is read, as Iceberg Java's
 * `DeleteFiles.deleteFromRowFilter(alwaysTrue())` (what Spark's and Trino's TRUNCATE TABLE commit). The
 * manifests are rewritten with those entries DELETED, so `t$files` history, incremental readers and
 * expire-snapshots see what went; the data stays readable by time travel to earlier snapshots.
 * Through commitRowDelta: a concurrent commit that removed one of these files or added deletes for them is
 * 40001; rows appended concurrently after the snapshot this statement read stay (TRUNCATE ran first).
 */
import { readManifestList } from '../spec/manifest-list.ts';
import { DataFileContent, readManifest, type DataFile } from '../spec/manifest.ts';
import { partitionKey } from '../scan/table-scan.ts';
import { newSnapshotId } from './append-commit.ts';
import { commitRowDelta, dvKey } from './row-delta-commit.ts';
import type { RowDeltaTable } from './row-delta.ts';
import type { IcebergTableWriter } from './table-writer.ts';

/** false when the table had nothing to remove (no snapshot is written then, as PostgreSQL writes nothing) */
export async function truncateIcebergTable(writer: IcebergTableWriter, table: RowDeltaTable): Promise<boolean> {
  const snapshot = table.snapshot;
  if (snapshot === null || snapshot.manifestList === null) return false;
  const dataFiles = new Map<string, DataFile>();
  const deleteFiles = new Map<string, DataFile>();
  const partitions = new Set<string>();
  for (const mf of await readManifestList(table.io, snapshot.manifestList)) {
    for (const e of (await readManifest(table.io, mf)).entries) {
      const f = e.dataFile;
      partitions.add(partitionKey(f));
      if (f.content === DataFileContent.DATA) dataFiles.set(f.filePath, f);
      else deleteFiles.set(dvKey(f), f);
    }
  }
  if (dataFiles.size === 0 && deleteFiles.size === 0) return false;
  await commitRowDelta(writer.catalog, writer.io, writer.id, {
    op: 'delete', snapshotId: newSnapshotId(), baseSnapshotId: snapshot.snapshotId, schema: table.schema,
    touched: dataFiles, removed: new Set(dataFiles.keys()), removedDeletes: deleteFiles, added: [],
    dataSpecId: null, addedSummary: {}, changedPartitions: partitions,
    ...(writer.maxRetries === undefined ? {} : { maxRetries: writer.maxRetries }),
  });
  await writer.afterCommit?.();
  return true;
}
