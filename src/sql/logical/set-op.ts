/** SetOp: UNION / INTERSECT / EXCEPT [ALL]. Both inputs already produce the output column types. */
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface SetOp {
  readonly kind: 'SetOp';
  readonly op: 'union' | 'intersect' | 'except';
  readonly all: boolean;
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly columns: readonly PlanColumn[];
}
