/**
 * Column-at-a-time assembly of join output: `take` picks rows of a batch by index into new columns (the build
 * side's batches are glued by common/batch-concat.ts). It is where a join spends its copying, so it skips what
 * needs no copy:
 *  - a shared all-NULL column (common/batch.ts nullColumn: the columns a scan does not read, which stay in
 *    the plan's layout) becomes another shared null column — never copied row by row;
 *  - a numeric column's exact doubles (pgtypes/numeric-column.ts) follow the rows they belong to, so the
 *    vector kernels above a join (revenue = price × (1 − discount), sums) keep their double-backed path
 *    instead of converting every Numeric's bigint again;
 *  - so do an int8 column's int64 words or exact doubles (pgtypes/exact-int64-column.ts): a join or GROUP BY
 *    above hashes the numbers instead of a BigInt per row, and a build key may stay key-only (join-key-only.ts);
 *  - a sparse lazy decimal column (no element, doubles only: a scan worker's, or numeric-column.ts
 *    selfMaterializingNumerics) stays one, its doubles gathered: no Numeric per row where only kernels read it.
 */
import { isNullColumn, nullColumn, type Batch } from '../common/batch.ts';
import { attachScaledLike, isSparseNumerics, scaledColumnOf, sparseNumericsLike } from '../common/pgtypes/numeric-column.ts';
import { attachTakenInt64 } from '../common/pgtypes/exact-int64-column.ts';
import { isChunked, locateRows, takeChunkedColumn, type BuiltRows, type ChunkedRows } from './join-chunked-rows.ts';

/** growable row-index list (the pairs a join forms): an Int32Array, doubled when full */
export class IndexBuffer {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) { this.data = new Int32Array(capacity); }
  push(i: number): void {
    if (this.length === this.data.length) {
      const d = new Int32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = i;
  }
  clear(): void { this.length = 0; }
  /** the indexes so far (a view: valid until the next push or clear) */
  view(): Int32Array { return this.data.subarray(0, this.length); }
}

/** the rows `idx` (first `n`; -1 gives NULL) of one column */
export function takeColumn(src: readonly unknown[] | undefined, idx: ArrayLike<number>, n: number, mayHaveMinusOne = true): readonly unknown[] {
  if (src === undefined || isNullColumn(src)) return nullColumn(n);
  const sparse = takeSparseNumerics(src, idx, n);
  if (sparse !== null) return sparse;
  const col = new Array<unknown>(n);
  if (mayHaveMinusOne) {
    for (let k = 0; k < n; k++) { const r = idx[k]!; col[k] = r < 0 ? null : src[r] ?? null; }
  } else {
    for (let k = 0; k < n; k++) col[k] = src[idx[k]!] ?? null;
  }
  const att = scaledColumnOf(src);
  if (att !== undefined) {
    const f = new Float64Array(n);
    const af = att.f;
    for (let k = 0; k < n; k++) { const r = idx[k]!; f[k] = r < 0 ? 0 : af[r]!; }
    attachScaledLike(col, f, att);
  } else {
    attachTakenInt64(col, src, idx, n);
  }
  return col;
}

/**
 * A sparse lazy decimal column (pgtypes/numeric-column.ts: no element, its values in the attached doubles) at rows
 * `idx` as another of its kind — its doubles gathered, no Numeric made (TPC-H q9: l_extendedprice and ps_supplycost
 * through three joins to the kernels of `amount`); null when some row is -1 (an outer join's NULL: the plain copy)
 */
function takeSparseNumerics(src: readonly unknown[], idx: ArrayLike<number>, n: number): readonly unknown[] | null {
  if (!isSparseNumerics(src)) return null;
  const att = scaledColumnOf(src);
  if (att === undefined) return null;
  const f = new Float64Array(n);
  if (!gatherDoubles(f, att.f, idx, n)) return null;
  return sparseNumericsLike(src, f, att.scale, n);
}

