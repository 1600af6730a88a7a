/**
 * Tree plumbing for optimizer rules: replace a node's children, map the expressions of one node (not its
 * children), and rewrite every node of a plan bottom-up — including the plans of subquery expressions, which
 * the executor runs through the same planner and so must be optimized as well.
 */
import { planChildren, transformExpr, type Aggregate, type Expr, type LogicalPlan, type PlanKind, type SortKeyExpr } from '../../sql/index.ts';

type WithKids<K extends PlanKind> = (p: Extract<LogicalPlan, { kind: K }>, k: readonly LogicalPlan[]) => LogicalPlan;

const WITH_CHILDREN = {
  TableScan: (p) => p,
  Values: (p) => p,
  WorkTableScan: (p) => p,
  FunctionScan: (p) => p,
  Filter: (p, k) => ({ ...p, input: k[0]! }),
  Projection: (p, k) => ({ ...p, input: k[0]! }),
  ProjectSet: (p, k) => ({ ...p, input: k[0]! }),
  Aggregate: (p, k) => ({ ...p, input: k[0]! }),
  Sort: (p, k) => ({ ...p, input: k[0]! }),
  Limit: (p, k) => ({ ...p, input: k[0]! }),
  Distinct: (p, k) => ({ ...p, input: k[0]! }),
  Window: (p, k) => ({ ...p, input: k[0]! }),
  Insert: (p, k) => ({ ...p, input: k[0]! }),
  Overwrite: (p, k) => ({ ...p, input: k[0]! }),
  ModifyRows: (p, k) => ({ ...p, input: k[0]! }),
  Join: (p, k) => ({ ...p, left: k[0]!, right: k[1]! }),
  SetOp: (p, k) => ({ ...p, left: k[0]!, right: k[1]! }),
  RecursiveCte: (p, k) => ({ ...p, anchor: k[0]!, recursive: k[1]! }),
} satisfies { [K in PlanKind]: WithKids<K> };

/** `p` with its children replaced (same order as planChildren); `p` itself when they are the same objects */
export function withChildren(p: LogicalPlan, kids: readonly LogicalPlan[]): LogicalPlan {
  const old = planChildren(p);
  if (old.length === kids.length && old.every((c, i) => c === kids[i])) return p;
  return (WITH_CHILDREN[p.kind] as WithKids<typeof p.kind>)(p as never, kids);
}

type MapExprs<K extends PlanKind> = (p: Extract<LogicalPlan, { kind: K }>, m: (e: Expr) => Expr) => LogicalPlan;
const sk = (k: SortKeyExpr, m: (e: Expr) => Expr): SortKeyExpr => ({ ...k, expr: m(k.expr) });

const MAP_EXPRS = {
  TableScan: (p) => p,
  WorkTableScan: (p) => p,
  SetOp: (p) => p,
  RecursiveCte: (p) => p,
  Values: (p, m) => ({ ...p, rows: p.rows.map((r) => r.map(m)) }),
  Filter: (p, m) => ({ ...p, predicate: m(p.predicate) }),
  Projection: (p, m) => ({ ...p, exprs: p.exprs.map(m) }),
  ProjectSet: (p, m) => ({ ...p, exprs: p.exprs.map(m) }),
  Aggregate: (p, m) => ({ ...p, groupKeys: p.groupKeys.map(m), aggregates: p.aggregates.map((a) => m(a) as typeof a) }),
  Join: (p, m) => ({ ...p, condition: p.condition && m(p.condition) }),
  Sort: (p, m) => ({ ...p, keys: p.keys.map((k) => sk(k, m)) }),
  Limit: (p, m) => ({ ...p, limit: p.limit && m(p.limit), offset: p.offset && m(p.offset) }),
  Distinct: (p, m) => ({ ...p, on: p.on && p.on.map(m) }),
  Window: (p, m) => ({ ...p, functions: p.functions.map((f) => m(f) as typeof f) }),
  FunctionScan: (p, m) => ({ ...p, args: p.args.map(m) }),
  Insert: (p, m) => ({ ...p, returning: p.returning && p.returning.map(m) }),
  Overwrite: (p, m) => ({ ...p, returning: p.returning && p.returning.map(m) }),
  ModifyRows: (p, m) => ({ ...p, actions: p.actions.map((a) => ({ ...a, condition: a.condition && m(a.condition), values: a.values && a.values.map(m) })), returning: p.returning && p.returning.map(m) }),
} satisfies { [K in PlanKind]: MapExprs<K> };

