/**
 * Join ordering for WHERE over a tree of inner / cross joins (`FROM a, b, c WHERE a.x = b.y AND ...`), the
 * shape of every client's catalog query (pgJDBC getImportedKeys, psqlODBC SQLForeignKeys, psql \d). Without
 * it the comma list runs as nested cross products filtered at the top, which explodes (pg_attribute²).
 *
 * The inner joins are flattened into leaves and conjuncts; conjuncts over one leaf become a Filter on that
 * leaf, and the leaves are joined greedily: next comes a leaf tied to the joined ones by an equality (so the
 * planner makes it a hash join), and every conjunct whose leaves are all joined goes into that join's
 * condition. A Projection restores the original column order; conjuncts with subqueries stay on top.
 * Inner joins commute, so the result is the same set of rows (order is unspecified without ORDER BY).
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { andOf, conjunctsOf, someExpr, transformExpr, type Expr, type Filter, type LogicalPlan } from '../sql/index.ts';

interface Leaf {
  readonly plan: LogicalPlan;
  /** first column of this leaf in the original (flattened) row */
  readonly offset: number;
  readonly width: number;
}

interface Conjunct {
  /** over the original flattened row */
  readonly expr: Expr;
  /** indexes of the leaves it reads; null = not movable (subquery) */
  readonly leaves: ReadonlySet<number> | null;
}

/** The reordered plan (same columns as `filter`), or null when there is nothing to reorder. */
export function reorderInnerJoins(filter: Filter): LogicalPlan | null {
  const leaves: Leaf[] = [];
  const raw: Expr[] = [];
  if (!isInnerJoin(filter.input)) return null;
  if (!flatten(filter.input, 0, leaves, raw)) return null;
  if (leaves.length < 2) return null;
  raw.push(...conjunctsOf(filter.predicate));
  const leafOf = (index: number): number => leaves.findIndex((l) => index >= l.offset && index < l.offset + l.width);
  const conjuncts: Conjunct[] = raw.map((expr) => ({ expr, leaves: leavesRead(expr, leafOf) }));
  if (!conjuncts.some((c) => c.leaves !== null && c.leaves.size >= 2)) return null; // a true cross product

  // a leaf with its own WHERE conjuncts (they become a Filter on it) is expected to shrink
  const sizes = leaves.map((l, li) => {
    const n = estimateRows(l.plan);
    return n !== undefined && conjuncts.some((c) => c.leaves?.size === 1 && c.leaves.has(li)) ? n / 4 : n;
  });
  const order = greedyOrder(leaves.length, conjuncts, sizes);
  // new position of every original column
  const newIndex = new Array<number>(filter.columns.length);
  let width = 0;
  for (const li of order) {
    const l = leaves[li]!;
    for (let k = 0; k < l.width; k++) newIndex[l.offset + k] = width + k;
    width += l.width;
  }
  const used = new Set<Conjunct>();
  const joined = new Set<number>();
  let plan: LogicalPlan | null = null;
  let builtWidth = 0;
  for (const li of order) {
    const l = leaves[li]!;
    // single-leaf conjuncts: a Filter on the leaf, over the leaf's own columns
    // (conjuncts reading no column of this level — constants, outer references — filter the first leaf: above,
    // they would make the planner push them back down and reorder again, forever)
    const local = conjuncts.filter((c) => c.leaves !== null && ((c.leaves.size === 1 && c.leaves.has(li)) || (c.leaves.size === 0 && plan === null)));
    for (const c of local) used.add(c);
    let leafPlan: LogicalPlan = l.plan;
    if (local.length > 0) leafPlan = { kind: 'Filter', input: l.plan, predicate: andOf(local.map((c) => remap(c.expr, (i) => i - l.offset))), columns: l.plan.columns };
    joined.add(li);
    if (plan === null) {
      plan = leafPlan;
      builtWidth = l.width;
      continue;
    }
    const ready = conjuncts.filter((c) => !used.has(c) && c.leaves !== null && c.leaves.size >= 2 && [...c.leaves].every((x) => joined.has(x)));
    for (const c of ready) used.add(c);
    const leafBase = builtWidth;
    // positions inside the join being built: the joined leaves keep their final positions, the new leaf follows
    const inJoin = (i: number): number => (leafOf(i) === li ? leafBase + (i - l.offset) : newIndex[i]!);
    plan = {
      kind: 'Join',
      joinType: 'inner',
      left: plan,
      right: leafPlan,
      condition: ready.length === 0 ? null : andOf(ready.map((c) => remap(c.expr, inJoin))),
      lateral: false,
      columns: [...plan.columns, ...leafPlan.columns],
    };
    builtWidth += l.width;
  }
  const restored: LogicalPlan = {
    kind: 'Projection',
    input: plan!,
    exprs: filter.columns.map((c, i) => ({ kind: 'ColumnRef', index: newIndex[i]!, levelsUp: 0, type: c.type, name: c.name })),
    columns: filter.columns,
  };
  const rest = conjuncts.filter((c) => !used.has(c)).map((c) => c.expr);
  return rest.length === 0 ? restored : { kind: 'Filter', input: restored, predicate: andOf(rest), columns: filter.columns };
}

