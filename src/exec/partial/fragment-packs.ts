/**
 * A worker fragment's groups packed column-wise for the main thread's merge (partial-aggregate-exec.ts):
 * key columns (objects made cloneable) and either packed state objects per aggregate or, when no group
 * needed a state object, the typed counts and sums moved as buffers (typed-partial-groups.ts takeTyped).
 */
import { toCloneable } from '../../iceberg/parallel/cloneable.ts';
import type { AggregateState } from '../../functions/registry-types.ts';
import type { TypedPartialStates } from '../expr/group-states.ts';
import { packStates } from './state-wire.ts';
import { int8KeysOf } from './int8-key-wire.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { PartialGroups } from './run-fragment.ts';

/** one group of a fragment's row-at-a-time table: its key values and aggregate states */
export type Group = { keys: unknown[]; states: AggregateState[] };

/**
 * typed groups for the main thread's merge: key columns as packGroups sends them — except a sole int8 key column of
 * safe integers, sent as exact doubles in a moved buffer (int8-key-wire.ts: structured clone copies a JS array of
 * BigInts value by value; TPC-H q18's l_orderkey) — the typed arrays moved
 */
export function packTypedGroups(count: number, keyCols: unknown[][], keyOids: readonly number[], typed: readonly TypedPartialStates[], transfer: ArrayBufferLike[]): PartialGroups {
  // one key only: the group table reads exact doubles for a single key column (group-table.ts #assignOne), several keys by value
  const int8Keys = keyCols.map((col, c) => (keyOids.length === 1 && keyOids[c] === Oid.int8 ? int8KeysOf(col, count, transfer) : null));
  const cols = keyCols.map((col, c) => (int8Keys[c] === null ? col : []));
  const keysTagged = cols.map((col) => col.some((v) => typeof v === 'object' && v !== null));
  for (const t of typed) for (const a of [t.counts, t.sums, t.scales]) if (a !== null) transfer.push(a.buffer);
  return {
    count,
    keys: cols.map((col, c) => (keysTagged[c] ? col.map(toCloneable) : col)),
    keysTagged,
    states: [],
    typed,
    ...(int8Keys.some((k) => k !== null) ? { int8Keys } : {}),
  };
}

/** groups column-wise for the main thread's merge (partial-aggregate-exec.ts) */
export function packGroups(order: readonly { readonly keys: readonly unknown[]; readonly states: readonly AggregateState[] }[], width: number, aggs: number): PartialGroups {
  const keyCols = Array.from({ length: width }, (_k, c) => order.map((g) => g.keys[c]));
  const keysTagged = keyCols.map((col) => col.some((v) => typeof v === 'object' && v !== null));
  return {
    count: order.length,
    keys: keyCols.map((col, c) => (keysTagged[c] ? col.map(toCloneable) : col)),
    keysTagged,
    states: Array.from({ length: aggs }, (_a, k) => packStates(order.map((g) => g.states[k]!))),
  };
}
