/** Window: appends one column per window function call to the input row (pipeline breaker per partition). */
import type { WindowFuncExpr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Window {
  readonly kind: 'Window';
  readonly input: LogicalPlan;
  readonly functions: readonly WindowFuncExpr[];
  readonly columns: readonly PlanColumn[];
}
