/**
 * Reads a scan's FileScanTasks on the ScanPool: one piscina task per file (consecutive small files grouped
 * into one: task-groups.ts), at most 2 × pool size outstanding (started and not yet consumed), so memory stays
 * bounded on big tables however slow the consumer. Results are yielded in task order (a window of tasks decodes ahead), which keeps answers
 * without ORDER BY the same as a main-thread scan's.
 * Cancellation (the query's signal, or the consumer stopping early) sets a shared flag every worker checks
 * between batches, so workers stop within one batch and stay warm; tasks not finished after GRACE_MS are
 * aborted through piscina, which terminates their threads. Worker errors are rethrown as the GatewayError
 * the main thread would have raised.
 */
import { randomUUID } from 'node:crypto';
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import type { ScanMetrics } from '../../catalog/table-source.ts';
import type { IcebergIO, IcebergIODescription } from '../io.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { NestedField } from '../spec/schema.ts';
import { toWireFilter } from './filter-wire.ts';
import { unpackBatch } from './column-transfer.ts';
import { describeForWorkers } from './io-from-description.ts';
import { isContinuationSplit, splitForWorkers } from './row-group-splits.ts';
import { MIN_WIDE_ROWS, sharedScanPool, type ScanPool } from './scan-pool.ts';
import { cachedParquetFooter, readParquetFooter } from '../read/parquet-footer.ts';
import { groupScanTasks } from './task-groups.ts';
import { signalCancel, type ReadMetrics, type ScanTaskRequest, type ScanTaskResult } from './scan-task.ts';
import { fromPlainError, toPlainError } from './worker-errors.ts';

/** how long canceled tasks may take to notice the flag before their threads are terminated */
const GRACE_MS = 5000;

export interface ParallelScan {
  readonly pool: ScanPool;
  readonly io: IcebergIODescription;
}

export interface ParallelScanOptions {
  readonly limit?: number;
  /** the pool to use; default the shared one (null: none) */
  readonly pool?: ScanPool | null;
  /** the field ids the scan reads (projection and filter columns), for ScanPool.worth; default all */
  readonly fieldIds?: () => Iterable<number>;
  /**
   * false: rows alone decide (ScanPool.enoughRows). A plain scan of few rows that hands back most of its wide
   * columns gains nothing from a worker: the main thread unpacks the strings it would have decoded (SF 1 customer
   * joined whole: main thread −45 % but 1.8× the CPU and wall); default true
   */
  readonly wide?: boolean;
  /** tasks that share out evenly over the threads are not cut (row-group-splits.ts SplitOptions.keepEven); default false */
  readonly keepEven?: boolean;
}

/** the field ids a scan of `fields` filtered by `filter` decodes (ParallelScanOptions.fieldIds) */
export function readFieldIds(fields: readonly NestedField[], filter: BoundPredicate): Set<number> {
  const ids = referencedFieldIds(filter);
  for (const f of fields) ids.add(f.id);
  return ids;
}

/**
 * The pool and IO description to read these tasks with, or null to read them on the main thread: no pool
 * (workers 0), fewer than two files, too little to read (ScanPool.worth), a LIMIT (reading ahead is
 * wasted), or files another thread cannot open (memory:// stores).
 */
export function parallelScanFor(io: IcebergIO, tasks: readonly FileScanTask[], opts: ParallelScanOptions = {}): ParallelScan | null {
  const pool = opts.pool === undefined ? sharedScanPool() : opts.pool;
  if (pool === null || pool.closed || tasks.length < 2 || opts.limit !== undefined) return null;
  if (!pool.worth(tasks, opts.fieldIds)) return null;
  const paths: string[] = [];
  for (const t of tasks) {
    paths.push(t.file.filePath);
    for (const d of [...t.positionDeletes, ...t.equalityDeletes]) paths.push(d.file.filePath);
  }
  const desc = describeForWorkers(io, paths);
  return desc === undefined ? null : { pool, io: desc };
}

/**
 * parallelScanFor after row-group splits (row-group-splits.ts): a single big file may go to the pool too,
 * as several tasks. Resolves to the tasks to read (split or not) with the pool, or null for the main thread.
 */
