/**
 * Which data files `CALL system.rewrite_data_files` compacts (the planning half of Iceberg's
 * RewriteDataFiles / SizeBasedFileRewriter, bin-packing per partition). A file is a candidate when it is
 *   - a data file of the table's current default spec (files of older specs stay as they are),
 *   - without any delete file that may apply to it (position deletes, deletion vectors, equality deletes):
 *     such files are skipped, not rewritten, so no delete is lost and no deleted row comes back,
 *   - smaller than MIN_FILE_RATIO × the target size (Iceberg's min-file-size-bytes default, 75 %).
 * A partition's candidates are rewritten together when there are at least `minInputFiles` of them (Iceberg's
 * min-input-files is 5; lakegate's default is 2: two small files in one partition are already the mess this
 * removes). The output files reach the target size, so a second run finds at most one small file per partition
 * (the remainder) and rewrites nothing: the procedure converges.
 */
import { DataFileContent, type DataFile } from '../spec/manifest.ts';
import { partitionKey, type FileScanTask } from '../scan/table-scan.ts';

/** files at or above this share of the target size are left alone (Iceberg: min-file-size-bytes = 75 % of target) */
export const MIN_FILE_RATIO = 0.75;

/** candidates a partition needs before it is rewritten */
export const DEFAULT_MIN_INPUT_FILES = 2;

export interface RewriteGroup {
  /** partitionKey of the files (spec id + partition tuple) */
  readonly key: string;
  readonly tasks: readonly FileScanTask[];
  readonly bytes: bigint;
  readonly records: bigint;
}

export interface RewritePlan {
  readonly groups: readonly RewriteGroup[];
  /** data files not rewritten because a delete file may apply to them */
  readonly skippedWithDeletes: number;
  /** data files not rewritten because they belong to an older partition spec */
  readonly skippedOtherSpec: number;
}

export interface RewritePlanOptions {
  readonly defaultSpecId: number;
  /** target data file size in bytes (files of at least MIN_FILE_RATIO of it are not candidates) */
  readonly targetFileSizeBytes: number;
  readonly minInputFiles?: number;
}

export function planRewrite(tasks: readonly FileScanTask[], o: RewritePlanOptions): RewritePlan {
  const small = BigInt(Math.floor(o.targetFileSizeBytes * MIN_FILE_RATIO));
  const minInput = Math.max(2, o.minInputFiles ?? DEFAULT_MIN_INPUT_FILES);
  let skippedWithDeletes = 0;
  let skippedOtherSpec = 0;
  const byPartition = new Map<string, FileScanTask[]>();
  for (const t of tasks) {
    const f: DataFile = t.file;
    if (f.content !== DataFileContent.DATA) continue;
    if (f.specId !== o.defaultSpecId) {
      skippedOtherSpec++;
      continue;
    }
    if (t.positionDeletes.length > 0 || t.equalityDeletes.length > 0) {
      skippedWithDeletes++;
      continue;
    }
    if (f.fileSizeInBytes >= small) continue;
    const key = partitionKey(f);
    let g = byPartition.get(key);
    if (g === undefined) byPartition.set(key, (g = []));
    g.push(t);
  }
  const groups: RewriteGroup[] = [];
  for (const [key, ts] of byPartition) {
    if (ts.length < minInput) continue;
    // oldest data first, so rows keep roughly the order they were written in
    const sorted = [...ts].sort((a, b) => (a.dataSequenceNumber < b.dataSequenceNumber ? -1 : a.dataSequenceNumber > b.dataSequenceNumber ? 1 : 0));
    groups.push({
      key, tasks: sorted,
      bytes: sorted.reduce((s, t) => s + t.file.fileSizeInBytes, 0n),
      records: sorted.reduce((s, t) => s + t.file.recordCount, 0n),
    });
  }
  groups.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { groups, skippedWithDeletes, skippedOtherSpec };
}
