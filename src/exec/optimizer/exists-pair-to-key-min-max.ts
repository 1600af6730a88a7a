/**
 * exists_pair_to_key_min_max: an EXISTS and a NOT EXISTS over the same table, each matching the outer row by
 * one integer key and asking for a row whose other integer column differs from the outer row's — TPC-H Q21's
 *
 *   EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)
 *   AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey
 *                   AND l3.l_receiptdate > l3.l_commitdate)
 *
 * — become one per-key aggregate of that table joined back (one scan of the table instead of two, each of which
 * decoded its whole key column; the join's runtime key filter reaches the aggregate's scan):
 *
 *   Semi(Anti(X, σ[P](T), k = x.k ∧ s <> x.s), σ[Q](T), k = x.k ∧ s <> x.s)
 *     →  π[X] σ[(mn <> x.s OR mx <> x.s) AND (mnp <> x.s OR mxp <> x.s) IS NOT TRUE]
 *          (X ⋈[k = x.k] Aggregate(T; k; mn = min(s) FILTER (Q), mx = max(s) FILTER (Q),
 *                                           mnp = min(s) FILTER (P), mxp = max(s) FILTER (P)))
 *
 * Exact: over the rows of a key where Q holds, a non-NULL s differs from v exactly when min or max of those s
 * differs from v (if both equal v, every s between them does); NULL s never satisfy `s <> v` and min / max skip
 * them; `<>` against a NULL x.s or an all-NULL group is NULL, which the Filter drops for EXISTS and IS NOT TRUE
 * keeps for NOT EXISTS, as the subqueries answer. An outer row whose key no T row has is dropped by the inner join,
 * as the EXISTS drops it (hence the pair: a NOT EXISTS alone would need a left join). Integer key and compared
 * columns of one type on both sides (whose `=` is the grouping's equality and whose `<>` is the order's
 * inequality); the semi/anti conditions hold nothing else of the outer row; P and Q read T alone, without
 * subqueries or volatile calls. Runs after order_filtering_joins (either order of the pair). Off with
 * `lakegate.disabled_optimizer_rules = 'exists_pair_to_key_min_max'`.
 */
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { getDefaultRegistry } from '../../functions/index.ts';
import { andOf, conjunctsOf, someExpr, type Aggregate, type AggregateExpr, type ColumnRefExpr, type Expr, type Join, type LogicalPlan, type OpExpr, type TableScan } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { shiftColumns, transformPlanUp } from './plan-rewrite.ts';

export const existsPairToKeyMinMax: OptimizerRule = {
  name: 'exists_pair_to_key_min_max',
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === 'Join' ? rewritePair(p) ?? p : p)),
};

/** integer types: `=` is the grouping's equality, `<>` the negation of min / max's order equality */
const INT_TYPES: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);
const BOOL = sqlType(Oid.bool);

const isFiltering = (p: LogicalPlan): p is Join => p.kind === 'Join' && (p.joinType === 'semi' || p.joinType === 'anti') && !p.lateral && p.condition !== null && p.buildSide === undefined;

