/**
 * Purging a dropped table's files (Iceberg Java's CatalogUtil.dropTableData): every file the table's
 * metadata reaches — data and delete files of every manifest of every snapshot (DELETED entries too: their
 * files were the table's), the manifests, the manifest lists, statistics files, and every metadata file in
 * the metadata-log plus the current one. Called after the catalog pointer is gone, so readers never see a
 * half-deleted table; deletion is best effort (a file that is already gone or fails is skipped, as Java does).
 * Files the metadata never referenced (orphans of failed commits) are not touched.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IcebergIO } from '../io.ts';
import { manifestsOfSnapshot } from '../scan/table-scan.ts';
import { readManifest } from '../spec/manifest.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';

/** every file path the table's metadata references, the metadata files last */
export async function reachableFiles(io: IcebergIO, md: TableMetadata, metadataLocation: string): Promise<string[]> {
  const content = new Set<string>();
  const manifests = new Set<string>();
  const lists = new Set<string>();
  for (const snap of md.snapshots) {
    if (snap.manifestList !== null) lists.add(snap.manifestList);
    for (const mf of await manifestsOfSnapshot(io, md, snap)) {
      if (manifests.has(mf.manifestPath)) continue;
      manifests.add(mf.manifestPath);
      try {
        for (const e of (await readManifest(io, mf, true)).entries) content.add(e.dataFile.filePath);
      } catch {
        // an unreadable manifest: still delete it and everything else
      }
    }
  }
  const raw = md.raw as Record<string, unknown>;
  const stats = [...((raw['statistics'] as { 'statistics-path'?: string }[] | undefined) ?? []), ...((raw['partition-statistics'] as { 'statistics-path'?: string }[] | undefined) ?? [])]
    .map((s) => s['statistics-path']).filter((p): p is string => typeof p === 'string');
  const metadata = [...md.metadataLog.map((e) => e.metadataFile), metadataLocation];
  return [...content, ...manifests, ...lists, ...stats, ...new Set(metadata)];
}

/** deletes the files of a table whose catalog entry was dropped; returns how many were deleted */
export async function purgeTableFiles(io: IcebergWriteIO, md: TableMetadata, metadataLocation: string): Promise<number> {
  const del = io.delete;
  if (del === undefined) throw pgError(SqlState.feature_not_supported, 'this file store cannot delete files: purge is not supported');
  const files = await reachableFiles(io, md, metadataLocation);
  let deleted = 0;
  const CONCURRENCY = 8;
  for (let i = 0; i < files.length; i += CONCURRENCY) {
    const results = await Promise.allSettled(files.slice(i, i + CONCURRENCY).map((f) => del.call(io, f)));
    deleted += results.filter((r) => r.status === 'fulfilled').length;
  }
  return deleted;
}
