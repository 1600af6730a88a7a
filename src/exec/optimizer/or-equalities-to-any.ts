/**
 * or_equalities_to_any: `e = 'a' OR e = 'b' OR …` over one computed expression `e` becomes `e = ANY('{a,b,…}')`,
 * the form PostgreSQL's parser gives `e IN ('a', 'b', …)` (transformAExprIn → ScalarArrayOpExpr). Our binder
 * spells an IN list as an OR of equalities, which evaluates `e` once per arm: TPC-H Q22's
 * `substring(c_phone from 1 for 2) in ('13', '31', '23', '29', '30', '18', '17')` computed the substring up to
 * seven times per customer, twice (the query and its subquery). As ANY, `e` is computed once per row.
 *
 * Exact: OR is TRUE when some arm is, else NULL when some arm is NULL, else FALSE — ANY's rule for the same
 * comparisons (a NULL `e` makes every arm NULL, and ANY NULL). Only when every arm applies the same `=`
 * operator to the same non-volatile `e` and a non-NULL constant of one type. Plain columns keep the OR: their
 * arms cost one comparison each, and the scans judge them as IN lists already.
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import { arrayTypeOf } from '../../common/pgtypes/registry.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import { exprEquals, someExpr, transformExpr, type Expr, type OpExpr } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { mapNodeExprs, transformPlanUp } from './plan-rewrite.ts';

export const orEqualitiesToAny: OptimizerRule = {
  name: 'or_equalities_to_any',
  apply: (plan) => transformPlanUp(plan, (p) => mapNodeExprs(p, rewriteExpr)),
};

/** every OR in `e`, innermost first */
function rewriteExpr(e: Expr): Expr {
  return transformExpr(e, (x) => {
    if (x.kind !== 'BoolOp' || x.op !== 'or') return undefined;
    const args = x.args.map(rewriteExpr);
    return rewriteOr(args, x.type) ?? (args.every((a, i) => a === x.args[i]) ? x : { ...x, args });
  });
}

/** the expression side and the constant of `e = c` when c is a non-NULL literal (the binder puts IN items right) */
function equality(a: Expr): { readonly op: OpExpr; readonly e: Expr; readonly value: unknown } | null {
  if (a.kind !== 'Op' || a.name !== '=' || a.left === null || a.leftType === null) return null;
  if (a.right.kind === 'Literal' && a.right.value !== null && a.left.kind !== 'Literal') return { op: a, e: a.left, value: a.right.value };
  return null;
}

/**
 * work worth saving: not a bare column, also not one under casts that only relabel its type (varchar → text:
 * such arms cost one comparison each), no volatile call, no subquery
 */
function computed(e: Expr): boolean {
  let bare = e;
  while (bare.kind === 'Cast' && bare.fn === null) bare = bare.arg;
  if (bare.kind === 'ColumnRef') return false;
  return !someExpr(e, (x) => x.kind === 'Subquery' || x.kind === 'Aggregate' || x.kind === 'WindowFunc'
    || ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v'));
}

/**
 * The OR's arguments with every group of ≥ 2 equalities over one computed expression merged into an ANY
 * (kept in the place of the group's first arm); undefined when nothing merges.
 */
export function rewriteOr(args: readonly Expr[], type: SqlType): Expr | undefined {
  const eqs = args.map(equality);
  const out: Expr[] = [];
  const used = new Set<number>();
  for (let i = 0; i < args.length; i++) {
    if (used.has(i)) continue;
    const first = eqs[i];
    if (first === undefined || first === null || !computed(first.e)) {
      out.push(args[i]!);
      continue;
    }
    const group = [i];
    for (let j = i + 1; j < args.length; j++) {
      const other = eqs[j];
      if (other !== undefined && other !== null && !used.has(j) && other.op.def === first.op.def
        && other.op.rightType.oid === first.op.rightType.oid && other.op.rightType.typmod === first.op.rightType.typmod
        && exprEquals(other.e, first.e)) group.push(j);
    }
    const arrayOid = arrayTypeOf(first.op.rightType.oid);
    if (group.length < 2 || arrayOid === 0) {
      out.push(args[i]!);
      continue;
    }
    for (const j of group) used.add(j);
    const list: Expr = { kind: 'Literal', value: pgArray(first.op.rightType.oid, group.map((j) => eqs[j]!.value)), type: { oid: arrayOid, typmod: first.op.rightType.typmod } };
    out.push({ kind: 'ScalarArrayOp', op: { ...first.op, right: list }, useOr: true, type: first.op.type });
  }
  if (out.length === args.length) return undefined;
  return out.length === 1 ? out[0]! : { kind: 'BoolOp', op: 'or', args: out, type };
}
