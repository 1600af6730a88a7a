/**
 * correlated_aggregate_from_join: a decorrelated per-key aggregate over a join S (or one table), joined back to an
 * outer side X that itself is S joined to more inputs U by that key, is computed from X's rows instead of running
 * S a second time — TPC-H Q17's
 *
 *   lineitem ⋈ σ(part) … l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)
 *
 * (S = lineitem, U = σ(part)) and Q2's min(ps_supplycost) over S = partsupp ⋈ supplier ⋈ nation ⋈ σ(region), which
 * its outer FROM joins to σ(part) by ps_partkey = p_partkey. The binder decorrelates them to
 * X ⟕[key = o] π(Aggregate(S; k; aggs)); the aggregate then reads X (one subtree; share_repeated_subplans runs it
 * once for both readers) instead of a second scan of lineitem / partsupp:
 *
 *   X ⟕[key = x.o] π(Aggregate(S; k; aggs))  →  X ⟕[key = x.o] π(Aggregate(X; x.k; aggs over X's S columns))
 *
 * Exact when, for every key v the outer side holds, the rows of X with k = v are S's rows with k = v, each m(v)
 * times: X's inner-join graph (inner-join-graph.ts: leaves and conjuncts, whatever the join order) holds S's —
 * equal leaves (the same tables; X's pushed filters on them also S's: an outer filter on S's tables would drop rows
 * the subquery sees) and S's conjuncts, with no other conjunct over S's leaves alone; a `$n` of the
 * literal-normalised outer query matches the subquery's equal constant, and the plan is kept for that value only
 * (param-identity.ts) — and X's remaining conjuncts
 * are over U alone or `u = k` of a U column and a group key, over one integer type (NULL keys match neither the
 * join nor the subquery's `=`). Each S row of key v then joins every U row tied to v, m(v) ≥ 1 times for the
 * keys X holds: exact for any aggregate when U is one input unique on its tied columns (m = 1: a PRIMARY KEY
 * lakegate verified, unique-column-sets.ts), and otherwise only for aggregates that see a set, not a multiset —
 * min, max, bool_and, bool_or, every and DISTINCT ones (count and sum would multiply by m; avg's result scale and
 * float rounding depend on m too). The left join must look each outer row's own key up (its outer column is k in
 * X or a U column tied to k), so the group it reads exists in X; keys X does not hold are dropped by the join
 * either way. Only when the outer side is one share_repeated_subplans runs once for both readers (invariant,
 * estimated ≤ MAX_SHARED_ROWS). Runs after push_down_filter (the outer side's filters sit on its leaves) and before
 * push_down_projection / choose_build_side.
 * Off with `lakegate.disabled_optimizer_rules = 'correlated_aggregate_from_join'`.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { conjunctsOf, someExpr, transformExpr, type Aggregate, type AggregateExpr, type ColumnRefExpr, type Expr, type Join, type LogicalPlan, type Projection } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import { invariant } from '../recursive-invariants.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';
import { MAX_SHARED_ROWS } from './share-repeated-subplans.ts';
import { uniqueWithin } from './unique-column-sets.ts';
import { embedJoinGraph, innerJoinGraph, type JoinGraph } from './inner-join-graph.ts';
import { sameValue } from './param-identity.ts';

export const correlatedAggregateFromJoin: OptimizerRule = {
  name: 'correlated_aggregate_from_join',
  apply: (plan, ctx) => transformPlanUp(plan, (p) => (p.kind === 'Join' ? rewrite(p, ctx) ?? p : p)),
};

/** integer types: `=` is the grouping's equality, and the join's and the subquery's `=` drop NULLs alike */
const INT_TYPES: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);
/** aggregates whose result depends on the set of input values, not on how often each occurs */
const SET_AGGREGATES: ReadonlySet<string> = new Set(['min', 'max', 'bool_and', 'bool_or', 'every']);

