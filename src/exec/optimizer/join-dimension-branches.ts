/**
 * join_dimension_branches: a tree of inner joins over one big (fact) table and its dimensions is rebuilt as a
 * snowflake — every dimension is joined to the table it describes *before* that table meets the fact table,
 * so a dimension's filter shrinks its branch's hash table instead of the joined rows after every join
 * (PostgreSQL's bushy hash joins for TPC-H Q5/Q7/Q8/Q3). reorder_inner_joins makes a left-deep chain
 * `lineitem ⋈ orders ⋈ customer ⋈ nation ⋈ region` that applies `r_name = 'ASIA'` only after all of lineitem
 * went through three hash tables; here it becomes `lineitem ⋈ (orders ⋈ (customer ⋈ (nation ⋈ σ region)))`:
 * one fifth of the orders are built, and choose_build_side can hand their keys to the lineitem scan.
 *
 * How: the inner-join tree (with Filters directly over its joins) is flattened into leaves and conjuncts like
 * join-order.ts does; the leaf with the most rows before filters is the root; every other leaf, biggest first,
 * hangs off the biggest leaf already hung it is equal-joined to, preferring a parent with at least as many rows
 * (a dimension is smaller than what references it: `c_custkey = o_custkey` rather than the many-to-many
 * `c_nationkey = s_nationkey`). Equalities implied by equivalence classes count too (Q5: `c_nationkey =
 * s_nationkey AND s_nationkey = n_nationkey` hangs nation off customer by `c_nationkey = n_nationkey`), only
 * for integer and date columns of one type, whose `=` is transitive; an implied equality that hangs a leaf is
 * added to that join, the original ones stay too. A leaf joins its children's branches (filtered ones first, in
 * the order reorder_inner_joins gave) before its own parent; every conjunct goes to the lowest join holding all
 * of its leaves. Inner joins commute and associate, so the rows are the same.
 * Runs after derive_or_filters (its per-input filters become leaf filters here) and before push_down_filter.
 * Only for analytic joins (every leaf sized, one ≥ 100,000 rows) where some dimension hangs off another.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { andOf, conjunctsOf, someExpr, transformExpr, type ColumnRefExpr, type Expr, type Join, type LogicalPlan } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanDown } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';
import { ColumnClasses } from './column-classes.ts';

export const joinDimensionBranches: OptimizerRule = {
  name: 'join_dimension_branches',
  apply: (plan) => {
    const built = new WeakSet<LogicalPlan>();
    return transformPlanDown(plan, (p) => {
      if (built.has(p)) return null;
      const r = snowflake(p, built);
      if (r !== null) built.add(r);
      return r;
    });
  },
};

/** joins with a leaf of at least this many rows are analytic (join-order.ts's threshold) */
const BIG_LEAF_ROWS = 100_000;

interface Leaf {
  readonly plan: LogicalPlan;
  readonly offset: number;
  readonly width: number;
}

interface Conjunct {
  readonly expr: Expr;
  readonly leaves: ReadonlySet<number>;
}

/** a built subtree: its plan and its leaves in column order */
interface Branch {
  readonly plan: LogicalPlan;
  readonly order: readonly number[];
}

function isInnerJoin(p: LogicalPlan): p is Join {
  return p.kind === 'Join' && p.joinType === 'inner' && !p.lateral;
}

/** subqueries read the row they sit in; volatile calls must run as often as written: such trees stay as they are */
const hasSubquery = (e: Expr): boolean => someExpr(e, (x) => x.kind === 'Subquery' || ((x.kind === 'Call' || x.kind === 'SetCall') && x.def.volatility === 'v'));



function remap(e: Expr, to: (index: number) => number): Expr {
  return transformExpr(e, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: to(x.index) } : undefined));
}

/** leaves and conjuncts of an inner-join tree, Filters over its joins included; false when a subquery is in the way */
function flatten(p: LogicalPlan, offset: number, leaves: Leaf[], conds: Expr[]): boolean {
  const shifted = (e: Expr): Expr[] => conjunctsOf(e).map((c) => (offset === 0 ? c : remap(c, (i) => i + offset)));
  if (p.kind === 'Filter' && isInnerJoin(p.input)) {
    if (hasSubquery(p.predicate)) return false;
    conds.push(...shifted(p.predicate));
    return flatten(p.input, offset, leaves, conds);
  }
  if (!isInnerJoin(p)) {
    leaves.push({ plan: p, offset, width: p.columns.length });
    return true;
  }
  if (p.condition !== null) {
    if (hasSubquery(p.condition)) return false;
    conds.push(...shifted(p.condition));
  }
  return flatten(p.left, offset, leaves, conds) && flatten(p.right, offset + p.left.columns.length, leaves, conds);
}

