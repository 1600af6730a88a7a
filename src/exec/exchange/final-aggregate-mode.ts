/**
 * `lakegate.final_aggregate`: where the final aggregate above partial aggregates in the scan workers runs.
 *   main        — this thread merges every task's partial states (partial-aggregate-exec.ts)
 *   partitioned — the workers do: partial states hash-partitioned by group key, one merge task per
 *                 partition (partition-groups.ts → merge-partition.ts, driven by partitioned-final-aggregate.ts)
 *   partitioned_rows — no partial states: the scan tasks hash-partition their rows by group key and one
 *                 task per partition aggregates them (repartition-rows.ts → aggregate-partition.ts)
 *   auto        — the default: main. Measured (bench/partial-agg.ts, 2 workers, SF 0.1, modes alternating run
 *                 by run) main was fastest for every shape: q1 (4 groups), q18's inner aggregate (one group per
 *                 order), one group per part; partitioned states cost 2–6× main's CPU (an AggregateState object
 *                 per group per task, packed, then merged), partitioned rows ~1.2–1.8× (hashing and gathering
 *                 every row). SF1, quiet machine: q18's inner aggregate main 5.2 s, partitioned 17.4 s,
 *                 rows 8.3 s; q1 main 2.0 s, partitioned 2.1 s, rows 6.5 s. On 2 cores shared with the decode work, moving the final aggregate off the main
 *                 thread buys no parallelism, so the cheapest path in CPU wins.
 */
import type { SessionView } from '../../catalog/session-view.ts';

export const FINAL_AGGREGATE_SETTING = 'lakegate.final_aggregate';

export const FINAL_AGGREGATE_MODES = ['auto', 'main', 'partitioned', 'partitioned_rows'] as const;

export type FinalAggregateMode = (typeof FINAL_AGGREGATE_MODES)[number];

export function finalAggregateMode(session: SessionView): FinalAggregateMode {
  const v = session.getSetting(FINAL_AGGREGATE_SETTING, true);
  return FINAL_AGGREGATE_MODES.find((m) => m === v) ?? 'auto';
}
