/**
 * A numeric column's values as exact scaled doubles, attached by the code that made the column when it had
 * them at hand (the Parquet decimal decoder computes each unscaled value as a double before it builds the
 * Numeric): the vector kernels (exec/expr/vector-numeric.ts) then read the doubles instead of converting
 * every Numeric's bigint back. Contract: for every non-NULL entry i, column[i] is the finite
 * Numeric.of(f[i], scale) with |f[i]| ≤ 2^53; entries of NULL rows are unspecified. Batches are immutable,
 * so an attachment stays valid for the array's life; a WeakMap keeps it off the array itself.
 *
 * A lazy column (attachLazyScaled) holds LAZY_NUMERIC instead of each non-NULL Numeric: a scan worker whose
 * partial aggregate reads the column only through the vector kernels never needs the objects (exec/partial/
 * run-fragment.ts decides). Whoever wants values calls materializeNumerics first (vector-numeric.ts'
 * scaledToValues and the row-closure fallbacks do); the placeholder throws on any property read, so a
 * consumer that forgot fails loudly instead of computing with it. NULL tests (`=== null`) see it as non-NULL.
 *
 * A lazy column without NULLs is sparse (sparseLazyNumerics): an array of the batch's length with no element
 * at all, so no placeholder array is made or copied per batch (TPC-H q1: 46 of its scan workers' ~75 MB per
 * pass, GROUPS session 22). Its prototype throws on any read of an index, so a consumer that forgot to
 * materialize fails with an internal error — a hole must never read as undefined (a NULL to `== null` tests);
 * its one element, the last row's, is LAZY_NUMERIC.
 * Code that gathers rows of a column (Filters) copies elements: it must be given a dense column (denseLazyNumerics)
 * or the Numerics (exec/partial/run-fragment.ts decides); a join's gather (exec/join-gather.ts) keeps it sparse.
 * A self-materializing column (selfMaterializingNumerics) is sparse too, but any read of a row makes its Numerics.
 */
import { Numeric } from './numeric.ts';
import { fillingHoleProto, holeProto, oneSlotArray } from '../one-slot-array.ts';

export interface ScaledColumn {
  readonly f: Float64Array;
  readonly scale: number;
  /** the column holds LAZY_NUMERIC where its Numerics would be (until materializeNumerics) */
  readonly lazy?: boolean;
  /** no entry is NULL (its maker knew: a chunk without a validity bitmap), so readers need not look */
  readonly noNulls?: boolean;
}

const attached = new WeakMap<readonly unknown[], ScaledColumn>();

export function attachScaled(column: readonly unknown[], f: Float64Array, scale: number): void {
  // a sparse column has no element yet: it stays lazy (its values are made from `f` when read)
  attached.set(column, isSparseNumerics(column) ? { f, scale, lazy: true, noNulls: true } : { f, scale });
}

export function scaledColumnOf(column: readonly unknown[]): ScaledColumn | undefined {
  return attached.get(column);
}

const lazyRead = (): Error => new Error('internal error: a lazy numeric column was read before materializeNumerics');

/** the placeholder of a lazy column's non-NULL entries: any property read is an internal error */
export const LAZY_NUMERIC: object = new Proxy(Object.freeze({}), {
  get(): never { throw lazyRead(); },
});

/** the prototype of a sparse lazy column: reading or testing a hole (a row whose Numeric was never made) throws */
const SPARSE_PROTO: object = holeProto(() => {
  throw lazyRead();
});

/**
 * a lazy column of `n` rows, none NULL, holding one element: its last row's LAZY_NUMERIC (common/one-slot-array.ts);
 * the caller attaches its doubles (attachLazyScaled / attachLazyScaledOnDemand with noNulls)
 */
export function sparseLazyNumerics(n: number): unknown[] {
  return oneSlotArray(n, LAZY_NUMERIC, SPARSE_PROTO);
}

/**
 * the prototype of a self-materializing sparse column (selfMaterializingNumerics): reading a hole makes every row's
 * Numeric first, so any reader sees values
 */
const SELF_PROTO: object = fillingHoleProto((column) => materializeNumerics(column));

/**
 * A column of `n` decimals without NULLs, given as exact scaled doubles (`f`, |f[i]| ≤ 2^53), whose Numerics are made
 * on the first read of a row — by any reader, so it may go where a plain column goes on the main thread (join
 * output: exec/join-gather.ts; scan batches: iceberg/parallel/column-transfer.ts; computed numerics: exec/operators/
 * projection-exec.ts), while the vector kernels above read only `f` (TPC-H q9: 327k l_extendedprice, ps_supplycost
 * and amount Numerics per run never made). A sparse lazy column (isSparseNumerics), its last row's element its real
 * Numeric. Not for structured clone: a copy keeps holes, not values (pack it first: column-transfer.ts).
 */
export function selfMaterializingNumerics(f: Float64Array, scale: number, n: number): unknown[] {
  const out = oneSlotArray(n, n > 0 ? numericOfDouble(f[n - 1]!, scale) : null, SELF_PROTO);
  attached.set(out, { f: f.length === n ? f : f.subarray(0, n), scale, lazy: true, noNulls: true });
  return out;
}