function leavesRead(e: Expr, leafOf: (i: number) => number): Set<number> {
  const out = new Set<number>();
  someExpr(e, (x) => { if (x.kind === 'ColumnRef' && x.levelsUp === 0) out.add(leafOf(x.index)); return false; });
  return out;
}

/** `a = b` whose sides read one leaf each: the edges a dimension can hang by */
function equalityEdge(c: Conjunct, leafOf: (i: number) => number): [number, number] | null {
  const e = c.expr;
  if (e.kind !== 'Op' || e.name !== '=' || e.left === null || e.type.oid !== Oid.bool || c.leaves.size !== 2) return null;
  const l = [...leavesRead(e.left, leafOf)];
  const r = [...leavesRead(e.right, leafOf)];
  return l.length === 1 && r.length === 1 && l[0] !== r[0] ? [l[0]!, r[0]!] : null;
}

/** The snowflake plan for an inner-join tree (same columns), or null when it does not apply. */
export function snowflake(root: LogicalPlan, built?: WeakSet<LogicalPlan>): LogicalPlan | null {
  if (!isInnerJoin(root) && !(root.kind === 'Filter' && isInnerJoin(root.input))) return null;
  const leaves: Leaf[] = [];
  const raw: Expr[] = [];
  if (!flatten(root, 0, leaves, raw) || leaves.length < 3) return null;
  const leafOf = (i: number): number => leaves.findIndex((l) => i >= l.offset && i < l.offset + l.width);
  const conjuncts: Conjunct[] = raw.map((expr) => ({ expr, leaves: leavesRead(expr, leafOf) }));
  if (conjuncts.some((c) => c.leaves.has(-1))) return null;

  const est = leaves.map((l) => estimate(l.plan));
  if (est.some((e) => e === undefined)) return null;
  const base = est.map((e) => e!.rows / Math.max(e!.selectivity, 1e-9));
  if (!base.some((b) => b >= BIG_LEAF_ROWS)) return null;
  const fact = base.reduce((best, b, i) => (b > base[best]! ? i : best), 0);

  const hung = attach(leaves.length, fact, base, edgesOf(conjuncts, leafOf));
  if (hung === null || !hung.parent.some((p, i) => i !== fact && p !== fact)) return null;
  const parent = hung.parent;
  conjuncts.push(...hung.implied);

  const used = new Set<Conjunct>();
  const leafBranch = (li: number): Branch => {
    const l = leaves[li]!;
    const local = conjuncts.filter((c) => (c.leaves.size === 1 && c.leaves.has(li)) || (c.leaves.size === 0 && li === fact));
    for (const c of local) used.add(c);
    placed(local);
    if (local.length === 0) return { plan: l.plan, order: [li] };
    const preds = local.map((c) => remap(c.expr, (i) => i - l.offset));
    const plan: LogicalPlan = l.plan.kind === 'Filter'
      ? { ...l.plan, predicate: andOf([...conjunctsOf(l.plan.predicate), ...preds]) }
      : { kind: 'Filter', input: l.plan, predicate: andOf(preds), columns: l.plan.columns };
    return { plan, order: [li] };
  };
  const join = (a: Branch, b: Branch): Branch => {
    const order = [...a.order, ...b.order];
    const inside = new Set(order);
    const all = conjuncts.filter((c) => !used.has(c) && c.leaves.size >= 2 && [...c.leaves].every((x) => inside.has(x)));
    for (const c of all) used.add(c);
    const ready = placed(keyOrder(all));
    const at = positions(order);
    const plan: Join = {
      kind: 'Join', joinType: 'inner', left: a.plan, right: b.plan, lateral: false,
      condition: ready.length === 0 ? null : andOf(ready.map((c) => remap(c.expr, (i) => at(i)))),
      columns: [...a.plan.columns, ...b.plan.columns],
    };
    built?.add(plan);
    return { plan, order };
  };
  /** original column → position in a row made of `order`'s leaves */
  const positions = (order: readonly number[]) => (i: number): number => {
    const li = leafOf(i);
    let pos = 0;
    for (const x of order) {
      if (x === li) return pos + (i - leaves[x]!.offset);
      pos += leaves[x]!.width;
    }
    throw new Error(`join_dimension_branches: column ${i} outside its branch`);
  };
  // column classes of the conjuncts placed so far: a conjunct they imply is dropped (column-classes.ts)
  const classes = new ColumnClasses();
  const placed = (cs: readonly Conjunct[]): Conjunct[] => cs.filter((c) => {
    const pair = columnEquality(c);
    if (pair === null) return true;
    if (classes.same(pair[0].index, pair[1].index)) return false;
    classes.union(pair[0].index, pair[1].index);
    return true;
  });
  // equalities over a class holding a filtered leaf's column first: a hash join's runtime key filter takes its
  // first key (TPC-H Q9: the parts' keys, not all suppliers', filter lineitem)
  const width = leaves.reduce((w, l) => Math.max(w, l.offset + l.width), 0);
  const classSelectivity = (c: Conjunct): number => {
    const pair = columnEquality(c);
    if (pair === null) return 1;
    let sel = 1;
    for (let i = 0; i < width; i++) {
      if (classes.same(i, pair[0].index) || classes.same(i, pair[1].index)) sel = Math.min(sel, est[leafOf(i)]!.selectivity);
    }
    return sel;
  };
  const keyOrder = (cs: readonly Conjunct[]): Conjunct[] => {
    const sel = new Map(cs.map((c) => [c, classSelectivity(c)]));
    return [...cs].sort((x, y) => sel.get(x)! - sel.get(y)!);
  };
  // rows reaching the top: the fact's times every leaf's filters (foreign-key joins keep the fact's rows)
  const flow = est[fact]!.rows * est.reduce((s, e, i) => (i === fact ? s : s * e!.selectivity), 1);
  const deferred: Branch[] = [];
  const filtered = (b: Branch): boolean => (estimate(b.plan)?.selectivity ?? 1) < 1;
  const branchOf = (li: number): Branch => {
    const kids = parent.map((p, i) => (p === li && i !== li ? i : -1)).filter((i) => i >= 0).map(branchOf);
    // filtered branches first, in FROM order (join-order.ts's order: without distinct counts, `p_type = …` and
    // `r_name = …` look alike, and TPC-H Q8's 1-in-150 parts must come before its 1-in-5 regions' orders);
    // an unfiltered branch shrinks nothing, so it waits
    const rank = (b: Branch): [number, number] => [filtered(b) ? 0 : 1, Math.min(...b.order)];
    kids.sort((x, y) => { const [a, b] = [rank(x), rank(y)]; return a[0] - b[0] || a[1] - b[1]; });
    const own = leafBranch(li);
    // an unfiltered dimension of a table bigger than what reaches the top joins last, over fewer rows (TPC-H
    // Q10: nation after the 3,800 matching customers' rows, not into all 15,000 customers)
    if (li !== fact && (estimate(own.plan)?.rows ?? 0) > flow) {
      deferred.push(...kids.filter((k) => !filtered(k)));
      return kids.filter(filtered).reduce(join, own);
    }
    return kids.reduce(join, own);
  };
  let tree = branchOf(fact);
  // deferred branches in an order where each is tied to what is joined (a dimension after the table it describes)
  while (deferred.length > 0) {
    const inTree = new Set(tree.order);
    const tied = (b: Branch): boolean => conjuncts.some((c) => !used.has(c) && b.order.some((x) => c.leaves.has(x)) && [...c.leaves].some((x) => inTree.has(x)));
    const next = Math.max(0, deferred.findIndex(tied));
    tree = join(tree, deferred.splice(next, 1)[0]!);
  }
  if (tree.order.length !== leaves.length || conjuncts.some((c) => !used.has(c))) return null;
  const at = positions(tree.order);
  return {
    kind: 'Projection',
    input: tree.plan,
    exprs: root.columns.map((c, i) => ({ kind: 'ColumnRef', index: at(i), levelsUp: 0, type: c.type, name: c.name })),
    columns: root.columns,
  };
}

