/**
 * The inner-join graph of a plan (correlated_aggregate_from_join): its leaves — the inputs that are not inner
 * joins, Filters or Projections — side by side, and the conjuncts of its joins and Filters over those leaves'
 * columns. Two join trees written apart and shaped differently by reorder_inner_joins / join_dimension_branches
 * (TPC-H Q2's outer FROM and its min(ps_supplycost) subquery's) compare leaf by leaf and conjunct by conjunct,
 * whatever their order: `embedJoinGraph` finds one graph inside another.
 */
import { conjunctsOf, exprEquals, someExpr, transformExpr, type Expr, type LiteralExpr, type LogicalPlan, type ParamExpr, type PushedPredicate, type TableScan } from '../../sql/index.ts';

/** whether a `$n` and another `$n` or constant hold the same value (param-identity.ts: the plan is kept for those values) */
export type SameParam = (a: ParamExpr | LiteralExpr, b: ParamExpr | LiteralExpr) => boolean;

export interface JoinGraph {
  readonly leaves: readonly LogicalPlan[];
  /** the first graph column of each leaf (leaf i holds graph columns starts[i] … starts[i] + its width − 1) */
  readonly starts: readonly number[];
  /** conjuncts over graph columns (a ColumnRef's index is a graph column) */
  readonly conjuncts: readonly Expr[];
  /** per output column of the plan: its graph column, or -1 when the plan computes it */
  readonly out: readonly number[];
}

/** the plan's inner-join graph, or null when a conjunct holds a subquery, an outer reference or a computed column */
export function innerJoinGraph(p: LogicalPlan): JoinGraph | null {
  const leaves: LogicalPlan[] = [];
  const starts: number[] = [];
  const conjuncts: Expr[] = [];
  let width = 0;
  const walk = (q: LogicalPlan): number[] | null => {
    if (q.kind === 'Join' && q.joinType === 'inner' && !q.lateral) {
      const l = walk(q.left);
      const r = l && walk(q.right);
      if (l === null || r === null) return null;
      const out = [...l, ...r];
      return q.condition === null || addConjuncts(q.condition, out, conjuncts) ? out : null;
    }
    // a Filter with a subquery or an outer reference stays whole, as a leaf
    if (q.kind === 'Filter' && !someExpr(q.predicate, (x) => x.kind === 'Subquery' || (x.kind === 'ColumnRef' && x.levelsUp !== 0))) {
      const out = walk(q.input);
      return out !== null && addConjuncts(q.predicate, out, conjuncts) ? out : null;
    }
    if (q.kind === 'Projection') {
      const inner = walk(q.input);
      return inner && q.exprs.map((e) => (e.kind === 'ColumnRef' && e.levelsUp === 0 ? inner[e.index] ?? -1 : -1));
    }
    leaves.push(q);
    starts.push(width);
    width += q.columns.length;
    return q.columns.map((_, i) => starts[starts.length - 1]! + i);
  };
  const out = walk(p);
  return out === null ? null : { leaves, starts, conjuncts, out };
}

/** adds `predicate`'s conjuncts with their columns moved to graph columns; false when one cannot be */
function addConjuncts(predicate: Expr, out: readonly number[], into: Expr[]): boolean {
  for (const c of conjunctsOf(predicate)) {
    const moved = toGraphColumns(c, out);
    if (moved === null) return false;
    into.push(moved);
  }
  return true;
}

/** `e` over graph columns (`at[i]` = the graph column of column i); null for subqueries, outer or computed columns */
export function toGraphColumns(e: Expr, at: readonly number[]): Expr | null {
  if (someExpr(e, (x) => x.kind === 'Subquery' || (x.kind === 'ColumnRef' && (x.levelsUp !== 0 || (at[x.index] ?? -1) < 0)))) return null;
  return transformExpr(e, (x) => (x.kind === 'ColumnRef' ? { ...x, index: at[x.index]! } : undefined));
}

/** one graph inside another: where each column of the smaller lands, and the bigger one's conjuncts left over */
export interface JoinGraphEmbedding {
  /** per graph column of the embedded graph: the host graph's column */
  readonly columns: readonly number[];
  /** the host's leaves no embedded leaf took */
  readonly restLeaves: readonly number[];
  /** the host's conjuncts that are not images of the embedded graph's (each reads some rest leaf's column) */
  readonly restConjuncts: readonly Expr[];
}

/** the leaves graphs hold at most for the search over leaf assignments (Q8 has 8 tables) */
const MAX_LEAVES = 12;

/**
 * `inner` inside `host`: each leaf of `inner` taken by an equal leaf of `host` (no leaf twice), every conjunct of
 * `inner` found among `host`'s and every conjunct of `host` over the taken leaves' columns only an image of one of
 * `inner`'s — so `host` restricted to the taken leaves computes exactly `inner`'s rows. The first assignment that
 * fits, or null.
 */
