/**
 * The hash table of HashJoinExec over one materialized input: a chain per distinct key (`first` row, then
 * `next[j]`), built backwards so candidates come in ascending row order.
 *
 * One integer key (int2/int4/int8/date — TPC-H's every join), or two small ones packed into one number, is read
 * into a typed array and indexed by the number itself: dense keys (a range at most 4× the rows) by key − min in
 * one Int32Array, others in an open-addressing table of typed arrays — no valueKey() call and no Map entry per
 * row, which were most of a join's time in the profiles (Map.get with boxed keys). Integers beyond ±2^53 (int8 only), or any other key
 * (text, numeric, a date with another key, three or more columns) number their distinct keys in a GroupTable —
 * typed hashing of the valueKey-normalized columns, no key string per row — probed a batch at a time.
 * The built rows may be the batches as they arrived (join-chunked-rows.ts): rows are numbered across them.
 */
import { Oid } from '../common/pgtypes/oids.ts';
import type { Batch } from '../common/batch.ts';
import { GroupTable } from './group-table.ts';
import type { Cols, RowFn } from './expr/compile-expr.ts';
import { exactInt64Of, type ExactInt64Column } from '../common/pgtypes/exact-int64-column.ts';
import { chunksOf, type BuiltRows } from './join-chunked-rows.ts';
import { giveBack, takeFloat64, takeInt32 } from './expr/spare-arrays.ts';

const INT_KEYS = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.date]);
/** two integer keys in [-2^25, 2^25) pack into one integer below 2^52, exact in a double (TPC-H's (partkey, suppkey)) */
const PAIR_HALF = 2 ** 25;

export interface JoinHashTable {
  readonly rows: BuiltRows;
  /** next[j]: the following row with row j's key, or -1 */
  readonly next: Int32Array;
  /** distinct non-NULL keys */
  readonly size: number;
  /**
   * the first row of every key, as a typed array: a generator made per table was a new map per query (a generator
   * function's objects take its own prototype), so the code looping over it was thrown away with each table
   */
  heads(): Int32Array;
  /**
   * the distinct keys as numbers, in heads() order, when the table holds one integer key column as numbers
   * (a runtime key filter's list without reading a row: hash-join-exec.ts), else null
   */
  keyNumbers(): Float64Array | null;
  /** byte estimate of the index (for the memory budget) */
  readonly bytes: number;
  /** first(cols, i): the first built row whose key equals the probe row's key (`fns` over the probe batch), or -1 */
  prober(fns: readonly RowFn[]): (cols: Cols, i: number) => number;
  /**
   * the same for rows 0 … n-1 of a probe batch at once (the returned array is reused by the next call);
   * `keyColumns[k]`: the probe batch's column that key k reads as is, or -1 (then an int8 column's attached
   * exact doubles are read instead of its bigints, exact-int64-column.ts)
   */
  batchProber(fns: readonly RowFn[], keyColumns?: readonly number[]): BatchProber;
  /**
   * hands the table's big typed arrays back for reuse (expr/spare-arrays.ts): the join is over and nothing may read
   * the table afterwards. A fresh array of megabytes is zeroed by the kernel page by page on first touch — TPC-H
   * Q9's direct table over SF 1's 1.5M order keys (heads 24 MB, next 6 MB) cost ~15 ms of main-thread CPU per run
   * in page faults; a reused one costs a memset.
   */
  release(): void;
}

/** first[i] for every row of a probe batch */
export type BatchProber = (cols: Cols, n: number) => Int32Array;

/** the key as a JS number when it is a safe integer, else undefined (NULL: null) */
function intKey(v: unknown): number | null | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  // a bigint beyond ±(2^53 − 1) converts to a number at least 2^53 in magnitude: never a safe integer
  if (typeof v === 'bigint') { const x = Number(v); return Number.isSafeInteger(x) ? x : undefined; }
  return undefined;
}

/** the number for a row's key: NULL → null, not representable → undefined (then nothing can be equal to it) */
type IntKeyFn = (cols: Cols, i: number) => number | null | undefined;

