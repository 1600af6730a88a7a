/**
 * left_join_aggregate_per_row: a GROUP BY over a LEFT JOIN whose keys cover a set the preserved side is unique on
 * (its primary key), and whose aggregates read only the nullable side, needs no grouping at all once the nullable
 * side is aggregated per join key (aggregate_below_left_join's rewrite): every preserved row then meets at most
 * one per-key row, so it is its own group, and each aggregate is that row's partial value — a count is 0 where
 * the row found no match. TPC-H Q13 groups `customer LEFT JOIN orders` by c_custkey, customer's primary key:
 * after orders is counted per o_custkey, the upper GROUP BY would only re-add one count per customer (SF 1:
 * 150k groups, a numeric sum state and a numeric → int8 cast per customer).
 *
 *   Aggregate(G ⊇ U; count(x), sum/min/max(m) over R)          Projection(G, coalesce(c, 0), p, …)
 *     Left Join(L unique on U, R, l.a = r.k AND P(r))   →        Left Join(L, Aggregate(k; c = count(x), p = …)
 *                                                                                 over Filter(P) over R, l.a = k)
 *
 * Exact under aggregate_below_left_join's conditions (each L row meets at most one group of R) plus U: two L rows
 * with equal G values agree on U, so they are one row; over one row a count of a null-extended match is 0 and a
 * sum / min / max is its one partial value (NULL without a match, as the aggregate over NULLs). An empty L gives
 * no groups either way. Runs just before aggregate_below_left_join (which handles the non-unique case) and under
 * its cost rule. Off with `lakegate.disabled_optimizer_rules = 'left_join_aggregate_per_row'`.
 */
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { Aggregate, ColumnRefExpr, Expr, LogicalPlan } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { aggregateBelowLeft } from './aggregate-below-left-join.ts';
import { rewriteAggregatesOnce } from './plan-rewrite.ts';
import { uniqueWithin } from './unique-column-sets.ts';

export const leftJoinAggregatePerRow: OptimizerRule = {
  name: 'left_join_aggregate_per_row',
  apply: (plan, ctx) => rewriteAggregatesOnce(plan, (agg, made) => perRow(agg, ctx, made)),
};

const ZERO: Expr = { kind: 'Literal', value: 0n, type: sqlType(Oid.int8) };

/** the Projection replacing `agg` (same columns), or null when the rewrite does not apply */
export function perRow(agg: Aggregate, ctx: ExecContext, made?: WeakSet<LogicalPlan>): LogicalPlan | null {
  const join = agg.input;
  if (join.kind !== 'Join' || join.joinType !== 'left') return null;
  // the group keys' plain columns of the preserved side must hold a set it is unique on
  const keyColumns = new Set<number>();
  for (const g of agg.groupKeys) if (g.kind === 'ColumnRef' && g.levelsUp === 0) keyColumns.add(g.index);
  if (keyColumns.size === 0 || !uniqueWithin(join.left, keyColumns, ctx)) return null;
  const rewritten = aggregateBelowLeft(agg);
  if (rewritten === null) return null;
  // aggregate_below_left_join's result: [Projection of the counts over] the upper Aggregate over the new join
  const upper = rewritten.kind === 'Projection' ? rewritten.input : rewritten;
  if (upper.kind !== 'Aggregate' || upper.input.kind !== 'Join') return null;
  const newJoin = upper.input;
  const lower = newJoin.right;
  if (lower.kind !== 'Aggregate') return null;
  made?.add(lower);
  // the new join's columns: L's, then the per-key aggregate's key and one partial per aggregate
  const lw = join.left.columns.length;
  const exprs: Expr[] = [...agg.groupKeys];
  agg.aggregates.forEach((a, i) => {
    const ref: ColumnRefExpr = { kind: 'ColumnRef', index: lw + 1 + i, levelsUp: 0, type: a.type, name: lower.columns[1 + i]!.name };
    // count(x) is the only count aggregate_below_left_join moves (not count(*)); over no match it is 0, not NULL
    exprs.push(a.name === 'count' ? { kind: 'Coalesce', args: [ref, ZERO], type: a.type } : ref);
  });
  return { kind: 'Projection', input: newJoin, exprs, columns: agg.columns };
}
