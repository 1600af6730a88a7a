/**
 * choose_build_side: a hash join builds its hash table on the right input unless the left is expected to be
 * much smaller (row-estimate.ts); then it is marked `buildSide: 'left'` and HashJoinExec builds the left and
 * streams the right (EXPLAIN: `Semi Join (build: left)`). The usual case is a semi/anti join from
 * [NOT] EXISTS whose outer side is filtered small while the subquery side is a whole fact table (TPC-H Q4:
 * 5 000 orders against 380 000 lineitems; Q21, Q22), and a decorrelated aggregate join (Q17). Inner joins in
 * a reordered tree already have the big input on the left; one whose right input is filtered and whose left
 * reads the key from a scan is swapped to build left (swappedForRuntimeFilter), so that scan gets the built
 * keys as a runtime filter (Q2, Q17, Q18, Q19). Runs after the pushdown rules, which place the
 * filters the estimates read. Off with `lakegate.disabled_optimizer_rules = 'choose_build_side'`.
 */
import { transformExpr, type Expr, type Join, type LogicalPlan } from '../../sql/index.ts';
import { extractEquiKeys } from '../equi-keys.ts';
import { canBuildLeft } from '../operators/hash-join-exec.ts';
import { keyReachesScan, MAX_RUNTIME_FILTER_KEYS } from '../runtime-key-filter.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';

/** build left only when it pays clearly: the right side is not tiny and at least this many times the left */
const MIN_RIGHT_ROWS = 1000;
/** semi/anti/left joins also save the right side's hash table of whole rows and may filter it (runtime filter) */
const MIN_RATIO_PRESERVING_LEFT = 2;
/** inner joins of a reordered tree already stream their biggest input: swap only on a clear difference */
export const MIN_RATIO_OTHER = 4;

export function preferBuildLeft(p: Join): boolean {
  if (p.lateral || p.condition === null) return false;
  const keys = extractEquiKeys(p.condition, p.left.columns.length);
  if (keys === null || !canBuildLeft(keys, p)) return false;
  const l = estimate(p.left)?.rows;
  const r = estimate(p.right)?.rows;
  if (l === undefined || r === undefined) return false;
  // a grouped right side is worth what it aggregates: built left, the left's keys filter that input (when
  // there are few enough of them for a runtime filter: else the right side aggregates everything anyway)
  const work = l <= MAX_RUNTIME_FILTER_KEYS ? Math.max(r, aggregatedRows(p.right) ?? 0) : r;
  const ratio = p.joinType === 'semi' || p.joinType === 'anti' || p.joinType === 'left' ? MIN_RATIO_PRESERVING_LEFT : MIN_RATIO_OTHER;
  return work >= MIN_RIGHT_ROWS && l * ratio <= work;
}

/** the estimated input rows of the grouped Aggregate a plan is (under Projections and Filters), if it is one */
function aggregatedRows(p: LogicalPlan): number | undefined {
  if (p.kind === 'Projection' || p.kind === 'Filter') return aggregatedRows(p.input);
  if (p.kind !== 'Aggregate' || p.groupKeys.length === 0 || p.groupingSets !== null) return undefined;
  return estimate(p.input)?.rows;
}

/** the probe side's rows must be many, the build side's keys a filtered subset for a runtime filter to pay */
const MAX_SWAP_SELECTIVITY = 0.5;

/**
 * An inner join whose right (build) input is filtered and whose big left input reads the key from a scan:
 * the inputs swap and the join builds left, so the streamed big side gets the built keys as a runtime scan
 * filter (runtime-key-filter.ts). The same hash table is built as before; a Projection restores the columns.
 */
export function swappedForRuntimeFilter(p: Join): LogicalPlan | null {
  if (p.joinType !== 'inner' || p.lateral || p.condition === null || p.buildSide === 'left') return null;
  const l = estimate(p.left);
  const r = estimate(p.right);
  if (l === undefined || r === undefined || r.selectivity > MAX_SWAP_SELECTIVITY || l.rows < MIN_RIGHT_ROWS || l.rows < r.rows * MIN_RATIO_OTHER) return null;
  const lw = p.left.columns.length;
  const rw = p.right.columns.length;
  const condition = transformExpr(p.condition, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index < lw ? x.index + rw : x.index - lw } : undefined));
  const swapped: Join = { ...p, left: p.right, right: p.left, condition, columns: [...p.right.columns, ...p.left.columns], buildSide: 'left' };
  const keys = extractEquiKeys(condition, rw);
  if (keys === null || !canBuildLeft(keys, swapped)) return null;
  const probeKey = keys.right.some((e, i) => e.kind === 'ColumnRef' && e.levelsUp === 0 && keys.ops[i]!.leftType?.oid === keys.ops[i]!.rightType.oid && keyReachesScan(p.left, e.index));
  if (!probeKey) return null;
  const exprs: Expr[] = p.columns.map((c, i) => ({ kind: 'ColumnRef', index: i < lw ? rw + i : i - lw, levelsUp: 0, type: c.type, name: c.name }));
  return { kind: 'Projection', input: swapped, exprs, columns: p.columns };
}

export const chooseBuildSide: OptimizerRule = {
  name: 'choose_build_side',
  apply: (plan) => transformPlanUp(plan, (p): LogicalPlan => {
    if (p.kind !== 'Join') return p;
    const left = preferBuildLeft(p);
    if (!left) {
      const swapped = swappedForRuntimeFilter(p);
      if (swapped !== null) return swapped;
    }
    if (left === (p.buildSide === 'left')) return p;
    if (left) return { ...p, buildSide: 'left' };
    const { buildSide: _dropped, ...rest } = p;
    return rest;
  }),
};
