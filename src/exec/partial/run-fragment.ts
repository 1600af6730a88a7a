/**
 * Worker side of a partial aggregate: the task's batches (projected fields) widened to the scan's columns,
 * through the fragment's Filters and Projections (the executor's own FilterExec / ProjectionExec), then
 * grouped into fresh aggregate states that are stepped but never finalised. Groups come back in order of
 * first appearance, so merging tasks in task order keeps the main thread's group order. A group table whose
 * estimated size passes `flushBytes` is packed and emptied (a partial aggregate may emit a key more than once:
 * the final aggregate combines them), so a worker's state stays bounded however many groups its task has;
 * the earlier packs travel in `earlier`, in order. Batches the scan judged exactly (iceberg/parallel/exact-rows.ts)
 * skip the Filter conjuncts that are its pushed ones (pushed-conjuncts.ts, exact-skip-filter-exec.ts).
 * The setup and the per-batch steps are FragmentRun's (fragment-run.ts, which says why): this is a short driver.
 */
import type { Batch } from '../../common/batch.ts';
import type { TypedPartialStates } from '../expr/group-states.ts';
import type { PackedStates } from './state-wire.ts';
import type { Int8KeyWire } from './int8-key-wire.ts';
import type { PartitionedPartial } from '../exchange/partition-groups.ts';
import { repartitionRows, type RepartitionedRows } from '../exchange/repartition-rows.ts';
import type { WireEvalContext } from './worker-eval-context.ts';
import type { WireFragment } from './worker-fragment.ts';
import { FragmentRun, type FragmentJudged } from './fragment-run.ts';

/** what the main thread sends with each task */
export interface FragmentRequest {
  readonly fragment: WireFragment;
  readonly eval: WireEvalContext;
  /** split the groups into this many hash partitions for merge tasks (exchange/partition-groups.ts) */
  readonly partitions?: number;
  /** send the rows, not partial states, split into this many hash partitions (exchange/repartition-rows.ts) */
  readonly repartition?: number;
  /** pack and empty the task's group table when its estimated size passes this (default: never) */
  readonly flushBytes?: number;
}

/** one task's groups, column-wise: `count` groups, one key column per group key, packed states per aggregate */
export interface PartialGroups {
  readonly count: number;
  /** key values per group-key column (toCloneable'd when `keysTagged`) */
  readonly keys: readonly (readonly unknown[])[];
  readonly keysTagged: readonly boolean[];
  readonly states: readonly PackedStates[];
  /** instead of `states` (then empty): per aggregate, the groups' typed counts and sums (typed-partial-groups.ts takeTyped) */
  readonly typed?: readonly TypedPartialStates[];
  /** per group-key column: an int8 column's keys as exact doubles (its `keys` entry then empty: int8-key-wire.ts), else null */
  readonly int8Keys?: readonly (Int8KeyWire | null)[];
  /** groups packed earlier in the task, when its table was flushed (run-fragment.ts), in order */
  readonly earlier?: readonly PartialGroups[];
}

/**
 * Runs `req` over one task's batches (fields in `req.fragment.projection` order); null once `canceled()`
 * turned true (looked at between batches and every 1,024 rows of a row-at-a-time aggregate). With
 * `req.partitions`, the groups come back split by key hash, their buffers listed in `transfer` (to be moved,
 * not copied).
 */
export async function runFragment(
  req: FragmentRequest,
  batches: AsyncIterable<Batch>,
  canceled: () => boolean,
  transfer: ArrayBufferLike[] = [],
  judged?: FragmentJudged,
): Promise<PartialGroups | PartitionedPartial | RepartitionedRows | null> {
  const run = new FragmentRun(req, batches, transfer, judged);
  if (req.repartition !== undefined) return repartitionRows(run.input, run.keys.fns, req.fragment.keyOids, req.repartition, canceled, transfer);
  const typed = run.typed;
  for await (const b of run.input.execute()) {
    if (canceled()) return null;
    if (typed !== null) await typed.add(b);
    else if (run.vector !== null) run.vectorBatch(b);
    else {
      for (const a of run.args) await a.prepare(b);
      if (!run.rowBatch(b, canceled)) return null;
    }
    run.afterBatch(b);
  }
  return run.finish();
}
