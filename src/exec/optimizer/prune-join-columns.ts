/**
 * prune_join_columns: marks, on each join of the final plan, the output columns nothing above it reads
 * (HashJoinExec then passes shared NULL columns for them instead of gathering their rows). The plan keeps its
 * column layout: push_down_projection already leaves unread scan columns NULL, but a column read below a join
 * — a join key, a filtered column — was still copied by every join above it. TPC-H Q9's five joins carried
 * 17 columns to the top where 6 are read. The needed set flows top-down as in push_down_projection; the plan
 * itself is not changed, the marks live beside it (deadJoinColumns). Runs last, on the plan that executes.
 * Off with `lakegate.disabled_optimizer_rules = 'prune_join_columns'`.
 */
import { planChildren, type Join, type LogicalPlan } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { mapNodeExprs, mapSubqueryPlans } from './plan-rewrite.ts';
import { columnsRead } from './push-down-projection.ts';

export const pruneJoinColumns: OptimizerRule = {
  name: 'prune_join_columns',
  apply: (plan) => {
    seen = new Map();
    try {
      visit(plan, null);
    } finally {
      seen = null;
    }
    return plan;
  },
};

/**
 * per node visited so far in this apply(): the columns its readers need. A node several parents read (the
 * outer side a correlated aggregate reads too, correlated_aggregate_from_join) is marked for what all of them need.
 */
let seen: Map<LogicalPlan, Need> | null = null;

/** per Join node: its output columns no node above reads (absent: all are read) */
const DEAD = new WeakMap<Join, readonly number[]>();

/** the output columns of `j` nothing above reads, or null (prune_join_columns off, or every column read) */
export function deadJoinColumns(j: Join): readonly number[] | null {
  return DEAD.get(j) ?? null;
}

/**
 * per Join node: its input columns only its condition reads — nothing above (EXEC: a build side's int8 key then
 * hashes from exact doubles and is never made into BigInts, exec/join-key-only.ts)
 */
const CONDITION_ONLY = new WeakMap<Join, readonly number[]>();

/** the columns of `j` (its output numbering) only its condition reads, or null (none, or the rule did not run) */
export function conditionOnlyJoinColumns(j: Join): readonly number[] | null {
  return CONDITION_ONLY.get(j) ?? null;
}

/** sets the marks of a join made after this rule ran (unify-repeated-subplans.ts); empty = every column read */
export function setDeadColumns(j: Join, dead: readonly number[]): void {
  if (dead.length === 0) DEAD.delete(j);
  else DEAD.set(j, dead);
}

/** a rewritten copy of a join (runtime-key-filter.ts) keeps the original's marks: same columns, same parents */
export function keepDeadColumns(from: LogicalPlan, to: LogicalPlan): void {
  if (from.kind !== 'Join' || to.kind !== 'Join') return;
  const d = DEAD.get(from);
  if (d !== undefined) DEAD.set(to, d);
  const k = CONDITION_ONLY.get(from);
  if (k !== undefined) CONDITION_ONLY.set(to, k);
}

/** null = all columns */
type Need = ReadonlySet<number> | null;

function read(es: readonly (import('../../sql/index.ts').Expr | null)[], into = new Set<number>()): Set<number> {
  for (const e of es) if (e !== null) columnsRead(e, into);
  return into;
}

function plus(need: Need, extra: Set<number>): Need {
  if (need === null) return null;
  for (const i of need) extra.add(i);
  return extra;
}

function visit(p: LogicalPlan, need: Need): void {
  if (seen !== null) {
    if (seen.has(p)) {
      const before = seen.get(p)!;
      // nothing new to keep: the marks already hold for this reader too
      if (before === null || (need !== null && [...need].every((i) => before.has(i)))) return;
      need = need === null ? null : new Set([...before, ...need]);
    }
    seen.set(p, need);
  }
  // subquery plans run on their own: all their columns count
  mapNodeExprs(p, (e) => mapSubqueryPlans(e, (sp) => { visit(sp, null); return sp; }));
  const kids = (...n: Need[]): void => planChildren(p).forEach((c, i) => visit(c, n[i] ?? null));
  switch (p.kind) {
    case 'Filter': return kids(plus(need, read([p.predicate])));
    case 'Sort': return kids(plus(need, read(p.keys.map((k) => k.expr))));
    case 'Limit': return kids(plus(need, read([p.limit, p.offset])));
    // an output nobody needs that only copies a column reads nothing (a computed one is still computed)
    case 'Projection': return kids(read(p.exprs.filter((e, i) => need === null || need.has(i) || e.kind !== 'ColumnRef')));
    case 'Aggregate': return kids(read([...p.groupKeys, ...p.aggregates]));
    case 'Join': {
      const lw = p.left.columns.length;
      const rw = p.right.columns.length;
      const cond = read([p.condition]);
      // a second reader's visit: the marks are made again for what every reader needs
      DEAD.delete(p);
      CONDITION_ONLY.delete(p);
      if (p.lateral || need === null) return kids(null, null);
      const leftOnly = p.joinType === 'semi' || p.joinType === 'anti';
      // semi / anti joins output the left row only: their right columns are read by the condition or not at all
      const dead: number[] = [];
      const outputs = leftOnly ? lw : lw + rw;
      for (let i = 0; i < lw + rw; i++) if (!(i < outputs && need.has(i)) && !cond.has(i)) dead.push(i);
      if (dead.length > 0) DEAD.set(p, dead);
      const condOnly = [...cond].filter((i) => !(i < outputs && need.has(i)));
      if (condOnly.length > 0) CONDITION_ONLY.set(p, condOnly);
      const all = new Set([...need, ...cond]);
      const right = new Set<number>();
      for (const i of leftOnly ? cond : all) if (i >= lw && i < lw + rw) right.add(i - lw);
      return kids(new Set([...all].filter((i) => i < lw)), right);
    }
    default: return kids();
  }
}
