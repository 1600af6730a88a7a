/**
 * push_down_projection: records on each TableScan the source columns the query reads (ScanContext.projection),
 * so Iceberg decodes only those Parquet column chunks. The plan's column layout does not change: a source
 * may return NULL in the other columns, which no operator reads. The needed set flows top-down — the root
 * needs all its columns; a node needs the columns its expressions read (including the correlated references
 * of its subqueries) plus what its parent needs of the columns it passes through. DISTINCT, set operations,
 * recursive CTEs, INSERT and UPDATE/DELETE need every input column.
 */
import { mapExprDeep, planChildren, type Expr, type LogicalPlan } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { mapNodeExprs, mapSubqueryPlans, withChildren } from './plan-rewrite.ts';

export const pushDownProjection: OptimizerRule = {
  name: 'push_down_projection',
  apply: (plan) => visit(plan, null),
};

/** bool, int2/4/8, float4/8, date, time, timestamp, timestamptz: cheap to decode */
const FIXED_WIDTH: ReadonlySet<number> = new Set([16, 20, 21, 23, 700, 701, 1082, 1083, 1114, 1184]);

/** null = all columns */
type Need = ReadonlySet<number> | null;

/** this level's columns `e` reads, also from inside its subqueries (their references with levelsUp = depth) */
export function columnsRead(e: Expr, into: Set<number>): Set<number> {
  mapExprDeep(e, (x, depth) => {
    if (x.kind === 'ColumnRef' && x.levelsUp === depth) into.add(x.index);
    return undefined;
  }, 0);
  return into;
}

function readAll(es: readonly (Expr | null)[], into = new Set<number>()): Set<number> {
  for (const e of es) if (e !== null) columnsRead(e, into);
  return into;
}

function union(need: Need, extra: Set<number>): Need {
  if (need === null) return null;
  for (const i of need) extra.add(i);
  return extra;
}

function visitSubqueries(p: LogicalPlan): LogicalPlan {
  let has = false;
  mapNodeExprs(p, (e) => { mapExprDeep(e, (x) => { if (x.kind === 'Subquery') has = true; return undefined; }, 0); return e; });
  return has ? mapNodeExprs(p, (e) => mapSubqueryPlans(e, (sp) => visit(sp, null))) : p;
}

function visit(plan: LogicalPlan, need: Need): LogicalPlan {
  const p = visitSubqueries(plan);
  const kids = (...n: Need[]): LogicalPlan => withChildren(p, planChildren(p).map((c, i) => visit(c, n[i] ?? null)));
  switch (p.kind) {
    case 'TableScan': {
      if (need === null) return p;
      const width = p.columns.length;
      const cols = [...need].filter((i) => i >= 0 && i < width).sort((a, b) => a - b);
      // a scan must still report its rows (count(*)): keep one column, a fixed-width one if there is one
      if (cols.length === 0 && width > 0) cols.push(Math.max(0, p.columns.findIndex((c) => FIXED_WIDTH.has(c.type.oid))));
      return cols.length === width ? p : { ...p, projection: cols };
    }
    case 'Filter': return kids(union(need, readAll([p.predicate])));
    case 'Sort': return kids(union(need, readAll(p.keys.map((k) => k.expr))));
    case 'Limit': return kids(union(need, readAll([p.limit, p.offset])));
    case 'Projection': {
      // outputs nobody needs are still computed: only plain column copies may read a NULL column
      const used = p.exprs.filter((e, i) => need === null || need.has(i) || e.kind !== 'ColumnRef');
      return kids(readAll(used));
    }
    case 'ProjectSet': return kids(readAll(p.exprs));
    case 'Aggregate': return kids(readAll([...p.groupKeys, ...p.aggregates]));
    case 'Window': {
      const width = p.input.columns.length;
      const fromAbove = need === null ? null : new Set([...need].filter((i) => i < width));
      return kids(union(fromAbove, readAll(p.functions)));
    }
    case 'Join': {
      const lw = p.left.columns.length;
      const rw = p.right.columns.length;
      const cond = readAll([p.condition]);
      const all = need === null ? null : union(need, new Set(cond));
      // LATERAL: the right side reads the left row (levelsUp = 1): all of the left
      if (p.lateral) return kids(null, all === null ? null : shift(all, lw, rw));
      if (all === null) return kids(null, null);
      const leftOnly = p.joinType === 'semi' || p.joinType === 'anti';
      const left = new Set([...all, ...cond].filter((i) => i < lw));
      const right = shift(leftOnly ? cond : all, lw, rw);
      return kids(left, right);
    }
    default: return kids();
  }
}

function shift(need: ReadonlySet<number>, from: number, width: number): Set<number> {
  return new Set([...need].filter((i) => i >= from && i < from + width).map((i) => i - from));
}
