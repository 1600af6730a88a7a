/**
 * Runtime key filter (semi-join reduction, DataFusion's dynamic filters, Spark's runtime filters): when a hash
 * join builds on its left input and the right input aggregates by the join key — the shape decorrelation gives
 * `l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)` (TPC-H Q17) — the
 * right side need only aggregate the groups whose key the left side holds. Once the left side is built, its
 * distinct key values become `key = v1 OR …` (or `key = ANY(array)`) under the right side's Aggregate, directly above what it
 * reads (inside the scan workers' fragment when the aggregate runs there). Without an aggregate, the keys go
 * into the pushed filters of the scan the key column comes from (choose_build_side builds a small filtered
 * input on the left for that: TPC-H Q17/Q19's lineitem scan then materializes only rows of the chosen parts).
 *
 * Valid for joins that drop unmatched right rows (inner, left, semi, anti): a right row whose key is not on
 * the left matches nothing, and an aggregate group is made only of rows with its key (one grouping set).
 * The mirror case: a join that builds its right input and drops unmatched left rows (inner, right, semi)
 * hands the built keys to its left input when the right input is filtered (probeSideFilterable) — TPC-H Q10's
 * lineitem ⋈ σ(orders) then converts only the lineitem rows of the 3 months' orders.
 */
import type { Batch } from '../common/batch.ts';
import { arrayTypeOf } from '../common/pgtypes/registry.ts';
import { isPgArray, pgArray } from '../common/pgtypes/values.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import type { ColumnRefExpr, Expr, Join, LogicalPlan, OpExpr, PushedPredicate } from '../sql/index.ts';
import { markIntKeyList } from '../iceberg/scan/int-key-list.ts';
import type { Env } from './context.ts';
import type { ExecOperator } from './operator.ts';
import type { Instrumentation } from './instrumentation.ts';
import { pushedPredicateOf } from './optimizer/pushed-predicate-of.ts';
import { estimate } from './optimizer/row-estimate.ts';
import { keepDeadColumns } from './optimizer/prune-join-columns.ts';
import { sharedSubplanKey } from './optimizer/share-repeated-subplans.ts';

/** more keys than this: the filter would hardly filter, and the literal is shipped to every scan task */
export const MAX_RUNTIME_FILTER_KEYS = 100_000;
/**
 * integer keys pushed into a scan travel as one typed array per task (iceberg/parallel/filter-wire.ts) and are
 * probed as a bitmap or a Set (iceberg/read/int-key-set.ts), so a scan filter of integer keys may carry more:
 * TPC-H Q3's 145,000 orders keys at SF1 keep < 1 % of the 3.2M lineitem rows after its date (scanKeyLimit still
 * asks for 16 scanned rows per key)
 */
export const MAX_SCAN_INT_KEYS = 400_000;
const INT_KEY_OIDS: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);
/**
 * a scan filter without an aggregate above it saves only the conversion of rows without a wanted key, and its
 * values travel with every scan task: more keys than this (TPC-H Q21's 70,000 orders of status 'F' at SF 0.1,
 * half of all) cost more than they save
 */
export const MAX_SCAN_FILTER_KEYS = 5_000;
/**
 * with a row estimate for the scan the cap is relative: a key list of up to 1/16 of the scanned rows still
 * removes most rows before conversion (TPC-H Q5 and Q4 at SF1: tens of thousands of orders keys against 1.5M
 * orders / 6M lineitem rows), bounded by what one scan task should carry
 */
const SCAN_KEYS_PER_ROW = 1 / 16;
/**
 * scans marked by build_side_under_key_filters, whose join builds its other, filtered input so that this scan
 * is cut by the built keys, may take up to 1/8: TPC-H Q21's l1 ⋈ supplier rows hold the keys of about 1 in 10
 * orders (30,000 of 300,000 at SF 0.2), still 9 in 10 rows not converted, probed as a bitmap (int-key-set.ts).
 * Not everywhere: a build side of a whole table (Q13's 30,000 customers) would keep every row of its scan.
 */
const MARKED_SCAN_KEYS_PER_ROW = 1 / 8;
const denserKeyScans = new WeakSet<LogicalPlan>();

/** lets a runtime key filter on `scan` carry up to MARKED_SCAN_KEYS_PER_ROW keys per row (see above) */
export function allowDenserScanKeys(scan: LogicalPlan): void {
  denserKeyScans.add(scan);
}

/** gives `to`, a copy of scan `from`, the key-count marks `from` carries (a rule that replaces a scan node keeps them) */
export function copyScanKeyMarks(from: LogicalPlan, to: LogicalPlan): void {
  if (denserKeyScans.has(from)) denserKeyScans.add(to);
  const wide = wideKeyScans.get(from);
  if (wide !== undefined) wideKeyScans.set(to, wide);
}

