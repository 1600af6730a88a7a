/** Projection: computes one output column per expression over the input row. */
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Projection {
  readonly kind: 'Projection';
  readonly input: LogicalPlan;
  readonly exprs: readonly Expr[];
  readonly columns: readonly PlanColumn[];
}