export async function planParallelScan(
  io: IcebergIO,
  tasks: readonly FileScanTask[],
  opts: ParallelScanOptions = {},
): Promise<(ParallelScan & { readonly tasks: readonly FileScanTask[] }) | null> {
  const pool = opts.pool === undefined ? sharedScanPool() : opts.pool;
  if (pool === null || pool.closed || tasks.length === 0 || opts.limit !== undefined || !pool.mayBeWorth(tasks)) return null;
  if (opts.wide === false && !pool.enoughRows(tasks)) return null;
  // footers first (cached; splitForWorkers reads them too): a file's column widths may decide (ScanPool.worth)
  if (!pool.worth(tasks, opts.fieldIds)) {
    await footersOf(io, tasks);
    if (!pool.worth(tasks, opts.fieldIds)) return null;
  }
  const split = await splitForWorkers(io, tasks, pool.size, { keepEven: opts.keepEven === true });
  const parallel = parallelScanFor(io, split, { ...opts, pool });
  return parallel === null ? null : { ...parallel, tasks: split };
}

/** reads (and caches) the footers of `tasks`' files of MIN_WIDE_ROWS rows or more; an unreadable one is skipped */
async function footersOf(io: IcebergIO, tasks: readonly FileScanTask[]): Promise<void> {
  await Promise.all(tasks.map(async (t) => {
    if (Number(t.file.recordCount) < MIN_WIDE_ROWS || cachedParquetFooter(t.file.filePath, Number(t.file.fileSizeInBytes)) !== undefined) return;
    await readParquetFooter(io, t.file.filePath, Number(t.file.fileSizeInBytes)).catch(() => undefined);
  }));
}

export interface ParallelReadContext {
  readonly signal: AbortSignal;
  /** pushed filters bound to field ids; rows that cannot match are dropped in the workers */
  readonly filter?: BoundPredicate;
  /** resolves equality-delete field ids (any schema version) */
  readonly fieldById: (id: number) => NestedField | undefined;
  readonly metrics?: ScanMetrics;
  /** workers apply `filter` by late materialization (read/late-materialization.ts); default true */
  readonly lateMaterialization?: boolean;
  /** each worker's decoded-column cache bound (read/file-cache-setting.ts threadShare); default: the worker's own */
  readonly fileCacheBytes?: number;
}

function deleteFieldsOf(tasks: readonly FileScanTask[], fieldById: (id: number) => NestedField | undefined): NestedField[] {
  const out = new Map<number, NestedField>();
  for (const task of tasks) {
    for (const d of task.equalityDeletes) {
      for (const id of d.file.equalityIds ?? []) {
        const f = fieldById(id);
        if (f !== undefined) out.set(id, f);
      }
    }
  }
  return [...out.values()];
}

const isAbort = (e: unknown): boolean => e instanceof Error && e.name === 'AbortError';

/** Batches of `fields` (in that column order) from every task, read on the pool. */
export async function* readTasksInParallel(
  scan: ParallelScan,
  tasks: readonly FileScanTask[],
  fields: readonly NestedField[],
  ctx: ParallelReadContext,
): AsyncGenerator<Batch> {
  for await (const r of runTasksInParallel(scan, tasks, fields, ctx)) for (const b of r.batches) yield unpackBatch(b);
}

type OkResult = Extract<ScanTaskResult, { ok: true }>;

/**
 * The successful results of every task, in task order, run on the pool; with `fragment`, each worker runs
 * that fragment over its task's rows (exec/partial/). Errors, cancellation and metrics as described above.
 * Consecutive small files run as one pool task and give one result (task-groups.ts).
 */
