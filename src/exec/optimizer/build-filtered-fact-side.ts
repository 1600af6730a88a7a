/**
 * build_filtered_fact_side: an inner join that builds a whole table (a scan with no filter) while its other input
 * is a filtered fact side builds that filtered side instead, and the whole table's scan then takes the built keys
 * as a runtime key filter of up to 1 key per 2 scanned rows (allowWideScanKeys, runtime-key-filter.ts). TPC-H Q9
 * at SF 1: lineitem ⋈ σ(part) ⋈ … (327,716 rows, 294,053 distinct order keys) joined with all 1,500,000 orders
 * built a 1.5M-row table for a 328k-row probe; built on the lineitem side, the orders scan materializes and sends
 * only the 294,053 orders of those rows (main thread −20 %, scan workers −20 % CPU).
 *
 * choose_build_side does not see it: Q9's `p_name LIKE '%green%'` is estimated to keep 1/4 of the parts (5.5 %
 * do), so the filtered side looks as big as orders. A probe side filtered to at most MAX_FILTERED_SELECTIVITY of
 * its tables and estimated at most MAX_SIZE_RATIO times the table's rows is built; with more distinct keys than
 * the cap at run time the scan is read whole and the join is a hash join of similar size either way round.
 * Inner joins commute: same rows. Runs after build_side_under_key_filters, before wide_probe_key_filters.
 * Off with `lakegate.disabled_optimizer_rules = 'build_filtered_fact_side'`.
 */
import { planChildren, type Join, type LogicalPlan } from '../../sql/index.ts';
import { extractEquiKeys } from '../equi-keys.ts';
import { canBuildLeft } from '../operators/hash-join-exec.ts';
import { allowWideScanKeys, copyScanKeyMarks } from '../runtime-key-filter.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { hasSubquery, mapNodeExprs, mapSubqueryPlans, withChildren } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';

export const buildFilteredFactSide: OptimizerRule = {
  name: 'build_filtered_fact_side',
  apply: (plan) => visit(plan),
};

/** the whole table must be big for its hash table to cost more than the filter's per-row probe in the scan */
const MIN_WHOLE_TABLE_ROWS = 100_000;
/** the other input keeps at most this share of its tables: a fact side cut by filters */
const MAX_FILTERED_SELECTIVITY = 0.25;
/** …and is estimated at most this many times the table's rows (guessed selectivities such as LIKE's are rough) */
const MAX_SIZE_RATIO = 1.25;

function visit(p: LogicalPlan): LogicalPlan {
  const q = p.kind === 'Join' ? rebuilt(p) : p;
  const out = withChildren(q, planChildren(q).map(visit));
  // a subquery's plan runs on its own
  return hasSubquery(out) ? mapNodeExprs(out, (e) => mapSubqueryPlans(e, visit)) : out;
}

/** `j` building its filtered left input, its whole-table right scan marked for a wide key filter (see the header) */
function rebuilt(j: Join): Join {
  if (j.joinType !== 'inner' || j.buildSide === 'left' || j.lateral || j.condition === null) return j;
  const scan = j.right;
  if (scan.kind !== 'TableScan' || (scan.filters !== undefined && scan.filters.length > 0) || scan.limit !== undefined) return j;
  const keys = extractEquiKeys(j.condition, j.left.columns.length);
  if (keys === null || !canBuildLeft(keys, j)) return j;
  // HashJoinExec's pick for the probe side's filter: the first key that is a plain column compared within one type
  const k = keys.right.findIndex((e, i) => e.kind === 'ColumnRef' && e.levelsUp === 0 && keys.ops[i]!.leftType?.oid === keys.ops[i]!.rightType.oid);
  const key = keys.right[k];
  if (key === undefined || key.kind !== 'ColumnRef' || key.index >= scan.columns.length) return j;
  const l = estimate(j.left);
  const r = estimate(scan);
  if (l === undefined || r === undefined || r.rows < MIN_WHOLE_TABLE_ROWS) return j;
  if (l.selectivity > MAX_FILTERED_SELECTIVITY || l.rows > r.rows * MAX_SIZE_RATIO) return j;
  // the mark goes on a copy of the scan, so that no other plan sharing the bound scan node inherits it
  const marked: LogicalPlan = { ...scan };
  copyScanKeyMarks(scan, marked);
  allowWideScanKeys(marked, key.index);
  return { ...j, right: marked, buildSide: 'left' };
}
