/**
 * Row-group splits (issue #4): a scan of few files gives the pool too few tasks to keep every thread busy,
 * so a file of several Parquet row groups becomes several tasks of at most N consecutive row groups each
 * (FileScanTask.rowGroups, the planner's pruning field, so the reader needs nothing new). Splits of one file
 * stay consecutive and in row-group order, so rows come back in the same order as a whole-file read.
 * Position deletes stay correct: the reader counts the row positions of the row groups it skips.
 */
import type { IcebergIO } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import { readParquetFooter } from '../read/parquet-footer.ts';

/** aim for this many tasks per pool thread when splitting (uneven row groups still balance) */
const TASKS_PER_THREAD = 4;
/** files of fewer rows are not worth a footer read (or a task) per row group */
const MIN_SPLIT_ROWS = 65_536;

/** split tasks after the first of their file: their file was already counted (files scanned, row groups total) */
const continuations = new WeakSet<FileScanTask>();

export function isContinuationSplit(t: FileScanTask): boolean {
  return continuations.has(t);
}

/** Cuts `groups` into consecutive runs of at most `n`. */
export function chunkRowGroups(groups: readonly number[], n: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < groups.length; i += n) out.push(groups.slice(i, i + n));
  return out;
}

/**
 * Splits `task` into tasks of at most `n` row groups (`groups`: the row groups to read). The first split
 * is the whole file's representative for metrics; the others are marked as continuations.
 */
export function splitTask(task: FileScanTask, groups: readonly number[], n: number): FileScanTask[] {
  if (groups.length <= n) return [task];
  return chunkRowGroups(groups, n).map((rowGroups, i) => {
    const t: FileScanTask = { ...task, rowGroups };
    if (i > 0) continuations.add(t);
    return t;
  });
}

/**
 * The tasks to hand a pool of `threads`: unchanged when there are already enough of them, else each file
 * of at least MIN_SPLIT_ROWS rows split by row groups (footers read on this thread, cached; a footer that
 * cannot be read leaves its task whole, so the worker reports the error as a whole-file read would).
 */
export async function splitForWorkers(io: IcebergIO, tasks: readonly FileScanTask[], threads: number): Promise<readonly FileScanTask[]> {
  const target = TASKS_PER_THREAD * threads;
  if (tasks.length >= target) return tasks;
  const groups = await Promise.all(tasks.map(async (t): Promise<readonly number[] | null> => {
    if (t.rowGroups !== undefined) return t.rowGroups;
    if (Number(t.file.recordCount) < MIN_SPLIT_ROWS) return null;
    try {
      const footer = await readParquetFooter(io, t.file.filePath, Number(t.file.fileSizeInBytes));
      return footer.rowGroups.map((_g, i) => i);
    } catch {
      return null;
    }
  }));
  const total = groups.reduce((n, g) => n + (g?.length ?? 1), 0);
  if (total <= tasks.length) return tasks;
  const n = Math.max(1, Math.floor(total / target));
  return tasks.flatMap((t, i) => (groups[i] == null ? [t] : splitTask(t, groups[i]!, n)));
}
