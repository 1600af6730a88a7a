/**
 * aggregate_from_metadata: `SELECT count(*), count(c), min(c), max(c) FROM t [WHERE …] [GROUP BY columns]` over
 * a source that can answer from metadata (TableSource.aggregateFromMetadata: Iceberg manifests) becomes a
 * MetadataAggregateSource scan. The WHERE clause must translate *exactly* into ScanPredicates (AND / OR of
 * `col op constant or $n`, IN lists, IS [NOT] NULL — no LIKE prefix, no NOT), because the source then
 * decides files by it instead of the rows being filtered again above. Whether the metadata is exact (no
 * deletes, statistics present, the filter splitting files cleanly) is only known when the manifests are read,
 * at execution: the new source falls back to running the replaced subtree then (metadata-aggregate-source.ts).
 * Runs last, so the fallback subtree carries every other rule's pushdowns.
 */
import type { MetadataAggregate } from '../../catalog/table-source.ts';
import { dateToTimestamp, sessionZoneOf, timestampToTimestamptz } from '../../functions/index.ts';
import { exprText, pushedPredicateText, someExpr, type Aggregate, type Expr, type LogicalPlan, type ParamExpr, type PushedPredicate, type TableScan } from '../../sql/index.ts';
import type { SessionConversions } from './exact-value.ts';
import { MetadataAggregateSource, paramCarrier } from './metadata-aggregate-source.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';
import { pushedPredicateOf } from './pushed-predicate-of.ts';

export const aggregateFromMetadata: OptimizerRule = {
  name: 'aggregate_from_metadata',
  apply: (plan, ctx) => {
    const zone = sessionZoneOf(ctx);
    const session: SessionConversions = { dateToTimestamptz: (days) => timestampToTimestamptz(dateToTimestamp(days), zone) };
    return transformPlanUp(plan, (p) => (p.kind === 'Aggregate' ? rewrite(p, session) ?? p : p));
  },
};

/** the aggregate as a MetadataAggregate over `width` scan columns, or null */
function metadataAggregateOf(a: Expr, scan: TableScan): MetadataAggregate | null {
  if (a.kind !== 'Aggregate' || a.filter !== null || a.orderBy.length > 0) return null;
  const arg = a.args[0];
  if (a.name === 'count') {
    if (a.star || (a.args.length === 1 && arg?.kind === 'Literal' && arg.value !== null && !a.distinct)) return { kind: 'countStar' };
    if (a.distinct || a.args.length !== 1) return null;
  } else if (a.name !== 'min' && a.name !== 'max') {
    return null;
  }
  if (arg === undefined || a.args.length !== 1 || arg.kind !== 'ColumnRef' || arg.levelsUp !== 0) return null;
  const col = scan.columns[arg.index];
  if (col === undefined || col.type.oid !== arg.type.oid) return null;
  // min / max keep the column's type (their typmod is -1: numeric values keep their own scale, the column's)
  if (a.name !== 'count' && a.type.oid !== col.type.oid) return null;
  return { kind: a.name, column: arg.index };
}

/** is the pushed predicate one the source can take exactly (no LIKE prefix), once its `$n` are known? */
function exactPushed(p: PushedPredicate): boolean {
  switch (p.kind) {
    case 'isNull': case 'isNotNull': case 'compare': case 'in': return true;
    case 'and': case 'or': return p.args.every(exactPushed);
    case 'startsWith': return false; // LIKE 'ab%' is only implied by its prefix
    case 'compareColumns': return false; // two columns of one row: no metadata holds the pair
  }
}

/** the WHERE predicate as PushedPredicates meaning exactly it, or null */
function exactFilter(e: Expr, width: number, session: SessionConversions): PushedPredicate | null {
  if (e.kind === 'BoolOp') {
    if (e.op === 'not') return null;
    const args = e.args.map((a) => exactFilter(a, width, session));
    return args.some((a) => a === null) ? null : { kind: e.op, args: args as PushedPredicate[] };
  }
  const pushed = pushedPredicateOf(e, width, session);
  return pushed !== null && exactPushed(pushed) ? pushed : null;
}

/** the `$n` of an expression, by index */
function paramsOf(e: Expr, out = new Map<number, ParamExpr>()): Map<number, ParamExpr> {
  someExpr(e, (x) => { if (x.kind === 'Param') out.set(x.index, x); return false; });
  return out;
}

function rewrite(agg: Aggregate, session: SessionConversions): LogicalPlan | null {
  if (agg.groupingSets !== null || agg.aggregates.length === 0) return null;
  const input = agg.input;
  const scan = input.kind === 'Filter' ? input.input : input;
  if (scan.kind !== 'TableScan' || scan.source.aggregateFromMetadata === undefined || scan.limit !== undefined) return null;
  // GROUP BY plain columns only: the source decides whether it can group exactly (Iceberg: identity partitions)
  const groupBy: number[] = [];
  for (const k of agg.groupKeys) {
    if (k.kind !== 'ColumnRef' || k.levelsUp !== 0 || scan.columns[k.index] === undefined) return null;
    groupBy.push(k.index);
  }
  const aggregates: MetadataAggregate[] = [];
  for (const a of agg.aggregates) {
    const m = metadataAggregateOf(a, scan);
    if (m === null) return null;
    aggregates.push(m);
  }
  const filters: PushedPredicate[] = [];
  const params = new Map<number, ParamExpr>();
  if (input.kind === 'Filter') {
    const f = exactFilter(input.predicate, scan.columns.length, session);
    if (f === null) return null;
    // a top-level AND stays a list, as on a TableScan line
    filters.push(...(f.kind === 'and' ? f.args : [f]));
    paramsOf(input.predicate, params);
  }
  const shown = filters.map((p) => pushedPredicateText(p, scan.columns));
  const keys = agg.groupKeys.length === 0 ? '' : `groupBy=[${agg.groupKeys.map(exprText).join(', ')}] `;
  const detail = `${keys}aggr=[${agg.aggregates.map(exprText).join(', ')}]${shown.length === 0 ? '' : ` filters=[${shown.join(', ')}]`}`;
  const source = new MetadataAggregateSource({ scan, aggregates, groupBy, filters, fallback: agg, detail }, agg.columns);
  // the `$n` reach the source as pushed filters of the new scan (resolved per execution): parameter carriers
  const carriers = [...params.values()].map((param) => paramCarrier(param));
  return {
    kind: 'TableScan', source, name: scan.name, tableOid: scan.tableOid, columns: agg.columns,
    ...(scan.asOf === undefined ? {} : { asOf: scan.asOf }),
    ...(carriers.length === 0 ? {} : { filters: carriers }),
  };
}
