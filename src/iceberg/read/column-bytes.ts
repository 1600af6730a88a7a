/**
 * The decoded size of a scan's columns in one data file, for the scan pool's choice (parallel/scan-pool.ts
 * ScanPool.worth): the manifest's column_sizes when the writer recorded them, else the Parquet footer's
 * total_uncompressed_size of the column chunks (ColumnMetaData field 6) of the row groups the task reads.
 * lakegate's own writer records no column_sizes, so its files are measured by their footers (already read and
 * cached for row-group pruning and splits; an uncached footer counts as unknown, 0).
 */
import type { FileScanTask } from '../scan/table-scan.ts';
import { asNumber, cachedParquetFooter } from './parquet-footer.ts';

/** bytes of the columns `ids` (all when undefined) in `task`'s file, or 0 when neither source knows */
export function columnBytes(task: FileScanTask, ids: readonly number[] | undefined): number {
  const sizes = task.file.columnSizes;
  let bytes = 0;
  if (sizes.size > 0) {
    if (ids === undefined) for (const n of sizes.values()) bytes += Number(n);
    else for (const id of ids) bytes += Number(sizes.get(id) ?? 0n);
    return bytes;
  }
  const footer = cachedParquetFooter(task.file.filePath, Number(task.file.fileSizeInBytes));
  if (footer === undefined) return 0;
  const leaves = ids === undefined ? [...footer.leafByFieldId.values()] : ids.flatMap((id) => footer.leafByFieldId.get(id) ?? []);
  const groups = task.rowGroups ?? footer.rowGroups.map((_g, i) => i);
  for (const rg of groups) {
    const cols = footer.rowGroups[rg]?.columns;
    if (cols === undefined) continue;
    for (const leaf of leaves) bytes += asNumber(cols[leaf.index]?.get(6)) ?? 0;
  }
  return bytes;
}