function intKeyFn(fns: readonly RowFn[]): IntKeyFn {
  const f = fns[0]!;
  if (fns.length === 1) return (cols, i) => intKey(f(cols, i));
  const g = fns[1]!;
  return (cols, i) => {
    const a = intKey(f(cols, i));
    if (a === null) return null;
    const b = intKey(g(cols, i));
    if (b === null) return null;
    if (a === undefined || b === undefined || a < -PAIR_HALF || a >= PAIR_HALF || b < -PAIR_HALF || b >= PAIR_HALF) return undefined;
    return (a + PAIR_HALF) * (2 * PAIR_HALF) + (b + PAIR_HALF);
  };
}

function slotOf(k: number, mask: number): number {
  const lo = k | 0;
  const hi = (k / 4294967296) | 0;
  // murmur3's fmix32: every key bit reaches the low bits the mask keeps (TPC-H order keys use 8 of every 32)
  let h = lo ^ Math.imul(hi, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & mask;
}

interface KeyScan {
  /** false: a key is not representable as a number */
  readonly ok: boolean;
  /** every non-NULL key is a 32-bit integer */
  readonly int32: boolean;
  /** the smallest and largest non-NULL key (min > max: none) */
  readonly min: number;
  readonly max: number;
}

/**
 * the keys of rows 0 … n-1 (`keyOf`) into `out`, NaN for a NULL key; a key not representable as a number stops
 * the scan (`'stop'`: the build falls back) or reads as NaN (`'nan'`: a probe key that matches nothing)
 */
function keysInto(keyOf: IntKeyFn, cols: Cols, n: number, out: Float64Array, onUnrepresentable: 'stop' | 'nan'): KeyScan {
  let int32 = true, min = Infinity, max = -Infinity;
  for (let i = 0; i < n; i++) {
    const k = keyOf(cols, i);
    if (k === null) { out[i] = NaN; continue; }
    if (k === undefined) {
      if (onUnrepresentable === 'stop') return { ok: false, int32, min, max };
      out[i] = NaN;
      continue;
    }
    out[i] = k;
    if ((k | 0) !== k) int32 = false;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return { ok: true, int32, min, max };
}

/** keysInto from an int8 column's exact doubles: NaN for a NULL key */
function exactKeysInto(f: Float64Array, nulls: Uint8Array | null, n: number, out: Float64Array): void {
  out.set(f.subarray(0, n));
  if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[i] === 1) out[i] = NaN;
}

/** keysInto from an int8 column's exact doubles (every one a safe integer): NaN for a NULL key, with the keys' range */
function exactKeyScan(f: Float64Array, nulls: Uint8Array | null, n: number, out: Float64Array): KeyScan {
  exactKeysInto(f, nulls, n, out);
  return rangeOf(out);
}

/**
 * intKeyFn's packed pairs from two int8 columns' exact doubles: NaN where either is NULL or outside the packable
 * range (a probe key that matches nothing, keysInto's 'nan')
 */
function exactPairsInto(a: ExactInt64Column, b: ExactInt64Column, n: number, out: Float64Array): void {
  const af = a.f, bf = b.f, an = a.nulls, bn = b.nulls;
  for (let i = 0; i < n; i++) {
    const x = af[i]!, y = bf[i]!;
    if ((an !== null && an[i] === 1) || (bn !== null && bn[i] === 1) || x < -PAIR_HALF || x >= PAIR_HALF || y < -PAIR_HALF || y >= PAIR_HALF) out[i] = NaN;
    else out[i] = (x + PAIR_HALF) * (2 * PAIR_HALF) + (y + PAIR_HALF);
  }
}

/** the range of keys already read (NaN: NULL) */
function rangeOf(keys: Float64Array): KeyScan {
  let int32 = true, min = Infinity, max = -Infinity;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k !== k) continue;
    if ((k | 0) !== k) int32 = false;
    if (k < min) min = k;
    if (k > max) max = k;
  }
  return { ok: true, int32, min, max };
}

/** found[i] = the first built row with key keys[i] (NaN: none), or -1, for i < n: a table kind's own loop (findAll) */
type FindAll = (keys: Float64Array, n: number, found: Int32Array) => void;

