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
import { intKeyListRepr } from '../scan/int-key-list.ts';
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
      const repr = intKeyListRepr(v);
      if (repr === 'number') return { ...b, values: { $inF64: Float64Array.from(v as readonly number[]) } satisfies PackedIn };
      if (repr === 'bigint') return { ...b, values: { $inI64: BigInt64Array.from(v as readonly bigint[]) } satisfies PackedIn };
      if (v.every((x) => typeof x === 'number' && Number.isInteger(x))) return { ...b, values: { $inF64: Float64Array.from(v as readonly number[]) } satisfies PackedIn };
      if (v.every((x) => typeof x === 'bigint' && x >= INT64_MIN && x <= INT64_MAX)) return { ...b, values: { $inI64: BigInt64Array.from(v as readonly bigint[]) } satisfies PackedIn };
      return b;
    }
    default: return b;
  }
}

function unpack(b: BoundPredicate): BoundPredicate {
  switch (b.kind) {
    case 'and': case 'or': return { ...b, args: b.args.map(unpack) };
    case 'in': {
      const p = b.values as unknown as PackedIn;
      if (p.$inF64 instanceof Float64Array) return { ...b, values: Array.from(p.$inF64) };
      if (p.$inI64 instanceof BigInt64Array) return { ...b, values: Array.from(p.$inI64) };
      return b;
    }
    default: return b;
  }
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
