/**
 * Row-count estimates for choosing a hash join's build side: table sizes from the sources (Iceberg manifests,
 * memory tables) and textbook selectivities, PostgreSQL's defaults where it has them (selfuncs.h:
 * DEFAULT_EQ_SEL 0.005 is for a known number of distinct values; without statistics we take 0.1 for `=` and
 * DEFAULT_INEQ_SEL 1/3 for ranges). Each estimate also carries the selectivity applied so far, so that a
 * foreign-key style join keeps the big side's rows scaled by the small side's filters
 * (|orders ⋈ σ(nation)| ≈ |orders| × sel(σ)). Crude on purpose: it only needs to tell 2 000 from 200 000.
 */
import { isPgArray } from '../../common/pgtypes/values.ts';
import type { Expr, LogicalPlan } from '../../sql/index.ts';

export interface RowEstimate {
  readonly rows: number;
  /** rows / rows before any filter below (1 = unfiltered) */
  readonly selectivity: number;
}

const RANGE_OPS = new Set(['<', '<=', '>', '>=']);
const LIKE_OPS = new Set(['~~', '~~*', '!~~', '!~~*']);

/**
 * PostgreSQL's like_selectivity (selfuncs.c) for a pattern with a fixed prefix (`p_name LIKE 'forest%'`): every
 * fixed character keeps FIXED_CHAR_SEL 0.2, `_` 0.9, `%` multiplies by 5 — floored at DEFAULT_MATCH_SEL 0.005,
 * which PostgreSQL also takes without statistics. A prefix is a range on the column: without this TPC-H Q20's
 * 2,000 'forest%' parts of 200,000 were estimated at 50,000, too many for a runtime key filter. Patterns with a
 * leading wildcard (`'%green%'`) keep the generic 0.25: they match far more often than the formula says.
 */
function likeSelectivity(pattern: Expr): number {
  const lit = pattern.kind === 'Cast' ? pattern.arg : pattern;
  const text = lit.kind === 'Literal' && typeof lit.value === 'string' ? lit.value : null;
  if (text === null || text.length === 0 || text[0] === '%' || text[0] === '_') return 0.25;
  let sel = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '%') sel *= 5;
    else if (ch === '_') sel *= 0.9;
    else {
      if (ch === '\\') i++;
      sel *= 0.2;
    }
  }
  return Math.min(1, Math.max(0.005, sel));
}

/** the estimated fraction of rows a predicate keeps */
export function selectivity(e: Expr): number {
  switch (e.kind) {
    case 'BoolOp':
      if (e.op === 'and') return e.args.reduce((s, a) => s * selectivity(a), 1);
      if (e.op === 'or') return Math.min(1, 1 - e.args.reduce((s, a) => s * (1 - selectivity(a)), 1));
      return 1 - selectivity(e.args[0]!);
    case 'Op':
      if (e.name === '=') return 0.1;
      // NOT LIKE is taken as `<>` (0.9): its complement of a tiny pattern estimate would claim it keeps everything
      if (LIKE_OPS.has(e.name)) return e.name.startsWith('!') ? 0.9 : likeSelectivity(e.right);
      if (e.name === '<>') return 0.9;
      if (RANGE_OPS.has(e.name)) return 1 / 3;
      return 0.25;
    case 'ScalarArrayOp': {
      // `x = ANY('{a,b,c}')` as the OR of its equalities (or_equalities_to_any makes one from the other)
      const n = e.op.name === '=' && e.op.right.kind === 'Literal' && isPgArray(e.op.right.value) ? e.op.right.value.values.length : -1;
      if (e.useOr && n >= 0) return 1 - 0.9 ** n;
      return e.useOr ? 0.3 : 0.5;
    }
    case 'Subquery': return 0.5;
    case 'NullTest': return e.negated ? 0.9 : 0.1;
    case 'Literal': return e.value === true ? 1 : 0;
    default: return 0.25;
  }
}

/**
 * the fraction of a scan's rows a runtime key filter is expected to keep (build_side_under_key_filters: a join
 * above builds a filtered input whose keys reach that scan), by scan node
 */
export type ScanScale = ReadonlyMap<LogicalPlan, number>;

/** undefined when some table below has no size; `scale`: scans expected to be cut by runtime key filters */
export function estimate(p: LogicalPlan, scale?: ScanScale): RowEstimate | undefined {
  switch (p.kind) {
    case 'TableScan': {
      if (p.source.estimatedRows === undefined) return undefined;
      const s = scale?.get(p) ?? 1;
      return { rows: p.source.estimatedRows * s, selectivity: s };
    }
    case 'Values': return { rows: p.rows.length, selectivity: 1 };
    case 'Filter': {
      const n = estimate(p.input, scale);
      const s = selectivity(p.predicate);
      return n && { rows: n.rows * s, selectivity: n.selectivity * s };
    }
    case 'Aggregate': {
      const n = estimate(p.input, scale);
      return n && { rows: p.groupKeys.length === 0 ? 1 : Math.max(1, n.rows / 10), selectivity: n.selectivity };
    }
    case 'Limit': {
      const n = estimate(p.input, scale);
      const l = p.limit?.kind === 'Literal' && p.limit.value !== null ? Number(p.limit.value) : Infinity;
      return n && { rows: Math.min(n.rows, l), selectivity: n.selectivity };
    }
    case 'Projection': case 'Sort': case 'Distinct': case 'Window': return estimate(p.input, scale);
    case 'Join': return joinEstimate(p, scale);
    default: return undefined;
  }
}

function joinEstimate(p: Extract<LogicalPlan, { kind: 'Join' }>, scale?: ScanScale): RowEstimate | undefined {
  const l = estimate(p.left, scale);
  const r = estimate(p.right, scale);
  if (l === undefined || r === undefined) return undefined;
  // a semi join keeps the left rows whose key survives the right side's filters (foreign-key style, as below)
  if (p.joinType === 'semi') return { rows: l.rows * r.selectivity, selectivity: l.selectivity * r.selectivity };
  if (p.joinType === 'anti') return l;
  if (p.condition === null) return { rows: l.rows * r.rows, selectivity: 1 };
  // the side with more rows before filtering is the "fact" side: it keeps its rows times the other's filters
  const lBase = l.rows / l.selectivity;
  const rBase = r.rows / r.selectivity;
  const inner = lBase >= rBase ? { rows: l.rows * r.selectivity, selectivity: l.selectivity * r.selectivity } : { rows: r.rows * l.selectivity, selectivity: l.selectivity * r.selectivity };
  if (p.joinType === 'left') return inner.rows >= l.rows ? inner : l;
  if (p.joinType === 'right') return inner.rows >= r.rows ? inner : r;
  if (p.joinType === 'full') return { rows: Math.max(inner.rows, l.rows, r.rows), selectivity: inner.selectivity };
  return inner;
}
