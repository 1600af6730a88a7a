/**
 * Equality probes by binary search on a cached key column that is sorted, with no index built: the point
 * lookup (point-lookup.ts) on a big table's files — `SELECT * FROM orders WHERE o_orderkey = k` over files
 * written in key order, each tens of thousands of rows — where a hash index per row group would cost ~64
 * bytes a row of cache and evict the very columns it indexes. The column's Arrow values are read in place
 * (int32 / int64 buffers without NULLs); whether a chunk is sorted is checked once and remembered with it.
 */
import { Type, type Data, type DataType } from 'apache-arrow';
import type { PrimitiveType } from '../spec/schema.ts';
import { sortDistinctOffsets } from './point-index.ts';

/** row groups with more rows than this are probed by binary search when sorted (fewer: the hash index) */
export const SORTED_PROBE_MIN_ROWS = 4096;

const sortedness = new WeakMap<Data, boolean>();

/** counters of this thread's sorted probes (tests, diagnostics) */
export const sortedProbeStats = { probes: 0 };

/** the chunk's values when they are exactly the JS values of `t` (arrow-fast-columns.ts) and none is NULL */
function rawValues(d: Data, t: PrimitiveType): Int32Array | BigInt64Array | null {
  if (d.nullCount > 0) return null;
  const type = d.type as DataType & { bitWidth?: number; isSigned?: boolean; unit?: number };
  const v = d.values as unknown;
  switch (t.name) {
    case 'int':
      return d.typeId === Type.Int && type.bitWidth === 32 && v instanceof Int32Array ? v : null;
    case 'long':
      return d.typeId === Type.Int && type.isSigned === true && (v instanceof BigInt64Array || v instanceof Int32Array) ? v : null;
    case 'date':
      return d.typeId === Type.Date && type.unit === 0 && v instanceof Int32Array ? v : null;
    case 'timestamp': case 'timestamptz':
      return d.typeId === Type.Timestamp && type.unit === 2 && v instanceof BigInt64Array ? v : null;
    default:
      return null;
  }
}

function isSorted(d: Data, vals: Int32Array | BigInt64Array): boolean {
  let s = sortedness.get(d);
  if (s === undefined) {
    s = true;
    for (let i = 1; i < d.length; i++) if (vals[i - 1]! > vals[i]!) { s = false; break; }
    sortedness.set(d, s);
  }
  return s;
}

/** first index in vals[0, n) whose value is ≥ key */
function lowerBound(vals: Int32Array | BigInt64Array, n: number, key: number | bigint): number {
  let lo = 0, hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (vals[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Offsets (ascending, distinct) within the row group of the rows whose value is one of `values`, the
 * column given as its cached chunks `data`; null when a chunk is not a sorted, NULL-free integer column.
 */
export function probeSorted(data: readonly Data[], t: PrimitiveType, values: readonly unknown[]): number[] | null {
  const out: number[] = [];
  let base = 0;
  for (const d of data) {
    const vals = rawValues(d, t);
    if (vals === null || !isSorted(d, vals)) return null;
    const n = d.length;
    const big = vals instanceof BigInt64Array;
    for (const v of values) {
      if (typeof v !== 'number' && typeof v !== 'bigint') continue; // NULL (or no integer) equals nothing
      const key = big ? (typeof v === 'bigint' ? v : Number.isInteger(v) ? BigInt(v) : null) : (typeof v === 'number' ? v : Number(v));
      if (key === null) continue;
      for (let i = lowerBound(vals, n, key); i < n && vals[i] === key; i++) out.push(base + i);
    }
    base += n;
  }
  sortedProbeStats.probes++;
  return values.length > 1 ? sortDistinctOffsets(out) : out;
}
