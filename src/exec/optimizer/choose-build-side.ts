/**
 * choose_build_side: a hash join builds its hash table on the right input unless the left is expected to be
 * much smaller (row-estimate.ts); then it is marked `buildSide: 'left'` and HashJoinExec builds the left and
 * streams the right (EXPLAIN: `Semi Join (build: left)`). The usual case is a semi/anti join from
 * [NOT] EXISTS whose outer side is filtered small while the subquery side is a whole fact table (TPC-H Q4:
 * 5 000 orders against 380 000 lineitems; Q21, Q22), and a decorrelated aggregate join (Q17). Inner joins in
 * a reordered tree already have the big input on the left. Runs after the pushdown rules, which place the
 * filters the estimates read. Off with `lakegate.disabled_optimizer_rules = 'choose_build_side'`.
 */
import type { Join, LogicalPlan } from '../../sql/index.ts';
import { extractEquiKeys } from '../equi-keys.ts';
import { canBuildLeft } from '../operators/hash-join-exec.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';

/** build left only when it pays clearly: the right side is not tiny and at least this many times the left */
const MIN_RIGHT_ROWS = 1000;
/** semi/anti/left joins also save the right side's hash table of whole rows and may filter it (runtime filter) */
const MIN_RATIO_PRESERVING_LEFT = 2;
/** inner joins of a reordered tree already stream their biggest input: swap only on a clear difference */
const MIN_RATIO_OTHER = 4;

export function preferBuildLeft(p: Join): boolean {
  if (p.lateral || p.condition === null) return false;
  const keys = extractEquiKeys(p.condition, p.left.columns.length);
  if (keys === null || !canBuildLeft(keys, p)) return false;
  const l = estimate(p.left)?.rows;
  const r = estimate(p.right)?.rows;
  if (l === undefined || r === undefined) return false;
  // a grouped right side is worth what it aggregates: built left, the left's keys filter that input
  const work = Math.max(r, aggregatedRows(p.right) ?? 0);
  const ratio = p.joinType === 'semi' || p.joinType === 'anti' || p.joinType === 'left' ? MIN_RATIO_PRESERVING_LEFT : MIN_RATIO_OTHER;
  return work >= MIN_RIGHT_ROWS && l * ratio <= work;
}

/** the estimated input rows of the grouped Aggregate a plan is (under Projections and Filters), if it is one */
function aggregatedRows(p: LogicalPlan): number | undefined {
  if (p.kind === 'Projection' || p.kind === 'Filter') return aggregatedRows(p.input);
  if (p.kind !== 'Aggregate' || p.groupKeys.length === 0 || p.groupingSets !== null) return undefined;
  return estimate(p.input)?.rows;
}

export const chooseBuildSide: OptimizerRule = {
  name: 'choose_build_side',
  apply: (plan) => transformPlanUp(plan, (p): LogicalPlan => {
    if (p.kind !== 'Join') return p;
    const left = preferBuildLeft(p);
    if (left === (p.buildSide === 'left')) return p;
    if (left) return { ...p, buildSide: 'left' };
    const { buildSide: _dropped, ...rest } = p;
    return rest;
  }),
};
