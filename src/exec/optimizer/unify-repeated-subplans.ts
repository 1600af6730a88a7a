/**
 * Part of share_repeated_subplans: subtrees written twice that differ only in the columns their readers need —
 * TPC-H Q11's partsupp ⋈ supplier ⋈ σ(nation) in FROM (reading ps_partkey) and in the HAVING subquery (not
 * reading it) — become one subtree whose scans read the union of the columns and whose joins prune only the
 * columns neither reader needs. Every occurrence is then the same object, which the rule marks to run once.
 * Widening is safe: push_down_projection and prune_join_columns only ever leave unread columns NULL, so a
 * reader never looks at the columns the other one added.
 */
import { planChildren, type Expr, type LogicalPlan, exprChildren } from '../../sql/index.ts';
import { PlanFingerprints } from './plan-fingerprint.ts';
import { mapNodeExprs, mapSubqueryPlans, nodeExprs, withChildren } from './plan-rewrite.ts';
import { deadJoinColumns, keepDeadColumns, setDeadColumns } from './prune-join-columns.ts';

/**
 * `plan` with each group of loosely equal subtrees (PlanFingerprints loose) that `candidate` accepts replaced by
 * one widened subtree; `plan` itself when there is none.
 */
export function unifyRepeatedSubplans(plan: LogicalPlan, candidate: (p: LogicalPlan) => boolean): LogicalPlan {
  const loose = new PlanFingerprints(true);
  const strict = new PlanFingerprints();
  const count = new Map<number, number>();
  eachNode(plan, (p) => { const n = loose.of(p); count.set(n, (count.get(n) ?? 0) + 1); return true; });
  const groups = new Map<number, LogicalPlan[]>();
  eachNode(plan, (p) => {
    const n = loose.of(p);
    if ((count.get(n) ?? 0) < 2 || hasSubquery(p) || !candidate(p)) return true;
    let g = groups.get(n);
    if (g === undefined) groups.set(n, (g = []));
    g.push(p);
    return false;
  });
  const replace = new Map<LogicalPlan, LogicalPlan>();
  for (const members of groups.values()) {
    if (members.length < 2 || members.every((m) => strict.of(m) === strict.of(members[0]!))) continue;
    const one = widened(members);
    for (const m of members) replace.set(m, one);
  }
  return replace.size === 0 ? plan : replaced(plan, replace);
}

/** one subtree for `nodes` (loosely equal): scans read every column any of them reads, joins prune what none reads */
function widened(nodes: readonly LogicalPlan[]): LogicalPlan {
  const first = nodes[0]!;
  const kids = planChildren(first).map((_c, i) => widened(nodes.map((n) => planChildren(n)[i]!)));
  const out = withChildren(first, kids);
  if (first.kind === 'TableScan') {
    const all = nodes.map((n) => (n as typeof first).projection);
    if (all.some((p) => p === undefined)) {
      const { projection: _dropped, ...rest } = first;
      return rest;
    }
    return { ...first, projection: [...new Set(all.flatMap((p) => p!))].sort((a, b) => a - b) };
  }
  if (first.kind === 'Join') {
    const deads = nodes.map((n) => deadJoinColumns(n as typeof first) ?? []);
    const both = deads[0]!.filter((c) => deads.every((d) => d.includes(c)));
    const copy = { ...(out as typeof first) };
    setDeadColumns(copy, both);
    return copy;
  }
  return out;
}

/** `p` with the nodes of `map` replaced (subquery plans included); unchanged parts stay the same objects */
function replaced(p: LogicalPlan, map: ReadonlyMap<LogicalPlan, LogicalPlan>): LogicalPlan {
  const r = map.get(p);
  if (r !== undefined) return r;
  let q = withChildren(p, planChildren(p).map((c) => replaced(c, map)));
  if (hasSubquery(p, false)) q = mapNodeExprs(q, (e) => mapSubqueryPlans(e, (sp) => replaced(sp, map)));
  if (q !== p) keepDeadColumns(p, q);
  return q;
}

/** visits every node top-down, subquery plans included; `f` returns false to skip the node's inside */
export function eachNode(p: LogicalPlan, f: (p: LogicalPlan) => boolean): void {
  if (!f(p)) return;
  for (const c of planChildren(p)) eachNode(c, f);
  const expr = (e: Expr): void => {
    if (e.kind === 'Subquery') eachNode(e.plan, f);
    for (const c of exprChildren(e)) expr(c);
  };
  for (const e of nodeExprs(p)) expr(e);
}

/** whether some expression of `p` (of its whole subtree unless `deep` is false) holds a subquery */
function hasSubquery(p: LogicalPlan, deep = true): boolean {
  const inExpr = (e: Expr): boolean => e.kind === 'Subquery' || exprChildren(e).some(inExpr);
  if (nodeExprs(p).some(inExpr)) return true;
  return deep && planChildren(p).some((c) => hasSubquery(c));
}