/** f[k] = from[idx[k]] for k < n; false at the first idx[k] < 0 (a loop of its own: see TEAM-NOTES on OSR) */
function gatherDoubles(f: Float64Array, from: Float64Array, idx: ArrayLike<number>, n: number): boolean {
  for (let k = 0; k < n; k++) {
    const r = idx[k]!;
    if (r < 0) return false;
    f[k] = from[r]!;
  }
  return true;
}

/**
 * the first `width` columns of `batch` at rows `idx` (first `n` of them; -1 gives a row of NULLs); a column
 * array shared by several columns is taken once. A chunked build side (join-chunked-rows.ts) is gathered from
 * its chunks.
 */
export function take(batch: BuiltRows, idx: ArrayLike<number>, n: number, width = isChunked(batch) ? batch.chunks[0]?.columns.length ?? 0 : batch.columns.length, mayHaveMinusOne = true): (readonly unknown[])[] {
  if (isChunked(batch)) return takeChunked(batch, idx, n, width);
  const out = new Array<readonly unknown[]>(width);
  let done: Map<readonly unknown[], readonly unknown[]> | null = null;
  for (let c = 0; c < width; c++) {
    const src = batch.columns[c];
    if (src === undefined || isNullColumn(src)) { out[c] = nullColumn(n); continue; }
    let col = done?.get(src);
    if (col === undefined) {
      col = takeColumn(src, idx, n, mayHaveMinusOne);
      (done ??= new Map()).set(src, col);
    }
    out[c] = col;
  }
  return out;
}

/**
 * take() of a probe batch (a plain batch, never chunked) at the rows a join pairs: when the pairs hold every row of
 * `batch` once and in order — a foreign key probing its primary key's table after a runtime key filter cut the probe
 * scan to the built keys (TPC-H q3's lineitem, q7's, q10's), so every row meets one built row — the batch's own column
 * arrays go on, no copy (batches are immutable; their attached doubles and lazy numerics stay with them)
 */
export function takeProbe(batch: Batch, idx: Int32Array, n: number, width: number): (readonly unknown[])[] {
  if (n !== batch.length || !isIdentity(idx, n)) return take(batch, idx, n, width, false);
  const out = new Array<readonly unknown[]>(width);
  for (let c = 0; c < width; c++) out[c] = batch.columns[c] ?? nullColumn(n);
  return out;
}

/** idx[k] === k for every k < n (a loop of its own: see TEAM-NOTES on OSR) */
function isIdentity(idx: Int32Array, n: number): boolean {
  for (let k = 0; k < n; k++) if (idx[k] !== k) return false;
  return true;
}

/** column `c` of `rows` at rows `idx` (first `n`; -1 gives NULL) */
export function takeColumnOf(rows: BuiltRows, c: number, idx: ArrayLike<number>, n: number, mayHaveMinusOne = true): readonly unknown[] {
  if (!isChunked(rows)) return takeColumn(rows.columns[c], idx, n, mayHaveMinusOne);
  const { chunk, local } = located(rows, idx, n);
  return takeChunkedColumn(rows, c, chunk, local, n);
}

function takeChunked(rows: ChunkedRows, idx: ArrayLike<number>, n: number, width: number): (readonly unknown[])[] {
  const out = new Array<readonly unknown[]>(width);
  // the rows are located once for all columns
  const { chunk, local } = located(rows, idx, n);
  for (let c = 0; c < width; c++) out[c] = takeChunkedColumn(rows, c, chunk, local, n);
  return out;
}

function located(rows: ChunkedRows, idx: ArrayLike<number>, n: number): { chunk: Int32Array; local: Int32Array } {
  const chunk = new Int32Array(n), local = new Int32Array(n);
  locateRows(rows, idx, n, chunk, local);
  return { chunk, local };
}

/** `width` columns of `n` NULLs (the missing side of an outer join's unmatched rows) */
export function nullColumns(width: number, n: number): (readonly unknown[])[] {
  const col = nullColumn(n);
  return new Array<readonly unknown[]>(width).fill(col);
}
