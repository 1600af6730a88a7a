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
 *
 * Memory: the sets held here count against the query's budget (reservation "Finalize HashAggregate"), and
 * each merge task gets a share of what is left — at most twice what its sets could grow into — reserved here
 * while it runs and enforced in the worker by a MemoryPool of that size (merge-task-memory.ts): past it the
 * merge fails with 53200, as a main-thread aggregate would.
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
import { buffersOf, unpackColumn, wireBytes } from './wire-column.ts';
import type { MemoryPool } from '../memory/memory-pool.ts';
import { GroupBytes } from '../memory/group-bytes.ts';
import { MIN_MERGE_SHARE_BYTES, type MergeTaskMemory } from './merge-task-memory.ts';

export interface PartitionedFinalOptions {
  readonly pool: ScanPool;
  readonly partitions: number;
  readonly fragment: WireFragment;
  readonly eval: MergeRequest['eval'];
  readonly signal: AbortSignal;
  /** the scan tasks send rows (repartition-rows.ts), not partial states (partition-groups.ts) */
  readonly rows: boolean;
  /** the query's budget */
  readonly memory: MemoryPool;
}

/** what the partitioned final aggregate did, for EXPLAIN ANALYZE */
export interface PartitionedFinalStats {
  partitions: number;
  groups: number;
  largest: number;
  /** the most this thread held and reserved for the merge tasks (EXPLAIN ANALYZE's Memory Usage) */
  memory?: number;
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
  const held = o.memory.reserve('Finalize HashAggregate');
  try {
    yield* mergeBuckets(results, o, buckets, held, stats);
  } finally {
    if (stats !== undefined) stats.memory = held.peak;
    held.release();
  }
}

/** rows a merge task's set holds (states mode: its groups) and the bytes its columns hold */
function setSize(set: PartitionGroups | RowSet): { readonly n: number; readonly bytes: number } {
  if ('count' in set) return { n: set.count, bytes: wireBytes(set.keys) + set.states.reduce((b, st) => b + wireBytes(st.columns), 0) };
  return { n: set.length, bytes: wireBytes(set.columns) };
}

async function* mergeBuckets(
  results: AsyncIterable<{ readonly partial?: unknown }>,
  o: PartitionedFinalOptions,
  buckets: (PartitionGroups | RowSet)[][],
  held: ReturnType<MemoryPool['reserve']>,
  stats?: PartitionedFinalStats,
): AsyncGenerator<Batch> {
  const add = (p: number, set: PartitionGroups | RowSet): void => {
    held.grow(setSize(set).bytes);
    buckets[p]!.push(set);
  };
  for await (const r of results) {
    const part = r.partial;
    if (o.rows && isRepartitionedRows(part) && o.partitions === 1) {
      // one partition: the task's rows come in pieces (repartition-rows.ts)
      for (const set of part.parts) if (set.length > 0) add(0, set);
    } else if (o.rows && isRepartitionedRows(part) && part.parts.length === o.partitions) {
      part.parts.forEach((set, p) => { if (set.length > 0) add(p, set); });
    } else if (!o.rows && isPartitionedPartial(part) && part.parts.length === o.partitions) {
      // a worker that flushed its group table sent earlier sets too
      for (const chunk of [...(part.earlier ?? []), part]) chunk.parts.forEach((set, p) => { if (set.count > 0) add(p, set); });
    } else {
      throw internalError('scan task returned no partitioned partial groups');
    }
  }
  // each merge's share: what is left of the budget split evenly, at most twice what its sets could grow into
  const perGroup = new GroupBytes({
    groupKeys: o.fragment.groupKeys,
    aggregates: o.fragment.aggregates.map(() => ({ distinct: false, orderBy: [], def: { name: '' } })),
  }).perGroup;
  const active = buckets.filter((sets) => sets.length > 0).length;
  const left = Math.max(0, o.memory.limit - o.memory.used);
  // measured before the buffers move to the workers (a moved buffer reads as empty)
  const setBytes = buckets.map((sets) => sets.reduce((b, set) => b + setSize(set).bytes, 0));
  const shares = buckets.map((sets, p) => {
    if (sets.length === 0) return 0;
    const n = sets.reduce((k, set) => k + setSize(set).n, 0);
    const bound = 2 * (n * perGroup + setBytes[p]!);
    return Math.max(MIN_MERGE_SHARE_BYTES, Math.min(Math.floor(left / Math.max(1, active)), bound));
  });
  // reserved before any merge starts: a budget too small for them fails here, with nothing running
  held.grow(shares.reduce((a, b) => a + b, 0));
  o.signal.throwIfAborted();
  const cancel = new SharedArrayBuffer(4);
  const stop = (): void => signalCancel(cancel);
  o.signal.addEventListener('abort', stop, { once: true });
  // no piscina abort: terminating a thread costs its restart; the flag stops a merge within CANCEL_CHECK_GROUPS
  const never = new AbortController().signal;
  let pending = 0;
  const runs = buckets.map((sets, p): Promise<MergeTaskResult> | null => {
    if (sets.length === 0) return null;
    const memory: MergeTaskMemory = { limit: shares[p]!, setting: o.memory.settingLimit };
    const payload: ExchangeTaskRequest = o.rows
      ? { rows: true, fragment: o.fragment, eval: o.eval, sets: sets as RowSet[], memory }
      : { keyOids: o.fragment.keyOids, aggregates: o.fragment.aggregates, eval: o.eval, sets: sets as PartitionGroups[], memory };
    const buffers: ArrayBufferLike[] = [];
    if (o.rows) for (const set of sets as RowSet[]) buffersOf(set.columns, buffers);
    else buffers.push(...buffersOfGroups(sets as PartitionGroups[]));
    pending++;
    return o.pool.runMerge({ kind: 'merge-partition', payload, cancel }, buffers, never)
      .finally(() => { pending--; });
  });
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
      // the merge is done: its share goes back, its sets are gone
      held.shrink(shares[p]! + setBytes[p]!);
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
