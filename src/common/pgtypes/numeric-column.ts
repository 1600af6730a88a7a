/**
 * A numeric column's values as exact scaled doubles, attached by the code that made the column when it had
 * them at hand (the Parquet decimal decoder computes each unscaled value as a double before it builds the
 * Numeric): the vector kernels (exec/expr/vector-numeric.ts) then read the doubles instead of converting
 * every Numeric's bigint back. Contract: for every non-NULL entry i, column[i] is the finite
 * Numeric.of(f[i], scale) with |f[i]| ≤ 2^53; entries of NULL rows are unspecified. Batches are immutable,
 * so an attachment stays valid for the array's life; a WeakMap keeps it off the array itself.
 */
export interface ScaledColumn {
  readonly f: Float64Array;
  readonly scale: number;
}

const attached = new WeakMap<readonly unknown[], ScaledColumn>();

export function attachScaled(column: readonly unknown[], f: Float64Array, scale: number): void {
  attached.set(column, { f, scale });
}

export function scaledColumnOf(column: readonly unknown[]): ScaledColumn | undefined {
  return attached.get(column);
}