interface Edge {
  readonly a: number;
  readonly b: number;
  readonly conjunct: Conjunct;
  /** made from an equivalence class (`c_nationkey = s_nationkey AND s_nationkey = n_nationkey` ⇒ `c_nationkey = n_nationkey`) */
  readonly implied: boolean;
  /** the equivalence class of its two columns (index into edgesOf's classes), -1 when it is no `col = col` */
  readonly cls: number;
}

/** types whose `=` is transitive and exact (no collations, no -0/NaN), so an implied equality holds exactly */
const TRANSITIVE_EQ_TYPES: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8, Oid.date]);

/** `col = col` over one transitive type and operator, as [column, column] */
function columnEquality(c: Conjunct): [ColumnRefExpr, ColumnRefExpr] | null {
  const e = c.expr;
  if (e.kind !== 'Op' || e.name !== '=' || e.left?.kind !== 'ColumnRef' || e.right.kind !== 'ColumnRef' || e.left.levelsUp !== 0 || e.right.levelsUp !== 0) return null;
  return e.leftType?.oid === e.rightType.oid && TRANSITIVE_EQ_TYPES.has(e.rightType.oid) ? [e.left, e.right] : null;
}

/** the equality edges between leaves: the conjuncts', then those their equivalence classes imply */
function edgesOf(conjuncts: readonly Conjunct[], leafOf: (i: number) => number): Edge[] {
  const out: Edge[] = [];
  // classes of columns tied by the same `=` operator (same type)
  const classes: { op: Extract<Expr, { kind: 'Op' }>; cols: ColumnRefExpr[] }[] = [];
  for (const c of conjuncts) {
    const pair = columnEquality(c);
    if (pair === null) continue;
    const op = c.expr as Extract<Expr, { kind: 'Op' }>;
    const hit = classes.filter((k) => k.op.def === op.def && k.cols.some((x) => x.index === pair[0].index || x.index === pair[1].index));
    const merged = { op: hit[0]?.op ?? op, cols: [...hit.flatMap((k) => k.cols), ...pair] };
    for (const k of hit) classes.splice(classes.indexOf(k), 1);
    merged.cols = merged.cols.filter((x, i) => merged.cols.findIndex((y) => y.index === x.index) === i);
    classes.push(merged);
  }
  for (const c of conjuncts) {
    const e = equalityEdge(c, leafOf);
    const pair = columnEquality(c);
    const cls = pair === null ? -1 : classes.findIndex((k) => k.cols.some((x) => x.index === pair[0].index));
    if (e !== null) out.push({ a: e[0], b: e[1], conjunct: c, implied: false, cls });
  }
  for (const [cls, k] of classes.entries()) {
    for (let i = 0; i < k.cols.length; i++) {
      for (let j = i + 1; j < k.cols.length; j++) {
        const [x, y] = [k.cols[i]!, k.cols[j]!];
        const [a, b] = [leafOf(x.index), leafOf(y.index)];
        if (a === b || out.some((e) => (e.a === a && e.b === b) || (e.a === b && e.b === a))) continue;
        const expr: Expr = { ...k.op, left: x, right: y };
        out.push({ a, b, conjunct: { expr, leaves: new Set([a, b]) }, implied: true, cls });
      }
    }
  }
  return out;
}

