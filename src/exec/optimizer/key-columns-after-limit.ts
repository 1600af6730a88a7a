/**
 * key_columns_after_limit: a top-N (LIMIT over ORDER BY) over rows that carry wide columns of a table T only to
 * output them reads those columns for the N rows kept, by T's primary key, instead of for every row sorted. TPC-H
 * Q10 sorts ~39k customers (SF 1) by revenue and keeps 20, yet its customer scan decoded c_name, c_address, c_phone
 * and c_comment for all of them — a third of the query's CPU (session 25). Now:
 *
 *   Limit(Sort(π(…, w, …) over X))  →  π(…, T'.w, …)(Sort(Limit(Sort(π(…, NULL, …) over X)) ⋈[pk = T'.pk] T'))
 *
 * with T' a fresh scan of T (the same pinned source); its runtime key filter then holds the N keys.
 *
 * Exact: each output column w of the top Projection is a plain reference that traces through Projections, Filters,
 * Sorts, Limits and the preserved side of inner / semi / anti joins to T's column (never through an outer join's
 * NULL-extended side), and so does one output column holding T's one-column integer PRIMARY KEY. Every row kept
 * thus holds the key of the T row its w came from, and T' has exactly that one row with that key (lakegate
 * enforces primary keys): the join keeps every row once and brings back the same w. The sort keys read no such w,
 * and they order by the key column with the rows unique on it (unique-column-sets.ts): no ties, so sorting the
 * N rows again gives the same order. Only when some w is not fixed-width (strings, numerics: what costs to
 * decode and carry), T is estimated at ≥ MIN_TABLE_ROWS rows and the limit is a constant ≤ MAX_LIMIT.
 * Runs after aggregate_over_unique_rows, before push_down_limit / push_down_projection (the lower scan of T then
 * stops reading the w columns). Off with `lakegate.disabled_optimizer_rules = 'key_columns_after_limit'`.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { conjunctsOf, planChildren, type ColumnRefExpr, type Expr, type Limit, type LogicalPlan, type Projection, type Sort, type TableScan } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';
import { reliablePrimaryKey, uniqueColumnSets } from './unique-column-sets.ts';

export const keyColumnsAfterLimit: OptimizerRule = {
  name: 'key_columns_after_limit',
  apply: (plan, ctx) => transformPlanUp(plan, (p) => (p.kind === 'Limit' ? rewrite(p, ctx) ?? p : p)),
};

const MAX_LIMIT = 1_000;
const MIN_TABLE_ROWS = 10_000;
const INT_KEYS: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);
/** bool, int2/4/8, float4/8, date, time, timestamp, timestamptz: cheap to decode and carry */
const FIXED_WIDTH: ReadonlySet<number> = new Set([16, 20, 21, 23, 700, 701, 1082, 1083, 1114, 1184]);

interface Origin {
  readonly scan: TableScan;
  readonly column: number;
}

/** the scan column output column `i` of `p` passes on unchanged, through nodes that never NULL-extend it */
function originOf(p: LogicalPlan, i: number): Origin | null {
  switch (p.kind) {
    case 'TableScan':
      return { scan: p, column: i };
    case 'Projection': {
      const e = p.exprs[i];
      return e?.kind === 'ColumnRef' && e.levelsUp === 0 ? originOf(p.input, e.index) : null;
    }
    case 'Filter':
    case 'Sort':
    case 'Limit':
      return originOf(p.input, i);
    case 'Join': {
      if (p.lateral) return null;
      const lw = p.left.columns.length;
      if (p.joinType === 'semi' || p.joinType === 'anti' || p.joinType === 'left') return i < lw ? originOf(p.left, i) : null;
      if (p.joinType !== 'inner') return null;
      return i < lw ? originOf(p.left, i) : originOf(p.right, i - lw);
    }
    default:
      return null;
  }
}

/** an `a = b` Op of the plan whose operands are both of type `oid` (its def is reused for the new join), or null */
function equalityOf(p: LogicalPlan, oid: number): Extract<Expr, { kind: 'Op' }> | null {
  if (p.kind === 'Join' && p.condition !== null) {
    for (const c of conjunctsOf(p.condition)) {
      if (c.kind === 'Op' && c.name === '=' && c.leftType?.oid === oid && c.rightType.oid === oid && c.type.oid === Oid.bool) return c;
    }
  }
  for (const k of planChildren(p)) {
    const found = equalityOf(k, oid);
    if (found !== null) return found;
  }
  return null;
}

