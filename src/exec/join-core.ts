/**
 * The row-matching core shared by HashJoinExec and NestedLoopJoinExec: given a block of left rows and a
 * materialized right side, it forms candidate pairs (hash lookup or all), checks the residual condition over
 * the combined row (vectorized, so subqueries in ON work), and emits rows per join type.
 */
import type { Batch } from '../common/batch.ts';
import type { JoinType } from '../sql/index.ts';
import { concatColumns } from '../common/batch-concat.ts';
import { IndexBuffer, nullColumns, take, takeProbe } from './join-gather.ts';
import type { JoinResidual } from './join-residual.ts';
import type { BuiltRows } from './join-chunked-rows.ts';

/**
 * Right-row candidates of a left row: a list per row, or a chained hash table (`first(i)` is the first
 * candidate or -1, `next[j]` the one after j or -1), which allocates nothing per build or probe row.
 */
export type JoinCandidates = ((i: number) => readonly number[]) | { readonly first: (i: number) => number; readonly next: Int32Array };

export interface JoinBlockResult {
  readonly out: Batch[];
}

/**
 * `candidates(i)` lists right-row indexes that may match left row i; `rightMatched` collects matched right
 * rows (RIGHT/FULL joins emit the others at the end). `'mark'` only marks the matched right rows and emits
 * nothing: a semi/anti join whose hash table holds its preserved side (HashJoinExec building on the left).
 * `right` may be a hash join's chunked build side (join-chunked-rows.ts): its rows are gathered from the chunks.
 */
export async function joinBlock(
  joinType: JoinType | 'mark',
  left: Batch,
  right: BuiltRows,
  leftWidth: number,
  rightWidth: number,
  candidates: JoinCandidates,
  cond: JoinResidual | null,
  rightMatched: Uint8Array | null,
): Promise<Batch[]> {
  const out: Batch[] = [];
  if (joinType === 'mark' && cond === null && rightMatched !== null && typeof candidates !== 'function') {
    // every candidate matches: mark the chains, no pairs to form
    const { first, next } = candidates;
    for (let i = 0; i < left.length; i++) for (let j = first(i); j >= 0 && rightMatched[j] === 0; j = next[j]!) rightMatched[j] = 1;
    return out;
  }
  const emits = joinType !== 'semi' && joinType !== 'anti' && joinType !== 'mark';
  const leftMatched = new Uint8Array(left.length);
  if ((joinType === 'semi' || joinType === 'anti') && cond === null && rightMatched === null && typeof candidates !== 'function') {
    // a semi / anti join without residual needs only whether a row's key has a chain: no pairs formed, chains not walked
    const { first } = candidates;
    for (let i = 0; i < left.length; i++) if (first(i) >= 0) leftMatched[i] = 1;
    return filteredLeft(joinType, left, leftMatched, leftWidth, out);
  }
  const CHUNK = 65536;
  // the candidate pairs, as two typed index lists: the output is gathered column by column from them
  const li = new IndexBuffer(Math.min(CHUNK, Math.max(1024, left.length)));
  const ri = new IndexBuffer(li.data.length);
  // positions of the pairs that satisfy the residual (reused across flushes)
  let keep = cond === null ? null : new Int32Array(li.data.length);
  const flush = async (): Promise<void> => {
    const n = li.length;
    if (n === 0) return;
    const lv = li.view(), rv = ri.view();
    if (cond === null) {
      // no residual: every pair matches, so gather once (semi/anti need only the match marks)
      for (let k = 0; k < n; k++) leftMatched[lv[k]!] = 1;
      if (rightMatched) for (let k = 0; k < n; k++) rightMatched[rv[k]!] = 1;
      if (emits) out.push({ columns: [...takeProbe(left, lv, n, leftWidth), ...take(right, rv, n, rightWidth, false)], length: n });
      li.clear();
      ri.clear();
      return;
    }
    if (keep!.length < n) keep = new Int32Array(n);
    const kept = await cond.select(left, right, leftWidth, rightWidth, lv, rv, n, keep!);
    for (let j = 0; j < kept; j++) {
      const k = keep![j]!;
      leftMatched[lv[k]!] = 1;
      if (rightMatched) rightMatched[rv[k]!] = 1;
    }
    if (emits && kept > 0) {
      // the matching pairs' full rows, gathered from the inputs (the residual gathered only what it reads)
      let ls = lv, rs = rv;
      if (kept < n) {
        ls = new Int32Array(kept);
        rs = new Int32Array(kept);
        for (let j = 0; j < kept; j++) { const k = keep![j]!; ls[j] = lv[k]!; rs[j] = rv[k]!; }
      }
      out.push({ columns: [...takeProbe(left, ls, kept, leftWidth), ...take(right, rs, kept, rightWidth, false)], length: kept });
    }
    li.clear();
    ri.clear();
  };
  if (typeof candidates === 'function') {
    for (let i = 0; i < left.length; i++) {
      for (const j of candidates(i)) { li.push(i); ri.push(j); }
      if (li.length >= CHUNK) await flush();
    }
  } else if (joinType === 'mark' && rightMatched !== null) {
    // a built row already marked is decided: no more pairs for it
    const { first, next } = candidates;
    const marked = rightMatched;
    for (let i = 0; i < left.length; i++) {
      for (let j = first(i); j >= 0; j = next[j]!) if (marked[j] === 0) { li.push(i); ri.push(j); }
      if (li.length >= CHUNK) await flush();
    }
  } else {
    const { first, next } = candidates;
    for (let i = 0; i < left.length; i++) {
      for (let j = first(i); j >= 0; j = next[j]!) { li.push(i); ri.push(j); }
      if (li.length >= CHUNK) await flush();
    }
  }
  await flush();
  if (joinType === 'semi' || joinType === 'anti') return filteredLeft(joinType, left, leftMatched, leftWidth, out);
  if (joinType === 'left' || joinType === 'full') {
    const idx = new IndexBuffer(1024);
    for (let i = 0; i < left.length; i++) if (leftMatched[i] === 0) idx.push(i);
    if (idx.length > 0) out.push({ columns: [...take(left, idx.view(), idx.length, leftWidth, false), ...nullColumns(rightWidth, idx.length)], length: idx.length });
  }
  return out;
}