/** whether `column` is a self-materializing column (selfMaterializingNumerics) not read yet */
export function isSelfMaterializing(column: readonly unknown[]): boolean {
  return Object.getPrototypeOf(column) === SELF_PROTO;
}

/** whether `column` is a sparse lazy column (no element until materializeNumerics; either kind) */
export function isSparseNumerics(column: readonly unknown[]): boolean {
  const p: unknown = Object.getPrototypeOf(column);
  return p === SPARSE_PROTO || p === SELF_PROTO;
}

/**
 * a sparse lazy column of `n` rows of the same kind as the sparse `like` (throwing or self-materializing), with the
 * doubles `f` at `scale` attached: the rows a join or concatenation took from such columns
 */
export function sparseNumericsLike(like: readonly unknown[], f: Float64Array, scale: number, n: number): unknown[] {
  if (isSelfMaterializing(like)) return selfMaterializingNumerics(f, scale, n);
  const out = sparseLazyNumerics(n);
  attachLazyScaled(out, f, scale, true);
  return out;
}

/**
 * a sparse lazy column as a dense one (LAZY_NUMERIC per row, the same attachment), for code that copies its
 * elements (a Filter's row pick); any other column as it is
 */
export function denseLazyNumerics(column: readonly unknown[]): readonly unknown[] {
  const att = attached.get(column);
  if (att === undefined || !isSparseNumerics(column)) return column;
  const out = new Array<unknown>(column.length).fill(LAZY_NUMERIC);
  attached.set(out, att);
  return out;
}

/** attaches `f` to a column whose non-NULL entries are LAZY_NUMERIC (or already their Numerics) */
export function attachLazyScaled(column: readonly unknown[], f: Float64Array, scale: number, noNulls = false): void {
  attached.set(column, noNulls ? { f, scale, lazy: true, noNulls } : { f, scale, lazy: true });
}

/**
 * attachLazyScaled with the doubles made by `make` on first read of `f` (a dictionary-coded chunk's rows are
 * gathered only if a kernel wants them: iceberg/read/arrow-fast-columns.ts, exec/expr/coded-product-sums.ts)
 */
export function attachLazyScaledOnDemand(column: readonly unknown[], make: () => Float64Array, scale: number, noNulls: boolean): void {
  let f: Float64Array | null = null;
  attached.set(column, { get f(): Float64Array { return (f ??= make()); }, scale, lazy: true, noNulls });
}

/** attaches to `column` the doubles `f` of rows taken from `from` (lazy when `from` was) */
export function attachScaledLike(column: readonly unknown[], f: Float64Array, from: ScaledColumn): void {
  attached.set(column, from.lazy === true ? { f, scale: from.scale, lazy: true } : { f, scale: from.scale });
}

/** whether `column` still holds LAZY_NUMERIC placeholders */
export function isLazyNumeric(column: readonly unknown[]): boolean {
  return attached.get(column)?.lazy === true;
}

/** replaces a lazy column's placeholders by their Numerics, in place (a no-op for any other column) */
export function materializeNumerics(column: readonly unknown[]): void {
  const att = attached.get(column);
  if (att === undefined) return;
  const out = column as unknown[], { f, scale } = att;
  if (isSparseNumerics(out)) {
    // no NULL, no element yet: every row's Numeric. Emptied first, so the rows are appended to a fast array
    // (written into the dictionary-mode array they cost ~140 ns each, against ~15)
    const n = out.length;
    Object.setPrototypeOf(out, Array.prototype);
    out.length = 0;
    fillNumerics(out, f, scale, n);
    attached.set(column, { f, scale, noNulls: true });
    return;
  }
  if (att.lazy !== true) return;
  for (let i = 0; i < out.length; i++) if (out[i] === LAZY_NUMERIC) out[i] = Numeric.of(BigInt(f[i]!), scale);
  attached.set(column, { f, scale });
}

/** out[i] = the Numeric of f[i] for rows 0 … n-1 (a loop of its own: see TEAM-NOTES on OSR) */
function fillNumerics(out: unknown[], f: Float64Array, scale: number, n: number): void {
  for (let i = 0; i < n; i++) out[i] = numericOfDouble(f[i]!, scale);
}

/**
 * Shared Numerics for small unscaled values, per scale (Numeric is immutable): quantities and discounts repeat a few
 * hundred values, so a materialized column of them makes no object per row — as the scan's transfer made them
 * (iceberg/read/arrow-fast-columns.ts numericOfUnscaledNumber) before its columns became self-materializing
 */
const SMALL = 8192;
const smallByScale: (Numeric | undefined)[][] = [];

function numericOfDouble(u: number, scale: number): Numeric {
  if (u < -SMALL || u >= SMALL) return Numeric.of(BigInt(u), scale);
  const cache = (smallByScale[scale] ??= new Array<Numeric | undefined>(2 * SMALL));
  return (cache[u + SMALL] ??= Numeric.of(BigInt(u), scale));
}

/** materializeNumerics for every column of a batch */
export function materializeAllNumerics(columns: readonly (readonly unknown[] | undefined)[]): void {
  for (const c of columns) if (c !== undefined && attached.get(c)?.lazy === true) materializeNumerics(c);
}
