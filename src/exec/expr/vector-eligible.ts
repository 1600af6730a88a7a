/**
 * Which expressions the vector kernels take (vector-expr.ts): not those whose order of evaluation is
 * observable (subqueries, volatile calls) or that only make sense per row (aggregates, window functions,
 * subquery-test slots); and which subtrees are constant within a batch (computed once per batch).
 */
import type { Expr } from '../../sql/index.ts';

/** true when `e` may not be vectorized: subqueries, volatile calls, subquery-test slots, aggregates */
export function blocked(e: Expr): boolean {
  switch (e.kind) {
    case 'Subquery': case 'Aggregate': case 'WindowFunc': case 'Grouping': case 'SetCall': return true;
    case 'ColumnRef': return e.levelsUp < 0;
    case 'Literal': case 'Param': return false;
    case 'Call': return e.def.volatility === 'v' || e.args.some(blocked);
    case 'Op': return (e.left !== null && blocked(e.left)) || blocked(e.right);
    case 'Cast': case 'NullTest': case 'BooleanTest': case 'FieldSelect': return blocked(e.arg);
    case 'Case': return e.whens.some((w) => blocked(w.cond) || blocked(w.result)) || blocked(e.elseExpr);
    case 'Coalesce': case 'MinMax': case 'BoolOp': case 'Row': return e.args.some(blocked);
    case 'NullIf': return blocked(e.left) || blocked(e.eq);
    case 'DistinctFrom': return blocked(e.eq);
    case 'ScalarArrayOp': return blocked(e.op);
    case 'Array': return e.elements.some(blocked);
    case 'Subscript': return blocked(e.arg) || e.indexes.some((x) => (x.lower !== null && blocked(x.lower)) || (x.upper !== null && blocked(x.upper)));
    default: return true;
  }
}

/** true when `e` reads no column of the current row (only literals, parameters, outer references) */
export function isConstant(e: Expr): boolean {
  switch (e.kind) {
    case 'ColumnRef': return e.levelsUp > 0;
    case 'Literal': case 'Param': return true;
    case 'Call': return e.args.every(isConstant);
    case 'Op': return (e.left === null || isConstant(e.left)) && isConstant(e.right);
    case 'Cast': return isConstant(e.arg);
    default: return false;
  }
}
