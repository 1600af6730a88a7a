/**
 * The shape every Arrow-buffer filter node shares (arrow-row-filter.ts and the per-type leaf files): a node
 * clears `keep[i]` (1 = the row may match) of the rows it proves cannot match, visiting only rows still kept,
 * and says how well it judged: NOTHING (it could not read this data: `keep` untouched), SOME (it kept a
 * superset of its matches: a conjunct it could not judge, say) or EXACT (it kept exactly its matches, in the
 * sense of the JS-value row test, parallel/row-filter.ts).
 */
import type { Data } from 'apache-arrow';

export const NOTHING = 0;
export const SOME = 1;
export const EXACT = 2;
export type Judged = typeof NOTHING | typeof SOME | typeof EXACT;

/** `data[c]`: the Arrow chunk of request c (undefined when not decoded); `length`: rows in the chunk */
export type ArrowNode = (data: readonly (Data | undefined)[], length: number, keep: Uint8Array) => Judged;

/** validity bitmap when the chunk has nulls, else null */
export function validity(d: Data): Uint8Array | null {
  return d.nullable && d.nullCount > 0 ? (d.nullBitmap as Uint8Array) : null;
}

export const isNullAt = (bm: Uint8Array, pos: number): boolean => (bm[pos >> 3]! & (1 << (pos & 7))) === 0;