/**
 * scans marked by wide_probe_key_filters — probed by the keys of a filtered build side and reading string columns
 * besides the key — may take up to 1 key per 2 rows: every row the filter drops is a row whose strings are never
 * built (TPC-H Q10's customers: 1 key per 4 rows)
 */
const WIDE_SCAN_KEYS_PER_ROW = 1 / 2;
/** per marked scan, the output column of the key that may be that dense (another join's key on it keeps its cap) */
const wideKeyScans = new WeakMap<LogicalPlan, number>();

/** lets a runtime key filter on output column `column` of `scan` carry up to WIDE_SCAN_KEYS_PER_ROW keys per row (see above) */
export function allowWideScanKeys(scan: LogicalPlan, column: number): void {
  wideKeyScans.set(scan, column);
}

/**
 * how many keys a pushed scan filter on `p` may carry (`typeOid`: the key's type; integers may be more; `column`: the
 * key's output column of `p`, for scans marked by allowWideScanKeys)
 */
export function scanKeyLimit(p: LogicalPlan, typeOid?: number, column?: number): number {
  if (p.kind !== 'TableScan' || p.source.estimatedRows === undefined) return MAX_SCAN_FILTER_KEYS;
  const cap = typeOid !== undefined && INT_KEY_OIDS.has(typeOid) ? MAX_SCAN_INT_KEYS : MAX_RUNTIME_FILTER_KEYS;
  const perRow = column !== undefined && wideKeyScans.get(p) === column ? WIDE_SCAN_KEYS_PER_ROW : denserKeyScans.has(p) ? MARKED_SCAN_KEYS_PER_ROW : SCAN_KEYS_PER_ROW;
  return Math.max(MAX_SCAN_FILTER_KEYS, Math.min(cap, Math.floor(p.source.estimatedRows * perRow)));
}

/**
 * more keys than this below an aggregate the scan workers run (partial_aggregate) take that aggregate to the main
 * thread: the workers' fragment gets the key Filter with every scan task and proves it against the scan's pushed
 * filter per task (partial/pushed-conjuncts.ts) and builds its key set per batch — TPC-H Q21's per-order min/max
 * (exists_pair_to_key_min_max) at SF 0.2, 15,000 keys: 2x the server CPU of the main-thread aggregate of the
 * ~75,000 rows the scan keeps. The scan itself keeps the key list (shipped once, probed as a bitmap).
 */
export const MAX_WORKER_FRAGMENT_KEYS = 4_096;

/** the most keys any runtime key filter may carry (hash-join-exec.ts collects none past it) */
export const MAX_KEY_FILTER_KEYS = Math.max(MAX_RUNTIME_FILTER_KEYS, MAX_SCAN_INT_KEYS);
/**
 * a join built on its right input filters its left input by the built keys only when the right input is filtered
 * to at most this fraction of its table(s): the keys of a whole dimension (all 25 nations, every customer)
 * would keep every probe row and only add a test per row
 */
const MAX_BUILD_SELECTIVITY = 0.5;

/** whether a hash join that builds `j.right` may filter `j.left` by the built keys (see the header) */
export function probeSideFilterable(j: Join): boolean {
  if (j.joinType !== 'inner' && j.joinType !== 'right' && j.joinType !== 'semi') return false;
  const r = estimate(j.right);
  return r !== undefined && r.selectivity <= MAX_BUILD_SELECTIVITY;
}

/** up to this many keys `k = v1 OR …`; more: `k = ANY(array)`, one hash-set probe per row (in-list-set.ts) */
const MAX_OR_KEYS = 8;

export interface KeyFiltered {
  readonly plan: LogicalPlan;
  /** rewritten node → the node it replaces (null: the inserted Filter), for EXPLAIN ANALYZE */
  readonly originals: ReadonlyMap<LogicalPlan, LogicalPlan | null>;
}

/**
 * `right` with `col = v OR …` pushed below its Aggregate(s) along output column `keyIndex` (and on into the
 * join input the column comes from), or into the pushed filters of the scan the column comes from (through
 * Projections, Filters and the inputs of joins a filter commutes with); null when neither applies.
 * `eq` is the join's `=` over two operands of the key's type.
 */
export function withKeyFilter(right: LogicalPlan, keyIndex: number, eq: OpExpr, values: readonly unknown[]): KeyFiltered | null {
  return keyFilterOf(right, keyIndex, eq, values.length, values);
}

/**
 * whether withKeyFilter would place a filter of `count` keys — asked before the keys are collected, so a filter
 * refused for its size costs no pass over the build side (the same walk and size limits, nothing built)
 */
