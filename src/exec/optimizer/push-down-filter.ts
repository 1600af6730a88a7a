/**
 * push_down_filter: the conjuncts of WHERE / JOIN … ON that a scan can use to skip data are recorded on the
 * TableScan as PushedPredicates (pushed-predicate-of.ts). Pushdown is inexact: nothing is removed from the
 * plan, the Filter (or join condition) above still decides, so a conjunct may travel down wherever dropping
 * rows that fail it cannot change what reaches it — through Filter, Sort, DISTINCT, pass-through Projection
 * columns, GROUP BY keys (without grouping sets), window PARTITION BY keys, the preserved side's WHERE conjuncts of
 * outer joins and the non-preserved side's ON conjuncts. Not through LIMIT, set operations or DISTINCT ON.
 */
import { dateToTimestamp, sessionZoneOf, timestampToTimestamptz } from '../../functions/index.ts';
import type { SessionConversions } from './exact-value.ts';
import { conjunctsOf, someExpr, transformExpr, type Expr, type LogicalPlan, type PushedPredicate } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { mapNodeExprs, mapSubqueryPlans, withChildren } from './plan-rewrite.ts';
import { pushedPredicateOf } from './pushed-predicate-of.ts';
import { planChildren } from '../../sql/index.ts';

export const pushDownFilter: OptimizerRule = {
  name: 'push_down_filter',
  apply: (plan, ctx) => {
    const zone = sessionZoneOf(ctx);
    session = { dateToTimestamptz: (days) => timestampToTimestamptz(dateToTimestamp(days), zone) };
    try {
      return visit(plan, []);
    } finally {
      session = undefined;
    }
  },
};

/** the execution's TimeZone-dependent conversions, for the (synchronous) duration of one apply() */
let session: SessionConversions | undefined;


/** conjuncts that only read this level's row: no subqueries, no outer references */
function local(e: Expr | null): Expr[] {
  if (e === null) return [];
  return conjunctsOf(e).filter((c) => !someExpr(c, (x) => x.kind === 'Subquery' || (x.kind === 'ColumnRef' && x.levelsUp !== 0) || x.kind === 'Aggregate' || x.kind === 'WindowFunc'));
}

function refs(e: Expr): number[] {
  const out: number[] = [];
  someExpr(e, (x) => { if (x.kind === 'ColumnRef' && x.levelsUp === 0) out.push(x.index); return false; });
  return out;
}

/**
 * What `e` implies about the columns `inside` accepts alone, or null: `e` itself if it reads only those; for
 * AND the implied parts of its arguments; for OR, the OR of every argument's implied part (TPC-H Q19's
 * `(p.brand = 'a' AND l.qty < 5) OR (p.brand = 'b' AND l.qty > 9)` implies `p.brand = 'a' OR p.brand = 'b'`).
 */
function implied(e: Expr, inside: (i: number) => boolean): Expr | null {
  if (refs(e).every(inside)) return e;
  if (e.kind !== 'BoolOp' || e.op === 'not') return null;
  const parts = e.args.map((a) => implied(a, inside));
  const kept = parts.filter((x): x is Expr => x !== null);
  if (e.op === 'or' && kept.length < parts.length) return null;
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0]! : { ...e, args: kept };
}

/** what hints imply about the columns in [from, from + width), renumbered to start at 0 */
function slice(hints: readonly Expr[], from: number, width: number): Expr[] {
  return hints
    .map((h) => implied(h, (i) => i >= from && i < from + width))
    .filter((h): h is Expr => h !== null)
    .map((h) => (from === 0 ? h : transformExpr(h, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index - from } : undefined))));
}

/** hints over the output of a node whose output column k is `exprs[k]`, rewritten over its input (pass-through columns only) */
function through(hints: readonly Expr[], exprs: readonly Expr[]): Expr[] {
  const out: Expr[] = [];
  for (const h of hints) {
    if (!refs(h).every((i) => exprs[i]?.kind === 'ColumnRef' && (exprs[i] as { levelsUp: number }).levelsUp === 0)) continue;
    out.push(transformExpr(h, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...(exprs[x.index] as typeof x), name: x.name } : undefined)));
  }
  return out;
}

/** identity of a pushed predicate (values are plain data: bigint, Numeric and dates print distinctly) */
function keyOf(p: PushedPredicate): string {
  return JSON.stringify(p, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

function visitSubqueries(p: LogicalPlan): LogicalPlan {
  let has = false;
  mapNodeExprs(p, (e) => { if (someExpr(e, (x) => x.kind === 'Subquery')) has = true; return e; });
  return has ? mapNodeExprs(p, (e) => mapSubqueryPlans(e, (sp) => visit(sp, []))) : p;
}

function visit(plan: LogicalPlan, hints: readonly Expr[]): LogicalPlan {
  const p = visitSubqueries(plan);
  const kids = (...h: (readonly Expr[])[]): LogicalPlan => withChildren(p, planChildren(p).map((c, i) => visit(c, h[i] ?? [])));
  switch (p.kind) {
    case 'TableScan': {
      // the same conjunct may arrive twice (a derived filter and the join condition it came from)
      const seen = new Set<string>((p.filters ?? []).map(keyOf));
      const pushed = hints.map((h) => pushedPredicateOf(h, p.columns.length, session)).filter((x): x is PushedPredicate => {
        if (x === null) return false;
        const k = keyOf(x);
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      return pushed.length === 0 ? p : { ...p, filters: [...(p.filters ?? []), ...pushed] };
    }
    case 'Filter': return kids([...hints, ...local(p.predicate)]);
    case 'Sort': return kids(hints);
    case 'Distinct': return p.on === null ? kids(hints) : kids();
    case 'Projection': return kids(through(hints, p.exprs));
    case 'Aggregate': return p.groupingSets === null ? kids(through(hints, p.groupKeys)) : kids();
    case 'Window': {
      // a conjunct on columns every window function partitions by keeps or drops whole partitions
      const byAll = (i: number): boolean => p.functions.every((f) => f.spec.partitionBy.some((e) => e.kind === 'ColumnRef' && e.levelsUp === 0 && e.index === i));
      return kids(hints.filter((h) => refs(h).every(byAll)));
    }
    case 'Join': {
      const lw = p.left.columns.length;
      const rw = p.right.columns.length;
      const cond = local(p.condition);
      if (p.lateral) return kids(p.joinType === 'inner' || p.joinType === 'left' ? slice(hints, 0, lw) : []);
      switch (p.joinType) {
        case 'inner': { const all = [...hints, ...cond]; return kids(slice(all, 0, lw), slice(all, lw, rw)); }
        case 'left': return kids(slice(hints, 0, lw), slice(cond, lw, rw));
        case 'right': return kids(slice(cond, 0, lw), slice(hints, lw, rw));
        case 'semi': return kids(slice([...hints, ...cond], 0, lw), slice(cond, lw, rw));
        case 'anti': return kids(slice(hints, 0, lw), slice(cond, lw, rw));
        case 'full': return kids();
      }
      return kids();
    }
    default: return kids();
  }
}
