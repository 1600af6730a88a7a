/**
 * The main thread's side of the scan's exactness signal (iceberg/parallel/exact-rows.ts): a FilterExec right
 * above an Iceberg TableScan gets batches the scan marked exact — late materialization judged every conjunct
 * of the bound pushed filter, in a scan worker (the mark crosses threads with the batch:
 * iceberg/parallel/column-transfer.ts) or here. For those batches the Filter conjuncts that are pushed ones
 * need no second look (TPC-H q12: `l_shipmode IN (…)` and the l_receiptdate range, 260k rows at SF1; q14's
 * whole l_shipdate range). Which conjuncts may be skipped is proved exactly as in the workers
 * (partial/pushed-conjuncts.ts), against the filter the scan bound (IcebergTableSource.bindFilters, `rows`,
 * the same call with the same resolved predicates as its scan()).
 *
 * Pushed conjuncts with many values are left out of the judged set: binding and keying them would cost more
 * than the probe they could save, and proving fewer conjuncts judged is always safe — the mark says every
 * conjunct of the bound filter holds, so each subset does. Except a runtime key filter's marked integer key list
 * (iceberg/scan/int-key-list.ts): it binds whole and is keyed by its digest, no pass per key, and its Filter
 * above the scan (an aggregate brought to the main thread, runtime-key-filter.ts) otherwise probes an IN set per
 * row — TPC-H q21's 70,000 orders keys over 346,000 lineitem rows at SF 1, ~17 % of its main thread.
 */
import { IcebergTableSource } from '../../iceberg/iceberg-table-source.ts';
import type { Expr, PushedPredicate, PushedValue, TableScan } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { compileExpr } from '../expr/compile-expr.ts';
import { resolveFilters } from '../optimizer/resolve-pushed.ts';
import { PushedConjuncts } from '../partial/pushed-conjuncts.ts';
import { intKeyListRepr } from '../../iceberg/scan/int-key-list.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';

/** pushed conjuncts with more values than this are not offered as judged */
const MAX_JUDGED_VALUES = 64;

/** a runtime key filter's pushed list: one array literal marked as an integer key list (scanKeyPredicate) */
function isKeyList(v: PushedValue): boolean {
  return v.kind === 'Literal' && isPgArray(v.value) && intKeyListRepr(v.value.values) !== undefined;
}

const isValueList = (v: PushedValue | readonly PushedValue[]): v is readonly PushedValue[] => Array.isArray(v);

function valueCount(p: PushedPredicate): number {
  if (p.kind === 'and' || p.kind === 'or') return p.args.reduce((n, a) => n + valueCount(a), 0);
  if (p.kind === 'in') return isValueList(p.values) ? p.values.length : isKeyList(p.values) ? 1 : Infinity;
  return 1;
}

/**
 * `predicate` without the conjuncts the scan `scan` judged exactly, for its marked batches: `rest` (null:
 * nothing left to evaluate) and how many were `skipped`; null when the scan is not one that marks batches or
 * no conjunct is skipped.
 */
export function judgedSplit(predicate: Expr, scan: TableScan, env: Env): { readonly rest: Expr | null; readonly skipped: number } | null {
  const source = scan.source;
  if (!(source instanceof IcebergTableSource) || scan.filters === undefined) return null;
  const small = scan.filters.filter((f) => valueCount(f) <= MAX_JUDGED_VALUES);
  if (small.length === 0) return null;
  const params = env.ctx.params;
  const resolved = resolveFilters({ ...scan, filters: small }, params);
  if (resolved === undefined) return null;
  const filter = source.bindFilters(resolved, { rows: true });
  const projection = scan.projection ?? scan.columns.map((_c, i) => i);
  const fields = projection.map((i) => source.schema.fields[i]);
  if (fields.some((f) => f === undefined) || scan.columns.length !== source.schema.fields.length) return null;
  const constant = (e: Expr): unknown => {
    try {
      return compileExpr(e, env).fn([], 0);
    } catch {
      return undefined; // the Filter evaluates the conjunct and raises its error
    }
  };
  const pushed = new PushedConjuncts({ filter, fields: fields as NonNullable<(typeof fields)[number]>[], projection, width: scan.columns.length, params, constant });
  const split = pushed.split(predicate);
  return split.skipped === 0 ? null : split;
}
