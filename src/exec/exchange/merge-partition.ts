/**
 * Worker side of a hash-partitioned final aggregate: one merge task per partition receives that partition's
 * group sets from every scan task (partition-groups.ts), merges equal keys with combine() in task order —
 * groups come out in the order first met, as on the main thread — finalises them and returns the result
 * columns (group keys, then aggregates) packed for a move back. No other partition can hold these keys, so
 * the main thread only concatenates partitions.
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, AggregateState } from '../../functions/registry-types.ts';
import type { Cols, RowFn } from '../expr/compile-expr.ts';
import { GroupLookup } from '../group-lookup.ts';
import { aggregateOfKey } from '../partial/expr-wire.ts';
import { unpackStateInto, type PackedStates } from '../partial/state-wire.ts';
import { workerExecContext, type WireEvalContext } from '../partial/worker-eval-context.ts';
import type { PartitionGroups } from './partition-groups.ts';
import { packColumn, unpackColumn, type WireColumn } from './wire-column.ts';
import { AggregateMemory } from '../memory/aggregate-memory.ts';
import { mergeTaskPool, type MergeTaskMemory } from './merge-task-memory.ts';
import type { ThreadMemory } from './thread-memory.ts';

export interface MergeAggregate {
  /** the aggregate's signature (expr-wire.ts keyOfBuiltin) */
  readonly def: string;
  readonly argTypes: readonly SqlType[];
  readonly type: SqlType;
}

/** what the main thread sends a merge task */
export interface MergeRequest {
  readonly keyOids: readonly number[];
  readonly aggregates: readonly MergeAggregate[];
  readonly eval: WireEvalContext;
  /** the partition's group sets, in task order */
  readonly sets: readonly PartitionGroups[];
  /** this merge's share of the query's memory budget (merge-task-memory.ts) */
  readonly memory?: MergeTaskMemory;
}

/** the partition's result rows, column-wise: group keys, then one column per aggregate */
export interface MergedPartition {
  readonly count: number;
  readonly columns: readonly WireColumn[];
  /** a ThreadMemoryRequest's answer (exchange-task.ts), no rows */
  readonly thread?: ThreadMemory;
}

/** groups between two looks at the cancel flag */
const CANCEL_CHECK_GROUPS = 16_384;

interface Group {
  readonly keys: unknown[];
  readonly states: AggregateState[];
}

/** Merges and finalises one partition; null once `canceled()` turned true. Buffers to move go to `transfer`. */
export function mergePartition(req: MergeRequest, canceled: () => boolean, transfer: ArrayBufferLike[]): MergedPartition | null {
  const stop = new AbortController();
  const ctx = workerExecContext(req.eval, stop.signal);
  const defs: AggregateDef[] = req.aggregates.map((a) => aggregateOfKey(a.def));
  const create = (k: number): AggregateState => defs[k]!.create(ctx, req.aggregates[k]!.argTypes, req.aggregates[k]!.type);
  const width = req.keyOids.length;
  const fns: RowFn[] = req.keyOids.map((_o, c) => (cols: Cols, i: number) => cols[c]![i]);
  const order: Group[] = [];
  let fresh = false;
  const lookup = new GroupLookup<Group>(fns, req.keyOids, (keys) => {
    fresh = true;
    const g = { keys, states: defs.map((_d, k) => create(k)) };
    order.push(g);
    return g;
  });
  // the groups count against this merge's share of the query's budget (53200 past it)
  const pool = mergeTaskPool(req.memory);
  const mem = pool === undefined ? null : new AggregateMemory(pool.reserve('Finalize HashAggregate'), {
    groupKeys: req.keyOids,
    aggregates: defs.map((def) => ({ distinct: false, orderBy: [], def })),
  });
  try {
    for (const set of req.sets) {
      const keyCols: Cols = set.keys.map(unpackColumn);
      const states: PackedStates[] = set.states.map((s) => ({
        paths: s.paths,
        columns: s.columns.map(unpackColumn),
        tagged: s.columns.map(() => false), // unpackColumn rebuilt the Numerics already
      }));
      for (let g = 0; g < set.count; g++) {
        if (g % CANCEL_CHECK_GROUPS === CANCEL_CHECK_GROUPS - 1) {
          if (canceled()) return null;
          mem?.afterBatch(CANCEL_CHECK_GROUPS, order);
        }
        fresh = false;
        const group = lookup.find(keyCols, g);
        for (let k = 0; k < defs.length; k++) {
          // a new group takes the task's state as it is; a known one combines it in
          if (fresh) unpackStateInto(group.states[k]!, states[k]!, g);
          else group.states[k]!.combine!(unpackStateInto(create(k), states[k]!, g));
        }
      }
      mem?.afterBatch(set.count % CANCEL_CHECK_GROUPS, order);
    }
    if (canceled()) return null;
    const columns: WireColumn[] = [];
    for (let c = 0; c < width; c++) columns.push(packColumn(order.map((g) => g.keys[c] ?? null), transfer));
    for (let k = 0; k < defs.length; k++) columns.push(packColumn(order.map((g) => g.states[k]!.final() ?? null), transfer));
    return { count: order.length, columns };
  } finally {
    mem?.release();
  }
}
