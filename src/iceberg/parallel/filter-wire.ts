/**
 * The pushed filter on its way to the scan workers. The runtime key filter (exec/runtime-key-filter.ts) puts a
 * hash join's built keys — up to 100,000 of them — into the probe scan's filter as one IN list, and the filter
 * travels with every task: as a JS array its structured clone copies each element (bigints one by one) per
 * task, and the worker rebuilt its lookup set per task. Here a long integer list travels as one typed array
 * (a flat copy), and a worker decodes the filter once per scan (keyed by the scan id) so the same values array —
 * and the sets and sorted keys cached on it (read/arrow-row-filter.ts, scan/sorted-in-keys.ts) — serves every
 * task of the scan.
 */
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { intKeyListWords, markIntKeyListWords } from '../scan/int-key-list.ts';
import { fromCloneable, toCloneable } from './cloneable.ts';

/** shorter lists travel as they are */
const MIN_PACKED = 64;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** decoded filters kept per worker (one per recent scan) */
const CACHED_SCANS = 4;

interface PackedIn {
  readonly $inF64?: Float64Array;
  readonly $inI64?: BigInt64Array;
}

/** the filter as sent: toCloneable's form, with long integer IN lists as typed arrays */
export function toWireFilter(b: BoundPredicate): unknown {
  return toCloneable(pack(b));
}

function pack(b: BoundPredicate): unknown {
  switch (b.kind) {
    case 'and': case 'or': return { ...b, args: b.args.map(pack) };
    case 'in': {
      const v = b.values;
      if (v.length < MIN_PACKED) return b;
      // a runtime key filter's list is known to be integers of one representation (scan/int-key-list.ts): no checks
      // (its typed words made once per list, shared with the plan-cache digest and the sorted copy)
      const words = intKeyListWords(v);
      if (words instanceof Float64Array) return { ...b, values: { $inF64: shared(words) } satisfies PackedIn };
      if (words instanceof BigInt64Array) return { ...b, values: { $inI64: shared(words) } satisfies PackedIn };
      if (v.every((x) => typeof x === 'number' && Number.isInteger(x))) return { ...b, values: { $inF64: Float64Array.from(v as readonly number[]) } satisfies PackedIn };
      if (v.every((x) => typeof x === 'bigint' && x >= INT64_MIN && x <= INT64_MAX)) return { ...b, values: { $inI64: BigInt64Array.from(v as readonly bigint[]) } satisfies PackedIn };
      return b;
    }
    default: return b;
  }
}

/**
 * a copy in shared memory: the filter goes with each of the scan's tasks, and a shared typed array is passed by
 * reference where a plain one is copied into every task message (TPC-H Q3: 29,000 keys × 46 lineitem tasks)
 */
function shared<T extends Float64Array | BigInt64Array>(words: T): T {
  const copy = (words instanceof Float64Array ? new Float64Array(new SharedArrayBuffer(words.byteLength)) : new BigInt64Array(new SharedArrayBuffer(words.byteLength))) as T;
  copy.set(words as never);
  return copy;
}

function unpack(b: BoundPredicate): BoundPredicate {
  switch (b.kind) {
    case 'and': case 'or': return { ...b, args: b.args.map(unpack) };
    case 'in': {
      const p = b.values as unknown as PackedIn;
      const words = p.$inF64 instanceof Float64Array ? p.$inF64 : p.$inI64 instanceof BigInt64Array ? p.$inI64 : null;
      if (words !== null) return { ...b, values: keysOf(words) };
      return b;
    }
    default: return b;
  }
}

/**
 * the JS values of packed keys, marked as an integer key list with the words they came as (scan/int-key-list.ts), so
 * the worker's sorted copy and key sets are made from the words (an indexed loop: Array.from walks the iterator)
 */
function keysOf(words: Float64Array | BigInt64Array): unknown[] {
  const values: unknown[] = [];
  for (let i = 0; i < words.length; i++) values.push(words[i]);
  markIntKeyListWords(values, words);
  return values;
}

/** the filter as received, without the cache (tests) */
export function fromWireFilter(w: unknown): BoundPredicate {
  return unpack(fromCloneable(w) as BoundPredicate);
}

const decoded = new Map<string, BoundPredicate>();

/** the decoded filter of a scan's task: every task of one scan carries the same filter, decoded once per worker */
export function wireFilterFor(scanId: string, w: unknown): BoundPredicate {
  let b = decoded.get(scanId);
  if (b === undefined) {
    b = fromWireFilter(w);
    decoded.set(scanId, b);
    if (decoded.size > CACHED_SCANS) decoded.delete(decoded.keys().next().value!);
  }
  return b;
}
