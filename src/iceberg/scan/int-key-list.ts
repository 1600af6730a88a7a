/**
 * Integer key lists of a runtime key filter (exec/runtime-key-filter.ts): a hash join's built keys pushed into the
 * probe scan as one IN list — TPC-H Q3's 29,000 orders keys at SF 0.2. Every stage between the join and the scan
 * workers walked that list value by value: the pushed predicate (a literal node per key), the resolved
 * ScanPredicate, the bound predicate (normalizeValue per key) and the plan cache key (JSON text of every key) —
 * a third of Q3's main thread. A list marked here holds only integers of one JS representation (numbers: int2 /
 * int4, bigints: int8 — already the JS values of Iceberg's int / long), so those stages hand the same array on,
 * and the plan cache keys it by a digest of its content. The digest takes the keys in their order: sorting 29,000
 * bigints first cost more than the rest of the list's way to the scan, and a join built from the same rows hands
 * its keys over in the same order (another order only misses the cache).
 *
 * A marked array must not change afterwards (the marker is kept by identity).
 */
import { createHash } from 'node:crypto';

export type IntKeyRepr = 'number' | 'bigint';

interface Entry {
  readonly repr: IntKeyRepr;
  digest?: string;
}

const lists = new WeakMap<readonly unknown[], Entry>();
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * marks `values` as an integer key list when every element is an integral number, or every one a 64-bit bigint
 * (one pass, no copy); returns whether it did. NULLs are not keys: a list holding one is not marked.
 */
export function markIntKeyList(values: readonly unknown[]): boolean {
  if (lists.has(values)) return true;
  const first = values[0];
  const repr: IntKeyRepr | null = typeof first === 'number' ? 'number' : typeof first === 'bigint' ? 'bigint' : null;
  if (repr === null) return false;
  if (repr === 'number') {
    for (let i = 0; i < values.length; i++) if (!Number.isSafeInteger(values[i])) return false;
  } else {
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX) return false;
    }
  }
  lists.set(values, { repr });
  return true;
}

/** the representation of a marked key list, or undefined for any other array */
export function intKeyListRepr(values: readonly unknown[]): IntKeyRepr | undefined {
  return lists.get(values)?.repr;
}

/** a marked list's content as text for cache keys: representation, count and a SHA-1 of the keys' 64-bit words (made once) */
export function intKeyListDigest(values: readonly unknown[]): string | undefined {
  const e = lists.get(values);
  if (e === undefined) return undefined;
  if (e.digest === undefined) {
    const words = e.repr === 'number' ? Float64Array.from(values as readonly number[]) : BigInt64Array.from(values as readonly bigint[]);
    const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
    e.digest = `keys:${e.repr}:${values.length}:${createHash('sha1').update(bytes).digest('hex')}`;
  }
  return e.digest;
}
