/**
 * correlated_aggregate_from_join: a decorrelated per-key aggregate of table T, joined back to an outer side that
 * itself reads T through an inner join on that same key, is computed from the outer side's rows instead of a
 * second scan of T — TPC-H Q17's
 *
 *   lineitem ⋈ σ(part) … l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)
 *
 * which the binder decorrelates to X ⟕[key1 = p_partkey] π(Aggregate(lineitem; l_partkey; avg(l_quantity))) with
 * X = lineitem ⋈[l_partkey = p_partkey] σ(part). The aggregate then reads X (one subtree; share_repeated_subplans
 * runs it once for both readers) instead of a second scan of lineitem that decodes every l_partkey:
 *
 *   X ⟕[key = x.o] π(Aggregate(T; k; aggs))  →  X ⟕[key = x.o] π(Aggregate(X; x.k; aggs over X's T columns))
 *
 * Exact when, for every key v the outer side holds, the rows of X with T.k = v are the T rows with k = v, each
 * once: X is Projections over one inner join whose one input is the bare scan of T (no filter, pushed or not: the
 * subquery would see rows the outer side dropped) and whose condition is only `T.k = U.o` over one integer type
 * (NULL keys match neither the join nor the subquery's `=`); the aggregate reads the same scan with no condition of
 * its own (any would be a Filter between them: left alone), groups by k alone. Each T row of key v then joins
 * every U row of o = v, the same number m(v) ≥ 1 of times: exact for any aggregate when o is U's one-column
 * PRIMARY KEY (m = 1; lakegate enforces Iceberg primary keys, iceberg/keys/unique-keys.ts), and without it only
 * for aggregates that see a set, not a multiset — min, max, bool_and, bool_or, every and DISTINCT ones (count
 * and sum would multiply by m; avg's result scale and float rounding depend on m too). Keys of v that X does
 * not hold are dropped by the join either way (the aggregate is only read through the key). Only when the outer
 * side is one share_repeated_subplans runs once for both readers (invariant, estimated ≤ MAX_SHARED_ROWS). Runs after
 * push_down_filter (the outer side's filters sit on its leaves) and before push_down_projection / choose_build_side.
 * Off with `lakegate.disabled_optimizer_rules = 'correlated_aggregate_from_join'`.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { conjunctsOf, someExpr, transformExpr, type Aggregate, type AggregateExpr, type ColumnRefExpr, type Expr, type Join, type LogicalPlan, type Projection, type TableScan } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import { invariant } from '../recursive-invariants.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';
import { MAX_SHARED_ROWS } from './share-repeated-subplans.ts';
import { reliablePrimaryKey } from './unique-column-sets.ts';

export const correlatedAggregateFromJoin: OptimizerRule = {
  name: 'correlated_aggregate_from_join',
  apply: (plan, ctx) => transformPlanUp(plan, (p) => (p.kind === 'Join' ? rewrite(p, ctx) ?? p : p)),
};

/** integer types: `=` is the grouping's equality, and the join's and the subquery's `=` drop NULLs alike */
const INT_TYPES: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);
/** aggregates whose result depends on the set of input values, not on how often each occurs */
const SET_AGGREGATES: ReadonlySet<string> = new Set(['min', 'max', 'bool_and', 'bool_or', 'every']);

const unmovable = (e: Expr): boolean => someExpr(e, (x) => x.kind === 'Subquery' || x.kind === 'WindowFunc' || ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v'));

const sameTable = (a: TableScan, b: TableScan): boolean => a.source === b.source && a.tableOid === b.tableOid && a.asOf === b.asOf;

const bareScan = (p: LogicalPlan): p is TableScan =>
  p.kind === 'TableScan' && (p.filters === undefined || p.filters.length === 0) && p.projection === undefined && p.limit === undefined && p.asOf === undefined;

/** `a = b` of two plain columns of this level, one integer type; the operands or null */
function columnEq(c: Expr): { readonly left: ColumnRefExpr; readonly right: ColumnRefExpr } | null {
  if (c.kind !== 'Op' || c.name !== '=' || c.left?.kind !== 'ColumnRef' || c.right.kind !== 'ColumnRef') return null;
  if (c.left.levelsUp !== 0 || c.right.levelsUp !== 0 || c.leftType?.oid !== c.rightType.oid || !INT_TYPES.has(c.rightType.oid)) return null;
  if (c.left.type.oid !== c.rightType.oid || c.right.type.oid !== c.rightType.oid) return null;
  return { left: c.left, right: c.right };
}

/** what an output column of the outer side is: a column of T's scan (≥ 0), U's key o (KEY_O) or something else */
const OTHER = -1;
const KEY_O = -2;

interface OuterShape {
  /** per output column of X: T's column index, KEY_O or OTHER */
  readonly origin: readonly number[];
  /** T's key column k */
  readonly k: number;
  /** whether o is the one-column primary key of U's table */
  readonly unique: boolean;
}

/** U's key column o is unique: U is Filters over a scan whose table's primary key is exactly o */
function uniqueColumn(u: LogicalPlan, o: number, ctx: ExecContext): boolean {
  while (u.kind === 'Filter') u = u.input;
  if (u.kind !== 'TableScan') return false;
  const pk = reliablePrimaryKey(u, ctx);
  return pk?.length === 1 && pk[0] === o;
}

/** X's shape when it is Projections over `T ⋈[T.k = U.o] U` (either order), T the bare scan `t`; else null */
function outerShape(x: LogicalPlan, t: TableScan, ctx: ExecContext): OuterShape | null {
  if (x.kind === 'Projection') {
    const inner = outerShape(x.input, t, ctx);
    if (inner === null) return null;
    const origin = x.exprs.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? inner.origin[e.index] ?? OTHER : OTHER));
    return { ...inner, origin };
  }
  if (x.kind !== 'Join' || x.joinType !== 'inner' || x.lateral || x.condition === null) return null;
  const lw = x.left.columns.length;
  const tLeft = bareScan(x.left) && sameTable(x.left, t);
  const tRight = bareScan(x.right) && sameTable(x.right, t);
  if (tLeft === tRight) return null;
  const conj = conjunctsOf(x.condition);
  const eq = conj.length === 1 ? columnEq(conj[0]!) : null;
  if (eq === null || (eq.left.index < lw) === (eq.right.index < lw)) return null;
  const leftCol = eq.left.index < lw ? eq.left.index : eq.right.index;
  const rightCol = (eq.left.index < lw ? eq.right.index : eq.left.index) - lw;
  const k = tLeft ? leftCol : rightCol;
  const o = tLeft ? rightCol : leftCol;
  const u = tLeft ? x.right : x.left;
  const tw = t.columns.length;
  const origin = x.columns.map((_, i) => {
    const inLeft = i < lw;
    const at = inLeft ? i : i - lw;
    if (inLeft === tLeft) return at < tw ? at : OTHER;
    return at === o ? KEY_O : OTHER;
  });
  return { origin, k, unique: uniqueColumn(u, o, ctx) };
}

