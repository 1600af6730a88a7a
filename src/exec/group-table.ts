/**
 * GroupTable: dense ids for the distinct key tuples of rows, a batch at a time (hash aggregate groups, join
 * build keys). Each key column is normalized to a primitive with valueKey — the equality of compareValues:
 * int4 2 and int8 2 meet, -0 = +0, every NaN is one key, numeric 1.0 = 1.00, bpchar ignores trailing blanks
 * (numbers, bigints, text and integral numerics keyed inline, objectKey) —
 * and hashed column at a time into one 32-bit hash per row; the rows then probe an open-addressing table of
 * typed arrays (slot → group id) and compare the normalized keys only on a full-hash match. No key string,
 * array or Map entry per row or per group (the nested Maps of group-lookup.ts were most of TPC-H Q18's time).
 *
 * Group ids are given in first-seen order; `keyAt(c, g)` is the first value seen of group g's column c
 * (what GROUP BY outputs: numeric 1.0 and 1.00 are one group shown as the first of them, as PostgreSQL's
 * hash aggregate keeps its first tuple). A bigint whose normalized key is a number is not kept: it is
 * BigInt(key) exactly, made again when read — keeping one object per group alive through every young-generation
 * collection was half the cost of TPC-H Q18's aggregate by l_orderkey. For GROUP BY, NULL is one key; `lookup`
 * (joins) never matches a row with a NULL key.
 */
import { valueKey } from '../functions/index.ts';
import { fmix32, fnv1a } from './hash-mix.ts';
import { DirectKeyIndex } from './direct-key-index.ts';
import { NormKeyColumn } from './norm-key-column.ts';
import { exactInt64Of } from '../common/pgtypes/exact-int64-column.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { trimTrailingBlanks } from '../functions/compare-values.ts';

