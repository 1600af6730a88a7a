/**
 * Row-group splits (issue #4): a scan of few files gives the pool too few tasks to keep every thread busy,
 * so a big file becomes several tasks of about the same number of rows: runs of consecutive row groups
 * (FileScanTask.rowGroups, the planner's pruning field) and pieces of one big row group by row range
 * (FileScanTask.rowRange). Splits of one file stay consecutive and in row order, so rows come back in the
 * same order as a whole-file read.
 * Position deletes stay correct: the reader counts the row positions of the row groups it skips.
 */
import type { IcebergIO } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import { readParquetFooter } from '../read/parquet-footer.ts';
import { ROWS_PER_BATCH } from '../read/row-group-decode.ts';

/** aim for this many tasks per pool thread when splitting (uneven row groups still balance) */
const TASKS_PER_THREAD = 4;
/** files of fewer rows are not worth a footer read (or a task) per row group */
const MIN_SPLIT_ROWS = 65_536;
/**
 * a row group is cut at multiples of this many rows: whole batches (no batch decoded by two workers), and whole
 * pages of lakegate's writer, which starts a page every 16,384 rows (8,192 for wide strings) — a cut elsewhere has
 * the pieces on both sides fetch and decode the page across it (SF 1 customer cut at 24,576: 24 MB read, not 13)
 */
const CUT_ROWS = 2 * ROWS_PER_BATCH;
/** pieces are not cut smaller than this (each costs a pool round trip and its row group's footer and chunk reads) */
const MIN_PIECE_ROWS = CUT_ROWS;

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
 * `task` (reading row groups `groups` of a file whose row groups hold `rgRows` rows) cut into pieces of about
 * `pieceRows` rows: consecutive small row groups together, a row group of more than 1.5 pieces cut by row range
 * (FileScanTask.rowRange) at multiples of CUT_ROWS from its start (a page-selective reader then fetches and
 * decodes only the pages of its range: read/page-window.ts). TPC-H SF 1's customer is one file
 * of 131,072 + 18,928 rows: two tasks by row group left one thread 87 % of the work.
 */
export function splitByRows(task: FileScanTask, groups: readonly number[], rgRows: readonly number[], pieceRows: number): FileScanTask[] {
  const starts: number[] = [];
  for (let i = 0, at = 0; i < rgRows.length; at += rgRows[i]!, i++) starts.push(at);
  const pieces: FileScanTask[] = [];
  const push = (t: FileScanTask): void => {
    if (pieces.length > 0) continuations.add(t);
    pieces.push(t);
  };
  let run: number[] = [];
  let runRows = 0;
  const flush = (): void => {
    if (run.length > 0) push({ ...task, rowGroups: run });
    run = [];
    runRows = 0;
  };
  for (const rg of groups) {
    const rows = rgRows[rg] ?? 0;
    const units = Math.ceil(rows / CUT_ROWS);
    const cuts = Math.min(units, Math.round(rows / pieceRows));
    if (rows > pieceRows * 1.5 && cuts >= 2) {
      flush();
      for (let k = 0; k < cuts; k++) {
        // whole units shared out evenly between the pieces
        const from = Math.floor((k * units) / cuts) * CUT_ROWS;
        const to = Math.min(rows, Math.floor(((k + 1) * units) / cuts) * CUT_ROWS);
        push({ ...task, rowGroups: [rg], rowRange: [starts[rg]! + from, starts[rg]! + to] });
      }
      continue;
    }
    if (run.length > 0 && runRows + rows > pieceRows) flush();
    run.push(rg);
    runRows += rows;
  }
  flush();
  return pieces.length <= 1 ? [task] : pieces;
}

/**
 * Whole tasks of these rows share out evenly enough over `threads`: the busiest thread, given each task in turn
 * from the largest to the least loaded thread, holds at most 1.5 × an even share (as splitByRows cuts a row
 * group only past 1.5 pieces). Three 75k-row months on two threads: 1.33.
 */
export function evenEnough(rows: readonly number[], threads: number): boolean {
  const load = new Array<number>(Math.max(1, threads)).fill(0);
  let total = 0;
  for (const r of [...rows].sort((a, b) => b - a)) {
    let least = 0;
    for (let k = 1; k < load.length; k++) if (load[k]! < load[least]!) least = k;
    load[least]! += r;
    total += r;
  }
  return total > 0 && Math.max(...load) <= 1.5 * (total / load.length);
}

/** splitForWorkers' options */
export interface SplitOptions {
  /**
   * leave the tasks whole when they already share out evenly (evenEnough): a piece costs its own page reads,
   * decoding at row positions and, under a partial aggregate, its own group states — TPC-H q15's three months
   * cut in six pieces took 1.4× the worker CPU of three whole files (10k supplier groups per piece)
   */
  readonly keepEven?: boolean;
}

/**
 * The tasks to hand a pool of `threads`: unchanged when there are already enough of them (or, with `keepEven`,
 * when they share out evenly), else each file of at least MIN_SPLIT_ROWS rows cut into pieces of about (rows of
 * all tasks) / (TASKS_PER_THREAD × threads) rows, at least MIN_PIECE_ROWS (splitByRows; footers read on this
 * thread, cached; a footer that cannot be read leaves its task whole, so the worker reports the error as a
 * whole-file read would).
 */
export async function splitForWorkers(io: IcebergIO, tasks: readonly FileScanTask[], threads: number, options: SplitOptions = {}): Promise<readonly FileScanTask[]> {
  const target = TASKS_PER_THREAD * threads;
  if (tasks.length >= target) return tasks;
  const layouts = await Promise.all(tasks.map(async (t): Promise<{ groups: readonly number[]; rgRows: readonly number[] } | null> => {
    if (Number(t.file.recordCount) < MIN_SPLIT_ROWS || t.rowRange !== undefined) return null;
    try {
      const footer = await readParquetFooter(io, t.file.filePath, Number(t.file.fileSizeInBytes));
      const rgRows = footer.rowGroups.map((g) => g.numRows);
      return { groups: t.rowGroups ?? rgRows.map((_r, i) => i), rgRows };
    } catch {
      return null;
    }
  }));
  let total = 0;
  const taskRows = tasks.map((t, i) => {
    const l = layouts[i];
    return l == null ? Number(t.file.recordCount) : l.groups.reduce((n, g) => n + (l.rgRows[g] ?? 0), 0);
  });
  for (const r of taskRows) total += r;
  if (options.keepEven === true && evenEnough(taskRows, threads)) return tasks;
  const pieceRows = Math.max(MIN_PIECE_ROWS, Math.ceil(total / target / CUT_ROWS) * CUT_ROWS);
  const out = tasks.flatMap((t, i) => (layouts[i] == null ? [t] : splitByRows(t, layouts[i]!.groups, layouts[i]!.rgRows, pieceRows)));
  return out.length <= tasks.length ? tasks : out;
}