/** the right input of the left join as π(Aggregate(bare scan of T; k)): its parts, or null */
function correlatedAggregate(r: LogicalPlan): { readonly proj: Projection; readonly agg: Aggregate; readonly scan: TableScan } | null {
  if (r.kind !== 'Projection' || r.input.kind !== 'Aggregate') return null;
  const agg = r.input;
  if (agg.groupingSets !== null || agg.groupKeys.length !== 1 || agg.workerPartial === true || !bareScan(agg.input)) return null;
  const g = agg.groupKeys[0]!;
  if (g.kind !== 'ColumnRef' || g.levelsUp !== 0) return null;
  if (agg.aggregates.some((a) => unmovable(a))) return null;
  return { proj: r, agg, scan: agg.input };
}

function rewrite(j: Join, ctx: ExecContext): Join | null {
  if (j.joinType !== 'left' || j.lateral || j.condition === null || j.buildSide !== undefined) return null;
  const sub = correlatedAggregate(j.right);
  if (sub === null) return null;
  const conj = conjunctsOf(j.condition);
  const eq = conj.length === 1 ? columnEq(conj[0]!) : null;
  const lw = j.left.columns.length;
  if (eq === null || (eq.left.index < lw) === (eq.right.index < lw)) return null;
  const outerCol = eq.left.index < lw ? eq.left.index : eq.right.index;
  const keyCol = (eq.left.index < lw ? eq.right.index : eq.left.index) - lw;
  // the join reads the aggregate's group key (its output column 0) through the projection
  const keyExpr = sub.proj.exprs[keyCol];
  if (keyExpr?.kind !== 'ColumnRef' || keyExpr.levelsUp !== 0 || keyExpr.index !== 0) return null;
  // both readers must get the same rows from one run: a volatile outer side run twice could differ (and a big
  // or unestimated one, which share_repeated_subplans would not buffer, would cost two joins for one scan saved)
  const est = estimate(j.left);
  if (est === undefined || est.rows > MAX_SHARED_ROWS || !invariant(j.left)) return null;
  const shape = outerShape(j.left, sub.scan, ctx);
  const g = sub.agg.groupKeys[0] as ColumnRefExpr;
  if (shape === null || g.index !== shape.k) return null;
  // the outer row is matched by T's k or by U's o, equal on every row of X
  const matched = shape.origin[outerCol];
  if (matched !== shape.k && matched !== KEY_O) return null;
  if (!shape.unique && !sub.agg.aggregates.every((a) => a.distinct || (SET_AGGREGATES.has(a.name) && a.orderBy.length === 0))) return null;
  // T's columns as X's output columns (the first that carries each)
  const toX = new Map<number, number>();
  shape.origin.forEach((o, i) => { if (o >= 0 && !toX.has(o)) toX.set(o, i); });
  let missing = false;
  const remap = (e: Expr): Expr => transformExpr(e, (x) => {
    if (x.kind !== 'ColumnRef' || x.levelsUp !== 0) return undefined;
    const at = toX.get(x.index);
    if (at === undefined) { missing = true; return x; }
    return { ...x, index: at };
  });
  const groupKeys = [remap(g)];
  const aggregates = sub.agg.aggregates.map((a) => remap(a) as AggregateExpr);
  if (missing) return null;
  const agg: Aggregate = { ...sub.agg, input: j.left, groupKeys, aggregates };
  return { ...j, right: { ...sub.proj, input: agg } };
}
