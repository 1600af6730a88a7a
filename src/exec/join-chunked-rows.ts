/**
 * A hash join's built rows kept as the batches they arrived in (issue #4, TPC-H Q9: 300,000 orders rows built to
 * be probed by 65,000): row r of the whole is row r − starts[b] of chunk b. Gluing the batches first
 * (common/batch-concat.ts) copied every built row of every live column into new arrays of the build's size — a
 * third of Q9's main-thread join work, most of it the garbage collector moving those arrays — while a join reads
 * only the rows it emits: the hash table numbers the rows across the chunks (join-hash-table.ts) and
 * `takeChunkedColumn` gathers the emitted ones straight from the chunks, with their exact doubles
 * (pgtypes/numeric-column.ts, pgtypes/exact-int64-column.ts) as join-gather.ts' takeColumn keeps them.
 */
import { isNullColumn, nullColumn, type Batch } from '../common/batch.ts';
import { attachScaledLike, isSelfMaterializing, isSparseNumerics, materializeNumerics, scaledColumnOf, sparseNumericsLike, type ScaledColumn } from '../common/pgtypes/numeric-column.ts';
import { attachExactInt64, exactInt64Of } from '../common/pgtypes/exact-int64-column.ts';

export interface ChunkedRows {
  /** the batches, none empty */
  readonly chunks: readonly Batch[];
  /** starts[b]: the first row of chunk b; starts[chunks.length] = length */
  readonly starts: Int32Array;
  readonly length: number;
}

/** a join's built rows: one batch, or several read as one (chunked) */
export type BuiltRows = Batch | ChunkedRows;

export function isChunked(rows: BuiltRows): rows is ChunkedRows {
  return 'chunks' in rows;
}

/** the non-empty batches as one run of rows */
export function chunkedRows(batches: readonly Batch[]): ChunkedRows {
  const chunks = batches.filter((b) => b.length > 0);
  const starts = new Int32Array(chunks.length + 1);
  for (let b = 0; b < chunks.length; b++) starts[b + 1] = starts[b]! + chunks[b]!.length;
  return { chunks, starts, length: starts[chunks.length]! };
}

/** the same rows with every chunk mapped by `f` (same length: columns made NULL, say) */
export function mapChunks(rows: ChunkedRows, f: (b: Batch) => Batch): ChunkedRows {
  return { chunks: rows.chunks.map(f), starts: rows.starts, length: rows.length };
}

/** the rows as chunks: a plain batch is one chunk (empty: none) */
export function chunksOf(rows: BuiltRows): ChunkedRows {
  return isChunked(rows) ? rows : chunkedRows([rows]);
}

/** the chunk holding row r (0 ≤ r < length) */
export function chunkAt(starts: Int32Array, r: number): number {
  let lo = 0, hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= r) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * the chunk and the row within it of each of the first `n` indexes (-1 stays -1 in both); consecutive indexes
 * in one chunk — a key's chain, a sorted build side's neighbours — skip the search
 */
export function locateRows(rows: ChunkedRows, idx: ArrayLike<number>, n: number, chunk: Int32Array, local: Int32Array): void {
  const { starts } = rows;
  const d = rows.chunks.length >= MIN_DIRECTORY_CHUNKS ? directoryOf(starts) : null;
  if (d !== null) { locateByDirectory(starts, d, idx, n, chunk, local); return; }
  let c = 0, lo = starts[0]!, hi = starts[1] ?? 0;
  for (let k = 0; k < n; k++) {
    const r = idx[k]!;
    if (r < 0) { chunk[k] = -1; local[k] = -1; continue; }
    if (r < lo || r >= hi) { c = chunkAt(starts, r); lo = starts[c]!; hi = starts[c + 1]!; }
    chunk[k] = c;
    local[k] = r - lo;
  }
}

/**
 * The chunks by block of rows: dir[b] is the chunk holding row b << shift. Blocks are no longer than the shortest
 * chunk (the last one aside), so a block meets at most two chunks and a row is located by one read and at most one
 * step instead of a binary search — the rows a join emits come in the probe side's order, which need not be the
 * build side's (TPC-H Q9 at SF 1: 327k rows located among 171 orders batches, orders arriving by month and their
 * keys not). Kept per `starts` (mapChunks' copies share it).
 */
