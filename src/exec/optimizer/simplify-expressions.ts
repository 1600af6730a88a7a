/**
 * simplify_expressions: constant folding and boolean simplification (DataFusion's SimplifyExpressions,
 * PostgreSQL's eval_const_expressions).
 * - A call, operator or cast whose arguments are all constants is evaluated once, with the executor's own
 *   compiled code, and replaced by a Literal. Only immutable functions fold (pg_proc.provolatile 'i', the
 *   default of our registry): stable ones such as now() stay, volatile ones (random(), nextval) always stay.
 *   Operators and casts fold: we optimize once per execution with the statement's EvalContext, so even those
 *   that read TimeZone/DateStyle give what they would give at run time.
 * - An evaluation that fails (1/0, a bad cast) is left in place: the error is the executor's to raise, and
 *   only if the row is actually evaluated.
 * - AND/OR with constant true/false arguments: `x AND true` → x, `x AND false` → false, `x OR true` → true,
 *   NOT of a constant. NULL arguments are kept (three-valued logic).
 */
import type { Expr, LiteralExpr, LogicalPlan, OpExpr } from '../../sql/index.ts';
import { transformExpr } from '../../sql/index.ts';
import type { Env, ExecContext } from '../context.ts';
import { compileExpr } from '../expr/compile-expr.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { mapNodeExprs, transformPlanUp } from './plan-rewrite.ts';

export const simplifyExpressions: OptimizerRule = {
  name: 'simplify_expressions',
  apply(plan, ctx) {
    const env: Env = { ctx, outer: [], workTables: new Map(), run: () => { throw new Error('no subqueries in constants'); } };
    return transformPlanUp(plan, (p): LogicalPlan => mapNodeExprs(p, (e) => simplifyExpr(e, env)));
  },
};

const isLit = (e: Expr): e is LiteralExpr => e.kind === 'Literal';
const isBool = (e: Expr, v: boolean): boolean => e.kind === 'Literal' && e.value === v;

/** folds `e` bottom-up (exported for tests) */
export function simplifyExpr(e: Expr, env: Env): Expr {
  const s = (x: Expr): Expr => simplifyExpr(x, env);
  // the comparison inside NULLIF / IS DISTINCT FROM / ANY is evaluated by its parent: fold its operands only
  const opArgs = (op: OpExpr): OpExpr => ({ ...op, left: op.left && s(op.left), right: s(op.right) });
  switch (e.kind) {
    case 'NullIf': return foldNode({ ...e, left: s(e.left), eq: opArgs(e.eq) }, env);
    case 'DistinctFrom': return foldNode({ ...e, eq: opArgs(e.eq) }, env);
    case 'ScalarArrayOp': return foldNode({ ...e, op: opArgs(e.op) }, env);
    case 'Subquery': case 'Aggregate': case 'WindowFunc': case 'SetCall': return oneLevel(e, s);
    default: return foldNode(oneLevel(e, s), env);
  }
}

/** `e` with each direct child replaced by f(child) */
function oneLevel(e: Expr, f: (x: Expr) => Expr): Expr {
  let first = true;
  return transformExpr(e, (y) => {
    if (first) { first = false; return undefined; }
    return f(y);
  });
}

function foldNode(e: Expr, env: Env): Expr {
  switch (e.kind) {
    case 'BoolOp': return simplifyBool(e, env);
    case 'Call':
      if (e.def.volatility === 'v' || e.def.volatility === 's') return e;
      return e.args.every(isLit) ? evaluate(e, env) : e;
    case 'Op': return (e.left === null || isLit(e.left)) && isLit(e.right) ? evaluate(e, env) : e;
    case 'Cast': case 'NullTest': case 'BooleanTest': return isLit(e.arg) ? evaluate(e, env) : e;
    case 'Coalesce': case 'MinMax': return e.args.every(isLit) ? evaluate(e, env) : e;
    case 'NullIf': return isLit(e.left) && isLit(e.eq.right) ? evaluate(e, env) : e;
    case 'DistinctFrom': return e.eq.left !== null && isLit(e.eq.left) && isLit(e.eq.right) ? evaluate(e, env) : e;
    case 'ScalarArrayOp': return e.op.left !== null && isLit(e.op.left) && isLit(e.op.right) ? evaluate(e, env) : e;
    case 'Array': return e.elements.every(isLit) ? evaluate(e, env) : e;
    default: return e;
  }
}

function simplifyBool(e: Extract<Expr, { kind: 'BoolOp' }>, env: Env): Expr {
  if (e.op === 'not') return isLit(e.args[0]!) ? evaluate(e, env) : e;
  const absorbing = e.op === 'or'; // OR: true wins; AND: false wins
  if (e.args.some((a) => isBool(a, absorbing))) return lit(absorbing, e);
  const args = e.args.filter((a) => !isBool(a, !absorbing));
  if (args.length === 0) return lit(!absorbing, e);
  if (args.length === 1) return args[0]!;
  return args.length === e.args.length ? e : { ...e, args };
}

function lit(value: unknown, like: Expr): LiteralExpr {
  return { kind: 'Literal', value, type: like.type };
}

/** the expression's value as a Literal, or the expression itself when evaluating it fails or is async */
function evaluate(e: Expr, env: Env): Expr {
  try {
    const v = compileExpr(e, env).fn([], 0);
    if (typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function') return e;
    return lit(v === undefined ? null : v, e);
  } catch {
    return e;
  }
}

/** for tests: an Env over a bare context */
export function constantEnv(ctx: ExecContext): Env {
  return { ctx, outer: [], workTables: new Map(), run: () => { throw new Error('no subqueries in constants'); } };
}
