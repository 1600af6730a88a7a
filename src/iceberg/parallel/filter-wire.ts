/**
 * The pushed filter on its way to the scan workers. The runtime key filter (exec/runtime-key-filter.ts) puts a
 * hash join's built keys — up to 100,000 of them — into the probe scan's filter as one IN list, and the filter
 * travels with every task: as a JS array its structured clone copies each element (bigints one by one) per
 * task, and the worker rebuilt its lookup set per task. Here a long integer list travels as one typed array
 * (key-list-wire.ts: shared memory, kept per worker by digest), and a worker decodes the filter once per scan (keyed
 * by the scan id) so the same values array — and the sets and sorted keys cached on it (read/arrow-row-filter.ts,
 * scan/sorted-in-keys.ts) — serves every task of the scan and every later scan of the same keys.
 */
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { packKeys, unpackKeys } from './key-list-wire.ts';
import { fromCloneable, toCloneable } from './cloneable.ts';

/** decoded filters kept per worker (one per recent scan) */
const CACHED_SCANS = 4;

/** the filter as sent: toCloneable's form, with long integer IN lists as typed arrays */
export function toWireFilter(b: BoundPredicate): unknown {
  return toCloneable(pack(b));
}

function pack(b: BoundPredicate): unknown {
  switch (b.kind) {
    case 'and': case 'or': return { ...b, args: b.args.map(pack) };
    case 'in': {
      const packed = packKeys(b.values, true);
      return packed === null ? b : { ...b, values: packed };
    }
    default: return b;
  }
}

function unpack(b: BoundPredicate): BoundPredicate {
  switch (b.kind) {
    case 'and': case 'or': return { ...b, args: b.args.map(unpack) };
    case 'in': {
      // kept per worker by digest (key-list-wire.ts): the same array — and its sets and sorted copy — every run
      const values = unpackKeys(b.values);
      return values === null ? b : { ...b, values };
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
