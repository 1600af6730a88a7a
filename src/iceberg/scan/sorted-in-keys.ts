/**
 * A long integer IN list — the runtime key filter's join keys (runtime-key-filter.ts: tens of thousands of
 * order keys at TPC-H SF 1) — judged against file and row-group bounds. `values.some(v within [lo, hi])` costs
 * O(n) per file and per row group; a sorted copy answers by one binary search. The copy is built once per
 * values array (a WeakMap keyed by the predicate's array, which one scan shares across its files, and a scan
 * worker across the tasks of one scan: filter-wire.ts).
 */
import { intKeyListWords } from './int-key-list.ts';

/** shorter lists keep the linear test (the same answers) */
const MIN_SORTED = 64;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export type SortedKeys = Float64Array | BigInt64Array;

const cache = new WeakMap<readonly unknown[], SortedKeys | null>();

/** the values sorted ascending when they are all integral numbers or all 64-bit bigints (and many); else null */
export function sortedIntegerKeys(values: readonly unknown[]): SortedKeys | null {
  if (values.length < MIN_SORTED) return null;
  let s = cache.get(values);
  if (s === undefined) {
    s = build(values);
    cache.set(values, s);
  }
  return s;
}

function build(values: readonly unknown[]): SortedKeys | null {
  // a marked key list (int-key-list.ts) is known to be integers of one representation: a sorted copy of its typed
  // words, with no pass to check it and no bigint read (a scan worker's list arrived as those words)
  const words = intKeyListWords(values);
  if (words !== undefined) return words.slice().sort();
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) return Float64Array.from(values as readonly number[]).sort();
  if (values.every((v) => typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX)) return BigInt64Array.from(values as readonly bigint[]).sort();
  return null;
}

type Bound = number | bigint | undefined;
const isBound = (b: unknown): b is Bound => b === undefined || typeof b === 'number' || typeof b === 'bigint';

/**
 * whether some key lies in [lo, hi] (an undefined bound: unbounded); null when a bound is neither a number nor
 * a bigint (the caller then compares as before). `<` between a number and a bigint is exact in JS.
 */
export function anyKeyWithin(sorted: SortedKeys, lo: unknown, hi: unknown): boolean | null {
  if (!isBound(lo) || !isBound(hi) || (typeof lo === 'number' && Number.isNaN(lo)) || (typeof hi === 'number' && Number.isNaN(hi))) return null;
  // first index whose key >= lo
  let a = 0, b = sorted.length;
  if (lo !== undefined) {
    while (a < b) {
      const m = (a + b) >>> 1;
      if (sorted[m]! < lo) a = m + 1;
      else b = m;
    }
  }
  if (a >= sorted.length) return false;
  return hi === undefined || sorted[a]! <= hi;
}
