/**
 * Task groups (issue #4): the inverse of row-group splits. A scan of many small files — TPC-H's orders and
 * lineitem partitioned by month, 80 files of 3,700 rows each at SF 0.2 — would be one pool task per file, and
 * each task costs a round trip to a worker (request clone, wake-up, result message) whatever its size.
 * Consecutive small files are handed to one worker together (ScanTaskRequest.moreTasks), which reads them one
 * after the other; results still come back in task order, so answers without ORDER BY do not change.
 * Enough groups are kept to balance the threads; a split of a bigger file (row-group-splits.ts) stays alone.
 */
import type { FileScanTask } from '../scan/table-scan.ts';
import { isContinuationSplit } from './row-group-splits.ts';

/** files of more rows than this are a task of their own */
export const SMALL_TASK_ROWS = 65_536;
/** a group stops growing past this many rows (later first results, uneven threads) */
const MAX_GROUP_ROWS = 131_072;
/** ... or this many files */
const MAX_GROUP_FILES = 16;
/** keep at least this many groups per pool thread, so that uneven files still balance */
const GROUPS_PER_THREAD = 4;

const rowsOf = (t: FileScanTask): number => Number(t.file.recordCount);

/** whether `t` may share a pool task: a small whole file (its row groups possibly pruned), not part of a split */
function groupable(t: FileScanTask, splits: ReadonlySet<string>): boolean {
  return rowsOf(t) <= SMALL_TASK_ROWS && !isContinuationSplit(t) && !splits.has(t.file.filePath);
}

/**
 * `tasks` cut into consecutive groups to run as one pool task each (a group of one: an ordinary task). Small
 * files are grouped up to about total rows / (GROUPS_PER_THREAD × threads) rows, at most MAX_GROUP_ROWS rows and
 * MAX_GROUP_FILES files; with fewer tasks than GROUPS_PER_THREAD × threads nothing is grouped.
 */
export function groupScanTasks(tasks: readonly FileScanTask[], threads: number): FileScanTask[][] {
  const target = GROUPS_PER_THREAD * Math.max(1, threads);
  if (tasks.length <= target) return tasks.map((t) => [t]);
  // a file split by row groups appears several times: none of its pieces is grouped
  const seen = new Set<string>();
  const splits = new Set<string>();
  let total = 0;
  for (const t of tasks) {
    if (seen.has(t.file.filePath)) splits.add(t.file.filePath);
    seen.add(t.file.filePath);
    total += rowsOf(t);
  }
  const limit = Math.min(MAX_GROUP_ROWS, Math.max(1, Math.ceil(total / target)));
  const out: FileScanTask[][] = [];
  let group: FileScanTask[] = [];
  let rows = 0;
  const close = (): void => {
    if (group.length > 0) out.push(group);
    group = [];
    rows = 0;
  };
  for (const t of tasks) {
    if (!groupable(t, splits)) {
      close();
      out.push([t]);
      continue;
    }
    if (group.length > 0 && (rows + rowsOf(t) > limit || group.length >= MAX_GROUP_FILES)) close();
    group.push(t);
    rows += rowsOf(t);
  }
  close();
  return out;
}