export function embedJoinGraph(inner: JoinGraph, host: JoinGraph, sameParam?: SameParam): JoinGraphEmbedding | null {
  if (inner.leaves.length > MAX_LEAVES || host.leaves.length > MAX_LEAVES || inner.leaves.length >= host.leaves.length) return null;
  const taken: number[] = [];
  const used = new Set<number>();
  const search = (i: number): JoinGraphEmbedding | null => {
    if (i === inner.leaves.length) return fits(inner, host, taken, sameParam);
    for (let h = 0; h < host.leaves.length; h++) {
      if (used.has(h) || !sameLeaf(inner.leaves[i]!, host.leaves[h]!, sameParam)) continue;
      used.add(h);
      taken.push(h);
      const found = search(i + 1);
      if (found !== null) return found;
      taken.pop();
      used.delete(h);
    }
    return null;
  };
  return search(0);
}

function fits(inner: JoinGraph, host: JoinGraph, taken: readonly number[], sameParam: SameParam | undefined): JoinGraphEmbedding | null {
  const columns: number[] = [];
  inner.leaves.forEach((leaf, i) => {
    for (let c = 0; c < leaf.columns.length; c++) columns.push(host.starts[taken[i]!]! + c);
  });
  const takenCols = new Set(columns);
  const images = inner.conjuncts.map((c) => toGraphColumns(c, columns)!);
  const matched = new Set<number>();
  for (const img of images) {
    const at = host.conjuncts.findIndex((h, k) => !matched.has(k) && sameConjunct(img, h, sameParam));
    if (at < 0) return null;
    matched.add(at);
  }
  const restConjuncts: Expr[] = [];
  for (let k = 0; k < host.conjuncts.length; k++) {
    if (matched.has(k)) continue;
    const h = host.conjuncts[k]!;
    // a conjunct over the taken leaves alone would drop rows the embedded graph keeps
    if (!someExpr(h, (x) => x.kind === 'ColumnRef' && !takenCols.has(x.index))) return null;
    restConjuncts.push(h);
  }
  const restLeaves = host.leaves.map((_, h) => h).filter((h) => !taken.includes(h));
  return { columns, restLeaves, restConjuncts };
}

/** equal conjuncts, `a = b` also as `b = a` when both operands are of one type (the operator is then symmetric) */
function sameConjunct(a: Expr, b: Expr, sameParam: SameParam | undefined): boolean {
  if (exprEquals(a, b, sameParam)) return true;
  if (a.kind !== 'Op' || b.kind !== 'Op' || a.name !== '=' || b.name !== '=' || a.def !== b.def || a.left === null || b.left === null) return false;
  if (a.leftType?.oid !== a.rightType.oid) return false;
  return exprEquals(a.left, b.right, sameParam) && exprEquals(a.right, b.left, sameParam);
}

/**
 * whether the host's leaf gives every row the inner graph's leaf gives: the same node, or the same table whose
 * pushed filters the inner leaf has too. The graphs' conjuncts (the Filters above the scans: pushdown is
 * inexact) decide the rows; a pushed filter only lets a scan skip rows, and one the host's leaf alone has may
 * come from above the host's graph (an outer query's WHERE), dropping rows the inner graph keeps. A `$n` the
 * literal-normalised outer query compares is not pushed where the subquery's constant is (char(n) padding).
 */
function sameLeaf(inner: LogicalPlan, host: LogicalPlan, sameParam: SameParam | undefined): boolean {
  if (inner === host) return true;
  if (inner.kind !== 'TableScan' || host.kind !== 'TableScan') return false;
  return sameScan(inner, host, sameParam);
}

function sameScan(inner: TableScan, host: TableScan, sameParam: SameParam | undefined): boolean {
  if (inner.source !== host.source || inner.tableOid !== host.tableOid || inner.asOf !== host.asOf) return false;
  if (inner.projection !== undefined || host.projection !== undefined || inner.limit !== undefined || host.limit !== undefined) return false;
  const fi = inner.filters ?? [];
  return (host.filters ?? []).every((f) => fi.some((g) => samePushed(g, f, sameParam)));
}

function samePushed(a: PushedPredicate, b: PushedPredicate, sameParam: SameParam | undefined): boolean {
  switch (a.kind) {
    case 'compare': return b.kind === a.kind && a.op === b.op && a.column === b.column && exprEquals(a.value, b.value, sameParam);
    case 'isNull': case 'isNotNull': return b.kind === a.kind && a.column === b.column;
    case 'in': {
      if (b.kind !== 'in' || a.column !== b.column) return false;
      if (!Array.isArray(a.values) || !Array.isArray(b.values)) return !Array.isArray(a.values) && !Array.isArray(b.values) && exprEquals(a.values as Expr, b.values as Expr, sameParam);
      const bv = b.values as readonly Expr[];
      return a.values.length === bv.length && (a.values as readonly Expr[]).every((v, i) => exprEquals(v, bv[i]!, sameParam));
    }
    case 'startsWith': return b.kind === a.kind && a.column === b.column && a.prefix === b.prefix && a.like?.pattern === b.like?.pattern && a.like?.negated === b.like?.negated;
    case 'compareColumns': return b.kind === a.kind && a.op === b.op && a.column === b.column && a.other === b.other;
    case 'and': case 'or': return b.kind === a.kind && a.args.length === b.args.length && a.args.every((x, i) => samePushed(x, b.args[i]!, sameParam));
  }
}