/**
 * the JoinHashTable over `find` (a key → its first row, or -1) and `findAll` (the same over a batch's keys in a loop of
 * the table kind's own, so the per-row lookup is inlined, not a call of one of several closures); `keyNumbers` null:
 * the keys are packed pairs
 */
function intTable(rows: BuiltRows, next: Int32Array, size: number, bytes: number, heads: () => Int32Array, find: (k: number) => number, findAll: FindAll, keyNumbers: (() => Float64Array) | null, index: Int32Array | Float64Array): JoinHashTable {
  let released = false;
  return {
    rows, next, size, bytes, heads,
    release() {
      // once: an array handed back twice would be handed out to two owners
      if (released) return;
      released = true;
      giveBack(index);
      giveBack(next);
    },
    keyNumbers: () => (keyNumbers === null ? null : keyNumbers()),
    batchProber(pfns, keyColumns) {
      const probeKey = intKeyFn(pfns);
      let found = new Int32Array(0);
      let pk = new Float64Array(0);
      const kc = (pfns.length === 1 || pfns.length === 2) && keyColumns !== undefined ? keyColumns[0]! : -1;
      const kc2 = pfns.length === 2 && keyColumns !== undefined ? keyColumns[1]! : -1;
      return (cols, n) => {
        if (found.length < n) { found = new Int32Array(Math.max(n, 1024)); pk = new Float64Array(found.length); }
        const x = kc >= 0 ? exactInt64Of(cols[kc]!, n) : undefined;
        // two int8 probe columns' exact doubles (TPC-H Q9's l_partkey, l_suppkey): packed without a bigint read per row
        const y = x !== undefined && kc2 >= 0 ? exactInt64Of(cols[kc2]!, n) : undefined;
        // an int8 probe column's exact doubles without NULLs are the keys themselves: no copy
        let keys: Float64Array = pk;
        if (pfns.length === 2) {
          if (x !== undefined && y !== undefined) exactPairsInto(x, y, n, pk);
          else keysInto(probeKey, cols, n, pk, 'nan');
        } else if (x !== undefined && x.nulls === null) keys = x.f;
        else if (x !== undefined) exactKeysInto(x.f, x.nulls, n, pk);
        else keysInto(probeKey, cols, n, pk, 'nan');
        findAll(keys, n, found);
        return found;
      };
    },
    prober(pfns) {
      const probeKey = intKeyFn(pfns);
      return (cols, i) => {
        const k = probeKey(cols, i);
        return k === null || k === undefined ? -1 : find(k);
      };
    },
  };
}

/** a key range at most this many times the build rows (plus DIRECT_SLACK) is indexed directly by key − min */
const DIRECT_DENSITY = 4;
const DIRECT_SLACK = 1024;

/**
 * Integer keys, read into a typed array first. Dense keys — a range of at most DIRECT_DENSITY × the rows, as
 * TPC-H's order keys (a quarter of their range) and its part, supplier, customer and nation keys (all of it) —
 * index one Int32Array by key − min: no hash, no key compare, no bigger than a hash table, and a probe stream
 * sorted by key (lineitem by l_orderkey) reads it in order instead of one cache miss per row. Other keys go
 * into an open-addressing table (hashedTable).
 */
function buildIntTable(rows: BuiltRows, fns: readonly RowFn[], keyColumn: number): JoinHashTable | null {
  const n = rows.length;
  const { chunks, starts } = chunksOf(rows);
  // per chunk its keys, NaN for NULL: an int8 chunk's attached exact doubles as they are when it has no NULL
  // (no copy of the build side's keys: Q9's 300,000 orders keys), else read into a typed array
  const pieces = new Array<Float64Array>(chunks.length);
  const keyOf = intKeyFn(fns);
  let int32 = true, min = Infinity, max = -Infinity;
  for (let b = 0; b < chunks.length; b++) {
    const chunk = chunks[b]!, len = chunk.length;
    // an int8 key column with exact doubles attached (a scan worker's column): no bigint read per row
    const x = keyColumn >= 0 ? exactInt64Of(chunk.columns[keyColumn]!, len) : undefined;
    let piece: Float64Array, scan: KeyScan;
    if (x !== undefined && x.nulls === null) {
      piece = x.f.length === len ? x.f : x.f.subarray(0, len);
      scan = rangeOf(piece);
    } else {
      piece = new Float64Array(len);
      scan = x !== undefined ? exactKeyScan(x.f, x.nulls, len, piece) : keysInto(keyOf, chunk.columns, len, piece, 'stop');
    }
    if (!scan.ok) return null;
    pieces[b] = piece;
    if (!scan.int32) int32 = false;
    if (scan.min < min) min = scan.min;
    if (scan.max > max) max = scan.max;
  }
  const single = fns.length === 1;
  if (min <= max && max - min < DIRECT_DENSITY * n + DIRECT_SLACK) return directTable(rows, pieces, starts, min, max - min, single);
  return hashedTable(rows, pieces, starts, int32, single);
}

