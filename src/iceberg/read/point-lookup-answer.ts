/**
 * The answer of a kept point lookup, kept with it (iceberg-table-source.ts keptLookup: one `col = v` pushed to
 * one source). A source is pinned to one snapshot and data files never change, so the rows of `col = v` under one
 * projection are the same for as long as the source lives: a repeated value — a prepared lookup's parameter,
 * pgbench's 1,000 ids — is answered again without the file cache, the point index, the row-group walk or the
 * UTF-8 decoding of its values (the session-19 profile: ~15 % of a prepared lookup's server CPU in scanNow).
 * A new snapshot (another session's INSERT, a dropped and recreated table) is another source, which keeps
 * nothing of this one. Kept only for small answers of primitive values, so that the source's bound on kept
 * lookups (LOOKUP_PLANS values) bounds the memory too.
 */
import type { Batch } from '../../common/batch.ts';
import { isNullColumn } from '../../common/batch.ts';

export interface PointLookupAnswer {
  /** the ScanContext.projection it was computed for (plans keep their projection array: compared by identity) */
  readonly projection: readonly number[] | undefined;
  /** scanNow's batches (batches are immutable: common/batch.ts) */
  readonly batches: readonly Batch[];
}

/** lookups answered from a kept answer (tests: the fast path really answered) */
export const pointAnswerStats = { hits: 0 };

/** answers with more rows are not kept (a lookup on a non-unique column) */
export const ANSWER_MAX_ROWS = 16;
/** nor answers whose strings hold more characters in all (a lookup returning a document) */
export const ANSWER_MAX_CHARS = 2048;

/**
 * `batches` as a keepable answer for `projection`, or undefined when it is too big or holds an object value
 * (bytea's Uint8Array, Numeric, arrays…: only primitives are kept, which nobody can change in place).
 */
export function keepableAnswer(batches: readonly Batch[], projection: readonly number[] | undefined): PointLookupAnswer | undefined {
  let rows = 0, chars = 0;
  for (const b of batches) {
    rows += b.length;
    if (rows > ANSWER_MAX_ROWS) return undefined;
    for (const col of b.columns) {
      // the columns a projection leaves out: one shared array of NULLs per length
      if (isNullColumn(col)) continue;
      for (let r = 0; r < b.length; r++) {
        const v = col[r];
        if (typeof v === 'string') chars += v.length;
        else if (typeof v === 'object' && v !== null) return undefined;
      }
      if (chars > ANSWER_MAX_CHARS) return undefined;
    }
  }
  // a copy: the caller goes on with `batches`, the kept answer must not follow any change to that array
  return { projection, batches: batches.slice() };
}
