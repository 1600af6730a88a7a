/**
 * An int8 (bigint) column's values as exact doubles, attached by the code that made the column when it had
 * them at hand (iceberg/parallel/column-transfer.ts unpacks a scan worker's BigInt64Array): hash keys — group
 * ids (exec/group-table.ts) and join keys (exec/join-hash-table.ts) — then read one Float64Array instead of a
 * BigInt object and its Number() per row, which is what they would compute anyway (safe integers meet as
 * numbers). Contract: every entry of the column is NULL exactly where `nulls` says 1 (or none when `nulls` is
 * null), and every other entry i is the bigint BigInt(f[i]) with |f[i]| < 2^53. Batches are immutable, so an
 * attachment stays valid for the array's life; a WeakMap keeps it off the array itself (as numeric-column.ts).
 */

export interface ExactInt64Column {
  /** the values as doubles (entries of NULL rows are 0) */
  readonly f: Float64Array;
  /** 1 where the row is NULL, or null when no row is */
  readonly nulls: Uint8Array | null;
}

/** the int64 words a column was unpacked from, turned into doubles on the first exactInt64Of (null: not exact) */
interface PendingWords {
  readonly words: BigInt64Array;
  readonly n: number;
  readonly nulls: Uint8Array | null;
}

const attached = new WeakMap<readonly unknown[], ExactInt64Column | PendingWords | null>();

const TWO_32 = 4294967296;
/** the words of an int64 are read low first: little-endian platforms only (others attach nothing) */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** the high word of every int64 below 2^53 in magnitude lies in [-2^21, 2^21) */
const HI_LIMIT = 2 ** 21;

/**
 * The doubles of int64 values `v` (rows 0 … n-1), or null when one of them (outside `nulls`) is 2^53 or more in
 * magnitude. Read as two int32 words: no BigInt is made.
 */
export function exactDoublesOf(v: BigInt64Array, n: number, nulls: Uint8Array | null): Float64Array | null {
  if (!LITTLE_ENDIAN) return null;
  const w = new Int32Array(v.buffer, v.byteOffset, 2 * n);
  const f = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const hi = w[2 * i + 1]!;
    if (hi >= HI_LIMIT || hi < -HI_LIMIT) {
      if (nulls !== null && nulls[i] === 1) continue;
      return null;
    }
    // -2^53 itself (hi = -2^21, lo = 0) is the one value in that range that is not a safe integer
    const x = hi * TWO_32 + (w[2 * i]! >>> 0);
    if (x === -9007199254740992 && (nulls === null || nulls[i] !== 1)) return null;
    f[i] = x;
  }
  if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[i] === 1) f[i] = 0;
  return f;
}

export function attachExactInt64(column: readonly unknown[], f: Float64Array, nulls: Uint8Array | null): void {
  attached.set(column, { f, nulls });
}

/**
 * Keeps the int64 words `column` was unpacked from; their doubles are computed only when a hash key asks
 * (exactInt64Of), so columns that never become keys pay nothing but the reference.
 */
export function attachInt64Words(column: readonly unknown[], words: BigInt64Array, n: number, nulls: Uint8Array | null): void {
  if (LITTLE_ENDIAN) attached.set(column, { words, n, nulls });
}

/** the doubles attached to `column` when they cover at least `n` rows, else undefined */
export function exactInt64Of(column: readonly unknown[], n: number): ExactInt64Column | undefined {
  let a = attached.get(column);
  if (a === undefined || a === null) return undefined;
  if ('words' in a) {
    const f = exactDoublesOf(a.words, a.n, a.nulls);
    a = f === null ? null : { f, nulls: a.nulls };
    attached.set(column, a);
    if (a === null) return undefined;
  }
  return a.f.length >= n ? a : undefined;
}

/**
 * Attaches to `column` — pieces[0..] glued end to end, `n` rows — the pieces' int64 words or doubles, when every
 * non-empty piece has them (common/batch-concat.ts: a join's build side keeps its int8 keys as doubles); words
 * stay words (doubles on first use) when every piece still has its words. Returns whether it attached.
 */
