/**
 * A hash join's input columns that only its equi keys read (issue #4, TPC-H Q9: l_partkey, l_suppkey, ps_partkey,
 * ps_suppkey below the lineitem join, l_orderkey at the orders join). prune_join_columns keeps them alive for the
 * condition, so join-gather.ts' take copied each into every output batch — a BigInt array and its exact doubles
 * per int8 column, 64,692 rows a column at SF 0.2 — though once the built rows are hashed and a probe batch's
 * keys looked up nothing reads them again. HashJoinExec passes them on as shared NULL columns instead (take
 * copies none), as it does the dead columns. Not when the residual reads them: it reads the gathered pairs.
 */
import type { Expr, Join } from '../sql/index.ts';
import { conditionOnlyJoinColumns } from './optimizer/prune-join-columns.ts';
import { columnsRead } from './optimizer/push-down-projection.ts';

export interface HashedOnlyColumns {
  /** left input columns (its own numbering) */
  readonly left: readonly number[];
  /** right input columns (its own numbering) */
  readonly right: readonly number[];
  /** their names, left first (EXPLAIN ANALYZE) */
  readonly names: readonly string[];
}

/** no such columns */
export const NO_HASHED_ONLY: HashedOnlyColumns = { left: [], right: [], names: [] };

/** the columns of `plan`'s inputs only its equi keys read: nothing above the join, not `residual` */
export function hashedOnlyColumns(plan: Join, residual: Expr | null): HashedOnlyColumns {
  const condOnly = conditionOnlyJoinColumns(plan);
  if (condOnly === null || plan.lateral) return NO_HASHED_ONLY;
  const inResidual = residual === null ? new Set<number>() : columnsRead(residual, new Set());
  const lw = plan.left.columns.length;
  const at = condOnly.filter((i) => !inResidual.has(i)).sort((a, b) => a - b);
  if (at.length === 0) return NO_HASHED_ONLY;
  return {
    left: at.filter((i) => i < lw),
    right: at.filter((i) => i >= lw).map((i) => i - lw),
    names: at.map((i) => (i < lw ? plan.left.columns[i]?.name : plan.right.columns[i - lw]?.name) ?? `#${i}`),
  };
}