/**
 * The parent of every leaf (the fact is its own) and the implied equalities used to hang them. Leaves are hung
 * biggest first, each off the biggest leaf already hung it is equal to, preferring one with at least as many
 * rows (a dimension hangs off what references it); null: not connected by equalities.
 */
function attach(n: number, fact: number, base: readonly number[], edges: readonly Edge[]): { parent: number[]; implied: Conjunct[] } | null {
  const parent = new Array<number>(n).fill(-1);
  parent[fact] = fact;
  const implied: Conjunct[] = [];
  for (let step = 1; step < n; step++) {
    let pick: { leaf: number; edge: Edge; parent: number; fits: boolean } | null = null;
    for (let li = 0; li < n; li++) {
      if (parent[li] !== -1) continue;
      for (const e of edges) {
        const other = e.a === li ? e.b : e.b === li ? e.a : -1;
        if (other < 0 || parent[other] === -1) continue;
        const fits = base[other]! >= base[li]!;
        const better = pick === null || (fits && !pick.fits)
          || (fits === pick.fits && (base[li]! > base[pick.leaf]! || (li === pick.leaf && base[other]! > base[pick.parent]!)));
        if (better) pick = { leaf: li, edge: e, parent: other, fits };
      }
    }
    if (pick === null) return null;
    const { parent: p, edge } = throughSmallerChild(pick.leaf, pick.parent, pick.edge, parent, base, edges);
    parent[pick.leaf] = p;
    if (edge.implied) implied.push(edge.conjunct);
  }
  return { parent, implied };
}

/**
 * A leaf tied to its parent through an equivalence class that also ties a smaller child of that parent (still
 * at least the leaf's size) hangs off that child instead: the parent gets the leaf's keys through the child's
 * join anyway, and the child's branch is filtered before it is built. TPC-H Q9: `part` and `supplier` hang off
 * `partsupp` (`p_partkey = ps_partkey = l_partkey`), so '%green%' shrinks partsupp's branch rather than
 * lineitem ⋈ part building all of partsupp.
 */
function throughSmallerChild(leaf: number, par: number, edge: Edge, parent: readonly number[], base: readonly number[], edges: readonly Edge[]): { parent: number; edge: Edge } {
  const tie = (x: number, y: number, cls: number): Edge | undefined => edges.find((e) => e.cls === cls && ((e.a === x && e.b === y) || (e.a === y && e.b === x)));
  for (;;) {
    if (edge.cls < 0) return { parent: par, edge };
    let next: { q: number; e: Edge } | null = null;
    for (let q = 0; q < parent.length; q++) {
      if (q === par || q === leaf || parent[q] !== par || base[q]! < base[leaf]! || (next !== null && base[q]! >= base[next.q]!)) continue;
      const lq = tie(leaf, q, edge.cls);
      if (lq !== undefined && tie(q, par, edge.cls) !== undefined) next = { q, e: lq };
    }
    if (next === null) return { parent: par, edge };
    par = next.q;
    edge = next.e;
  }
}
