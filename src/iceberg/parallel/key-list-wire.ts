/**
 * Long integer key lists on their way to the scan workers, and kept there. A runtime key filter
 * (exec/runtime-key-filter.ts) carries a hash join's built keys — tens of thousands — into a scan's pushed filter
 * (filter-wire.ts) or, below an aggregate the workers run, into the fragment's Filter as an array literal
 * (exec/partial/expr-wire.ts). Such a list travels as one typed array in shared memory (passed by reference with
 * each task, not copied element by element) with its digest, and a worker keeps the decoded list by that digest (a
 * small LRU): every task of a scan and every later run of the query get the same array back, so the lookup
 * structures cached on the array — the sorted copy (scan/sorted-in-keys.ts), the key sets (read/arrow-row-filter.ts,
 * row-filter.ts, exec/in-list-set.ts) — are built once per worker and list. Each run builds its join's keys anew
 * and each scan has a new id, so before this they were rebuilt per run (~18 % of TPC-H q3's scan-worker CPU at
 * SF 0.2) or per task. The digest (scan/int-key-list.ts: representation, count, SHA-1 of the 64-bit words) names the
 * keys in their order: a different list never gets another's array.
 */
import { intKeyListDigest, intKeyListWords, intKeyWordsDigest, markIntKeyListWords, type IntKeyWords } from '../scan/int-key-list.ts';

/** shorter lists travel as they are */
export const MIN_PACKED = 64;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** decoded lists kept per worker */
const CACHED_LISTS = 8;

export interface PackedKeys {
  readonly $inF64?: Float64Array;
  readonly $inI64?: BigInt64Array;
  /** intKeyWordsDigest of the words, when the sender had it */
  readonly $digest?: string;
}

/**
 * the wire form of a long integer list, or null for a list that travels as it is. `checkAll`: lists not marked as
 * key lists are checked value by value (a pushed IN list); otherwise only marked ones go packed.
 */
export function packKeys(v: readonly unknown[], checkAll: boolean): PackedKeys | null {
  if (v.length < MIN_PACKED) return null;
  // a runtime key filter's list is known to be integers of one representation (scan/int-key-list.ts): no checks
  // (its typed words and digest made once per list, shared with the plan cache and the sorted copy)
  const words = intKeyListWords(v);
  if (words instanceof Float64Array) return { $inF64: shared(words), $digest: intKeyListDigest(v) };
  if (words instanceof BigInt64Array) return { $inI64: shared(words), $digest: intKeyListDigest(v) };
  if (!checkAll) return null;
  if (v.every((x) => typeof x === 'number' && Number.isInteger(x))) return { $inF64: Float64Array.from(v as readonly number[]) };
  if (v.every((x) => typeof x === 'bigint' && x >= INT64_MIN && x <= INT64_MAX)) return { $inI64: BigInt64Array.from(v as readonly bigint[]) };
  return null;
}

/**
 * a copy in shared memory: the list goes with each of the scan's tasks, and a shared typed array is passed by
 * reference where a plain one is copied into every task message (TPC-H Q3: 29,000 keys × 46 lineitem tasks)
 */
function shared<T extends IntKeyWords>(words: T): T {
  const copy = (words instanceof Float64Array ? new Float64Array(new SharedArrayBuffer(words.byteLength)) : new BigInt64Array(new SharedArrayBuffer(words.byteLength))) as T;
  copy.set(words as never);
  return copy;
}

/** the words of a packed list, or null when `v` is not one */
function packedWords(v: unknown): IntKeyWords | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const p = v as PackedKeys;
  return p.$inF64 instanceof Float64Array ? p.$inF64 : p.$inI64 instanceof BigInt64Array ? p.$inI64 : null;
}

/** the keys of a packed list (kept per worker by digest), or null when `v` is not one */
export function unpackKeys(v: unknown): unknown[] | null {
  const words = packedWords(v);
  if (words === null) return null;
  const sent = (v as PackedKeys).$digest;
  // the sender's digest is of the same words; a worker that got none (an unmarked list) hashes them itself
  return keysOf(words, typeof sent === 'string' ? sent : intKeyWordsDigest(words));
}

const kept = new Map<string, unknown[]>();

/**
 * the JS values of packed keys, marked as an integer key list with the words they came as (scan/int-key-list.ts), so
 * the worker's sorted copy and key sets are made from the words (an indexed loop: Array.from walks the iterator)
 */
function keysOf(words: IntKeyWords, digest: string): unknown[] {
  const known = kept.get(digest);
  if (known !== undefined) {
    // most recently used last
    kept.delete(digest);
    kept.set(digest, known);
    return known;
  }
  // the kept list holds its own copy, not the sender's shared buffer
  const own = words instanceof Float64Array ? Float64Array.from(words) : BigInt64Array.from(words);
  const values: unknown[] = [];
  for (let i = 0; i < own.length; i++) values.push(own[i]);
  if (!markIntKeyListWords(values, own, digest)) return values;
  kept.set(digest, values);
  if (kept.size > CACHED_LISTS) kept.delete(kept.keys().next().value!);
  return values;
}
