/**
 * Main-thread side of a hash-partitioned final aggregate (issue #4: "final aggregation … on the main thread
 * or hash-partitioned across workers"). Each scan task returns its partial groups already split into P
 * sets by key hash (partition-groups.ts); this routes set p of every task to merge task p — moving the
 * buffers, no work per group here — then runs the P merge tasks on the worker pool at once and yields each
 * partition's finalised rows as it comes back, partition by partition:
 *
 *   scan task 1 ─┬─ set 0 ──┐          ┌─► merge task 0 ─► rows of partition 0 ─┐
 *   scan task 2 ─┼─ set 0 ──┼─ main ───┤                                         ├─► concatenated
 *   …            └─ set 1 ──┘ (routes) └─► merge task 1 ─► rows of partition 1 ─┘
 *
 * Rows come out grouped by partition, not in the order groups were first met (no ORDER BY, no promise).
 */
import type { Batch } from '../../common/batch.ts';
import { internalError } from '../../common/errors.ts';
import type { ScanPool } from '../../iceberg/parallel/scan-pool.ts';
import type { MergeTaskResult } from '../../iceberg/parallel/merge-task.ts';
import { signalCancel } from '../../iceberg/parallel/scan-task.ts';
import { fromPlainError } from '../../iceberg/parallel/worker-errors.ts';
import { BATCH_SIZE } from '../context.ts';
import type { WireFragment } from '../partial/worker-fragment.ts';
import type { ExchangeTaskRequest } from './exchange-task.ts';
import type { MergedPartition, MergeRequest } from './merge-partition.ts';
import { buffersOfGroups, isPartitionedPartial, type PartitionGroups } from './partition-groups.ts';
import { isRepartitionedRows, type RowSet } from './repartition-rows.ts';
import { buffersOf, unpackColumn } from './wire-column.ts';

export interface PartitionedFinalOptions {
  readonly pool: ScanPool;
  readonly partitions: number;
  readonly fragment: WireFragment;
  readonly eval: MergeRequest['eval'];
  readonly signal: AbortSignal;
  /** the scan tasks send rows (repartition-rows.ts), not partial states (partition-groups.ts) */
  readonly rows: boolean;
}

/** what the partitioned final aggregate did, for EXPLAIN ANALYZE */
export interface PartitionedFinalStats {
  partitions: number;
  groups: number;
  largest: number;
}

/** The partition's rows as batches of at most BATCH_SIZE. */
function* batchesOf(m: MergedPartition): Iterable<Batch> {
  const cols = m.columns.map(unpackColumn);
  if (m.count <= BATCH_SIZE) {
    if (m.count > 0) yield { length: m.count, columns: cols };
    return;
  }
  for (let i = 0; i < m.count; i += BATCH_SIZE) {
    const end = Math.min(m.count, i + BATCH_SIZE);
    yield { length: end - i, columns: cols.map((c) => c.slice(i, end)) };
  }
}

/**
 * The final aggregate's rows from the partial results of every scan task (each a PartitionedPartial with
 * `partitions` sets); cancellation of `signal` stops the merge tasks at their next look.
 */
export async function* partitionedFinalAggregate(
  results: AsyncIterable<{ readonly partial?: unknown }>,
  o: PartitionedFinalOptions,
  stats?: PartitionedFinalStats,
): AsyncGenerator<Batch> {
  const buckets: (PartitionGroups | RowSet)[][] = Array.from({ length: o.partitions }, () => []);
  for await (const r of results) {
    const part = r.partial;
    if (o.rows && isRepartitionedRows(part) && part.parts.length === o.partitions) {
      part.parts.forEach((set, p) => { if (set.length > 0) buckets[p]!.push(set); });
    } else if (!o.rows && isPartitionedPartial(part) && part.parts.length === o.partitions) {
      part.parts.forEach((set, p) => { if (set.count > 0) buckets[p]!.push(set); });
    } else {
      throw internalError('scan task returned no partitioned partial groups');
    }
  }
  o.signal.throwIfAborted();
  const cancel = new SharedArrayBuffer(4);
  const stop = (): void => signalCancel(cancel);
  o.signal.addEventListener('abort', stop, { once: true });
  // no piscina abort: terminating a thread costs its restart; the flag stops a merge within CANCEL_CHECK_GROUPS
  const never = new AbortController().signal;
  let pending = 0;
  const runs = buckets.map((sets): Promise<MergeTaskResult> | null => {
    if (sets.length === 0) return null;
    const payload: ExchangeTaskRequest = o.rows
      ? { rows: true, fragment: o.fragment, eval: o.eval, sets: sets as RowSet[] }
      : { keyOids: o.fragment.keyOids, aggregates: o.fragment.aggregates, eval: o.eval, sets: sets as PartitionGroups[] };
    const buffers: ArrayBufferLike[] = [];
    if (o.rows) for (const set of sets as RowSet[]) buffersOf(set.columns, buffers);
    else buffers.push(...buffersOfGroups(sets as PartitionGroups[]));
    pending++;
    return o.pool.runMerge({ kind: 'merge-partition', payload, cancel }, buffers, never)
      .finally(() => { pending--; });
  });
  buckets.length = 0; // the sets now belong to the merge tasks
  try {
    for (let p = 0; p < runs.length; p++) {
      const run = runs[p];
      if (run === null || run === undefined) continue;
      const r = await run;
      o.signal.throwIfAborted();
      if (!r.ok) {
        if (r.error !== null) throw fromPlainError(r.error);
        throw internalError(`merge task of partition ${p} was stopped`);
      }
      const merged = r.merged as MergedPartition;
      if (stats !== undefined) {
        stats.groups += merged.count;
        stats.largest = Math.max(stats.largest, merged.count);
      }
      yield* batchesOf(merged);
    }
  } finally {
    o.signal.removeEventListener('abort', stop);
    if (pending > 0) stop();
  }
}
