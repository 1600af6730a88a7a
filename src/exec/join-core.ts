/**
 * The row-matching core shared by HashJoinExec and NestedLoopJoinExec: given a block of left rows and a
 * materialized right side, it forms candidate pairs (hash lookup or all), checks the residual condition over
 * the combined row (vectorized, so subqueries in ON work), and emits rows per join type.
 */
import type { Batch } from '../common/batch.ts';
import type { JoinType } from '../sql/index.ts';
import { gather } from './batch-util.ts';
import type { Compiled } from './expr/compile-expr.ts';

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
 */
export async function joinBlock(
  joinType: JoinType | 'mark',
  left: Batch,
  right: Batch,
  leftWidth: number,
  rightWidth: number,
  candidates: JoinCandidates,
  cond: Compiled | null,
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
  const CHUNK = 65536;
  let li: number[] = [];
  let ri: number[] = [];
  const flush = async (): Promise<void> => {
    if (li.length === 0) return;
    if (cond === null) {
      // no residual: every pair matches, so gather once (semi/anti need only the match marks)
      for (let k = 0; k < li.length; k++) leftMatched[li[k]!] = 1;
      if (rightMatched) for (let k = 0; k < ri.length; k++) rightMatched[ri[k]!] = 1;
      if (emits) {
        out.push({ columns: [...gather(left, li, leftWidth), ...gather(right, ri, rightWidth)], length: li.length });
      }
      li = [];
      ri = [];
      return;
    }
    const combined: Batch = { columns: [...gather(left, li, leftWidth), ...gather(right, ri, rightWidth)], length: li.length };
    const keep: number[] = [];
    if (cond.prepare) await cond.prepare(combined);
    for (let k = 0; k < combined.length; k++) if (cond.fn(combined.columns, k) === true) keep.push(k);
    for (const k of keep) {
      leftMatched[li[k]!] = 1;
      if (rightMatched) rightMatched[ri[k]!] = 1;
    }
    if (emits && keep.length > 0) {
      const all = keep.length === combined.length;
      out.push(all ? combined : { columns: combined.columns.map((c) => keep.map((k) => c[k] ?? null)), length: keep.length });
    }
    li = [];
    ri = [];
  };
  if (typeof candidates === 'function') {
    for (let i = 0; i < left.length; i++) {
      for (const j of candidates(i)) { li.push(i); ri.push(j); }
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
  if (joinType === 'left' || joinType === 'full' || joinType === 'anti' || joinType === 'semi') {
    const want = joinType === 'semi' ? 1 : 0;
    const idx: number[] = [];
    for (let i = 0; i < left.length; i++) if (leftMatched[i] === want) idx.push(i);
    if (idx.length > 0) {
      const lcols = gather(left, idx, leftWidth);
      const rcols = joinType === 'semi' || joinType === 'anti' ? [] : Array.from({ length: rightWidth }, () => new Array<unknown>(idx.length).fill(null));
      out.push({ columns: [...lcols, ...rcols], length: idx.length });
    }
  }
  return out;
}

/** the unmatched right rows with NULL left columns (RIGHT/FULL joins, after all left rows) */
export function unmatchedRight(right: Batch, rightMatched: Uint8Array, leftWidth: number, rightWidth: number): Batch | null {
  const idx: number[] = [];
  for (let j = 0; j < right.length; j++) if (rightMatched[j] === 0) idx.push(j);
  if (idx.length === 0) return null;
  const lcols = Array.from({ length: leftWidth }, () => new Array<unknown>(idx.length).fill(null));
  return { columns: [...lcols, ...gather(right, idx, rightWidth)], length: idx.length };
}

export function concatBatches(batches: readonly Batch[], width: number): Batch {
  if (batches.length === 1 && batches[0]!.columns.length === width) return batches[0]!;
  let n = 0;
  for (const b of batches) n += b.length;
  // column by column, pushing (Array.prototype.concat measured slower here: Q18 5.4 s → 8.9 s)
  const cols: unknown[][] = Array.from({ length: width }, () => []);
  for (let c = 0; c < width; c++) {
    const dst = cols[c]!;
    for (const b of batches) {
      const src = b.columns[c]!;
      for (let i = 0; i < b.length; i++) dst.push(src[i] ?? null);
    }
  }
  return { columns: cols, length: n };
}
