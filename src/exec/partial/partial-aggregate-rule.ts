/**
 * partial_aggregate: marks an Aggregate whose fragment can run in the scan workers (worker-fragment.ts) over
 * an Iceberg table, when this process has a worker pool. The planner then builds a PartialAggregateExec
 * (Finalize Aggregate here, Partial Aggregate in the workers); EXPLAIN shows both. Runs last: the scan's
 * filters and projection must be known. Off with `lakegate.disabled_optimizer_rules = 'partial_aggregate'`.
 */
import { IcebergTableSource } from '../../iceberg/iceberg-table-source.ts';
import { sharedScanPool } from '../../iceberg/parallel/scan-pool.ts';
import type { LogicalPlan } from '../../sql/index.ts';
import type { OptimizerRule } from '../optimizer/optimizer-rule.ts';
import { transformPlanUp } from '../optimizer/plan-rewrite.ts';
import { fragmentChain, workerFragmentOf } from './worker-fragment.ts';

function mark(p: LogicalPlan): LogicalPlan {
  if (p.kind !== 'Aggregate' || p.workerPartial) return p;
  if (!(fragmentChain(p)?.scan.source instanceof IcebergTableSource) || workerFragmentOf(p) === null) return p;
  return { ...p, workerPartial: true };
}

export const partialAggregateRule: OptimizerRule = {
  name: 'partial_aggregate',
  apply: (plan) => {
    const pool = sharedScanPool();
    return pool === null || pool.closed ? plan : transformPlanUp(plan, mark);
  },
};
