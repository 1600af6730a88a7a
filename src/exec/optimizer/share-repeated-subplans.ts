/**
 * share_repeated_subplans: a subtree that occurs more than once in the plan — a CTE referenced twice, as TPC-H
 * Q15's revenue0 in FROM and in its `max(total_revenue)` subquery — runs once per execution, and every
 * occurrence reads its rows (SharedSubplanExec buffers them). PostgreSQL does the same for a CTE referenced
 * more than once (a CTE Scan over one materialized WITH query). Marked: the outermost repeated subtrees that
 * aggregate or join a table (cheaper ones are not worth the buffer), yield the same rows every time
 * (recursive-invariants.ts: no volatile call, no outer row, no working table, no DML) and are estimated to
 * hold at most MAX_SHARED_ROWS rows, since the rows stay in memory until the statement ends. Copies that
 * differ only in the columns their readers need (TPC-H Q11's join in FROM and in HAVING) are first made one
 * subtree reading the union (unify-repeated-subplans.ts); otherwise the plan is not changed: the marks live
 * beside it (sharedSubplanKey), read by the planner. Runs after prune_join_columns,
 * whose marks are part of the fingerprint (plan-fingerprint.ts). A runtime key filter rewrites its probe side
 * into new nodes, which carry no mark, so a filtered copy is never served another copy's rows.
 * Off with `lakegate.disabled_optimizer_rules = 'share_repeated_subplans'`.
 */
import { planChildren, type LogicalPlan } from '../../sql/index.ts';
import { invariant } from '../recursive-invariants.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { PlanFingerprints } from './plan-fingerprint.ts';
import { eachNode, unifyRepeatedSubplans } from './unify-repeated-subplans.ts';
import { estimate } from './row-estimate.ts';

/** the most rows (estimated) a shared subtree may hold in memory */
export const MAX_SHARED_ROWS = 1_000_000;

/** marked node → its share key (equal keys: one run serves all) */
const SHARED = new WeakMap<LogicalPlan, string>();

/** the key of the shared run this node reads, or undefined when it runs on its own */
export function sharedSubplanKey(p: LogicalPlan): string | undefined {
  return SHARED.get(p);
}

let nextPlanId = 1;

export const shareRepeatedSubplans: OptimizerRule = {
  name: 'share_repeated_subplans',
  apply: (bound) => {
    // fingerprints cost a walk over every expression: skipped when no table is read twice
    if (!readsATableTwice(bound)) return bound;
    // copies that differ only in the columns read become one widened subtree first
    const plan = unifyRepeatedSubplans(bound, worthSharing);
    const prints = new PlanFingerprints();
    const count = new Map<number, number>();
    eachNode(plan, (p) => {
      const n = prints.of(p);
      count.set(n, (count.get(n) ?? 0) + 1);
      return true;
    });
    if (![...count.values()].some((c) => c > 1)) return plan;
    // one id per optimized plan: keys of different statements never meet (runs are per execution anyway)
    const planId = nextPlanId++;
    const worth = new Map<number, boolean>();
    eachNode(plan, (p) => {
      const n = prints.of(p);
      if ((count.get(n) ?? 0) < 2) return true;
      let ok = worth.get(n);
      if (ok === undefined) worth.set(n, (ok = worthSharing(p)));
      if (!ok) return true;
      SHARED.set(p, `${planId}:${n}`);
      return false; // the outermost repeat: what is inside runs once with it
    });
    return plan;
  },
};

/**
 * Whether two scans of `plan` (subqueries included) read the same table, or one scan node occurs twice. When
 * not, no subtree worth sharing (worthSharing: one that scans) can repeat: fingerprints tell sources apart by
 * identity (plan-fingerprint.ts), so copies need the same source object. Plain-object sources, which
 * fingerprints compare by value, count as read twice.
 */
export function readsATableTwice(plan: LogicalPlan): boolean {
  const scans = new Set<LogicalPlan>();
  const sources = new Set<object>();
  let twice = false;
  eachNode(plan, (p) => {
    if (twice) return false;
    if (p.kind !== 'TableScan') return true;
    const source = p.source as object;
    const proto = Object.getPrototypeOf(source) as unknown;
    twice = scans.has(p) || sources.has(source) || proto === Object.prototype || proto === null;
    scans.add(p);
    sources.add(source);
    return !twice;
  });
  return twice;
}

function worthSharing(p: LogicalPlan): boolean {
  let scans = false;
  let work = false;
  const kinds = (q: LogicalPlan): void => {
    if (q.kind === 'TableScan') scans = true;
    if (q.kind === 'Aggregate' || q.kind === 'Join') work = true;
    for (const c of planChildren(q)) kinds(c);
  };
  kinds(p);
  if (!scans || !work || !invariant(p)) return false;
  const est = estimate(p);
  return est !== undefined && est.rows <= MAX_SHARED_ROWS;
}
