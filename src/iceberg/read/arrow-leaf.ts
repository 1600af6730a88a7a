/**
 * The shape every Arrow-buffer filter node shares (arrow-row-filter.ts and the per-type leaf files): a node
 * narrows a Selection — the rows still in question, as an ascending list of row indexes — to the rows it
 * cannot prove fail, visiting only those rows, and says how well it judged: NOTHING (it could not read this
 * data: the selection untouched), SOME (it kept a superset of its matches: a conjunct it could not judge, say)
 * or EXACT (it kept exactly its matches, in the sense of the JS-value row test, parallel/row-filter.ts).
 *
 * Row lists rather than a byte mask per row: after a join's runtime key filter keeps 0.3 % of a batch (TPC-H
 * q19), each later conjunct — and each arm of an OR — costs the rows left, not the batch's 8,192.
 */
import type { Data } from 'apache-arrow';

export const NOTHING = 0;
export const SOME = 1;
export const EXACT = 2;
export type Judged = typeof NOTHING | typeof SOME | typeof EXACT;

/** rows[0..n): the rows (indexes into the chunk, ascending) still in question; nodes compact it in place */
export interface Selection {
  readonly rows: Int32Array;
  n: number;
}

/** `data[c]`: the Arrow chunk of request c (undefined when not decoded); `length`: rows in the chunk */
export type ArrowNode = (data: readonly (Data | undefined)[], length: number, sel: Selection) => Judged;

/** validity bitmap when the chunk has nulls, else null */
export function validity(d: Data): Uint8Array | null {
  return d.nullable && d.nullCount > 0 ? (d.nullBitmap as Uint8Array) : null;
}

export const isNullAt = (bm: Uint8Array, pos: number): boolean => (bm[pos >> 3]! & (1 << (pos & 7))) === 0;

/** a selection of every row of `length` */
export function allRows(length: number): Selection {
  const rows = new Int32Array(length);
  for (let i = 0; i < length; i++) rows[i] = i;
  return { rows, n: length };
}
