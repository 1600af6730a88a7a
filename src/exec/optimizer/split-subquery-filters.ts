/**
 * split_subquery_filters: a WHERE whose conjuncts mix subqueries with plain comparisons becomes two Filters,
 * the plain conjuncts below. A predicate with a subquery runs a row at a time (its subquery may wait), the plain
 * ones are column kernels (expr/vector-expr.ts): TPC-H Q22's `substring(c_phone, 1, 2) IN (…)` then judges
 * every customer at once and `c_acctbal > (SELECT avg(…))` only the fifth of them it keeps — PostgreSQL
 * also tests the cheap quals first (order_qual_clauses by cost). Runs after push_down_filter, on the Filters
 * the scans could not take. Off with `lakegate.disabled_optimizer_rules = 'split_subquery_filters'`.
 */
import { andOf, conjunctsOf, someExpr, type Expr, type LogicalPlan } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';

export const splitSubqueryFilters: OptimizerRule = {
  name: 'split_subquery_filters',
  apply: (plan) => transformPlanUp(plan, split),
};

const hasSubquery = (e: Expr): boolean => someExpr(e, (x) => x.kind === 'Subquery');

function split(p: LogicalPlan): LogicalPlan {
  if (p.kind !== 'Filter') return p;
  const all = conjunctsOf(p.predicate);
  const withSub = all.filter(hasSubquery);
  if (withSub.length === 0 || withSub.length === all.length) return p;
  const plain = all.filter((c) => !hasSubquery(c));
  const below: LogicalPlan = { kind: 'Filter', input: p.input, predicate: andOf(plain), columns: p.input.columns };
  return { ...p, input: below, predicate: andOf(withSub) };
}
