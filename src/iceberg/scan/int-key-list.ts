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
 *
 * The keys' typed form (`intKeyListWords`: a Float64Array of the numbers, a BigInt64Array of the bigints) is made once
 * per list and shared by the digest, the wire form (parallel/filter-wire.ts) and the sorted copy (sorted-in-keys.ts);
 * a scan worker marks the list it decodes together with the typed array it arrived as, so there nothing reads the
 * keys as bigints again — making and comparing 29,000 bigints per stage was a third of Q3's scan-worker CPU.
 */
import { createHash } from 'node:crypto';

export type IntKeyRepr = 'number' | 'bigint';

export type IntKeyWords = Float64Array | BigInt64Array;

interface Entry {
  readonly repr: IntKeyRepr;
  digest?: string;
  words?: IntKeyWords;
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
  // the typed words are filled in the checking pass: the digest and the wire form need them anyway (an indexed
  // store, where BigInt64Array.from walked the list's iterator once more)
  if (repr === 'number') {
    const words = new Float64Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!Number.isSafeInteger(v)) return false;
      words[i] = v as number;
    }
    lists.set(values, { repr, words });
  } else {
    const words = new BigInt64Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX) return false;
      words[i] = v;
    }
    lists.set(values, { repr, words });
  }
  return true;
}

/** the representation of a marked key list, or undefined for any other array */
export function intKeyListRepr(values: readonly unknown[]): IntKeyRepr | undefined {
  return lists.get(values)?.repr;
}

/**
 * marks `values` as the key list whose keys, in order, are `words` — the wire form a scan worker decoded them from
 * (`values[i]` is `words[i]`); no pass over the values. A Float64Array is marked only when every element is a safe
 * integer (the 'number' representation's promise; a checked typed array costs no allocation).
 */
export function markIntKeyListWords(values: readonly unknown[], words: IntKeyWords, digest?: string): boolean {
  if (values.length !== words.length) return false;
  if (words instanceof Float64Array) {
    for (let i = 0; i < words.length; i++) if (!Number.isSafeInteger(words[i])) return false;
  }
  // `digest`: intKeyWordsDigest(words), when the caller made it already (a scan worker's memo, filter-wire.ts)
  lists.set(values, { repr: words instanceof BigInt64Array ? 'bigint' : 'number', words, digest });
  return true;
}

/** a marked list's keys as one typed array, in order (made once; must not be changed), or undefined for any other array */
export function intKeyListWords(values: readonly unknown[]): IntKeyWords | undefined {
  const e = lists.get(values);
  if (e === undefined) return undefined;
  if (e.words === undefined) e.words = e.repr === 'number' ? Float64Array.from(values as readonly number[]) : BigInt64Array.from(values as readonly bigint[]);
  return e.words;
}

/** a marked list's content as text for cache keys: representation, count and a SHA-1 of the keys' 64-bit words (made once) */
export function intKeyListDigest(values: readonly unknown[]): string | undefined {
  const e = lists.get(values);
  if (e === undefined) return undefined;
  e.digest ??= intKeyWordsDigest(intKeyListWords(values)!);
  return e.digest;
}

/**
 * the digest intKeyListDigest gives a list whose typed words are `words`: representation, count and a SHA-1 of the
 * 64-bit words — a Float64Array and a BigInt64Array of the same bits differ by representation, and int8 keys beyond
 * ±2^53 by their exact words (no rounding through doubles)
 */
export function intKeyWordsDigest(words: IntKeyWords): string {
  const repr: IntKeyRepr = words instanceof BigInt64Array ? 'bigint' : 'number';
  const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  return `keys:${repr}:${words.length}:${createHash('sha1').update(bytes).digest('hex')}`;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_32 = 2 ** 32;

/**
 * a marked bigint list's keys split at ±2^53: those in [-2^53, 2^53) as exact doubles (`small`), the rest as bigints
 * (`big`) — read from the typed words' two 32-bit halves, no BigInt made for a small key (Number(v) per key was most
 * of building a scan's int8 key set, read/arrow-row-filter.ts). Undefined for lists not marked as bigints.
 */
export function int64KeysSplit(values: readonly unknown[]): { readonly small: Float64Array; readonly big: bigint[] } | undefined {
  const words = lists.get(values)?.repr === 'bigint' ? intKeyListWords(values) : undefined;
  if (!(words instanceof BigInt64Array)) return undefined;
  const halves = new Int32Array(words.buffer, words.byteOffset, words.length * 2);
  const hiAt = LITTLE_ENDIAN ? 1 : 0;
  // a typed array, not pushes into a JS array: 2.5x faster for 29,000 keys
  const small = new Float64Array(words.length);
  let n = 0;
  const big: bigint[] = [];
  for (let i = 0; i < words.length; i++) {
    const hi = halves[2 * i + hiAt]!;
    // hi in [-2^21, 2^21) ⇔ the key in [-2^53, 2^53): hi · 2^32 + (unsigned lo) is then exact
    if (hi >= -0x200000 && hi < 0x200000) small[n++] = hi * TWO_32 + (halves[2 * i + 1 - hiAt]! >>> 0);
    else big.push(words[i]!);
  }
  return { small: small.subarray(0, n), big };
}
