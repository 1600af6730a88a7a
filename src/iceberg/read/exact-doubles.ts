/**
 * Unscaled decimal values as exact doubles, kept beside an Arrow Decimal128 chunk by the decoder that made it
 * (js-row-group-decode.ts reads them from INT64 pages anyway), so the conversion to JS values
 * (arrow-fast-columns.ts) copies one Float64Array instead of reading four 32-bit words per value. Only chunks
 * whose every value is below 2^53 in magnitude get one; NULL rows hold 0.
 */
import type { Data } from 'apache-arrow';

/** doubles made on first whole read; before that a pick of rows reads them one at a time */
export interface LazyExactDoubles {
  readonly all: () => Float64Array;
  readonly at: (i: number) => number;
}

const doubles = new WeakMap<Data, Float64Array | LazyExactDoubles>();

/** `f`, or doubles made when read (a dictionary-coded chunk gathers its rows' doubles only if asked) */
export function setExactDoubles(d: Data, f: Float64Array | LazyExactDoubles): void {
  doubles.set(d, f);
}

/** whether the chunk's decoder kept its doubles (made or not yet) */
export function hasExactDoubles(d: Data): boolean {
  return doubles.has(d);
}

/** the chunk's unscaled values as doubles (read-only: shared), if its decoder kept them */
export function exactDoublesOf(d: Data): Float64Array | undefined {
  const f = doubles.get(d);
  if (f === undefined || f instanceof Float64Array) return f;
  const made = f.all();
  doubles.set(d, made);
  return made;
}

/** the doubles of rows `rows` of the chunk (a fresh array, `rows.length` long), if its decoder kept them */
export function exactDoublesAtRows(d: Data, rows: readonly number[]): Float64Array | undefined {
  const f = doubles.get(d);
  if (f === undefined) return undefined;
  const out = new Float64Array(rows.length);
  if (f instanceof Float64Array) for (let k = 0; k < rows.length; k++) out[k] = f[rows[k]!]!;
  else for (let k = 0; k < rows.length; k++) out[k] = f.at(rows[k]!);
  return out;
}
