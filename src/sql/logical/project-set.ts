/**
 * ProjectSet: a select list with set-returning functions. Each input row yields as many rows as its longest
 * SRF result; shorter ones are padded with NULL (PostgreSQL 10+ lock-step semantics). Output = exprs.
 */
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface ProjectSet {
  readonly kind: 'ProjectSet';
  readonly input: LogicalPlan;
  readonly exprs: readonly Expr[];
  readonly columns: readonly PlanColumn[];
}
