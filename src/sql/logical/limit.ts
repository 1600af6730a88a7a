/** Limit: OFFSET then LIMIT; both are expressions evaluated once (they may be parameters). */
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Limit {
  readonly kind: 'Limit';
  readonly input: LogicalPlan;
  readonly limit: Expr | null;
  readonly offset: Expr | null;
  readonly columns: readonly PlanColumn[];
}