/** heads[k − min] = the first row with key k, plus one (0: none); keys in [min, min + span] */
function directTable(rows: BuiltRows, pieces: readonly Float64Array[], starts: Int32Array, min: number, span: number, single: boolean): JoinHashTable {
  const n = rows.length;
  const heads = takeInt32(span + 1, 0);
  const next = takeInt32(n, -1);
  let size = 0;
  // backwards, so chains list rows in ascending order
  for (let b = pieces.length - 1; b >= 0; b--) size += insertDirect(pieces[b]!, starts[b]!, min, heads, next);
  // probe keys are integers (or the table could not hold them): outside [min, min + span] nothing matches
  const find = (k: number): number => {
    const d = k - min;
    return d >= 0 && d <= span ? heads[d]! - 1 : -1;
  };
  const firstRows = (): Int32Array => firstRowsOf(heads, 0, 1, size);
  const keyNumbers = (): Float64Array => {
    const out = new Float64Array(size);
    let m = 0;
    for (let d = 0; d <= span; d++) if (heads[d] !== 0) out[m++] = min + d;
    return out;
  };
  const findAll = (keys: Float64Array, m: number, found: Int32Array): void => findAllDirect(heads, min, span, keys, m, found);
  return intTable(rows, next, size, heads.length * 4 + n * 4, firstRows, find, findAll, single ? keyNumbers : null, heads);
}

/** the first rows of an index's `size` keys: every `step`-th entry from `from` that is not 0, minus one */
function firstRowsOf(index: Int32Array | Float64Array, from: number, step: number, size: number): Int32Array {
  const out = new Int32Array(size);
  let m = 0;
  for (let s = from; s < index.length; s += step) if (index[s] !== 0) out[m++] = index[s]! - 1;
  return out;
}

/** findAll of a direct table: d = k − min within [0, span] reads heads[d] (NaN and keys outside: -1) */
function findAllDirect(heads: Int32Array, min: number, span: number, keys: Float64Array, n: number, found: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const d = keys[i]! - min;
    found[i] = d >= 0 && d <= span ? heads[d]! - 1 : -1;
  }
}

/** the keys of one piece (rows at + 0 …) into a direct table, last row first; returns how many keys were new */
function insertDirect(keys: Float64Array, at: number, min: number, heads: Int32Array, next: Int32Array): number {
  let added = 0;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    if (k !== k) continue;
    const d = k - min;
    const h = heads[d]!;
    if (h === 0) added++;
    else next[at + i] = h - 1;
    heads[d] = at + i + 1;
  }
  return added;
}

/**
 * the keys of one piece into a hashed table's slots (hashedTable), last row first; returns how many were new. One
 * function per slot array type (insertHashed32 / insertHashed64, the same text): one shared by both met both and was
 * deoptimized ("wrong map") whenever the other came
 */
function insertHashed32(keys: Float64Array, at: number, tab: Int32Array, mask: number, next: Int32Array): number {
  const wrap = 2 * mask + 1;
  let added = 0;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    if (k !== k) continue;
    const j = at + i;
    for (let s = slotOf(k, mask) << 1; ; s = (s + 2) & wrap) {
      const h = tab[s + 1]!;
      if (h === 0) { tab[s] = k; tab[s + 1] = j + 1; added++; break; }
      if (tab[s] === k) { next[j] = h - 1; tab[s + 1] = j + 1; break; }
    }
  }
  return added;
}