interface ChunkDirectory {
  readonly dir: Int32Array;
  readonly shift: number;
}

/** fewer chunks are searched in a few steps anyway */
const MIN_DIRECTORY_CHUNKS = 16;
/** a directory of more blocks (chunks of a few rows) is not made: the binary search stays */
const MAX_DIRECTORY_BLOCKS = 1 << 20;

const directories = new WeakMap<Int32Array, ChunkDirectory | null>();

function directoryOf(starts: Int32Array): ChunkDirectory | null {
  const memo = directories.get(starts);
  if (memo !== undefined) return memo;
  const chunks = starts.length - 1, n = starts[chunks]!;
  let shortest = Infinity;
  for (let b = 0; b + 1 < chunks; b++) shortest = Math.min(shortest, starts[b + 1]! - starts[b]!);
  // the biggest power of two no longer than the shortest chunk
  let shift = 0;
  while (shift < 30 && 2 ** (shift + 1) <= shortest) shift++;
  const blocks = (n >> shift) + 1;
  let d: ChunkDirectory | null = null;
  if (shortest >= 1 && blocks <= MAX_DIRECTORY_BLOCKS) {
    const dir = new Int32Array(blocks);
    for (let b = 0, c = 0; b < blocks; b++) {
      const r = b << shift;
      while (c + 1 < chunks && starts[c + 1]! <= r) c++;
      dir[b] = c;
    }
    d = { dir, shift };
  }
  directories.set(starts, d);
  return d;
}

/** locateRows through the directory (a loop of its own: see TEAM-NOTES on OSR) */
function locateByDirectory(starts: Int32Array, d: ChunkDirectory, idx: ArrayLike<number>, n: number, chunk: Int32Array, local: Int32Array): void {
  const { dir, shift } = d;
  for (let k = 0; k < n; k++) {
    const r = idx[k]!;
    if (r < 0) { chunk[k] = -1; local[k] = -1; continue; }
    let c = dir[r >> shift]!;
    if (r >= starts[c + 1]!) c++;
    chunk[k] = c;
    local[k] = r - starts[c]!;
  }
}

/** what takeChunkedColumn needs of one column across the chunks, found once per column (not per gather) */
interface ChunkColumn {
  readonly srcs: readonly (readonly unknown[] | undefined)[];
  /** every chunk's column is a shared NULL column (or missing) */
  readonly allNull: boolean;
  /** the numeric doubles of every chunk at one scale, or null */
  readonly scaled: { readonly fs: readonly Float64Array[]; readonly scale: number; readonly lazy: boolean } | null;
  /** every chunk's column is a sparse lazy decimal column (numeric-column.ts): one of them, the kind to make; else null */
  readonly sparseLike: readonly unknown[] | null;
  /** whether the column may carry int8 exact doubles (no numeric attachment, nothing lazy) */
  readonly int64: boolean;
  /** the chunks' int8 exact doubles and NULL masks (undefined: not looked up yet; null: some chunk has none) */
  exact?: { readonly fs: readonly Float64Array[]; readonly nulls: readonly (Uint8Array | null)[] } | null;
}

const columnsOf = new WeakMap<ChunkedRows, (ChunkColumn | undefined)[]>();

function chunkColumn(rows: ChunkedRows, c: number): ChunkColumn {
  let memo = columnsOf.get(rows);
  if (memo === undefined) columnsOf.set(rows, (memo = []));
  let info = memo[c];
  if (info !== undefined) return info;
  const { chunks } = rows;
  const srcs = chunks.map((b) => b.columns[c]);
  const allNull = srcs.every((src) => src === undefined || isNullColumn(src));
  let scale = -2, lazy = false;
  const atts = srcs.map((src): ScaledColumn | undefined => (src === undefined ? undefined : scaledColumnOf(src)));
  for (const att of atts) {
    if (att?.lazy === true) lazy = true;
    if (att === undefined) scale = -1;
    else if (scale === -2) scale = att.scale;
    else if (scale !== att.scale) scale = -1;
  }
  // lazy numerics beside other scales or plain values: their Numerics first (as batch-concat.ts glues them)
  if (!allNull && lazy && scale < 0) for (const src of srcs) if (src !== undefined) materializeNumerics(src);
  const scaled = !allNull && scale >= 0 ? { fs: atts.map((a) => a!.f), scale, lazy } : null;
  info = { srcs, allNull, scaled, sparseLike: scaled !== null ? sparseLikeOf(srcs) : null, int64: !allNull && scale < 0 && !lazy };
  memo[c] = info;
  return info;
}

