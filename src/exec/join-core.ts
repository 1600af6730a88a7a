/**
 * The row-matching core shared by HashJoinExec and NestedLoopJoinExec: given a block of left rows and a
 * materialized right side, it forms candidate pairs (hash lookup or all), checks the residual condition over
 * the combined row (vectorized, so subqueries in ON work), and emits rows per join type.
 */
import type { Batch } from '../common/batch.ts';
import type { JoinType } from '../sql/index.ts';
import { gather } from './batch-util.ts';
import type { Compiled } from './expr/compile-expr.ts';

export interface JoinBlockResult {
  readonly out: Batch[];
}

/**
 * `candidates(i)` lists right-row indexes that may match left row i; `rightMatched` collects matched right
 * rows (RIGHT/FULL joins emit the others at the end).
 */
export async function joinBlock(
  joinType: JoinType,
  left: Batch,
  right: Batch,
  leftWidth: number,
  rightWidth: number,
  candidates: (i: number) => readonly number[],
  cond: Compiled | null,
  rightMatched: Uint8Array | null,
): Promise<Batch[]> {
  const out: Batch[] = [];
  const leftMatched = new Uint8Array(left.length);
  const CHUNK = 65536;
  let li: number[] = [];
  let ri: number[] = [];
  const flush = async (): Promise<void> => {
    if (li.length === 0) return;
    const combined: Batch = { columns: [...gather(left, li, leftWidth), ...gather(right, ri, rightWidth)], length: li.length };
    const keep: number[] = [];
    if (cond !== null) {
      if (cond.prepare) await cond.prepare(combined);
      for (let k = 0; k < combined.length; k++) if (cond.fn(combined.columns, k) === true) keep.push(k);
    } else {
      for (let k = 0; k < combined.length; k++) keep.push(k);
    }
    for (const k of keep) {
      leftMatched[li[k]!] = 1;
      if (rightMatched) rightMatched[ri[k]!] = 1;
    }
    if (joinType !== 'semi' && joinType !== 'anti' && keep.length > 0) {
      out.push({ columns: combined.columns.map((c) => keep.map((k) => c[k] ?? null)), length: keep.length });
    }
    li = [];
    ri = [];
  };
  for (let i = 0; i < left.length; i++) {
    for (const j of candidates(i)) { li.push(i); ri.push(j); }
    if (li.length >= CHUNK) await flush();
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
  const cols: unknown[][] = Array.from({ length: width }, () => []);
  let n = 0;
  for (const b of batches) {
    for (let c = 0; c < width; c++) { const src = b.columns[c]!; for (let i = 0; i < b.length; i++) cols[c]!.push(src[i] ?? null); }
    n += b.length;
  }
  return { columns: cols, length: n };
}
