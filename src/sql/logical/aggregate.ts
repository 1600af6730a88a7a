/**
 * Aggregate: GROUP BY (optionally GROUPING SETS) with aggregate calls.
 * Output = group keys, then one column per aggregate, then (with grouping sets) the grouping-set id.
 */
import type { AggregateExpr, Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Aggregate {
  readonly kind: 'Aggregate';
  readonly input: LogicalPlan;
  readonly groupKeys: readonly Expr[];
  /** indexes into groupKeys per grouping set; null = one plain grouping over all keys */
  readonly groupingSets: readonly (readonly number[])[] | null;
  readonly aggregates: readonly AggregateExpr[];
  readonly columns: readonly PlanColumn[];
  /** set by the optimizer (partial_aggregate): partial aggregates run in the scan workers, finalised here */
  readonly workerPartial?: boolean;
}
