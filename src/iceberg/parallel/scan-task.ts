/**
 * What the main thread sends a scan worker for one FileScanTask, and what comes back. Everything here must
 * survive structured clone: values that would not (Numerics in the filter) travel through cloneable.ts, and
 * result columns are packed typed arrays (column-transfer.ts) moved rather than copied.
 */
import type { ScanMetrics } from '../../catalog/table-source.ts';
import type { IcebergIODescription } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { NestedField } from '../spec/schema.ts';
import type { PackedBatch } from './column-transfer.ts';
import type { PlainError } from './worker-errors.ts';

export interface ScanTaskRequest {
  /** one id per scan: a worker reuses its delete-file cache across the tasks of one scan */
  readonly scanId: string;
  readonly io: IcebergIODescription;
  readonly task: FileScanTask;
  /** further small files read after `task`, in order, with the same fields and filter (task-groups.ts) */
  readonly moreTasks?: readonly FileScanTask[];
  /** the projected fields, in output column order */
  readonly fields: readonly NestedField[];
  /** fields that equality deletes of this task name (any schema version) */
  readonly deleteFields: readonly NestedField[];
  /** toCloneable(BoundPredicate) of the pushed filters, or null */
  readonly filter: unknown;
  /** apply `filter` by late materialization (filter columns first) rather than after decoding every column */
  readonly lateMaterialization?: boolean;
  /** Int32 flag, non-zero once the scan is canceled: the worker stops at the next batch */
  readonly cancel: SharedArrayBuffer;
  /**
   * a scan → filter → project → partial aggregate fragment (exec/partial/fragment-wire.ts) run over the
   * task's rows: the result then carries its partial groups instead of batches
   */
  readonly fragment?: unknown;
  /** the worker's decoded-column cache bound in bytes (read/file-cache.ts); absent: unchanged */
  readonly fileCacheBytes?: number;
}

/** the read counters a worker fills in for its task (added to the scan's ScanMetrics on the main thread) */
export type ReadMetrics = Pick<ScanMetrics, 'rowGroupsTotal' | 'rowGroupsScanned' | 'bytesRead' | 'rowsDecoded'
  | 'lateRowGroups' | 'lateRowGroupsMatched' | 'lateRowsTotal' | 'lateRowsMaterialized' | 'fileCacheLookups' | 'fileCacheHits'
  | 'pageIndexRowGroups' | 'pageIndexRowGroupsPruned' | 'pagesTotal' | 'pagesScanned'>;

/**
 * a worker's ReadMetrics with every counter present, in one order: counters added on first use (the late,
 * cache and page-index ones, by query) gave the object a new shape per query, and each new one was a "wrong map"
 * deopt of the readers that update it (readParquetColumns, readRowGroupLate, decodeSpan). Zeros add nothing on
 * the main thread (parallel-scan.ts addLateMetrics) and EXPLAIN shows counters only when non-zero.
 */
export function emptyReadMetrics(): ReadMetrics {
  return {
    rowGroupsTotal: 0, rowGroupsScanned: 0, bytesRead: 0, rowsDecoded: 0,
    lateRowGroups: 0, lateRowGroupsMatched: 0, lateRowsTotal: 0, lateRowsMaterialized: 0,
    fileCacheLookups: 0, fileCacheHits: 0,
    pageIndexRowGroups: 0, pageIndexRowGroupsPruned: 0, pagesTotal: 0, pagesScanned: 0,
  };
}

export type ScanTaskResult =
  | { readonly ok: true; readonly batches: readonly PackedBatch[]; readonly metrics: ReadMetrics; readonly partial?: unknown }
  | { readonly ok: false; readonly canceled: boolean; readonly error: PlainError | null };

/** the FileScanTasks of a request, in reading order */
export function requestTasks(req: Pick<ScanTaskRequest, 'task' | 'moreTasks'>): readonly FileScanTask[] {
  return req.moreTasks === undefined || req.moreTasks.length === 0 ? [req.task] : [req.task, ...req.moreTasks];
}

/** Set the cancel flag of a request (main thread). */
export function signalCancel(flag: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(flag), 0, 1);
}

export function isCanceled(flag: Int32Array): boolean {
  return Atomics.load(flag, 0) !== 0;
}
