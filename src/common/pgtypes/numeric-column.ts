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
 */
import { Numeric } from './numeric.ts';

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
  attached.set(column, { f, scale });
}

export function scaledColumnOf(column: readonly unknown[]): ScaledColumn | undefined {
  return attached.get(column);
}

/** the placeholder of a lazy column's non-NULL entries: any property read is an internal error */
export const LAZY_NUMERIC: object = new Proxy(Object.freeze({}), {
  get(): never { throw new Error('internal error: a lazy numeric column was read before materializeNumerics'); },
});

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
  if (att === undefined || att.lazy !== true) return;
  const out = column as unknown[], { f, scale } = att;
  for (let i = 0; i < out.length; i++) if (out[i] === LAZY_NUMERIC) out[i] = Numeric.of(BigInt(f[i]!), scale);
  attached.set(column, { f, scale });
}

/** materializeNumerics for every column of a batch */
export function materializeAllNumerics(columns: readonly (readonly unknown[] | undefined)[]): void {
  for (const c of columns) if (c !== undefined && attached.get(c)?.lazy === true) materializeNumerics(c);
}
