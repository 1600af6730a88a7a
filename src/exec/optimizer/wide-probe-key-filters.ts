/**
 * wide_probe_key_filters: a runtime key filter (runtime-key-filter.ts) into a scan may carry at most 1 key per 16
 * scanned rows, because below that it filters too little to pay for a probe per row. A scan that also reads
 * string columns pays more per row it converts: late materialization decodes the key first and builds the
 * strings only for the rows with a wanted key. TPC-H Q10 joins its 7,661 per-customer revenues (SF 0.2) with all
 * 30,000 customers and their c_name / c_address / c_phone / c_comment: 1 key per 4 rows, so the scan made every
 * customer's strings (SF 0.2: ≈ 75 ms CPU for the scan, ≈ 35 ms with a quarter of the rows materialized; SF 1, 39,106
 * keys over 150,000 customers: Q10's server CPU 1,160 → 965 ms, main thread 550 → 425 ms).
 *
 * When a hash join builds a filtered input (estimated selectivity <= 1/2, as probeSideFilterable asks of a join
 * built right) and its probe key reaches a scan without passing an aggregate (scanReachedByKey) that reads a
 * string column besides the key, that scan may take up to 1 key per 2 rows (allowWideScanKeys). A build side
 * of a whole table (TPC-H Q13's customers) keeps its key cap: its keys would keep every row. Exact either way:
 * the join drops the rows the filter drops. Runs right after build_side_under_key_filters (the build sides are
 * final). Off with `lakegate.disabled_optimizer_rules = 'wide_probe_key_filters'`.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { planChildren, type Join, type LogicalPlan } from '../../sql/index.ts';
import { extractEquiKeys } from '../equi-keys.ts';
import { allowWideScanKeys, copyScanKeyMarks, probeSideFilterable, scanReachedByKey } from '../runtime-key-filter.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { hasSubquery, mapNodeExprs, mapSubqueryPlans, transformPlanUp, withChildren } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';

export const wideProbeKeyFilters: OptimizerRule = {
  name: 'wide_probe_key_filters',
  apply: (plan) => visit(plan),
};

/** the build side's estimated share of its table(s) at most this: its keys filter (probeSideFilterable's bound) */
const MAX_BUILD_SELECTIVITY = 0.5;

/** values built per row from bytes: the columns whose conversion late materialization saves */
const STRING_OIDS: ReadonlySet<number> = new Set([Oid.text, Oid.varchar, Oid.bpchar, Oid.bytea]);

function visit(p: LogicalPlan): LogicalPlan {
  const q = p.kind === 'Join' ? marked(p) : p;
  const out = withChildren(q, planChildren(q).map(visit));
  // a subquery's plan runs on its own
  return hasSubquery(out) ? mapNodeExprs(out, (e) => mapSubqueryPlans(e, visit)) : out;
}

/** `j` with the scan its probe key reaches marked (a copy: other plans sharing the bound scan keep their cap) */
function marked(j: Join): Join {
  if (j.lateral || j.condition === null) return j;
  const buildLeft = j.buildSide === 'left';
  // the probe sides HashJoinExec.#probeInput filters: right of a join built left (not right / full), left of a filterable one
  if (buildLeft ? j.joinType === 'right' || j.joinType === 'full' : !probeSideFilterable(j)) return j;
  const built = estimate(buildLeft ? j.left : j.right);
  if (built === undefined || built.selectivity > MAX_BUILD_SELECTIVITY) return j;
  const keys = extractEquiKeys(j.condition, j.left.columns.length);
  if (keys === null) return j;
  const probeKeys = buildLeft ? keys.right : keys.left;
  // HashJoinExec's pick: the first key that is a plain column compared within one type
  const k = probeKeys.findIndex((e, i) => e.kind === 'ColumnRef' && e.levelsUp === 0 && keys.ops[i]!.leftType?.oid === keys.ops[i]!.rightType.oid);
  const key = probeKeys[k];
  if (key === undefined || key.kind !== 'ColumnRef') return j;
  const probe = buildLeft ? j.right : j.left;
  const scan = scanReachedByKey(probe, key.index);
  const column = scan === null ? -1 : scanColumnOf(probe, key.index, scan);
  if (scan === null || scan.kind !== 'TableScan' || column < 0 || !readsStrings(scan, column)) return j;
  const copy: LogicalPlan = { ...scan };
  copyScanKeyMarks(scan, copy); // build_side_under_key_filters' denser cap holds for the scan's other keys
  allowWideScanKeys(copy, column);
  const side = transformPlanUp(probe, (x) => (x === scan ? copy : x));
  return buildLeft ? { ...j, right: side } : { ...j, left: side };
}

/** the scan output column that output column `c` of `p` is (the path scanReachedByKey walked) */
function scanColumnOf(p: LogicalPlan, c: number, scan: LogicalPlan): number {
  if (p === scan) return c;
  switch (p.kind) {
    case 'Projection': {
      const e = p.exprs[c];
      return e !== undefined && e.kind === 'ColumnRef' ? scanColumnOf(p.input, e.index, scan) : -1;
    }
    case 'Filter': return scanColumnOf(p.input, c, scan);
    case 'Join': {
      const lw = p.left.columns.length;
      return c < lw ? scanColumnOf(p.left, c, scan) : scanColumnOf(p.right, c - lw, scan);
    }
    default: return -1;
  }
}

/** whether the scan reads a string column other than `keyColumn` (its projection, or every column without one) */
function readsStrings(scan: Extract<LogicalPlan, { kind: 'TableScan' }>, keyColumn: number): boolean {
  const read = scan.projection ?? scan.columns.map((_c, i) => i);
  return read.some((i) => i !== keyColumn && STRING_OIDS.has(scan.columns[i]?.type.oid ?? 0));
}
