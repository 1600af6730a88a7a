/**
 * aggregate_over_unique_rows: a GROUP BY whose plain-column keys cover a set of columns its input is unique on
 * (unique-column-sets.ts) makes one group per input row, so it is a Projection: the group keys as they are and each
 * aggregate as its one row's value. TPC-H Q10 groups by seven customer and nation columns, c_comment among them;
 * eager_aggregation has already summed lineitem ⋈ orders per o_custkey, and customer and nation are joined to
 * those groups by their primary keys, so the input is unique on c_custkey and the seven-column hash grouping of
 * ~39k long-string rows (SF 1) only re-adds single sums. (PostgreSQL drops the GROUP BY columns a primary key
 * determines, remove_useless_groupby_columns; with a unique input the whole aggregate goes.)
 *
 *   Aggregate(G ⊇ U; sum(x), min(y), max(z))  →  Projection(G, x, y, z)     when the input is unique on U
 *
 * Exact for aggregates whose value over one row is that row's argument of the result type: sum when its result
 * type is its argument's (numeric, float4 / float8, interval, money: sum(int) is int8 / numeric, left alone),
 * min and max, DISTINCT or not; NULL arguments give NULL either way. Not for FILTER, ORDER BY within the call,
 * count, avg or anything else (left alone), nor for grouping sets. An empty input gives no rows either way.
 * Runs after the rewrites that shape joins and aggregates, before push_down_projection (so the scans stop
 * reading what only the aggregate read). Off with `lakegate.disabled_optimizer_rules = 'aggregate_over_unique_rows'`.
 */
import type { Aggregate, AggregateExpr, Expr, LogicalPlan } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';
import { uniqueWithin } from './unique-column-sets.ts';

export const aggregateOverUniqueRows: OptimizerRule = {
  name: 'aggregate_over_unique_rows',
  apply: (plan, ctx) => transformPlanUp(plan, (p) => (p.kind === 'Aggregate' ? asProjection(p, ctx) ?? p : p)),
};

/** aggregates that over one row are its argument, unchanged */
const ONE_ROW_IS_ARG: ReadonlySet<string> = new Set(['sum', 'min', 'max']);

/** the aggregate's value over one row, or null when it is not simply its argument */
function oneRowValue(a: AggregateExpr): Expr | null {
  if (!ONE_ROW_IS_ARG.has(a.name) || a.star || a.filter !== null || a.orderBy.length > 0 || a.args.length !== 1) return null;
  const arg = a.args[0]!;
  return a.argTypes[0]?.oid === a.type.oid && arg.type.oid === a.type.oid ? arg : null;
}

/** the Projection equal to `agg` over its unique input, or null */
function asProjection(agg: Aggregate, ctx: ExecContext): LogicalPlan | null {
  if (agg.groupingSets !== null || agg.groupKeys.length === 0 || agg.workerPartial === true) return null;
  const values = agg.aggregates.map(oneRowValue);
  if (values.some((v) => v === null)) return null;
  const keyColumns = new Set<number>();
  for (const k of agg.groupKeys) if (k.kind === 'ColumnRef' && k.levelsUp === 0) keyColumns.add(k.index);
  if (keyColumns.size === 0 || !uniqueWithin(agg.input, keyColumns, ctx)) return null;
  return { kind: 'Projection', input: agg.input, exprs: [...agg.groupKeys, ...(values as Expr[])], columns: agg.columns };
}