export function attachConcatInt64(column: readonly unknown[], pieces: readonly { readonly column: readonly unknown[]; readonly length: number }[], n: number): boolean {
  if (!LITTLE_ENDIAN) return false;
  let words = true, any = false;
  for (const p of pieces) {
    if (p.length === 0) continue;
    const a = attached.get(p.column);
    if (a === undefined || a === null) return false;
    if (!('words' in a)) words = false;
    any = true;
  }
  if (!any) return false;
  let nulls: Uint8Array | null = null;
  const withNulls = (): Uint8Array => (nulls ??= new Uint8Array(n));
  if (words) {
    const out = new BigInt64Array(n);
    let at = 0;
    for (const p of pieces) {
      if (p.length === 0) continue;
      const a = attached.get(p.column) as PendingWords;
      out.set(a.words.length === p.length ? a.words : a.words.subarray(0, p.length), at);
      if (a.nulls !== null) withNulls().set(a.nulls.subarray(0, p.length), at);
      at += p.length;
    }
    attached.set(column, { words: out, n, nulls });
    return true;
  }
  const f = new Float64Array(n);
  let at = 0;
  for (const p of pieces) {
    if (p.length === 0) continue;
    const x = exactInt64Of(p.column, p.length);
    if (x === undefined) return false;
    f.set(x.f.length === p.length ? x.f : x.f.subarray(0, p.length), at);
    if (x.nulls !== null) withNulls().set(x.nulls.subarray(0, p.length), at);
    at += p.length;
  }
  attached.set(column, { f, nulls });
  return true;
}

/**
 * What a key-only int8 column holds for each non-NULL value: a column unpacked for a consumer that reads it only
 * as a hash key through exactInt64Of (exec/partial/lazy-scan-rows.ts: a serial GROUP BY's single int8 key), so no
 * BigInt is made per row. Any property read (String(), arithmetic's valueOf) is an internal error rather than a
 * wrong value; the group table keeps no first value of such a column (its keys are BigInt(key), made when read).
 */
export const KEY_ONLY_INT64: object = new Proxy(Object.freeze({}), {
  get(): never { throw new Error('internal error: a key-only int8 column was read as values'); },
});

/**
 * A column of `n` rows holding KEY_ONLY_INT64 (NULL where `nulls` says 1) with `f` attached as its exact doubles
 * (the contract above, with the placeholder standing for BigInt(f[i])).
 */
export function keyOnlyInt64Column(f: Float64Array, n: number, nulls: Uint8Array | null): unknown[] {
  const out = new Array<unknown>(n).fill(KEY_ONLY_INT64);
  if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[i] === 1) out[i] = null;
  attached.set(out, { f: f.length === n ? f : f.subarray(0, n), nulls });
  return out;
}

/**
 * Attaches to `column` — rows `idx[0 … n-1]` of `from` (-1: a NULL row), as a join's output gathers them
 * (exec/join-gather.ts) — `from`'s int64 words or doubles at those rows, so an int8 column keeps them through a
 * join: the next join's build key (TPC-H Q3's o_orderkey out of customer ⋈ orders) and a GROUP BY above it then
 * hash numbers, not a BigInt per row. Words stay words (two int32 halves copied, no BigInt made). Nothing is
 * attached when `from` has nothing attached, was found not exact, or an index lies past what its attachment covers.
 */
export function attachTakenInt64(column: readonly unknown[], from: readonly unknown[], idx: ArrayLike<number>, n: number): void {
  const a = attached.get(from);
  if (a === undefined || a === null) return;
  const covered = 'words' in a ? a.n : a.f.length;
  const src = a.nulls;
  let nulls: Uint8Array | null = null;
  if ('words' in a) {
    const w = new Int32Array(a.words.buffer, a.words.byteOffset, 2 * a.n);
    const out = new Int32Array(2 * n);
    for (let k = 0; k < n; k++) {
      const r = idx[k]!;
      if (r < 0 || (src !== null && src[r] === 1)) { (nulls ??= new Uint8Array(n))[k] = 1; continue; }
      if (r >= covered) return;
      out[2 * k] = w[2 * r]!;
      out[2 * k + 1] = w[2 * r + 1]!;
    }
    attached.set(column, { words: new BigInt64Array(out.buffer), n, nulls });
    return;
  }
  const f = new Float64Array(n);
  const af = a.f;
  for (let k = 0; k < n; k++) {
    const r = idx[k]!;
    if (r < 0 || (src !== null && src[r] === 1)) { (nulls ??= new Uint8Array(n))[k] = 1; continue; }
    if (r >= covered) return;
    f[k] = af[r]!;
  }
  attached.set(column, { f, nulls });
}
