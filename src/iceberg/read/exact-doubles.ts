/**
 * Unscaled decimal values as exact doubles, kept beside an Arrow Decimal128 chunk by the decoder that made it
 * (js-row-group-decode.ts reads them from INT64 pages anyway), so the conversion to JS values
 * (arrow-fast-columns.ts) copies one Float64Array instead of reading four 32-bit words per value. Only chunks
 * whose every value is below 2^53 in magnitude get one; NULL rows hold 0.
 */
import type { Data } from 'apache-arrow';

const doubles = new WeakMap<Data, Float64Array>();

export function setExactDoubles(d: Data, f: Float64Array): void {
  doubles.set(d, f);
}

/** the chunk's unscaled values as doubles (read-only: shared), if its decoder kept them */
export function exactDoublesOf(d: Data): Float64Array | undefined {
  return doubles.get(d);
}