/**
 * `out` plus the left rows a semi join keeps (matched) or an anti join keeps (unmatched); when every row is kept
 * the left batch itself goes on (no copy: batches are immutable)
 */
function filteredLeft(joinType: 'semi' | 'anti', left: Batch, leftMatched: Uint8Array, leftWidth: number, out: Batch[]): Batch[] {
  const want = joinType === 'semi' ? 1 : 0;
  const idx = new IndexBuffer(Math.min(1024, Math.max(16, left.length)));
  for (let i = 0; i < left.length; i++) if (leftMatched[i] === want) idx.push(i);
  if (idx.length === 0) return out;
  if (idx.length === left.length && left.columns.length === leftWidth) out.push(left);
  else out.push({ columns: take(left, idx.view(), idx.length, leftWidth, false), length: idx.length });
  return out;
}

/** the unmatched right rows with NULL left columns (RIGHT/FULL joins, after all left rows) */
export function unmatchedRight(right: BuiltRows, rightMatched: Uint8Array, leftWidth: number, rightWidth: number): Batch | null {
  const idx = new IndexBuffer(1024);
  for (let j = 0; j < right.length; j++) if (rightMatched[j] === 0) idx.push(j);
  if (idx.length === 0) return null;
  return { columns: [...nullColumns(leftWidth, idx.length), ...take(right, idx.view(), idx.length, rightWidth, false)], length: idx.length };
}

/** the batches as one batch of `width` columns (join build sides, window partitions): join-gather.ts */
export function concatBatches(batches: readonly Batch[], width: number): Batch {
  return concatColumns(batches, width);
}
