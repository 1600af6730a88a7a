/**
 * DirectKeyIndex: group ids of one integer key column held in an array indexed by key − base, for GroupTable
 * when every key so far is an integer and their span is a small multiple of the group count (TPC-H's order,
 * customer and part keys: a span of at most 4× the keys). A row's group is then one array read — no hash, no
 * probe — and rows clustered by key (a lineitem file holds its order keys ascending) read neighbouring entries
 * instead of a cache miss each in a hash table of millions of slots (TPC-H Q18's final aggregate by l_orderkey).
 * Entries hold group id + 1 (0: no group), so a fresh zeroed array needs no fill.
 */

import { giveBack, takeInt32 } from './expr/spare-arrays.ts';

/** the span of keys may be at most this many entries per group (4 bytes each; the hash index takes 20–40 bytes a group) */
const SPAN_PER_GROUP = 32;
/** never more entries than this (128 MiB), however many groups */
const MAX_SPAN = 1 << 25;
/** keys stay within ±2^52, where every integer and the Number() of every bigint there is exact */
const KEY_LIMIT = 2 ** 52;
/**
 * entry counts are powers of two (at most MAX_SPAN), so a finished aggregate's entries fit the next one's
 * (expr/spare-arrays.ts: a fresh array of megabytes costs a page fault per 4 KiB on first touch)
 */
function entries(n: number): number {
  let len = 1024;
  while (len < n && len < MAX_SPAN) len *= 2;
  return len;
}
/** below this many groups hashing stays: its table is small and cache-resident anyway */
export const DIRECT_MIN_GROUPS = 256;

export class DirectKeyIndex {
  /** group id + 1 of key `base + i`, 0 when no group has that key */
  ids: Int32Array;
  /** the key of entry 0 */
  base: number;
  /** the least and greatest key of the groups (kept by the caller as groups are added; the entries add headroom) */
  lo: number;
  hi: number;

  private constructor(base: number, span: number, lo: number, hi: number) {
    this.base = base;
    this.ids = takeInt32(entries(span), 0);
    this.lo = lo;
    this.hi = hi;
  }

  /** whether `groups` groups with integer keys in [lo, hi] are worth indexing directly */
  static fits(lo: number, hi: number, groups: number): boolean {
    const span = hi - lo + 1;
    return groups >= DIRECT_MIN_GROUPS && span <= MAX_SPAN && span <= SPAN_PER_GROUP * groups && lo >= -KEY_LIMIT && hi <= KEY_LIMIT;
  }

  /** the index of the `count` groups whose keys are keys.at(0 … count-1): integers in [lo, hi], or null (not indexed) */
  static build(keys: { at(g: number): unknown }, count: number, lo: number, hi: number): DirectKeyIndex {
    const span = hi - lo + 1;
    // headroom above the largest key: keys seen later tend to be larger (ids handed out in order)
    // keys from 1 (ids) start the entries at 0, others leave a little room below the least key
    const base = lo >= 0 && lo <= span >> 2 ? 0 : lo - (span >> 4);
    const d = new DirectKeyIndex(base, Math.min(MAX_SPAN, hi - base + 1 + (span >> 2) + 64), lo, hi);
    for (let g = 0; g < count; g++) {
      const k = keys.at(g);
      if (k !== null) d.ids[(k as number) - base] = g + 1;
    }
    return d;
  }

  /**
   * makes room for integer key `k` (outside the entries) if the span with it still fits `groups` + 1 groups;
   * false when it does not (the caller goes back to hashing)
   */
  extend(k: number, groups: number): boolean {
    const lo = Math.min(this.lo, k);
    const hi = Math.max(this.hi, k);
    if (!DirectKeyIndex.fits(lo, hi, Math.max(groups + 1, DIRECT_MIN_GROUPS))) return false;
    // the entries cover the old ones and k, grown by at least half on k's side
    const end = this.base + this.ids.length;
    const need = Math.max(end, k + 1) - Math.min(this.base, k);
    const grown = entries(Math.max(need, this.ids.length + (this.ids.length >> 1)));
    if (grown < need) return false;
    const base = k < this.base ? end - grown : this.base;
    const ids = takeInt32(grown, 0);
    ids.set(this.ids, this.base - base);
    giveBack(this.ids);
    this.ids = ids;
    this.base = base;
    this.lo = lo;
    this.hi = hi;
    return true;
  }

  /**
   * out[i] = the group id of row i's key `xf[i]` (exact doubles), or -1 when that key has no group yet, is NULL
   * (`xn[i]` = 1) or lies outside the entries. No branch depends on an entry read, so the cache misses of keys
   * spread over a big index overlap: a loop that also adds the new groups waits on each one (TPC-H Q18 at SF 1:
   * 6M rows, 1.5M groups, a 32 MB index, a miss per row: GroupTable.assign by this index about a quarter less CPU).
   */
  readIds(xf: Float64Array, xn: Uint8Array | null, n: number, out: Int32Array): void {
    const ids = this.ids, base = this.base, len = ids.length;
    for (let i = 0; i < n; i++) {
      const e = xf[i]! - base;
      out[i] = e >= 0 && e < len && (e | 0) === e ? ids[e]! - 1 : -1;
    }
    // a NULL row's double is 0 (exact-int64-column.ts), which may be a key of its own
    if (xn !== null) for (let i = 0; i < n; i++) if (xn[i] === 1) out[i] = -1;
  }

  get bytes(): number { return this.ids.length * 4; }

  /** hands the entries back for the next index (expr/spare-arrays.ts); the index is empty afterwards */
  release(): void {
    giveBack(this.ids);
    this.ids = new Int32Array(0);
  }
}