export interface GroupTableOptions {
  /** initial slot count (a power of two); tests use tiny tables to force growth and probing */
  readonly capacity?: number;
  /** the hash of one normalized key; tests force collisions with a constant */
  readonly hashKey?: (key: unknown) => number;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const NULL_HASH = 0x7a3b9c1d;
/** the slot key of a group whose key is not a 32-bit integer (an integer key equal to it is treated the same way) */
const NO_INT = -2147483648;
const slotKey = (k: unknown): number => (typeof k === 'number' && (k | 0) === k ? k : NO_INT);
/** no row's value: the previous value before the first row */
const NO_ROW = Symbol('no row');
/** batches above this many rows do not keep their scratch arrays */
const BIG_BATCH = 65536;
/**
 * what #firsts holds for a first value that is BigInt(its normalized key): made again when read; entries past
 * the end of a #firsts array read as AS_KEY too, so groups of int8 keys push nothing there (#keepFirst)
 */
const AS_KEY = undefined;
/**
 * stands for a row's value when its column has exact doubles attached (exact-int64-column.ts): that value is
 * BigInt(key), which keptValue keeps as AS_KEY, so the column itself is not read
 */
const SOME_BIGINT = 0n;
/** int8's type OID (common/pgtypes/oids.ts) */
const INT8_OID = 20;
/**
 * valueKey of a value `v` (not a number or bigint) of a column of type `oid`, the two keys of TPC-H q7 / q8 / q9's
 * GROUP BY (nation, extract(year …)) without valueKey's chain of type tests per row (≈ 7 % of q9's main thread):
 * text as valueKey keys it (bpchar without its trailing blanks), and an integral numeric (scale 0, what
 * extract(year …) gives) as its integer — the number numericKey gives it, without the brand lookup and bigint range
 * compares. Any other numeric (2000.0 among them: one group with 2000, shown as its first value seen) and every
 * other type go to valueKey.
 */
function objectKey(oid: number, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' && oid !== Oid.jsonb) return oid === Oid.bpchar ? trimTrailingBlanks(v) : v;
  if (oid === Oid.numeric && v instanceof Numeric && v.scale === 0 && v.kind === 0 /* finite */) {
    // exact: a bigint beyond ±(2^53 − 1) converts to a number that is not a safe integer
    const x = Number(v.unscaled);
    if (Number.isSafeInteger(x)) return x;
  }
  return valueKey(oid, v);
}

/**
 * the first value to keep for value `v` whose normalized key is `k`, in a column whose values are bigints (`big`:
 * int8) or not: an int8 value that is BigInt(k), or any other number that is k itself (not -0, not NaN), is AS_KEY —
 * made again from the key when read, so a GROUP BY of integer or float keys keeps one array of keys, not two (the
 * second's growth past V8's large-object size was 15 % of TPC-H Q13's main thread: fresh pages faulted in)
 */
function keptValue(v: unknown, k: unknown, big: boolean): unknown {
  if (typeof v === 'bigint' && typeof k === 'number') return big ? AS_KEY : BigInt(k); // SOME_BIGINT stands for BigInt(k)
  return !big && typeof v === 'number' && v === k && (v !== 0 || 1 / v > 0) ? AS_KEY : v ?? null;
}


/** the hash of a valueKey result (or null for NULL) */
export function hashKey(k: unknown): number {
  if (typeof k === 'number') {
    if ((k | 0) === k) return k;
    f64[0] = k;
    return u32[0]! ^ Math.imul(u32[1]!, 0x9e3779b1);
  }
  if (typeof k === 'string') return fnv1a(k);
  if (k === null) return NULL_HASH;
  if (typeof k === 'boolean') return k ? 0x51ed27 : 0x2f9b3c;
  return fnv1a(String(k)); // bigint beyond 2^53
}

/** a string key value's normalized key and hash (GroupTable's per-column memo) */
interface MemoEntry {
  readonly k: unknown;
  readonly h: number;
}

/** distinct string values a key column remembers before it stops (GroupTable #stringKey) */
const MEMO_MAX = 4096;

export class GroupTable {
  readonly #oids: readonly number[];
  readonly #hashKey: (key: unknown) => number;
  /** per key column: the normalized key of each group (null: NULL) */
  readonly #norm: NormKeyColumn[];
  /**
   * per key column: the first value seen of each group, AS_KEY where that is its normalized key — as BigInt(key) in
   * an int8 column (#big), as the key itself in any other
   */
  readonly #firsts: unknown[][];
  /** per key column: whether its values are bigints (int8), so an AS_KEY first value reads as BigInt(key) */
  readonly #big: readonly boolean[];
  /** groups below this have no AS_KEY left in #firsts (`values` filled them in) */
  #filled = 0;
  /** the full hash of each group (groups from #directFrom on have none while the direct index holds them) */
  #hashes = new Int32Array(64);
  /** the first group added while indexing directly: its hash and those after it are computed on leaving (#leaveDirect) */
  #directFrom = 0;
  /** slot → group id, -1 when empty; linear probing */
  #slots: Int32Array;
  #mask: number;
  #size = 0;
  /**
   * one key column: each slot's key beside it when it is a 32-bit integer (NO_INT for any other key: NULL,
   * text, bigint, fractions…, and for NO_INT itself), so an integer probe compares in the slot array instead of
   * reaching the group's hash and key (two more cache misses per row in a big table: most of TPC-H Q18's final
   * aggregate over order keys); null with several key columns
   */
  #slotKeys: Int32Array | null;
  /** per-batch scratch: row hashes and normalized keys per column */
  #h = new Int32Array(0);
  /** per-batch scratch: 1 where a row repeats the previous row's key values */
  #same = new Uint8Array(0);
  readonly #nk: unknown[][];
  /**
   * per key column: the key and hash of each string value seen (#stringKey); undefined until the column's first
   * string, null for good once it would hold more than MEMO_MAX distinct values
   */
  readonly #memo: (Map<string, MemoEntry> | null | undefined)[];
  /**
   * one key column whose keys are all integers spanning a few entries per group: group ids by key − base
   * (direct-key-index.ts); #slots / #slotKeys are then left stale and rebuilt if a key does not fit
   */
  #direct: DirectKeyIndex | null = null;
  /** one key column while hashing: the least and greatest key, NaN once a key is not a safe integer */
  #lo = Infinity;
  #hi = -Infinity;
  /** one key column: the group of the NULL key, -1 when none yet */
  #nullGroup = -1;

