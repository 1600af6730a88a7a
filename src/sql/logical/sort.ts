/** Sort: orders rows by keys (NULLs sort as larger than any value unless nullsFirst says otherwise). */
import type { SortKeyExpr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Sort {
  readonly kind: 'Sort';
  readonly input: LogicalPlan;
  readonly keys: readonly SortKeyExpr[];
  readonly columns: readonly PlanColumn[];
}
