/**
 * Plan tree utilities: rewrite every expression of a plan (children included) and, through subquery
 * expressions and LATERAL joins, the expressions one query level further down.
 */
import { transformExpr, type Expr, type SortKeyExpr } from './expr.ts';
import type { LogicalPlan, PlanKind } from './plan.ts';

/** fn(e, depth): depth counts query levels below the starting plan (subqueries, LATERAL right sides) */
export type ExprMapper = (e: Expr, depth: number) => Expr | undefined;

type Mapper<K extends PlanKind> = (p: Extract<LogicalPlan, { kind: K }>, m: (e: Expr) => Expr, sub: (p: LogicalPlan, extraDepth: number) => LogicalPlan) => LogicalPlan;

const sk = (k: SortKeyExpr, m: (e: Expr) => Expr): SortKeyExpr => ({ ...k, expr: m(k.expr) });

const MAPPERS = {
  TableScan: (p) => p,
  WorkTableScan: (p) => p,
  Values: (p, m) => ({ ...p, rows: p.rows.map((r) => r.map(m)) }),
  Filter: (p, m, s) => ({ ...p, input: s(p.input, 0), predicate: m(p.predicate) }),
  Projection: (p, m, s) => ({ ...p, input: s(p.input, 0), exprs: p.exprs.map(m) }),
  ProjectSet: (p, m, s) => ({ ...p, input: s(p.input, 0), exprs: p.exprs.map(m) }),
  Aggregate: (p, m, s) => ({ ...p, input: s(p.input, 0), groupKeys: p.groupKeys.map(m), aggregates: p.aggregates.map((a) => m(a) as typeof a) }),
  Join: (p, m, s) => ({ ...p, left: s(p.left, 0), right: s(p.right, p.lateral ? 1 : 0), condition: p.condition && m(p.condition) }),
  Sort: (p, m, s) => ({ ...p, input: s(p.input, 0), keys: p.keys.map((k) => sk(k, m)) }),
  Limit: (p, m, s) => ({ ...p, input: s(p.input, 0), limit: p.limit && m(p.limit), offset: p.offset && m(p.offset) }),
  SetOp: (p, _m, s) => ({ ...p, left: s(p.left, 0), right: s(p.right, 0) }),
  Distinct: (p, m, s) => ({ ...p, input: s(p.input, 0), on: p.on && p.on.map(m) }),
  Window: (p, m, s) => ({ ...p, input: s(p.input, 0), functions: p.functions.map((f) => m(f) as typeof f) }),
  RecursiveCte: (p, _m, s) => ({ ...p, anchor: s(p.anchor, 0), recursive: s(p.recursive, 0) }),
  FunctionScan: (p, m) => ({ ...p, args: p.args.map(m) }),
  Insert: (p, m, s) => ({ ...p, input: s(p.input, 0), returning: p.returning && p.returning.map(m) }),
  Overwrite: (p, m, s) => ({ ...p, input: s(p.input, 0), returning: p.returning && p.returning.map(m) }),
  ModifyRows: (p, m, s) => ({ ...p, input: s(p.input, 0), actions: p.actions.map((a) => ({ ...a, condition: a.condition && m(a.condition), values: a.values && a.values.map(m) })), returning: p.returning && p.returning.map(m) }),
} satisfies { [K in PlanKind]: Mapper<K> };

export function mapPlanExprs(plan: LogicalPlan, fn: ExprMapper, depth = 0): LogicalPlan {
  const m = (e: Expr): Expr => mapExprDeep(e, fn, depth);
  const sub = (p: LogicalPlan, extra: number): LogicalPlan => mapPlanExprs(p, fn, depth + extra);
  return (MAPPERS[plan.kind] as Mapper<typeof plan.kind>)(plan as never, m, sub);
}

/** transformExpr that also enters subquery plans (one level deeper) */
export function mapExprDeep(e: Expr, fn: ExprMapper, depth: number): Expr {
  return transformExpr(e, (x) => {
    const r = fn(x, depth);
    if (r !== undefined) return r;
    if (x.kind === 'Subquery') {
      return { ...x, plan: mapPlanExprs(x.plan, fn, depth + 1), test: x.test && mapExprDeep(x.test, fn, depth) };
    }
    return undefined;
  });
}
