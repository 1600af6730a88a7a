/** Types of typed-bounds.mjs (plain JS so the encode worker loads it without tsx). */
import type { TypedColumn } from './typed-columns.ts';

/**
 * [min, max] over the non-null values of a typed column, null when every value is NULL: numbers for int32
 * (int and date), bigints for int64, the unscaled bigint for decimals, strings for utf8
 */
export function typedBounds(col: Exclude<TypedColumn, { kind: 'values' }>): [number, number] | [bigint, bigint] | [string, string] | null;
