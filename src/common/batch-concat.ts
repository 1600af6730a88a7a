/**
 * Batches glued end to end, column by column: a join's build side (exec/join-core.ts) and a scan worker's small
 * batches before they are packed for the main thread (iceberg/parallel/scan-worker.ts). Exact doubles attached to
 * decimal columns (pgtypes/numeric-column.ts) survive when every piece has them at one scale, so the receiver's
 * kernels need no Numeric → scaled conversion; so do int8 columns' exact doubles (pgtypes/exact-int64-column.ts),
 * so a build side's int8 keys hash as numbers, not a BigInt read per row.
 */
import { isNullColumn, nullColumn, type Batch } from './batch.ts';
import { attachScaledLike, isSelfMaterializing, isSparseNumerics, LAZY_NUMERIC, materializeNumerics, scaledColumnOf, sparseNumericsLike } from './pgtypes/numeric-column.ts';
import { attachConcatInt64, exactInt64Of, KEY_ONLY_INT64 } from './pgtypes/exact-int64-column.ts';

/** one column of the batches, end to end (shared null columns stay one shared null column) */
function concatColumn(batches: readonly Batch[], c: number, n: number): readonly unknown[] {
  let allNull = true;
  let scale = -2, lazy = false;
  for (const b of batches) {
    const src = b.columns[c];
    if (src !== undefined && !isNullColumn(src)) allNull = false;
    if (b.length === 0) continue;
    const att = src === undefined ? undefined : scaledColumnOf(src);
    if (att?.lazy === true) lazy = true;
    if (att === undefined) scale = -1;
    else if (scale === -2) scale = att.scale;
    else if (scale !== att.scale) scale = -1;
  }
  if (allNull) return nullColumn(n);
  // lazy numerics (a scan worker's) glued to columns without doubles: their Numerics first
  if (lazy && scale < 0) for (const b of batches) if (b.columns[c] !== undefined) materializeNumerics(b.columns[c]!);
  // sparse lazy columns (numeric-column.ts: no element to copy, none NULL) glue to a sparse one
  const sparse = lazy && scale >= 0 && batches.every((b) => b.length === 0 || isSparseNumerics(b.columns[c]!));
  // glued to placeholders, a self-materializing piece (numeric-column.ts) would hand on ones that throw: its values
  if (!sparse) for (const b of batches) if (b.columns[c] !== undefined && isSelfMaterializing(b.columns[c]!)) materializeNumerics(b.columns[c]!);
  const dst = sparse ? [] : new Array<unknown>(n);
  let at = 0;
  for (const b of batches) {
    const src = b.columns[c];
    const len = b.length;
    if (sparse) { /* no element */ } else if (src === undefined) { for (let i = 0; i < len; i++) dst[at + i] = null; }
    else if (isSparseNumerics(src)) { for (let i = 0; i < len; i++) dst[at + i] = LAZY_NUMERIC; }
    else for (let i = 0; i < len; i++) dst[at + i] = src[i] ?? null;
    at += len;
  }
  if (scale >= 0) {
    const f = new Float64Array(n);
    at = 0;
    for (const b of batches) {
      if (b.length === 0) continue;
      const att = scaledColumnOf(b.columns[c]!)!;
      f.set(att.f.length === b.length ? att.f : att.f.subarray(0, b.length), at);
      at += b.length;
    }
    // sparse pieces glue to a sparse column of their kind (a self-materializing one if any piece is)
    if (sparse) return sparseNumericsLike(batches.find((b) => b.length > 0 && isSelfMaterializing(b.columns[c]!))?.columns[c] ?? batches.find((b) => b.length > 0)!.columns[c]!, f, scale, n);
    attachScaledLike(dst, f, { f, scale, lazy });
  } else if (!lazy) {
    // int8 columns from the scan workers keep their exact doubles (or words): the build side's keys hash as numbers
    const attached = attachConcatInt64(dst, batches.map((b) => ({ column: b.columns[c] ?? [], length: b.length })), n);
    if (!attached) keyOnlyAsValues(dst, batches, c);
  }
  return dst;
}

/** whether `col` is key-only (exact-int64-column.ts: a placeholder in every non-NULL row, so its first value tells) */
function isKeyOnlyColumn(col: readonly unknown[], n: number): boolean {
  for (let i = 0; i < n; i++) if (col[i] !== null) return col[i] === KEY_ONLY_INT64;
  return false;
}

/**
 * The glued column `dst` could not keep exact doubles (some piece had none: a scan worker's chunk with a key of
 * 2^53 or more converted as bigints): the placeholders copied from key-only pieces become their bigints.
 */
function keyOnlyAsValues(dst: unknown[], batches: readonly Batch[], c: number): void {
  let at = 0;
  for (const b of batches) {
    const src = b.columns[c];
    if (src !== undefined && isKeyOnlyColumn(src, b.length)) {
      const f = exactInt64Of(src, b.length)!.f;
      for (let i = 0; i < b.length; i++) if (src[i] !== null) dst[at + i] = BigInt(f[i]!);
    }
    at += b.length;
  }
}

/** the batches as one batch of `width` columns */
export function concatColumns(batches: readonly Batch[], width: number): Batch {
  if (batches.length === 1 && batches[0]!.columns.length === width) return batches[0]!;
  let n = 0;
  for (const b of batches) n += b.length;
  const cols = new Array<readonly unknown[]>(width);
  for (let c = 0; c < width; c++) cols[c] = concatColumn(batches, c, n);
  return { columns: cols, length: n };
}