  constructor(oids: readonly number[], options: GroupTableOptions = {}) {
    this.#oids = oids;
    this.#hashKey = options.hashKey ?? hashKey;
    this.#norm = oids.map(() => new NormKeyColumn());
    this.#firsts = oids.map(() => []);
    this.#big = oids.map((o) => o === INT8_OID);
    this.#nk = oids.map(() => []);
    this.#memo = oids.map(() => undefined);
    let cap = 16;
    while (cap < (options.capacity ?? 1024)) cap *= 2;
    this.#slots = new Int32Array(cap).fill(-1);
    this.#mask = cap - 1;
    this.#slotKeys = oids.length === 1 ? new Int32Array(cap) : null;
  }

  /** distinct key tuples so far */
  get size(): number { return this.#size; }

  /** the first value seen of group g's key column c */
  keyAt(c: number, g: number): unknown {
    const v = this.#firsts[c]![g];
    return v === AS_KEY ? this.#asKey(c, this.#norm[c]!.at(g)) : v;
  }

  /** column c's first value of a group kept as AS_KEY, from its normalized key k (a number then) */
  #asKey(c: number, k: unknown): unknown {
    return this.#big[c] ? BigInt(k as number) : k;
  }

  /** the key values of group g */
  keysOf(g: number): unknown[] {
    const out = new Array<unknown>(this.#firsts.length);
    for (let c = 0; c < out.length; c++) out[c] = this.keyAt(c, g);
    return out;
  }

  /** column c's first values of groups from … to-1 (a new array) */
  keySlice(c: number, from: number, to: number): unknown[] {
    const firsts = this.#firsts[c]!, norm = this.#norm[c]!;
    const out = new Array<unknown>(to - from);
    for (let g = 0; g < out.length; g++) {
      const v = firsts[from + g];
      out[g] = v === AS_KEY ? this.#asKey(c, norm.at(from + g)) : v;
    }
    return out;
  }

  /**
   * per key column: the first value seen of each group, every one filled in (so the bigints are kept from then
   * on); keyAt / keySlice read them without keeping any
   */
  get values(): unknown[][] {
    for (let c = 0; c < this.#firsts.length; c++) {
      const firsts = this.#firsts[c]!, norm = this.#norm[c]!;
      // in group order, so an array shorter than the groups grows at its end
      for (let g = this.#filled; g < this.#size; g++) if (firsts[g] === AS_KEY) firsts[g] = this.#asKey(c, norm.at(g));
    }
    this.#filled = this.#size;
    return this.#firsts;
  }

  /**
   * hands the direct index's entries and the typed keys back for the next table (expr/spare-arrays.ts): the caller
   * is done with the table — nothing may be read or assigned afterwards (keyAt, keySlice and values throw)
   */
  release(): void {
    this.#direct?.release();
    for (const norm of this.#norm) norm.release();
  }

  /** how groups are found: by key − base (direct-key-index.ts) or by hashing */
  get indexKind(): 'direct' | 'hash' { return this.#direct !== null ? 'direct' : 'hash'; }

  /** bytes of the typed index (the key values are the caller's to estimate) */
  get indexBytes(): number {
    const index = this.#direct !== null ? this.#direct.bytes : this.#slots.length * (this.#slotKeys === null ? 4 : 8);
    return index + this.#hashes.length * 4;
  }

  /** out[i] = the group of row i (`keyCols[c][i]`, i < n), new groups added in row order */
  assign(keyCols: readonly (readonly unknown[])[], n: number, out: Int32Array): void {
    if (this.#oids.length === 0) {
      if (n > 0 && this.#size === 0) this.#size = 1;
      out.fill(0, 0, n);
      return;
    }
    if (this.#oids.length === 1) return this.#assignOne(keyCols[0]!, n, out);
    const same = this.#sameAsPrevious(keyCols, n);
    const h = this.#hashRows(keyCols, n, same);
    for (let i = 0; i < n; i++) {
      if (same !== null && same[i] === 1) { out[i] = out[i - 1]!; continue; }
      const hh = fmix32(h[i]!);
      let s = hh & this.#mask;
      for (;;) {
        const g = this.#slots[s]!;
        if (g === -1) { out[i] = this.#add(s, hh, keyCols, i); break; }
        if (this.#hashes[g] === hh && this.#equal(g, i)) { out[i] = g; break; }
        s = (s + 1) & this.#mask;
      }
    }
    this.#releaseScratch(n);
  }

  /** out[i] = the group whose key equals row i's, or -1 (none, or a NULL in the key: joins never match NULL) */
  lookup(keyCols: readonly (readonly unknown[])[], n: number, out: Int32Array): void {
    if (this.#direct !== null) return this.#lookupDirect(keyCols[0]!, n, out);
    const h = this.#hashRows(keyCols, n);
    const w = this.#oids.length;
    rows: for (let i = 0; i < n; i++) {
      for (let c = 0; c < w; c++) if (this.#nk[c]![i] === null) { out[i] = -1; continue rows; }
      const hh = fmix32(h[i]!);
      let s = hh & this.#mask;
      for (;;) {
        const g = this.#slots[s]!;
        if (g === -1) { out[i] = -1; break; }
        if (this.#hashes[g] === hh && this.#equal(g, i)) { out[i] = g; break; }
        s = (s + 1) & this.#mask;
      }
    }
    this.#releaseScratch(n);
  }

  /** lookup by the direct index: every group's key is an integer inside it, or NULL (never matched) */
  #lookupDirect(col: readonly unknown[], n: number, out: Int32Array): void {
    const { ids, base } = this.#direct!;
    const oid = this.#oids[0]!;
    for (let i = 0; i < n; i++) {
      const v = col[i];
      let k: unknown = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : objectKey(oid, v);
      if (typeof k !== 'number') k = NaN;
      const e = (k as number) - base;
      out[i] = e >= 0 && e < ids.length && (e | 0) === e ? ids[e]! - 1 : -1;
    }
  }

  /** assign for one key column (the common GROUP BY): one pass, no scratch arrays; the same hashes as #hashRows */
  #assignOne(col: readonly unknown[], n: number, out: Int32Array): void {
    // an int8 column from a scan worker carries its keys as doubles (exact-int64-column.ts): no bigint read per row
    const x = exactInt64Of(col, n);
    let from = 0;
    if (x !== undefined && this.#slotKeys !== null) {
      if (this.#direct !== null) from = this.#assignDirect(col, n, out, x.f, x.nulls);
      if (from < n) this.#assignHashed(col, from, n, out, x.f, x.nulls);
      from = n;
    }
    if (from < n && this.#direct !== null) from = this.#assignDirect(col, n, out, null, null);
    if (from < n) this.#assignHashed(col, from, n, out, null, null);
    if (this.#direct === null && this.#slotKeys !== null && this.#lo <= this.#hi && DirectKeyIndex.fits(this.#lo, this.#hi, this.#size)) {
      this.#direct = DirectKeyIndex.build(this.#norm[0]!, this.#size, this.#lo, this.#hi);
      this.#directFrom = this.#size;
      this.#slots = new Int32Array(0);
      this.#slotKeys = new Int32Array(0);
    }
  }

  /**
   * #assignOne by the direct index: rows up to the first whose key is not an integer that fits (the table
   * goes back to hashing then); returns that row, n when all fitted
   */
  #assignDirect(col: readonly unknown[], n: number, out: Int32Array, xf: Float64Array | null, xn: Uint8Array | null): number {
    let d = this.#direct!;
    let ids = d.ids, base = d.base, len = ids.length;
    // with exact doubles every row's entry is read first, in a loop of its own (DirectKeyIndex.readIds: the cache
    // misses overlap); the loop below then visits only the rows that found no group (-1)
    if (xf !== null) d.readIds(xf, xn, n, out);
    // the previous row's key (a run of one order's lines): compared as numbers, since === on bigints is a slow
    // call; only keys that fitted the index are kept here, and those are exact
    let lastK = NaN, lastG = -1;
    for (let i = 0; i < n; i++) {
      if (xf !== null && out[i]! >= 0) continue;
      let k: number;
      if (xf !== null) {
        if (xn !== null && xn[i] === 1) {
          if (this.#nullGroup < 0) this.#nullGroup = this.#newGroupDirect(null, null);
          out[i] = this.#nullGroup;
          continue;
        }
        k = xf[i]!;
      } else {
        const v = col[i];
        if (v === null || v === undefined) {
          if (this.#nullGroup < 0) this.#nullGroup = this.#newGroupDirect(null, null);
          out[i] = this.#nullGroup;
          continue;
        }
        k = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN;
      }
      if (k === lastK) { out[i] = lastG; continue; }
      let e = k - base;
      if (!(e >= 0 && e < len && (e | 0) === e)) {
        // beyond ±2^52 a bigint's Number() may be rounded: fits() keeps the entries inside that range
        if (!Number.isSafeInteger(k) || !d.extend(k, this.#size)) {
          this.#leaveDirect();
          return i;
        }
        ids = d.ids; base = d.base; len = ids.length;
        e = k - base;
      }
      let g = ids[e]! - 1;
      if (g < 0) {
        // -0 is key 0; the first value seen is what GROUP BY shows
        // with exact doubles the value is BigInt(k) (kept as AS_KEY): the column's entry is not read, it may be a
        // key-only placeholder (exact-int64-column.ts KEY_ONLY_INT64)
        g = this.#newGroupDirect(k === 0 ? 0 : k, xf !== null ? SOME_BIGINT : col[i]);
        ids[e] = g + 1;
      }
      out[i] = g;
      lastK = k;
      lastG = g;
    }
    return n;
  }

  #newGroupDirect(k: number | null, v: unknown): number {
    // no hash: only leaving the direct index needs the groups' hashes (most of TPC-H Q18's 1.5M groups never do)
    const g = this.#size++;
    const d = this.#direct!;
    // keys may fall in the entries' headroom: lo / hi stay the true range (leaving and rebuilding rely on it)
    if (k !== null) {
      if (k < d.lo) d.lo = k;
      if (k > d.hi) d.hi = k;
    }
    this.#norm[0]!.push(k);
    this.#keepFirst(0, g, keptValue(v, k, this.#big[0]!));
    return g;
  }

  /**
   * group g's first value of key column c (g: the newest group): an AS_KEY is not pushed, since entries past the
   * array's end read as AS_KEY — the groups of an int8 key column then fill no array at all
   */
  #keepFirst(c: number, g: number, kept: unknown): void {
    if (kept === AS_KEY) return;
    const firsts = this.#firsts[c]!;
    while (firsts.length < g) firsts.push(AS_KEY);
    firsts.push(kept);
  }

  /**
   * back to hashing (a key the direct index cannot hold): the slots rebuilt from the groups' hashes; the index
   * may come back once there are enough groups for the wider span (the row's own key widens it as it is added)
   */
  #leaveDirect(): void {
    const d = this.#direct!;
    this.#direct = null;
    // the hashes of the groups added while indexing directly (#newGroupDirect keeps none)
    if (this.#hashes.length < this.#size) {
      const grown = new Int32Array(Math.max(64, this.#size * 2));
      grown.set(this.#hashes.subarray(0, this.#directFrom));
      this.#hashes = grown;
    }
    const norm = this.#norm[0]!;
    for (let g = this.#directFrom; g < this.#size; g++) this.#hashes[g] = fmix32(this.#hashKey(norm.at(g)) | 0);
    this.#lo = d.lo;
    this.#hi = d.hi;
    let cap = 16;
    while (cap < this.#size * 2 + 2) cap *= 2;
    this.#slots = new Int32Array(cap / 2);
    this.#grow();
  }

  /** #assignOne by hashing, rows from..n */
  #assignHashed(col: readonly unknown[], from: number, n: number, out: Int32Array, xf: Float64Array | null, xn: Uint8Array | null): void {
    const norm = this.#norm[0]!;
    const oid = this.#oids[0]!;
    const hashOf = this.#hashKey;
    // input sorted or clustered by the key (lineitem by l_orderkey): a row whose value is the previous row's
    // (=== implies equal keys; NaN never takes this path) is in the previous row's group, no hash or probe
    let last: unknown = NO_ROW, lastG = -1;
    for (let i = from; i < n; i++) {
      // with exact doubles (safe integers or NULL), the key itself is the run's value
      const v = xf === null ? col[i] : xn !== null && xn[i] === 1 ? null : xf[i]!;
      if (v === last) { out[i] = lastG; continue; }
      let k: unknown;
      if (typeof v === 'number') k = v !== v ? 'NaN' : v === 0 ? 0 : v;
      else if (typeof v === 'bigint') { const x = Number(v); k = Number.isSafeInteger(x) ? x : v; }
      else k = objectKey(oid, v);
      const hh = fmix32(hashOf(k) | 0);
      let s = hh & this.#mask;
      const keys = this.#slotKeys;
      if (keys !== null && typeof k === 'number' && (k | 0) === k && k !== NO_INT) {
        for (;;) {
          const g = this.#slots[s]!;
          if (g === -1) { out[i] = this.#addOne(s, hh, k, xf === null ? v : v === null ? null : SOME_BIGINT); break; }
          if (keys[s] === k) { out[i] = g; break; }
          s = (s + 1) & this.#mask;
        }
      } else {
        for (;;) {
          const g = this.#slots[s]!;
          if (g === -1) { out[i] = this.#addOne(s, hh, k, xf === null ? v : v === null ? null : SOME_BIGINT); break; }
          if (this.#hashes[g] === hh && norm.at(g) === k) { out[i] = g; break; }
          s = (s + 1) & this.#mask;
        }
      }
      last = v;
      lastG = out[i]!;
    }
  }

  /**
   * rows whose every key value is the previous row's (===, so equal keys: clustered input takes the previous
   * row's group without hashing), or null when fewer than a quarter of the rows are such repeats
   */
  #sameAsPrevious(keyCols: readonly (readonly unknown[])[], n: number): Uint8Array | null {
    if (n < 2) return null;
    if (this.#same.length < n) this.#same = new Uint8Array(Math.max(n, 1024));
    const same = this.#same;
    same.fill(1, 0, n);
    same[0] = 0;
    for (let c = 0; c < keyCols.length; c++) {
      const col = keyCols[c]!;
      let prev = col[0];
      for (let i = 1; i < n; i++) {
        const v = col[i];
        if (v !== prev) same[i] = 0;
        prev = v;
      }
    }
    let repeats = 0;
    for (let i = 1; i < n; i++) repeats += same[i]!;
    return repeats * 4 >= n ? same : null;
  }

  #addOne(slot: number, hh: number, k: unknown, v: unknown): number {
    const g = this.#newGroup(slot, hh);
    if (this.#slotKeys !== null) this.#slotKeys[slot] = slotKey(k);
    if (typeof k === 'number' && Number.isSafeInteger(k)) {
      if (k < this.#lo) this.#lo = k;
      if (k > this.#hi) this.#hi = k;
    } else if (k === null) {
      this.#nullGroup = this.#size - 1;
    } else {
      this.#lo = NaN;
    }
    this.#norm[0]!.push(k);
    this.#keepFirst(0, g, keptValue(v, k, this.#big[0]!));
    if (this.#size * 2 > this.#slots.length) this.#grow();
    return g;
  }

  /** the hash of each row, the normalized keys left in #nk */
  #hashRows(keyCols: readonly (readonly unknown[])[], n: number, skip: Uint8Array | null = null): Int32Array {
    if (this.#h.length < n) this.#h = new Int32Array(Math.max(n, 1024));
    const h = this.#h;
    h.fill(0, 0, n);
    const hashOf = this.#hashKey;
    for (let c = 0; c < this.#oids.length; c++) {
      const col = keyCols[c]!;
      const nk = this.#nk[c]!;
      const oid = this.#oids[c]!;
      // an int8 column with exact doubles attached (exact-int64-column.ts): the keys valueKey would give, no bigint read
      const x = exactInt64Of(col, n);
      if (x !== undefined) {
        const xf = x.f, xn = x.nulls;
        for (let i = 0; i < n; i++) {
          if (skip !== null && skip[i] === 1) continue;
          const k = xn !== null && xn[i] === 1 ? null : xf[i]!;
          nk[i] = k;
          h[i] = Math.imul(h[i]!, 0x01000193) ^ hashOf(k);
        }
        continue;
      }
      for (let i = 0; i < n; i++) {
        if (skip !== null && skip[i] === 1) continue;
        const v = col[i];
        // valueKey, inlined for numbers and bigints (most keys): safe integers meet as numbers
        let k: unknown;
        if (typeof v === 'number') k = v !== v ? 'NaN' : v === 0 ? 0 : v;
        else if (typeof v === 'bigint') { const x = Number(v); k = Number.isSafeInteger(x) ? x : v; }
        else if (typeof v === 'string' && this.#memo[c] !== null) {
          const e = this.#stringKey(c, oid, v);
          nk[i] = e.k;
          h[i] = Math.imul(h[i]!, 0x01000193) ^ e.h;
          continue;
        }
        else k = objectKey(oid, v);
        nk[i] = k;
        h[i] = Math.imul(h[i]!, 0x01000193) ^ hashOf(k);
      }
    }
    return h;
  }

  /**
   * the key and hash of string `v` in key column c, remembered by the string's content: a GROUP BY of few distinct
   * strings (TPC-H q7 / q8 / q9's nation names, bpchar(25)) then costs a Map lookup per row — V8 keeps a string's
   * hash in the string — instead of trimming the blanks (a new string each) and hashing the rest, and equal keys
   * come out as the same string, which #equal compares by reference. Past MEMO_MAX distinct values the column
   * stops remembering (its values are mostly distinct: the lookups would only add to the hashing).
   */
  #stringKey(c: number, oid: number, v: string): MemoEntry {
    // called only while the column still remembers (not null): ?? makes its map on the first string
    const memo = this.#memo[c] ?? (this.#memo[c] = new Map<string, MemoEntry>());
    let e = memo.get(v);
    if (e === undefined) {
      const k = objectKey(oid, v);
      e = { k, h: this.#hashKey(k) };
      if (memo.size >= MEMO_MAX) this.#memo[c] = null;
      else memo.set(v, e);
    }
    return e;
  }

  /** after a big batch (a join's whole build side), the scratch is dropped rather than kept holding its values */
  #releaseScratch(n: number): void {
    if (n <= BIG_BATCH) return;
    for (let c = 0; c < this.#nk.length; c++) this.#nk[c] = [];
    this.#h = new Int32Array(0);
    this.#same = new Uint8Array(0);
  }

  #equal(g: number, i: number): boolean {
    for (let c = 0; c < this.#oids.length; c++) if (this.#norm[c]!.at(g) !== this.#nk[c]![i]) return false;
    return true;
  }

  #add(slot: number, hh: number, keyCols: readonly (readonly unknown[])[], i: number): number {
    const g = this.#newGroup(slot, hh);
    for (let c = 0; c < this.#oids.length; c++) {
      const k = this.#nk[c]![i];
      this.#norm[c]!.push(k);
      this.#keepFirst(c, g, keptValue(keyCols[c]![i], k, this.#big[c]!));
    }
    // at most half full: probes stay short
    if (this.#size * 2 > this.#slots.length) this.#grow();
    return g;
  }

  #newGroup(slot: number, hh: number): number {
    const g = this.#size++;
    if (g === this.#hashes.length) {
      const grown = new Int32Array(g * 2);
      grown.set(this.#hashes);
      this.#hashes = grown;
    }
    this.#hashes[g] = hh;
    this.#slots[slot] = g;
    return g;
  }

  #grow(): void {
    const cap = this.#slots.length * 2;
    const slots = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    const keys = this.#slotKeys === null ? null : new Int32Array(cap);
    const norm = this.#norm[0]!;
    for (let g = 0; g < this.#size; g++) {
      let s = this.#hashes[g]! & mask;
      while (slots[s] !== -1) s = (s + 1) & mask;
      slots[s] = g;
      if (keys !== null) keys[s] = slotKey(norm.at(g));
    }
    this.#slots = slots;
    this.#slotKeys = keys;
    this.#mask = mask;
  }
}