export function keyFilterFits(right: LogicalPlan, keyIndex: number, eq: OpExpr, count: number): boolean {
  return keyFilterOf(right, keyIndex, eq, count, null) !== null;
}

/** withKeyFilter's walk; `values` null: only whether a filter of `count` keys would be placed (a non-null answer) */
function keyFilterOf(right: LogicalPlan, keyIndex: number, eq: OpExpr, count: number, values: readonly unknown[] | null): KeyFiltered | null {
  const originals = new Map<LogicalPlan, LogicalPlan | null>();
  let throughAggregate = false;
  const made = <P extends LogicalPlan>(p: P, orig: LogicalPlan): P => { originals.set(p, orig); keepDeadColumns(orig, p); return p; };
  const push = (p: LogicalPlan, c: number): LogicalPlan | null => {
    // a subtree another occurrence reads too (share_repeated_subplans) runs whole once: a filtered copy would run it twice
    if (sharedSubplanKey(p) !== undefined) return null;
    switch (p.kind) {
      case 'Projection': {
        const e = p.exprs[c];
        if (e === undefined || e.kind !== 'ColumnRef' || e.levelsUp !== 0) return null;
        const input = push(p.input, e.index);
        return input && made({ ...p, input }, p);
      }
      case 'Filter': {
        const input = push(p.input, c);
        return input && made({ ...p, input }, p);
      }
      case 'Aggregate': {
        const g = p.groupingSets === null ? p.groupKeys[c] : undefined;
        if (g === undefined || g.kind !== 'ColumnRef' || g.levelsUp !== 0) return null;
        throughAggregate = true;
        const input = push(p.input, g.index);
        if (input === null) return null;
        // many keys: the aggregate of the rows left runs here, its scan still in the workers with the key list
        if (p.workerPartial === true && count > MAX_WORKER_FRAGMENT_KEYS) {
          const { workerPartial: _partial, ...serial } = p;
          return made({ ...serial, input }, p);
        }
        return made({ ...p, input }, p);
      }
      case 'Join': {
        // a filter on one input's column commutes with an inner join, and with the preserved side of a
        // left / semi / anti join (TPC-H Q2: the aggregate's partsupp ⋈ supplier ⋈ … filters partsupp)
        const lw = p.left.columns.length;
        const intoLeft = c < lw;
        if (!p.lateral && (p.joinType === 'inner' || (intoLeft && (p.joinType === 'left' || p.joinType === 'semi' || p.joinType === 'anti')))) {
          const input = push(intoLeft ? p.left : p.right, intoLeft ? c : c - lw);
          return input && made(intoLeft ? { ...p, left: input } : { ...p, right: input }, p);
        }
        return filterAbove(p, c);
      }
      default: return filterAbove(p, c);
    }
  };
  /**
   * the key filter over output column c of p: below an aggregate a Filter (plus the scan's pushed filter when p
   * is a scan); elsewhere only a scan's pushed filter — late materialization then converts only the rows with
   * a wanted key and skips row groups without one; the join itself drops the rest (a Filter would only
   * repeat the hash probe)
   */
  const filterAbove = (p: LogicalPlan, c: number): LogicalPlan | null => {
    const col = p.columns[c];
    if (col === undefined || col.type.oid !== eq.rightType.oid) return null;
    // through an aggregate a filter pays by dropping groups; as many keys as a scan filter could not skip rows for
    // (a build side of a whole table: Q13's customers over orders counted per o_custkey) drops none and costs a probe per row
    const cap = throughAggregate ? Math.min(MAX_RUNTIME_FILTER_KEYS, p.kind === 'TableScan' && p.source.estimatedRows !== undefined ? scanKeyLimit(p, col.type.oid, c) : Infinity) : scanKeyLimit(p, col.type.oid, c);
    if (count > cap) return null;
    const scanFilter = p.kind === 'TableScan' && p.limit === undefined;
    if (values === null) return throughAggregate || scanFilter ? p : null;
    const ref: ColumnRefExpr = { kind: 'ColumnRef', index: c, levelsUp: 0, type: col.type, name: col.name };
    const predicate = keyPredicate(ref, eq, values);
    if (predicate === null) return null;
    const pushed = scanFilter ? scanKeyPredicate(predicate, c, col.type.oid, p.columns.length) : null;
    const input: LogicalPlan = pushed === null || p.kind !== 'TableScan' ? p : made({ ...p, filters: [...(p.filters ?? []), pushed] }, p);
    if (!throughAggregate) return input === p ? null : input;
    const filter: LogicalPlan = { kind: 'Filter', input, predicate, columns: p.columns };
    originals.set(filter, null);
    return filter;
  };
  if (count === 0 || count > MAX_KEY_FILTER_KEYS) return null;
  const plan = push(right, keyIndex);
  return plan === null ? null : { plan, originals };
}