const unmovable = (e: Expr): boolean => someExpr(e, (x) => x.kind === 'Subquery' || x.kind === 'WindowFunc' || ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v'));

/** `a = b` of two plain columns of this level, one integer type; the operands or null */
function columnEq(c: Expr): { readonly left: ColumnRefExpr; readonly right: ColumnRefExpr } | null {
  if (c.kind !== 'Op' || c.name !== '=' || c.left?.kind !== 'ColumnRef' || c.right.kind !== 'ColumnRef') return null;
  if (c.left.levelsUp !== 0 || c.right.levelsUp !== 0 || c.leftType?.oid !== c.rightType.oid || !INT_TYPES.has(c.rightType.oid)) return null;
  if (c.left.type.oid !== c.rightType.oid || c.right.type.oid !== c.rightType.oid) return null;
  return { left: c.left, right: c.right };
}

/** the right input of the left join as π(Aggregate(S; k₁ … kₙ)), plain column keys: its parts, or null */
function correlatedAggregate(r: LogicalPlan): { readonly proj: Projection; readonly agg: Aggregate } | null {
  if (r.kind !== 'Projection' || r.input.kind !== 'Aggregate') return null;
  const agg = r.input;
  if (agg.groupingSets !== null || agg.groupKeys.length === 0 || agg.workerPartial === true) return null;
  if (agg.groupKeys.some((g) => g.kind !== 'ColumnRef' || g.levelsUp !== 0)) return null;
  if (agg.aggregates.some((a) => unmovable(a))) return null;
  return { proj: r, agg };
}

/** per group key of the aggregate: the outer side's output column the left join's condition equates it with */
function outerKeyColumns(j: Join, proj: Projection, keys: number): number[] | null {
  const lw = j.left.columns.length;
  const outer: number[] = new Array<number>(keys).fill(-1);
  for (const c of conjunctsOf(j.condition!)) {
    const eq = columnEq(c);
    if (eq === null || (eq.left.index < lw) === (eq.right.index < lw)) return null;
    const outerCol = eq.left.index < lw ? eq.left.index : eq.right.index;
    const keyExpr = proj.exprs[(eq.left.index < lw ? eq.right.index : eq.left.index) - lw];
    // the join reads one of the aggregate's group keys (its output columns 0 … n−1) through the projection
    if (keyExpr?.kind !== 'ColumnRef' || keyExpr.levelsUp !== 0 || keyExpr.index >= keys || outer[keyExpr.index] !== -1) return null;
    outer[keyExpr.index] = outerCol;
  }
  return outer.every((o) => o >= 0) ? outer : null;
}

function rewrite(j: Join, ctx: ExecContext): Join | null {
  if (j.joinType !== 'left' || j.lateral || j.condition === null || j.buildSide !== undefined) return null;
  const sub = correlatedAggregate(j.right);
  if (sub === null) return null;
  const outerCols = outerKeyColumns(j, sub.proj, sub.agg.groupKeys.length);
  if (outerCols === null) return null;
  // both readers must get the same rows from one run: a volatile outer side run twice could differ (and a big
  // or unestimated one, which share_repeated_subplans would not buffer, would cost two joins for one scan saved)
  const est = estimate(j.left);
  if (est === undefined || est.rows > MAX_SHARED_ROWS || !invariant(j.left)) return null;
  const x = innerJoinGraph(j.left);
  const s = x && innerJoinGraph(sub.agg.input);
  // a `$n` and a constant (or `$n`) of the same value count as one: the plan memo keeps the plan for that value
  const emb = s && embedJoinGraph(s, x, (p, q) => sameValue(ctx.params, p, q));
  if (x === null || s === null || emb === null) return null;
  // the group keys as graph columns of X
  const keyCols = sub.agg.groupKeys.map((g) => emb.columns[s.out[(g as ColumnRefExpr).index] ?? -1] ?? -1);
  if (keyCols.some((k) => k < 0)) return null;
  const restCols = new Set<number>();
  for (const h of emb.restLeaves) for (let c = 0; c < x.leaves[h]!.columns.length; c++) restCols.add(x.starts[h]! + c);
  // X's other conjuncts: over U (the leaves S does not take) alone, or `u = k` of U's column u and a group key k
  const tiedTo = new Map<number, number>();
  for (const c of emb.restConjuncts) {
    if (!someExpr(c, (e) => e.kind === 'ColumnRef' && !restCols.has(e.index))) continue;
    const eq = columnEq(c);
    if (eq === null) return null;
    const [u, k] = restCols.has(eq.left.index) ? [eq.left.index, eq.right.index] : [eq.right.index, eq.left.index];
    if (!restCols.has(u) || restCols.has(k) || !keyCols.includes(k)) return null;
    tiedTo.set(u, k);
  }
  // every outer row looks its own key up: the outer column is key k_i in X, or a U column tied to it
  for (let i = 0; i < outerCols.length; i++) {
    const at = x.out[outerCols[i]!] ?? -1;
    if (at !== keyCols[i] && (at < 0 || tiedTo.get(at) !== keyCols[i])) return null;
  }
  if (!sub.agg.aggregates.every((a) => a.distinct || (SET_AGGREGATES.has(a.name) && a.orderBy.length === 0)) && !uniqueTies(x, emb.restLeaves, tiedTo, ctx)) return null;
  // S's output columns as X's output columns (the first that carries each)
  const toX = new Map<number, number>();
  x.out.forEach((g, i) => { if (g >= 0 && !toX.has(g)) toX.set(g, i); });
  let missing = false;
  const remap = (e: Expr): Expr => transformExpr(e, (ref) => {
    if (ref.kind !== 'ColumnRef' || ref.levelsUp !== 0) return undefined;
    const at = toX.get(emb.columns[s.out[ref.index] ?? -1] ?? -1);
    if (at === undefined) { missing = true; return ref; }
    return { ...ref, index: at };
  });
  const groupKeys = sub.agg.groupKeys.map(remap);
  const aggregates = sub.agg.aggregates.map((a) => remap(a) as AggregateExpr);
  if (missing) return null;
  const agg: Aggregate = { ...sub.agg, input: j.left, groupKeys, aggregates };
  return { ...j, right: { ...sub.proj, input: agg } };
}

/**
 * each key of S meets at most one row of U: U is one leaf unique on its columns tied to the group keys (then
 * m(v) = 1 and count / sum / avg see each S row once)
 */
function uniqueTies(x: JoinGraph, restLeaves: readonly number[], tiedTo: ReadonlyMap<number, number>, ctx: ExecContext): boolean {
  if (restLeaves.length !== 1) return false;
  const h = restLeaves[0]!;
  const start = x.starts[h]!;
  return uniqueWithin(x.leaves[h]!, new Set([...tiedTo.keys()].map((u) => u - start)), ctx);
}