/** maps the expressions of this node only (children untouched) */
export function mapNodeExprs(p: LogicalPlan, m: (e: Expr) => Expr): LogicalPlan {
  return (MAP_EXPRS[p.kind] as MapExprs<typeof p.kind>)(p as never, m);
}

/** the expressions of this node only */
export function nodeExprs(p: LogicalPlan): Expr[] {
  const out: Expr[] = [];
  mapNodeExprs(p, (e) => { out.push(e); return e; });
  return out;
}

/** rewrites the plans of the subquery expressions inside `e` */
export function mapSubqueryPlans(e: Expr, f: (p: LogicalPlan) => LogicalPlan): Expr {
  return transformExpr(e, (x) => (x.kind === 'Subquery' ? { ...x, plan: f(x.plan), test: x.test && mapSubqueryPlans(x.test, f) } : undefined));
}

/** true when some expression of this node holds a subquery */
export function hasSubquery(p: LogicalPlan): boolean {
  const seen = { found: false };
  mapNodeExprs(p, (e) => {
    transformExpr(e, (x) => { if (x.kind === 'Subquery') seen.found = true; return undefined; });
    return e;
  });
  return seen.found;
}

/**
 * Applies `fn` to every node, children (and subquery plans) first. `fn` sees a node whose children are
 * already rewritten and returns it or a replacement.
 */
export function transformPlanUp(plan: LogicalPlan, fn: (p: LogicalPlan) => LogicalPlan): LogicalPlan {
  let p = withChildren(plan, planChildren(plan).map((c) => transformPlanUp(c, fn)));
  if (hasSubquery(p)) p = mapNodeExprs(p, (e) => mapSubqueryPlans(e, (sp) => transformPlanUp(sp, fn)));
  return fn(p);
}

/**
 * Applies `fn` top-down: `fn` returns a replacement (which is visited again) or null to descend into the
 * children. Subquery plans are visited the same way.
 */
export function transformPlanDown(plan: LogicalPlan, fn: (p: LogicalPlan) => LogicalPlan | null): LogicalPlan {
  let p = plan;
  for (let guard = 0; guard < 64; guard++) {
    const r = fn(p);
    if (r === null) break;
    p = r;
  }
  p = withChildren(p, planChildren(p).map((c) => transformPlanDown(c, fn)));
  if (hasSubquery(p)) p = mapNodeExprs(p, (e) => mapSubqueryPlans(e, (sp) => transformPlanDown(sp, fn)));
  return p;
}

/**
 * transformPlanDown over Aggregate nodes, each rewritten at most once: transformPlanDown feeds a replacement to `fn`
 * again, so the rewrite's result and the Aggregates it builds (added by `f` to `made`) are left alone instead of
 * being rewritten until the row estimates happen to stop it.
 */
export function rewriteAggregatesOnce(plan: LogicalPlan, f: (agg: Aggregate, made: WeakSet<LogicalPlan>) => LogicalPlan | null): LogicalPlan {
  const made = new WeakSet<LogicalPlan>();
  return transformPlanDown(plan, (p) => {
    if (p.kind !== 'Aggregate' || made.has(p)) return null;
    const r = f(p, made);
    if (r !== null) made.add(r);
    return r;
  });
}

/** `e` with this level's column references moved by `by` (callers checked `e` holds no subqueries) */
export function shiftColumns(e: Expr, by: number): Expr {
  return transformExpr(e, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index + by } : undefined));
}

/** every plan node including subquery plans (for tests and EXPLAIN) */
export function allPlanNodes(plan: LogicalPlan): LogicalPlan[] {
  const out: LogicalPlan[] = [];
  transformPlanUp(plan, (p) => { out.push(p); return p; });
  return out;
}