const sameScan = (a: TableScan, b: TableScan): boolean => a === b || (a.source === b.source && a.tableOid === b.tableOid && a.asOf === b.asOf);

function rewrite(limit: Limit, ctx: ExecContext): LogicalPlan | null {
  const n = limit.limit;
  if (n === null || n.kind !== 'Literal' || typeof n.value !== 'number' && typeof n.value !== 'bigint' || Number(n.value) > MAX_LIMIT) return null;
  if ((limit.offset !== null && limit.offset.kind !== 'Literal') || limit.withTies !== undefined) return null;
  if (limit.input.kind !== 'Sort' || limit.input.input.kind !== 'Projection') return null;
  const sort: Sort = limit.input;
  const top: Projection = sort.input as Projection;
  const sortRead = new Set<number>();
  for (const k of sort.keys) {
    if (k.expr.kind !== 'ColumnRef' || k.expr.levelsUp !== 0) return null;
    sortRead.add(k.expr.index);
  }
  // the key column among the sort keys: T's one-column integer primary key, the rows unique on it
  const unique = uniqueColumnSets(top, ctx);
  for (const keyAt of sortRead) {
    const key = originOf(top, keyAt);
    if (key === null) continue;
    const pk = reliablePrimaryKey(key.scan, ctx);
    if (pk?.length !== 1 || pk[0] !== key.column) continue;
    const keyType = key.scan.columns[key.column]?.type.oid;
    if (keyType === undefined || !INT_KEYS.has(keyType) || !unique.some((s) => s.length === 1 && s[0] === keyAt)) continue;
    const moved = top.exprs.map((e, i) => {
      if (sortRead.has(i) || e.kind !== 'ColumnRef' || e.levelsUp !== 0) return null;
      const o = originOf(top, i);
      return o !== null && sameScan(o.scan, key.scan) && o.column !== key.column ? o.column : null;
    });
    if (!moved.some((c, i) => c !== null && !FIXED_WIDTH.has(top.exprs[i]!.type.oid))) continue;
    if ((estimate(key.scan)?.rows ?? 0) < MIN_TABLE_ROWS) continue;
    const eq = equalityOf(top, keyType);
    if (eq === null) continue;
    return rejoined(limit, sort, top, key.scan, keyAt, key.column, moved, eq);
  }
  return null;
}

function rejoined(limit: Limit, sort: Sort, top: Projection, t: TableScan, keyAt: number, keyColumn: number, moved: readonly (number | null)[], eq: Extract<Expr, { kind: 'Op' }>): LogicalPlan {
  const narrowed: Projection = {
    ...top,
    exprs: top.exprs.map((e, i) => (moved[i] === null ? e : { kind: 'Literal', value: null, type: e.type })),
  };
  const kept: Limit = { ...limit, input: { ...sort, input: narrowed } };
  const again: TableScan = { kind: 'TableScan', source: t.source, name: t.name, tableOid: t.tableOid, columns: t.columns };
  const lw = top.columns.length;
  const ref = (index: number, from: Expr, name: string): ColumnRefExpr => ({ kind: 'ColumnRef', index, levelsUp: 0, type: from.type, name: from.kind === 'ColumnRef' ? from.name : name });
  const leftKey = ref(keyAt, top.exprs[keyAt]!, top.columns[keyAt]?.name ?? '');
  const rightKey: ColumnRefExpr = { ...leftKey, index: lw + keyColumn };
  const join: LogicalPlan = {
    kind: 'Join', joinType: 'inner', left: kept, right: again, lateral: false,
    condition: { ...eq, left: leftKey, right: rightKey },
    columns: [...top.columns, ...t.columns],
  };
  const sorted: Sort = { ...sort, input: join, columns: join.columns };
  return {
    kind: 'Projection',
    input: sorted,
    exprs: top.columns.map((c, i) => {
      const m = moved[i];
      return m === null || m === undefined ? ref(i, top.exprs[i]!, c.name) : ref(lw + m, top.exprs[i]!, c.name);
    }),
    columns: limit.columns,
  };
}
