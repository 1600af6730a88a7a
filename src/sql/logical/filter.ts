/** Filter: keeps the rows whose predicate is true (NULL and false drop the row). */
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Filter {
  readonly kind: 'Filter';
  readonly input: LogicalPlan;
  readonly predicate: Expr;
  readonly columns: readonly PlanColumn[];
}