/** subqueries read the row they sit in and volatile calls must run as often as written */
const unmovable = (e: Expr): boolean => someExpr(e, (x) => x.kind === 'Subquery' || x.kind === 'Aggregate' || x.kind === 'WindowFunc' || ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v'));

/** the input columns (levelsUp 0) an expression reads; null when it reads an outer query's */
function columnsRead(e: Expr): number[] | null {
  const out: number[] = [];
  const outer = someExpr(e, (x) => {
    if (x.kind === 'ColumnRef') {
      if (x.levelsUp !== 0) return true;
      out.push(x.index);
    }
    return false;
  });
  return outer ? null : out;
}

/** one side of the pair: the table, the outer (X) and inner (T) columns of key and compared column, T's own conjuncts */
interface PairSide {
  readonly scan: TableScan;
  readonly outerKey: number;
  readonly innerKey: number;
  readonly outerCol: number;
  readonly innerCol: number;
  /** the key `=` of the condition, its T operand on the left or right */
  readonly keyEq: OpExpr;
  readonly keyInnerOnLeft: boolean;
  /** the `<>` of the condition, its T operand on the left or right */
  readonly neq: OpExpr;
  readonly innerOnLeft: boolean;
  /** conjuncts over T's columns (Filters above the scan and the condition's T-only conjuncts) */
  readonly own: readonly Expr[];
}

/** `a op b` of two plain columns of one integer type, or null */
function columnOp(c: Expr, op: string): { readonly left: ColumnRefExpr; readonly right: ColumnRefExpr; readonly expr: OpExpr } | null {
  if (c.kind !== 'Op' || c.name !== op || c.left?.kind !== 'ColumnRef' || c.right.kind !== 'ColumnRef') return null;
  if (c.left.levelsUp !== 0 || c.right.levelsUp !== 0 || c.leftType?.oid !== c.rightType.oid || !INT_TYPES.has(c.rightType.oid)) return null;
  if (c.left.type.oid !== c.rightType.oid || c.right.type.oid !== c.rightType.oid) return null;
  return { left: c.left, right: c.right, expr: c };
}

/** Filters over a bare TableScan (nothing pushed yet): the scan and the Filters' conjuncts, or null */
function filteredScan(p: LogicalPlan): { readonly scan: TableScan; readonly own: Expr[] } | null {
  const own: Expr[] = [];
  while (p.kind === 'Filter') {
    if (unmovable(p.predicate)) return null;
    own.push(...conjunctsOf(p.predicate));
    p = p.input;
  }
  if (p.kind !== 'TableScan' || p.filters !== undefined || p.projection !== undefined || p.limit !== undefined) return null;
  return { scan: p, own };
}

/** the side's parts when its condition is `k = x.k AND s <> x.s AND (conjuncts over T)`, else null */
function sideOf(j: Join, w: number): PairSide | null {
  const r = filteredScan(j.right);
  if (r === null) return null;
  const own = [...r.own];
  let key: ReturnType<typeof columnOp> = null;
  let neq: ReturnType<typeof columnOp> = null;
  for (const c of conjunctsOf(j.condition!)) {
    const cols = columnsRead(c);
    if (cols === null || unmovable(c)) return null;
    if (cols.length > 0 && cols.every((i) => i >= w)) {
      own.push(shiftColumns(c, -w));
      continue;
    }
    const eq = columnOp(c, '=');
    const ne = eq === null ? columnOp(c, '<>') : null;
    const m = eq ?? ne;
    // the outer row may be read only by the key equality and the one `<>`
    if (m === null || (m.left.index < w) === (m.right.index < w)) return null;
    if (eq !== null) {
      if (key !== null) return null;
      key = eq;
    } else {
      if (neq !== null) return null;
      neq = ne;
    }
  }
  if (key === null || neq === null) return null;
  const split = (m: NonNullable<ReturnType<typeof columnOp>>): { readonly outer: number; readonly inner: number; readonly innerOnLeft: boolean } =>
    m.left.index < w ? { outer: m.left.index, inner: m.right.index - w, innerOnLeft: false } : { outer: m.right.index, inner: m.left.index - w, innerOnLeft: true };
  const k = split(key);
  const s = split(neq);
  return { scan: r.scan, outerKey: k.outer, innerKey: k.inner, outerCol: s.outer, innerCol: s.inner, keyEq: key.expr, keyInnerOnLeft: k.innerOnLeft, neq: neq.expr, innerOnLeft: s.innerOnLeft, own };
}

const sameTable = (a: TableScan, b: TableScan): boolean => a.source === b.source && a.tableOid === b.tableOid && a.asOf === b.asOf;

function minMaxCall(name: 'min' | 'max', arg: ColumnRefExpr, filter: Expr | null): AggregateExpr {
  const r = getDefaultRegistry().resolveFunction(name, [arg.type]);
  if (r.def.kind !== 'aggregate') throw new Error(`exists_pair_to_key_min_max: ${name} is no aggregate`);
  return { kind: 'Aggregate', name, def: r.def, args: [arg], argTypes: [arg.type], distinct: false, star: false, filter, orderBy: [], type: arg.type };
}

/** the pair as π[X] σ[…] (X ⋈ per-key aggregate), or null when `outer` and its left input are no such pair */
function rewritePair(outer: Join): LogicalPlan | null {
  const inner = outer.left;
  if (!isFiltering(outer) || !isFiltering(inner) || outer.joinType === inner.joinType) return null;
  const x = inner.left;
  const w = x.columns.length;
  const semi = outer.joinType === 'semi' ? outer : inner;
  const anti = outer.joinType === 'anti' ? outer : inner;
  const a = sideOf(semi, w);
  const b = sideOf(anti, w);
  if (a === null || b === null || !sameTable(a.scan, b.scan)) return null;
  if (a.outerKey !== b.outerKey || a.innerKey !== b.innerKey || a.outerCol !== b.outerCol || a.innerCol !== b.innerCol) return null;
  const scan = a.scan;
  const keyCol = scan.columns[a.innerKey]!;
  const sCol = scan.columns[a.innerCol]!;
  // the subqueries' own column references (their names show in EXPLAIN), T's re-based on the scan
  const operand = (e: OpExpr, left: boolean): ColumnRefExpr => (left ? e.left : e.right) as ColumnRefExpr;
  const kRef: ColumnRefExpr = { ...operand(a.keyEq, a.keyInnerOnLeft), index: a.innerKey };
  const sRef: ColumnRefExpr = { ...operand(a.neq, a.innerOnLeft), index: a.innerCol };
  const q = a.own.length === 0 ? null : andOf(a.own);
  const p = b.own.length === 0 ? null : andOf(b.own);
  const aggregates = [minMaxCall('min', sRef, q), minMaxCall('max', sRef, q), minMaxCall('min', sRef, p), minMaxCall('max', sRef, p)];
  const names = ['min_other', 'max_other', 'min_other_not', 'max_other_not'];
  const agg: Aggregate = {
    kind: 'Aggregate',
    input: scan,
    groupKeys: [kRef],
    groupingSets: null,
    aggregates,
    columns: [{ name: keyCol.name, type: keyCol.type }, ...names.map((name) => ({ name, type: sCol.type }))],
  };
  const ref = (index: number, c: { readonly name: string; readonly type: ColumnRefExpr['type'] }): ColumnRefExpr => ({ kind: 'ColumnRef', index, levelsUp: 0, type: c.type, name: c.name });
  const outerKey = operand(a.keyEq, !a.keyInnerOnLeft);
  const outerCol = operand(a.neq, !a.innerOnLeft);
  // the key equality and `<>` are the subqueries' own operators, with the aggregate's columns for T's
  const join: Join = {
    kind: 'Join',
    joinType: 'inner',
    left: x,
    right: agg,
    condition: { ...a.keyEq, left: a.keyInnerOnLeft ? { ...kRef, index: w } : outerKey, right: a.keyInnerOnLeft ? outerKey : { ...kRef, index: w } },
    lateral: false,
    columns: [...x.columns, ...agg.columns],
  };
  const differs = (side: PairSide, i: number): Expr => {
    const m = ref(w + 1 + i, agg.columns[1 + i]!);
    return { ...side.neq, left: side.innerOnLeft ? m : outerCol, right: side.innerOnLeft ? outerCol : m };
  };
  const or = (l: Expr, r: Expr): Expr => ({ kind: 'BoolOp', op: 'or', args: [l, r], type: BOOL });
  const predicate = andOf([
    or(differs(a, 0), differs(a, 1)),
    { kind: 'BooleanTest', arg: or(differs(b, 2), differs(b, 3)), test: 'not_true', type: BOOL },
  ]);
  const filter: LogicalPlan = { kind: 'Filter', input: join, predicate, columns: join.columns };
  return { kind: 'Projection', input: filter, exprs: x.columns.map((c, i) => ref(i, c)), columns: x.columns };
}