export async function* runTasksInParallel(
  scan: ParallelScan,
  scanTasks: readonly FileScanTask[],
  fields: readonly NestedField[],
  ctx: ParallelReadContext,
  fragment?: unknown,
): AsyncGenerator<OkResult> {
  const { pool, io } = scan;
  const { signal, metrics } = ctx;
  signal.throwIfAborted();
  const window = 2 * pool.size;
  const scanId = randomUUID();
  const cancel = new SharedArrayBuffer(4);
  const hardStop = new AbortController();
  const filter = ctx.filter === undefined || ctx.filter.kind === 'true' ? null : toWireFilter(ctx.filter);
  const results: (Promise<ScanTaskResult> | undefined)[] = [];
  let outstanding = 0;
  const tasks = groupScanTasks(scanTasks, pool.size);

  const start = (i: number): void => {
    const [task, ...moreTasks] = tasks[i]!;
    const req: ScanTaskRequest = {
      scanId, io, task: task!, ...(moreTasks.length === 0 ? {} : { moreTasks }), fields, deleteFields: deleteFieldsOf(tasks[i]!, ctx.fieldById), filter, cancel,
      lateMaterialization: ctx.lateMaterialization ?? true, ...(fragment === undefined ? {} : { fragment }),
      ...(ctx.fileCacheBytes === undefined ? {} : { fileCacheBytes: ctx.fileCacheBytes }),
    };
    outstanding++;
    results[i] = pool.run(req, hardStop.signal).then(
      (r) => r,
      (e: unknown): ScanTaskResult => ({ ok: false, canceled: isAbort(e), error: isAbort(e) ? null : toPlainError(e) }),
    ).finally(() => { outstanding--; });
  };

  // wakes the consumer as soon as the query is canceled, without waiting for the current task
  let onAbort: () => void = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });

  let next = 0;
  try {
    for (let i = 0; i < tasks.length; i++) {
      while (next < tasks.length && next < i + window) start(next++);
      const r = await Promise.race([results[i]!, aborted]);
      results[i] = undefined;
      signal.throwIfAborted();
      if (r === undefined) continue; // unreachable: `aborted` resolves only with the signal aborted
      if (!r.ok) {
        if (r.error !== null) throw fromPlainError(r.error);
        throw pgError('XX000', `scan worker task for "${tasks[i]![0]!.file.filePath}" was stopped`);
      }
      if (metrics) {
        // a file split by row groups counts once as a file and for its row groups total (a group holds no splits)
        const first = !isContinuationSplit(tasks[i]![0]!);
        if (first) metrics.filesScanned += tasks[i]!.length;
        if (first) metrics.rowGroupsTotal += r.metrics.rowGroupsTotal;
        metrics.rowGroupsScanned += r.metrics.rowGroupsScanned;
        metrics.bytesRead += r.metrics.bytesRead;
        metrics.rowsDecoded += r.metrics.rowsDecoded;
        addLateMetrics(metrics, r.metrics);
      }
      yield r;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (outstanding > 0) {
      // canceled, failed or abandoned by the consumer: stop the rest
      signalCancel(cancel);
      const timer = setTimeout(() => hardStop.abort(), GRACE_MS);
      timer.unref();
      void Promise.all(results.filter((p) => p !== undefined)).then(() => clearTimeout(timer));
    }
  }
}

/** adds a task's late-materialization counters (present only when its reader filtered late) */
export function addLateMetrics(to: ScanMetrics, from: ReadMetrics): void {
  if (from.fileCacheLookups !== undefined) {
    to.fileCacheLookups = (to.fileCacheLookups ?? 0) + from.fileCacheLookups;
    to.fileCacheHits = (to.fileCacheHits ?? 0) + (from.fileCacheHits ?? 0);
  }
  if (from.pageIndexRowGroups !== undefined) {
    // the page index's counters (read/page-index-pruner.ts), present only when a task read one
    to.pageIndexRowGroups = (to.pageIndexRowGroups ?? 0) + from.pageIndexRowGroups;
    to.pageIndexRowGroupsPruned = (to.pageIndexRowGroupsPruned ?? 0) + (from.pageIndexRowGroupsPruned ?? 0);
    to.pagesTotal = (to.pagesTotal ?? 0) + (from.pagesTotal ?? 0);
    to.pagesScanned = (to.pagesScanned ?? 0) + (from.pagesScanned ?? 0);
  }
  if (from.lateRowGroups === undefined) return;
  to.lateRowGroups = (to.lateRowGroups ?? 0) + from.lateRowGroups;
  to.lateRowGroupsMatched = (to.lateRowGroupsMatched ?? 0) + (from.lateRowGroupsMatched ?? 0);
  to.lateRowsTotal = (to.lateRowsTotal ?? 0) + (from.lateRowsTotal ?? 0);
  to.lateRowsMaterialized = (to.lateRowsMaterialized ?? 0) + (from.lateRowsMaterialized ?? 0);
}

/** A batch of the projected columns widened to the table's columns (the others NULL), as scan() returns them. */
export { widenBatch } from '../../common/batch.ts';
