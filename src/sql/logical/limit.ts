/**
 * Limit: OFFSET then LIMIT; both are expressions evaluated once (they may be parameters). FETCH FIRST n ROWS
 * WITH TIES carries the ORDER BY keys (over the input's columns): rows after the n-th whose keys equal its keys
 * are kept too.
 */
import type { Expr, SortKeyExpr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Limit {
  readonly kind: 'Limit';
  readonly input: LogicalPlan;
  readonly limit: Expr | null;
  readonly offset: Expr | null;
  /** FETCH FIRST … WITH TIES: the ORDER BY keys of the Sort below; absent for plain LIMIT */
  readonly withTies?: readonly SortKeyExpr[];
  readonly columns: readonly PlanColumn[];
}
