/** Distinct: removes duplicate rows; with `on`, keeps the first row per value of the `on` expressions (DISTINCT ON). */
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Distinct {
  readonly kind: 'Distinct';
  readonly input: LogicalPlan;
  readonly on: readonly Expr[] | null;
  readonly columns: readonly PlanColumn[];
}
