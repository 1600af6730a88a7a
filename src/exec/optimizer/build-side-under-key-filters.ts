/**
 * build_side_under_key_filters: choose_build_side judges each join by its own inputs' estimates, but a join
 * above it that builds a filtered input hands the built keys to a scan below at run time (runtime-key-filter.ts),
 * so that scan yields only a fraction of its table. TPC-H Q21: `supplier ⋈ σ(nation)` (one nation of 25) filters
 * the lineitem l1 scan by l_suppkey, and below it `σ(orders) ⋈ σ(l1)` was built on orders because l1 looked 13×
 * bigger — o_orderstatus = 'F' keeps half the orders (146,000 rows at SF 0.2), l1 yields 33,000. PostgreSQL
 * hashes l1 ⋈ supplier ⋈ nation and streams orders.
 *
 * Top-down: every scan an ancestor's runtime key filter reaches has its estimate scaled by that ancestor's build
 * selectivity (foreign-key style, as row-estimate.ts's joins), and an inner join built left only because its
 * right input looked MIN_RATIO_OTHER times bigger builds right again when, scaled, it no longer does and its
 * left input can take the right's keys as a probe-side runtime filter (probeSideFilterable, key reaching a
 * scan, which may then carry up to 1/8 keys per scanned row: allowDenserScanKeys): the orders scan then converts
 * only the orders of l1's rows. Inner joins commute: same rows.
 * Runs right after choose_build_side. Off with `lakegate.disabled_optimizer_rules = 'build_side_under_key_filters'`.
 */
import { planChildren, type Join, type LogicalPlan } from '../../sql/index.ts';
import { extractEquiKeys } from '../equi-keys.ts';
import type { EquiKeys } from '../operators/hash-join-exec.ts';
import { allowDenserScanKeys, probeSideFilterable, scanKeyLimit, scanReachedByKey } from '../runtime-key-filter.ts';
import { MIN_RATIO_OTHER } from './choose-build-side.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { hasSubquery, mapNodeExprs, mapSubqueryPlans, transformPlanUp, withChildren } from './plan-rewrite.ts';
import { estimate, type ScanScale } from './row-estimate.ts';

export const buildSideUnderKeyFilters: OptimizerRule = {
  name: 'build_side_under_key_filters',
  apply: (plan) => visit(plan, new Map()),
};

function visit(p: LogicalPlan, scale: ScanScale): LogicalPlan {
  let q = p;
  let kidScale = scale;
  if (q.kind === 'Join') {
    q = rebuilt(q, scale);
    kidScale = withKeyFilterScale(q, scale);
  }
  const out = withChildren(q, planChildren(q).map((c) => visit(c, kidScale)));
  // a subquery's plan runs on its own: no runtime filter of this plan reaches it
  return hasSubquery(out) ? mapNodeExprs(out, (e) => mapSubqueryPlans(e, (sp) => visit(sp, new Map()))) : out;
}

/** the first key a hash join filters its probe side by (HashJoinExec.#probeInput's pick): a same-type column */
function filterKey(keys: EquiKeys, probe: 'left' | 'right'): number {
  const exprs = probe === 'left' ? keys.left : keys.right;
  return exprs.findIndex((e, i) => e.kind === 'ColumnRef' && e.levelsUp === 0 && keys.ops[i]!.leftType?.oid === keys.ops[i]!.rightType.oid);
}

/** `j` building right when the scaled estimates no longer make its left input clearly smaller (see the header) */
function rebuilt(j: Join, scale: ScanScale): Join {
  if (scale.size === 0 || j.joinType !== 'inner' || j.buildSide !== 'left' || j.lateral || j.condition === null) return j;
  const l = estimate(j.left, scale);
  const r = estimate(j.right, scale);
  const r0 = estimate(j.right);
  if (l === undefined || r === undefined || r0 === undefined || r.rows >= r0.rows || l.rows * MIN_RATIO_OTHER <= r.rows) return j;
  const { buildSide: _left, ...right } = j;
  if (!probeSideFilterable(right)) return j;
  const keys = extractEquiKeys(j.condition, j.left.columns.length);
  const k = keys === null ? -1 : filterKey(keys, 'left');
  const key = keys?.left[k];
  const scan = key !== undefined && key.kind === 'ColumnRef' ? scanReachedByKey(j.left, key.index) : null;
  if (scan === null) return j;
  // the mark goes on a copy of the scan, so that no other plan sharing the bound scan node inherits it
  const marked: LogicalPlan = { ...scan };
  allowDenserScanKeys(marked);
  return { ...right, left: transformPlanUp(j.left, (p) => (p === scan ? marked : p)) };
}

/** `scale` plus the scan `j`'s runtime key filter will reach, scaled by the built input's selectivity */
function withKeyFilterScale(j: Join, scale: ScanScale): ScanScale {
  if (j.lateral || j.condition === null) return scale;
  const buildLeft = j.buildSide === 'left';
  if (buildLeft ? j.joinType === 'right' || j.joinType === 'full' : !probeSideFilterable(j)) return scale;
  const keys = extractEquiKeys(j.condition, j.left.columns.length);
  if (keys === null) return scale;
  const probe = buildLeft ? 'right' : 'left';
  const k = filterKey(keys, probe);
  const key = (probe === 'left' ? keys.left : keys.right)[k];
  if (key === undefined || key.kind !== 'ColumnRef') return scale;
  const scan = scanReachedByKey(probe === 'left' ? j.left : j.right, key.index);
  const built = estimate(buildLeft ? j.left : j.right, scale);
  if (scan === null || built === undefined || built.rows > scanKeyLimit(scan, key.type.oid)) return scale;
  const next = new Map(scale);
  next.set(scan, Math.min(scale.get(scan) ?? 1, built.selectivity));
  return next;
}