/** the chunks' columns when all are sparse lazy decimals: a self-materializing one if any (its readers may read) */
function sparseLikeOf(srcs: readonly (readonly unknown[] | undefined)[]): readonly unknown[] | null {
  let like: readonly unknown[] | null = null;
  for (const src of srcs) {
    if (src === undefined || !isSparseNumerics(src)) return null;
    if (like === null || isSelfMaterializing(src)) like = src;
  }
  return like;
}

/**
 * column `c` at the located rows (chunk[k], local[k]; -1: NULL), with the chunks' exact doubles when every chunk
 * has them (numeric: one scale; lazy numerics beside other scales are materialized first, as batch-concat.ts does)
 */
export function takeChunkedColumn(rows: ChunkedRows, c: number, chunk: Int32Array, local: Int32Array, n: number): readonly unknown[] {
  const info = chunkColumn(rows, c);
  if (info.allNull) return nullColumn(n);
  const { srcs, scaled } = info;
  if (scaled !== null && info.sparseLike !== null) {
    // sparse lazy decimals stay so: their doubles gathered, no Numeric made (join-gather.ts takeSparseNumerics)
    const f = new Float64Array(n);
    if (gatherChunkedDoubles(f, scaled.fs, chunk, local, n)) return sparseNumericsLike(info.sparseLike, f, scaled.scale, n);
  }
  const col = new Array<unknown>(n);
  for (let k = 0; k < n; k++) {
    const b = chunk[k]!;
    col[k] = b < 0 ? null : srcs[b]?.[local[k]!] ?? null;
  }
  if (scaled !== null) {
    const f = new Float64Array(n);
    const fs = scaled.fs;
    for (let k = 0; k < n; k++) { const b = chunk[k]!; f[k] = b < 0 ? 0 : fs[b]![local[k]!]!; }
    const { scale, lazy } = scaled;
    attachScaledLike(col, f, lazy ? { f, scale, lazy } : { f, scale });
  } else if (info.int64) {
    attachChunkedInt64(col, rows, info, chunk, local, n);
  }
  return col;
}

/** f[k] = the located row's double; false at the first row -1 (a loop of its own: see TEAM-NOTES on OSR) */
function gatherChunkedDoubles(f: Float64Array, fs: readonly Float64Array[], chunk: Int32Array, local: Int32Array, n: number): boolean {
  for (let k = 0; k < n; k++) {
    const b = chunk[k]!;
    if (b < 0) return false;
    f[k] = fs[b]![local[k]!]!;
  }
  return true;
}

/** an int8 column's exact doubles at the located rows, when every chunk's column has them */
function attachChunkedInt64(col: readonly unknown[], rows: ChunkedRows, info: ChunkColumn, chunk: Int32Array, local: Int32Array, n: number): void {
  if (info.exact === undefined) {
    const fs: Float64Array[] = [], ns: (Uint8Array | null)[] = [];
    info.exact = { fs, nulls: ns };
    for (let b = 0; b < info.srcs.length; b++) {
      const src = info.srcs[b];
      const x = src === undefined ? undefined : exactInt64Of(src, rows.chunks[b]!.length);
      if (x === undefined) { info.exact = null; break; }
      fs.push(x.f);
      ns.push(x.nulls);
    }
  }
  const exact = info.exact;
  if (exact === null) return;
  const xs = exact.fs, ns = exact.nulls;
  const f = new Float64Array(n);
  let nulls: Uint8Array | null = null;
  for (let k = 0; k < n; k++) {
    const b = chunk[k]!;
    if (b < 0) { (nulls ??= new Uint8Array(n))[k] = 1; continue; }
    const r = local[k]!;
    const bn = ns[b]!;
    if (bn !== null && bn[r] === 1) { (nulls ??= new Uint8Array(n))[k] = 1; continue; }
    f[k] = xs[b]![r]!;
  }
  attachExactInt64(col, f, nulls);
}
