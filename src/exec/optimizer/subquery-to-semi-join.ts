/**
 * subquery_to_semi_join: a WHERE conjunct `x op ANY (uncorrelated subquery)` — `x IN (SELECT …)` — becomes a
 * semi join on `x op y`, placed on the leaf of the inner-join tree below the Filter that holds x's columns
 * (PostgreSQL's pull_up_sublinks / convert_ANY_sublink_to_join). TPC-H Q18's
 * `o_orderkey IN (SELECT l_orderkey … HAVING sum(l_quantity) > 300)` then filters orders to a handful of
 * rows before orders meets lineitem, instead of probing a hashed subplan with every row of the
 * customer ⋈ orders ⋈ lineitem result.
 *
 * Exact for a top-level AND conjunct: the conjunct is TRUE iff some subquery row makes the test TRUE, which is
 * the semi join's condition; FALSE and NULL both drop the row. Dropping a row at the leaf instead of above
 * inner joins and filters keeps the same rows (the conjunct only reads the leaf's columns). NOT IN is left to
 * the hashed subplan: with NULLs on either side it is not an anti join. Runs before reorder_inner_joins, so
 * the join order sees the reduced leaf.
 */
import { andOf, conjunctsOf, someExpr, transformExpr, type Expr, type Filter, type Join, type LogicalPlan, type SubqueryExpr } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';

export const subqueryToSemiJoin: OptimizerRule = {
  name: 'subquery_to_semi_join',
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === 'Filter' ? rewriteFilter(p) ?? p : p)),
};



/** the conjunct as an uncorrelated ANY subquery whose test reads this level's row and the subquery's row only */
function asAnySubquery(c: Expr): SubqueryExpr | null {
  if (c.kind !== 'Subquery' || c.subKind !== 'any' || c.correlated || c.test === null) return null;
  let ok = true;
  someExpr(c.test, (x) => {
    if (x.kind === 'Subquery' || x.kind === 'Aggregate' || x.kind === 'WindowFunc' || (x.kind === 'ColumnRef' && x.levelsUp > 0)) ok = false;
    if ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v') ok = false;
    return !ok;
  });
  return ok ? c : null;
}

/** this level's columns the test reads */
function outerColumns(test: Expr): number[] {
  const out: number[] = [];
  someExpr(test, (x) => { if (x.kind === 'ColumnRef' && x.levelsUp === 0) out.push(x.index); return false; });
  return out;
}

/** `input ⋉ sub ON test`, the test's columns shifted by `shift` (they read `input` from position `shift` on) */
function semiJoin(input: LogicalPlan, sub: SubqueryExpr, shift: number): Join {
  const w = input.columns.length;
  const condition = transformExpr(sub.test!, (x) => {
    if (x.kind !== 'ColumnRef') return undefined;
    if (x.levelsUp === -1) return { ...x, levelsUp: 0, index: w + x.index };
    return x.levelsUp === 0 ? { ...x, index: x.index - shift } : undefined;
  });
  return { kind: 'Join', joinType: 'semi', left: input, right: sub.plan, condition, lateral: false, columns: input.columns };
}

/** the semi join placed on the inner-join leaf holding columns [lo, hi] of `p` (p's columns start at `offset`) */
function place(p: LogicalPlan, sub: SubqueryExpr, lo: number, hi: number, offset: number): LogicalPlan {
  if (p.kind === 'Join' && p.joinType === 'inner' && !p.lateral) {
    const lw = p.left.columns.length;
    if (hi < offset + lw) return { ...p, left: place(p.left, sub, lo, hi, offset) };
    if (lo >= offset + lw) return { ...p, right: place(p.right, sub, lo, hi, offset + lw) };
  }
  return semiJoin(p, sub, offset);
}

function rewriteFilter(f: Filter): LogicalPlan | null {
  const conjuncts = conjunctsOf(f.predicate);
  if (!conjuncts.some((c) => asAnySubquery(c) !== null)) return null;
  let input = f.input;
  const rest: Expr[] = [];
  for (const c of conjuncts) {
    const sub = asAnySubquery(c);
    const cols = sub === null ? [] : outerColumns(sub.test!);
    if (sub === null || cols.length === 0) {
      rest.push(c);
      continue;
    }
    input = place(input, sub, Math.min(...cols), Math.max(...cols), 0);
  }
  if (input === f.input) return null;
  return rest.length === 0 ? input : { ...f, input, predicate: andOf(rest) };
}