function keyPredicate(ref: ColumnRefExpr, eq: OpExpr, values: readonly unknown[]): Expr | null {
  if (values.length > MAX_OR_KEYS) {
    const arrayOid = arrayTypeOf(ref.type.oid);
    if (arrayOid === 0) return null;
    const list: Expr = { kind: 'Literal', value: pgArray(ref.type.oid, values), type: { oid: arrayOid, typmod: ref.type.typmod } };
    return { kind: 'ScalarArrayOp', op: { ...eq, left: ref, right: list }, useOr: true, type: eq.type };
  }
  const eqs: Expr[] = values.map((v) => ({ ...eq, left: ref, right: { kind: 'Literal', value: v, type: ref.type } }));
  return eqs.length === 1 ? eqs[0]! : { kind: 'BoolOp', op: 'or', args: eqs, type: eq.type };
}

/**
 * shorter lists keep the per-value form: they cost little, and a main-thread Filter above the scan may still skip
 * them on batches the scan judged exactly (operators/scan-judged-filter.ts offers lists of up to 64 values)
 */
const MIN_KEY_LIST = 64;

/**
 * the scan's pushed form of the key predicate. Integer keys of the column's own type (the join's `=` is between
 * two operands of it) are exactly the values pushedPredicateOf would make, one literal node and one exactness
 * check per key: they go in as the one array literal instead, marked as an integer key list that resolving,
 * binding and the plan cache pass on whole (iceberg/scan/int-key-list.ts)
 */
function scanKeyPredicate(predicate: Expr, column: number, typeOid: number, width: number): PushedPredicate | null {
  const list = predicate.kind === 'ScalarArrayOp' ? predicate.op.right : null;
  if (list !== null && list.kind === 'Literal' && INT_KEY_OIDS.has(typeOid) && isPgArray(list.value) && list.value.values.length > MIN_KEY_LIST && markIntKeyList(list.value.values)) {
    return { kind: 'in', column, values: list };
  }
  return pushedPredicateOf(predicate, width);
}

/** an Instrumentation that counts rewritten nodes under the nodes they replace (the inserted Filter: not at all) */
export function instrumentThrough(instrument: Instrumentation, originals: ReadonlyMap<LogicalPlan, LogicalPlan | null>): Instrumentation {
  const proxy = Object.create(instrument) as Instrumentation;
  proxy.wrap = (plan: LogicalPlan, op: ExecOperator): ExecOperator => {
    const orig = originals.get(plan);
    return orig === null ? op : instrument.wrap(orig ?? plan, op);
  };
  proxy.addScanMetrics = (plan, metrics) => {
    const orig = originals.get(plan);
    instrument.addScanMetrics((orig ?? plan) as typeof plan, metrics);
  };
  return proxy;
}

/** runs the rewritten right side with EXPLAIN ANALYZE counting it under the original plan's nodes */
export function runKeyFiltered(k: KeyFiltered, env: Env): AsyncIterable<Batch> {
  const renv: Env = env.instrument === undefined ? env : { ...env, instrument: instrumentThrough(env.instrument, k.originals) };
  return renv.run(k.plan, renv);
}

/**
 * true when a key filter on output column `c` of `p` would reach a scan's pushed filters without passing an
 * aggregate (the paths withKeyFilter takes): choose_build_side swaps an inner join only for such a probe side
 */
export function keyReachesScan(p: LogicalPlan, c: number): boolean {
  return scanReachedByKey(p, c) !== null;
}

/** the scan a key filter on output column `c` of `p` would reach (keyReachesScan's path), or null */
export function scanReachedByKey(p: LogicalPlan, c: number): LogicalPlan | null {
  switch (p.kind) {
    case 'TableScan': return p.limit === undefined && c < p.columns.length ? p : null;
    case 'Projection': {
      const e = p.exprs[c];
      return e !== undefined && e.kind === 'ColumnRef' && e.levelsUp === 0 ? scanReachedByKey(p.input, e.index) : null;
    }
    case 'Filter': return scanReachedByKey(p.input, c);
    case 'Join': {
      const lw = p.left.columns.length;
      const intoLeft = c < lw;
      if (p.lateral || !(p.joinType === 'inner' || (intoLeft && (p.joinType === 'left' || p.joinType === 'semi' || p.joinType === 'anti')))) return null;
      return intoLeft ? scanReachedByKey(p.left, c) : scanReachedByKey(p.right, c - lw);
    }
    default: return null;
  }
}
