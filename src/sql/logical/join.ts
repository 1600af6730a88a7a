/**
 * Join: output = left columns then right columns (semi/anti: left columns only).
 * `lateral`: the right side references the left row (levelsUp = 1 from inside it) and is re-run per left row.
 */
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'semi' | 'anti';

export interface Join {
  readonly kind: 'Join';
  readonly joinType: JoinType;
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  /** over the concatenated left+right row; null = cross join */
  readonly condition: Expr | null;
  readonly lateral: boolean;
  readonly columns: readonly PlanColumn[];
  /** set by the optimizer (choose_build_side): the hash table is built on the left input, the right streams */
  readonly buildSide?: 'left';
}