function isInnerJoin(p: LogicalPlan): p is Extract<LogicalPlan, { kind: 'Join' }> {
  return p.kind === 'Join' && p.joinType === 'inner' && !p.lateral;
}

/** false when a nested join's condition holds a subquery: its inner plan reads that join's row, not ours */
function flatten(p: LogicalPlan, offset: number, leaves: Leaf[], conds: Expr[]): boolean {
  if (!isInnerJoin(p)) {
    leaves.push({ plan: p, offset, width: p.columns.length });
    return true;
  }
  if (!flatten(p.left, offset, leaves, conds) || !flatten(p.right, offset + p.left.columns.length, leaves, conds)) return false;
  if (p.condition === null) return true;
  if (offset !== 0 && someExpr(p.condition, (x) => x.kind === 'Subquery')) return false;
  conds.push(...conjunctsOf(p.condition).map((c) => (offset === 0 ? c : remap(c, (i) => i + offset))));
  return true;
}



/** leaves read by a conjunct; null when it holds a subquery (its inner plan may read this row: keep on top) */
function leavesRead(e: Expr, leafOf: (index: number) => number): Set<number> | null {
  const out = new Set<number>();
  let movable = true;
  someExpr(e, (x) => {
    if (x.kind === 'Subquery') movable = false;
    else if (x.kind === 'ColumnRef' && x.levelsUp === 0) out.add(leafOf(x.index));
    return false;
  });
  return movable && !out.has(-1) ? out : null;
}

/** renumbers this level's column references (subquery-free expressions only) */
function remap(e: Expr, to: (index: number) => number): Expr {
  return transformExpr(e, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: to(x.index) } : undefined));
}

/** `col = constant` on one leaf: a selective start */
function isConstEquality(c: Conjunct): boolean {
  const e = c.expr;
  if (e.kind !== 'Op' || e.name !== '=' || e.left === null) return false;
  const noCols = (x: Expr): boolean => !someExpr(x, (y) => y.kind === 'ColumnRef' || y.kind === 'Subquery');
  return noCols(e.left) || noCols(e.right);
}

function isEquality(c: Conjunct): boolean {
  return c.expr.kind === 'Op' && c.expr.name === '=' && c.expr.type.oid === Oid.bool;
}

/** rows a leaf is expected to give, from its tables' row counts (Iceberg manifests, memory tables); crude selectivities */
export function estimateRows(p: LogicalPlan): number | undefined {
  switch (p.kind) {
    case 'TableScan': return p.source.estimatedRows;
    case 'Filter': { const n = estimateRows(p.input); return n === undefined ? undefined : n / 4; }
    case 'Aggregate': { const n = estimateRows(p.input); return n === undefined ? undefined : p.groupKeys.length === 0 ? 1 : n / 10; }
    case 'Projection': case 'Sort': case 'Distinct': case 'Window': return estimateRows(p.input);
    case 'Join': {
      const l = estimateRows(p.left);
      const r = estimateRows(p.right);
      return l === undefined || r === undefined ? undefined : Math.max(l, r);
    }
    default: return undefined;
  }
}

/** analytic joins (every leaf sized, one of them big) are ordered by size; catalog and small joins keep FROM order */
const BIG_LEAF_ROWS = 100_000;

function greedyOrder(n: number, conjuncts: readonly Conjunct[], sizes: readonly (number | undefined)[] = []): number[] {
  const selective = (li: number): boolean => conjuncts.some((c) => c.leaves?.size === 1 && c.leaves.has(li) && isConstEquality(c));
  const all = Array.from({ length: n }, (_, i) => i);
  // analytic joins: the largest leaf streams through (the probe side); every leaf joined next becomes a hash
  // table (the planner builds the right input). Later leaves keep FROM order among those tied by an equality:
  // without distinct counts, "smallest next" can pick a join on a low-cardinality key (c_nationkey = s_nationkey
  // before c_custkey = o_custkey in TPC-H Q5) and multiply rows.
  const sized = sizes.length === n && sizes.every((x) => x !== undefined) && sizes.some((x) => x! >= BIG_LEAF_ROWS);
  const largest = (): number => all.reduce((a, b) => (sizes[b]! > sizes[a]! ? b : a));
  const first = sized ? largest() : all.find(selective) ?? 0;
  const order = [first];
  const joined = new Set(order);
  while (order.length < n) {
    const rest = all.filter((i) => !joined.has(i));
    const tied = (li: number, equalityOnly: boolean): boolean =>
      conjuncts.some((c) => c.leaves !== null && c.leaves.has(li) && c.leaves.size >= 2 && (!equalityOnly || isEquality(c)) && [...c.leaves].every((x) => x === li || joined.has(x)));
    const byEq = rest.filter((li) => tied(li, true));
    const next = byEq.find(selective) ?? byEq[0] ?? rest.find((li) => tied(li, false)) ?? rest[0]!;
    order.push(next);
    joined.add(next);
  }
  return order;
}

