/**
 * derive_or_filters: a join condition (or a WHERE over an inner join) that is an OR of conjunctions over both
 * inputs implies, for each input, the OR of what every arm says about that input alone — PostgreSQL's
 * extract_restriction_or_clauses (orclauses.c). TPC-H Q19:
 *   (p_brand = 'Brand#12' AND … AND l_quantity BETWEEN 1 AND 11) OR (p_brand = 'Brand#23' AND … ) OR …
 * gives `part: (p_brand = 'Brand#12' AND …) OR (p_brand = 'Brand#23' AND …) OR …` and
 * `lineitem: (l_quantity BETWEEN 1 AND 11) OR (…) OR (…)`. These become real Filters on the inputs (the hash
 * table holds ~50 parts instead of every part of size ≤ 15), while the full condition stays above: the
 * derived filters are implied by it, so they drop only rows it would drop (a row that makes an arm TRUE makes
 * that arm's part for each input TRUE).
 *
 * Where: inner and semi joins derive for both inputs, left joins for the right (non-preserved) input, right
 * joins for the left, anti joins for the right; a WHERE directly over an inner join for both. Only conjuncts
 * reading both inputs (one-input conjuncts are pushdown's business), without subqueries, outer references,
 * aggregates or volatile functions. Runs after reorder_inner_joins, which leaves such conjuncts in the join
 * condition of the join that meets both of their tables.
 */
import { andOf, conjunctsOf, exprEquals, someExpr, transformExpr, type Expr, type Filter, type LogicalPlan } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';

export const deriveOrFilters: OptimizerRule = {
  name: 'derive_or_filters',
  apply: (plan) => transformPlanUp(plan, rewrite),
};



function refs(e: Expr): number[] {
  const out: number[] = [];
  someExpr(e, (x) => { if (x.kind === 'ColumnRef' && x.levelsUp === 0) out.push(x.index); return false; });
  return out;
}

/** a conjunct that may be evaluated again, elsewhere: reads this level's row only, deterministic */
function derivable(e: Expr): boolean {
  return !someExpr(e, (x) => x.kind === 'Subquery' || x.kind === 'Aggregate' || x.kind === 'WindowFunc' || (x.kind === 'ColumnRef' && x.levelsUp !== 0)
    || ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v'));
}

/**
 * What `e` implies about the columns `inside` accepts alone, or null: `e` itself if it reads only those; for
 * AND the implied parts of its arguments; for OR, the OR of every argument's implied part (null if one arm
 * implies nothing about them).
 */
export function impliedFor(e: Expr, inside: (i: number) => boolean): Expr | null {
  if (refs(e).every(inside)) return e;
  if (e.kind !== 'BoolOp' || e.op === 'not') return null;
  const parts = e.args.map((a) => impliedFor(a, inside));
  const kept = parts.filter((x): x is Expr => x !== null);
  if (e.op === 'or' && kept.length < parts.length) return null;
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0]! : { ...e, args: kept };
}

/** the filters the conjuncts imply for the input at columns [from, from + width), over its own columns */
function derivedFor(conjuncts: readonly Expr[], from: number, width: number): Expr[] {
  const inside = (i: number): boolean => i >= from && i < from + width;
  const out: Expr[] = [];
  for (const c of conjuncts) {
    const r = refs(c);
    if (!derivable(c) || r.every(inside) || !r.some(inside)) continue;
    const d = impliedFor(c, inside);
    if (d === null) continue;
    out.push(from === 0 ? d : transformExpr(d, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index - from } : undefined)));
  }
  return out;
}

/** `input` filtered by `extra` too (merged into a Filter it already is; conjuncts it already has skipped) */
function filtered(input: LogicalPlan, extra: readonly Expr[]): LogicalPlan {
  const have = input.kind === 'Filter' ? conjunctsOf(input.predicate) : [];
  const fresh = extra.filter((e, i) => !have.some((h) => exprEquals(h, e)) && !extra.slice(0, i).some((x) => exprEquals(x, e)));
  if (fresh.length === 0) return input;
  if (input.kind === 'Filter') return { ...input, predicate: andOf([...have, ...fresh]) } satisfies Filter;
  return { kind: 'Filter', input, predicate: andOf(fresh), columns: input.columns };
}

function rewrite(p: LogicalPlan): LogicalPlan {
  if (p.kind === 'Filter' && p.input.kind === 'Join' && p.input.joinType === 'inner' && !p.input.lateral) {
    const j = p.input;
    const cs = conjunctsOf(p.predicate);
    const lw = j.left.columns.length;
    const left = filtered(j.left, derivedFor(cs, 0, lw));
    const right = filtered(j.right, derivedFor(cs, lw, j.right.columns.length));
    return left === j.left && right === j.right ? p : { ...p, input: { ...j, left, right } };
  }
  if (p.kind !== 'Join' || p.lateral || p.condition === null) return p;
  const cs = conjunctsOf(p.condition);
  const lw = p.left.columns.length;
  const forLeft = p.joinType === 'inner' || p.joinType === 'semi' || p.joinType === 'right';
  const forRight = p.joinType === 'inner' || p.joinType === 'semi' || p.joinType === 'left' || p.joinType === 'anti';
  const left = forLeft ? filtered(p.left, derivedFor(cs, 0, lw)) : p.left;
  const right = forRight ? filtered(p.right, derivedFor(cs, lw, p.right.columns.length)) : p.right;
  return left === p.left && right === p.right ? p : { ...p, left, right };
}
