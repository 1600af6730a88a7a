/**
 * An all-NULL column of `n` rows without `n` slots: what late materialization hands on for a filter column nobody
 * reads from an exactly judged batch (ChunkFilter.unreadWhenExact: TPC-H q1's l_shipdate, 98 % of lineitem). A
 * filled array cost q1's scan workers 9.3 MB per pass at SF 0.2 (8 bytes a row, every batch). Here the array holds
 * one element, its last (an element past the end of an empty array keeps V8's array in dictionary mode: no backing
 * store of n slots), and every hole reads as NULL through its prototype — so a reader the verdict did not foresee
 * still sees NULLs, as it did from the filled array, only slower.
 */

/** whether `key` names an index (Array.prototype's property names never start with a digit) */
const isIndexKey = (key: string | symbol): boolean => typeof key === 'string' && key.length > 0 && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57;

/**
 * Array.prototype's methods, but a hole (any index of the column but its last) reads as null; `has` says yes, so
 * that map / forEach / some / indexOf visit the holes (and read null) instead of skipping them as absent
 */
const NULLS_PROTO: object = new Proxy(Array.prototype, {
  get(target, key, receiver): unknown {
    if (isIndexKey(key)) return null;
    return Reflect.get(target, key, receiver) as unknown;
  },
  has(target, key): boolean {
    if (isIndexKey(key)) return true;
    return Reflect.has(target, key);
  },
});

/** `n` NULLs, as few slots as V8 allows (see the header) */
export function unreadNulls(n: number): unknown[] {
  const out: unknown[] = [];
  if (n > 0) out[n - 1] = null;
  Object.setPrototypeOf(out, NULLS_PROTO);
  return out;
}