function insertHashed64(keys: Float64Array, at: number, tab: Float64Array, mask: number, next: Int32Array): number {
  const wrap = 2 * mask + 1;
  let added = 0;
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    if (k !== k) continue;
    const j = at + i;
    for (let s = slotOf(k, mask) << 1; ; s = (s + 2) & wrap) {
      const h = tab[s + 1]!;
      if (h === 0) { tab[s] = k; tab[s + 1] = j + 1; added++; break; }
      if (tab[s] === k) { next[j] = h - 1; tab[s + 1] = j + 1; break; }
    }
  }
  return added;
}

/** the first row + 1 of key k in an Int32Array slot table (0: none); k a 32-bit integer */
function slotHead32(tab: Int32Array, mask: number, k: number): number {
  const wrap = 2 * mask + 1;
  for (let s = slotOf(k, mask) << 1; ; s = (s + 2) & wrap) {
    const h = tab[s + 1]!;
    if (h === 0 || tab[s] === k) return h;
  }
}

/** the same in a Float64Array slot table (k not NaN) */
function slotHead64(tab: Float64Array, mask: number, k: number): number {
  const wrap = 2 * mask + 1;
  for (let s = slotOf(k, mask) << 1; ; s = (s + 2) & wrap) {
    const h = tab[s + 1]!;
    if (h === 0 || tab[s] === k) return h;
  }
}

/** findAll of an Int32Array slot table: a key that is not a 32-bit integer (NaN included) has no match */
function findAllHashed32(tab: Int32Array, mask: number, keys: Float64Array, n: number, found: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    found[i] = (k | 0) !== k ? -1 : slotHead32(tab, mask, k) - 1;
  }
}

/** findAll of a Float64Array slot table (NaN: no match) */
function findAllHashed64(tab: Float64Array, mask: number, keys: Float64Array, n: number, found: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    found[i] = k !== k ? -1 : slotHead64(tab, mask, k) - 1;
  }
}

/**
 * open addressing with linear probing over one typed array of [key, first row + 1] pairs (0: an empty slot),
 * so a probe of a big build side touches one cache line per slot, not a key array and a head array; an
 * Int32Array when every key is a 32-bit integer (half the bytes of Float64 pairs: half the cache misses of a
 * table larger than the caches), else a Float64Array
 */
function hashedTable(rows: BuiltRows, pieces: readonly Float64Array[], starts: Int32Array, int32: boolean, single: boolean): JoinHashTable {
  const n = rows.length;
  let cap = 16;
  while (cap < n * 2) cap *= 2;
  const mask = cap - 1;
  const tab32 = int32 ? takeInt32(2 * cap, 0) : null;
  const tab64 = int32 ? null : takeFloat64(2 * cap);
  const tab: Int32Array | Float64Array = tab32 ?? tab64!;
  const next = takeInt32(n, -1);
  let size = 0;
  for (let b = pieces.length - 1; b >= 0; b--) {
    size += tab32 !== null ? insertHashed32(pieces[b]!, starts[b]!, tab32, mask, next) : insertHashed64(pieces[b]!, starts[b]!, tab64!, mask, next);
  }
  // an Int32Array table holds only 32-bit keys: any other probe key has no match
  const find = tab32 !== null
    ? (k: number): number => ((k | 0) !== k ? -1 : slotHead32(tab32, mask, k) - 1)
    : (k: number): number => (k !== k ? -1 : slotHead64(tab64!, mask, k) - 1);
  const findAll: FindAll = tab32 !== null
    ? (keys, m, found) => findAllHashed32(tab32, mask, keys, m, found)
    : (keys, m, found) => findAllHashed64(tab64!, mask, keys, m, found);
  const firstRows = (): Int32Array => firstRowsOf(tab, 1, 2, size);
  const keyNumbers = (): Float64Array => {
    const out = new Float64Array(size);
    let m = 0;
    for (let s = 1; s < tab.length; s += 2) if (tab[s] !== 0) out[m++] = tab[s - 1]!;
    return out;
  };
  return intTable(rows, next, size, cap * (int32 ? 8 : 16) + n * 4, firstRows, find, findAll, single ? keyNumbers : null, tab);
}

/**
 * any other key (text, numeric, dates with other columns, more than two columns, int8 beyond 2^53): distinct
 * keys numbered by a GroupTable (typed hashing of valueKey-normalized columns, group-table.ts), a chain head per
 * key id; rows with a NULL in the key are not entered (NULL never equals anything)
 */
function buildKeyTable(rows: BuiltRows, fns: readonly RowFn[], oids: readonly number[]): JoinHashTable {
  const n = rows.length;
  const { chunks, starts } = chunksOf(rows);
  const keyCols = fns.map((f) => {
    const a = new Array<unknown>(n);
    for (let b = 0; b < chunks.length; b++) {
      const cols = chunks[b]!.columns, len = chunks[b]!.length, at = starts[b]!;
      for (let i = 0; i < len; i++) a[at + i] = f(cols, i);
    }
    return a;
  });
  // the rows whose key has no NULL (all of them, usually: then no copy)
  let keep: Int32Array | null = null;
  let m = n;
  if (keyCols.some((c) => c.some((v) => v === null || v === undefined))) {
    keep = new Int32Array(n);
    m = 0;
    for (let i = 0; i < n; i++) if (keyCols.every((c) => c[i] !== null && c[i] !== undefined)) keep[m++] = i;
  }
  const kept = keep === null ? keyCols : keyCols.map((c) => Array.from(keep!.subarray(0, m), (i) => c[i]));
  const table = new GroupTable(oids, { capacity: Math.max(16, m * 2) });
  const ids = new Int32Array(m);
  table.assign(kept, m, ids);
  const head = new Int32Array(table.size).fill(-1);
  const next = new Int32Array(n).fill(-1);
  // backwards, so chains list rows in ascending order
  for (let q = m - 1; q >= 0; q--) {
    const j = keep === null ? q : keep[q]!;
    const g = ids[q]!;
    next[j] = head[g]!;
    head[g] = j;
  }
  const probeBatch = (pfns: readonly RowFn[]): BatchProber => {
    const cols: unknown[][] = pfns.map(() => []);
    let found = new Int32Array(0);
    return (pcols, pn) => {
      if (found.length < pn) found = new Int32Array(Math.max(pn, 1024));
      for (let c = 0; c < pfns.length; c++) {
        const f = pfns[c]!;
        const a = cols[c]!;
        for (let i = 0; i < pn; i++) a[i] = f(pcols, i);
      }
      table.lookup(cols, pn, found);
      for (let i = 0; i < pn; i++) { const g = found[i]!; found[i] = g < 0 ? -1 : head[g]!; }
      return found;
    };
  };
  return {
    rows, next, size: table.size,
    // the index, the chain array, and per distinct key its normalized and first values per column
    bytes: table.indexBytes + head.length * 4 + n * 4 + table.size * 16 * oids.length,
    heads: () => head,
    keyNumbers: () => null,
    // the GroupTable's arrays are its own (a GroupTable is released only by its aggregates' owners)
    release() { /* nothing kept for reuse */ },
    prober(pfns) {
      const batchOf = probeBatch(pfns);
      return (cols, i) => batchOf(cols.map((c) => [c[i]]), 1)[0]!;
    },
    batchProber: probeBatch,
  };
}

/**
 * `fns` compute the build key over `rows`; `oids` are the key types (the probe side's are the same or, for
 * integers, another integer type). `keyColumns[k]`: the column of `rows` key k reads as is, or -1 (computed),
 * as batchProber's — one int8 key column's attached exact doubles are then read instead of its bigints.
 */
export function buildJoinHashTable(rows: BuiltRows, fns: readonly RowFn[], oids: readonly number[], probeOids: readonly number[], keyColumns?: readonly number[]): JoinHashTable {
  const ints = (fns.length === 1 || fns.length === 2) && oids.every((o, k) => INT_KEYS.has(o) && INT_KEYS.has(probeOids[k]!) && (o === Oid.date) === (probeOids[k] === Oid.date));
  if (ints) {
    const t = buildIntTable(rows, fns, fns.length === 1 && keyColumns !== undefined ? keyColumns[0]! : -1);
    if (t !== null) return t;
  }
  return buildKeyTable(rows, fns, oids);
}
