/**
 * ParquetSource: what readParquetColumns decodes row groups from — the file's top-level columns (name and
 * Parquet field_id), its row group sizes, and decode(rg, names).
 *
 * - A small file (file-cache.ts isSmallFile: ≤ 1/16 of the thread's cache bound, 2–4 MiB by default) takes its layout from the cached footer parse
 *   (no ParquetFile is opened when everything asked for is cached) and its decoded columns go to the
 *   decoded-column cache, so a repeated read of the same columns costs neither I/O nor decoding. A tiny one
 *   (≤ TINY_BYTES, which the footer cache already holds; or ≤ WHOLE_DECODE_BYTES when at least half of its
 *   columns are asked) is decoded whole by the sync reader in one call — parquet-wasm 0.8's readParquet
 *   ignores `columns`, so every column is decoded and cached; a bigger small file fetches just the missing
 *   columns through the async ranged reader.
 * - Other files (and bytes given whole) open a parquet-wasm ParquetFile over ranged reads (range-blob.ts) and
 *   fetch only the projected column chunks, as before.
 * Unless `LAKEGATE_PARQUET_JS_DECODE=off`, row groups whose asked columns are flat leaves of the shapes lakegate
 * writes (js-row-group-decode.ts: PLAIN / dictionary pages, snappy or none) are decoded in JS from the column
 * chunks alone, with no WASM decode and no Arrow IPC hop; the ParquetFile is then opened only for a row group that
 * needs it, and late materialization's second phase decodes only the pages holding the picked rows
 * (decodeAt). On by default (see jsDecodeOn).
 */
import { ParquetFile } from 'parquet-wasm';
import { tableFromIPC, type Field } from 'apache-arrow';
import type { ScanMetrics } from '../../catalog/table-source.ts';
import type { IcebergIO } from '../io.ts';
import { GuardedReads, fileReadError } from '../read-errors.ts';
import { fieldIdOf } from './arrow-values.ts';
import { addToRowGroup, cachedRowGroup, fileCacheKey, isSmallFile } from './file-cache.ts';
import { readParquetFooter, type ParquetFooter } from './parquet-footer.ts';
import { envFlagOn } from '../../common/env-settings.ts';
import { chunkSpan, decodeRowGroupJs, jsLeavesFor, type RowWindow } from './js-row-group-decode.ts';
import { readRowGroupPageIndex } from './page-index.ts';
import { rangeBlob } from './range-blob.ts';
import { trapWasmPanics } from './wasm-panic-trap.ts';
import { assembleRowGroup, decodeRowGroupAsync, decodeRowGroupSync, type DecodedRowGroup, type DecodedTable } from './row-group-decode.ts';

/** Whole-file bytes, or a ranged source read lazily (size = file_size_in_bytes from the manifest). */
export type ParquetInput = Uint8Array | { readonly io: IcebergIO; readonly size: number };

export type CacheMetrics = Pick<ScanMetrics, 'bytesRead' | 'fileCacheHits' | 'fileCacheLookups'>;

export interface ParquetSource {
  /** the root's children: Arrow's top-level fields */
  readonly fields: readonly { readonly name: string; readonly fieldId: number | null }[];
  readonly rowGroupRows: readonly number[];
  /** the columns `names` of row group `rg`, resolved to field ids by `idByName` */
  decode(rg: number, names: readonly string[], idByName: ReadonlyMap<string, number>): Promise<DecodedRowGroup>;
  /**
   * Late materialization's second phase: the columns `names` of row group `rg` where only rows `atRows`
   * (ascending, row-group-local) are read afterwards — the JS decoder then decodes only the pages holding
   * them; null when this source decodes whole row groups only (then `decode`). Absent on sources that cache
   * decoded columns (small files: a whole decode is kept for the next query). With `span` ([start, end) rows of
   * the row group holding every row of `atRows`: a piece of it cut across scan workers), only the pages of the
   * span are fetched where the page index locates them, and batches outside it are placeholders.
   */
  decodeAt?(rg: number, names: readonly string[], idByName: ReadonlyMap<string, number>, atRows: ArrayLike<number>, span?: readonly [number, number]): Promise<DecodedRowGroup | null>;
  /** decodeAt skips pages (the JS decoder reads this file): a second phase then costs only the pages it needs */
  readonly pageSelective?: boolean;
  /**
   * Reads the column chunks of `names` in row group `rg` in one ranged read and keeps the bytes until the next
   * prefetch or free(), so that late materialization's two phases over a page-selective source (decode and
   * decodeAt of the same row group) fetch the file once instead of once per phase. A no-op where it does not
   * apply (no JS decoding, chunks too far apart to share a read).
   */
  prefetch?(rg: number, names: readonly string[]): Promise<void>;
  /** releases WASM memory held for the file */
  free(): void;
}

/**
 * Opens `uri` for reading. `io` (for ranged input) should already answer footer-tail ranges from the footer
 * cache (parquet-footer.ts footerCachedIO); `metrics` gets bytes read by the small-file path and cache counters.
 */
export async function openParquetSource(input: ParquetInput, uri: string, metrics?: CacheMetrics): Promise<ParquetSource> {
  if (!(input instanceof Uint8Array) && isSmallFile(input.size)) return SmallFileSource.open(input.io, uri, input.size, metrics);
  return WasmFileSource.open(input, uri);
}

/**
 * The async reader over `input` with its Arrow fields and row group sizes (tests inspect written files with
 * it; scans go through openParquetSource). Errors: XX001 or 58030 naming the file.
 */
export async function openParquet(
  input: ParquetInput,
  uri: string,
  guard = input instanceof Uint8Array ? null : new GuardedReads(input.io),
): Promise<{ file: ParquetFile; fields: Field[]; rowGroupRows: number[] }> {
  let file: ParquetFile;
  try {
    file = await trapWasmPanics(() => ParquetFile.fromFile(input instanceof Uint8Array || guard === null ? new Blob([input as Uint8Array]) : rangeBlob(guard.io, uri, input.size)));
  } catch (e) {
    throw guard ? guard.error('Parquet', uri, e) : fileReadError('Parquet', uri, e);
  }
  const md = file.metadata();
  const rowGroupRows = md.rowGroups().map((rg) => {
    const n = rg.numRows();
    rg.free();
    return n;
  });
  md.free();
  return { file, fields: tableFromIPC(file.schema().intoIPCStream()).schema.fields, rowGroupRows };
}

/**
 * the JS decoder is on unless LAKEGATE_PARQUET_JS_DECODE=off. Server CPU, same tree, off → on (session 13,
 * loaded machine): SF 1 q1/6/12/14/19/20 20.6 → 18.9 s (−8 %: q1 −15 %, q14 −22 %, q12 −8 %, q19 −4 %, q6 +3 %,
 * q20 +12 %); SF 0.2 the same six −27 % (q19 −45 %, q1 −18 %). Its earlier SF 1 slowdowns were allocations
 * (a buffer per decompressed page, a doubling string buffer, a second copy of every decimal column: full
 * collections requested by external memory; fixed in sessions 11–12).
 */
export const jsDecodeOn = (): boolean => envFlagOn('LAKEGATE_PARQUET_JS_DECODE');

/**
 * Row group `rg`'s columns `names` decoded in JS from chunks fetched by `read`, or null when one of them needs
 * parquet-wasm (js-row-group-decode.ts). Damaged data: XX001 naming the file.
 */
async function decodeJs(footer: ParquetFooter, rg: number, names: readonly string[], uri: string, read: (offset: number, length: number) => Promise<Uint8Array>, guard: GuardedReads | null, atRows?: ArrayLike<number>, window?: (leaves: readonly number[]) => Promise<RowWindow | undefined>): Promise<DecodedTable | null> {
  const leaves = jsLeavesFor(footer, names);
  if (leaves === null) return null;
  const w = window === undefined ? undefined : await window(leaves.map((l) => l.index));
  try {
    return await decodeRowGroupJs(footer, rg, leaves, read, atRows, w);
  } catch (e) {
    throw guard === null ? fileReadError('Parquet', uri, e) : guard.error('Parquet', uri, e);
  }
}

/**
 * a prefetch reads the chunks' whole span only while their own bytes are at least this share of it (the
 * columns a scan asks are usually neighbours: TPC-H q9's six lineitem columns span 248 of the row group's 535 KB
 * with 6 KB of other columns between them)
 */
const PREFETCH_DENSITY = 0.5;

class WasmFileSource implements ParquetSource {
  private file: Promise<ParquetFile> | null;
  /** the bytes of the file from `offset` read ahead by prefetch (served to the JS decoder's reads inside them) */
  private held: { readonly offset: number; readonly bytes: Uint8Array } | null = null;

  private constructor(
    file: ParquetFile | null,
    readonly fields: readonly { name: string; fieldId: number | null }[],
    readonly rowGroupRows: readonly number[],
    private readonly uri: string,
    private readonly guard: GuardedReads | null,
    private readonly input: ParquetInput,
    /** the footer when row groups may be decoded in JS (the ParquetFile is then opened on first need) */
    private readonly footer: ParquetFooter | null,
  ) {
    this.file = file === null ? null : Promise.resolve(file);
  }

  static async open(input: ParquetInput, uri: string): Promise<WasmFileSource> {
    // one guard for the open and every decode: it remembers a failed ranged read (read-errors.ts)
    const guard = input instanceof Uint8Array ? null : new GuardedReads(input.io);
    if (jsDecodeOn() && !(input instanceof Uint8Array)) {
      const footer = await readParquetFooter(input.io, uri, input.size);
      return new WasmFileSource(null, footer.topLevel, footer.rowGroups.map((r) => r.numRows), uri, guard, input, footer);
    }
    const { file, fields, rowGroupRows } = await openParquet(input, uri, guard);
    return new WasmFileSource(file, fields.map((f) => ({ name: f.name, fieldId: fieldIdOf(f) })), rowGroupRows, uri, guard, input, null);
  }

  async decode(rg: number, names: readonly string[], idByName: ReadonlyMap<string, number>): Promise<DecodedRowGroup> {
    const t = await this.decodeTable(rg, names);
    return assembleRowGroup(t.batchLengths, names, (n) => t.byName.get(n) ?? [], idByName);
  }

  get pageSelective(): boolean {
    return this.footer !== null && !(this.input instanceof Uint8Array);
  }

  async decodeAt(rg: number, names: readonly string[], idByName: ReadonlyMap<string, number>, atRows: ArrayLike<number>, span?: readonly [number, number]): Promise<DecodedRowGroup | null> {
    const footer = this.footer, input = this.input;
    if (footer === null || input instanceof Uint8Array) return null;
    // the span's page locations (page-index.ts, cached per chunk); an index that cannot be read: whole chunks
    const window = span === undefined ? undefined : async (leaves: readonly number[]): Promise<RowWindow | undefined> => {
      const indexes = await readRowGroupPageIndex(input.io, this.uri, input.size, footer, rg, leaves).catch(() => null);
      return indexes === null ? undefined : { from: span[0], to: span[1], indexOf: (leaf) => indexes.get(leaf) };
    };
    const t = await decodeJs(footer, rg, names, this.uri, this.readRange, this.guard, atRows, window);
    return t === null ? null : assembleRowGroup(t.batchLengths, names, (n) => t.byName.get(n) ?? [], idByName);
  }

  async prefetch(rg: number, names: readonly string[]): Promise<void> {
    this.held = null;
    const input = this.input, footer = this.footer;
    if (footer === null || input instanceof Uint8Array) return;
    const leaves = jsLeavesFor(footer, names);
    if (leaves === null) return;
    let from = Infinity, to = -Infinity, own = 0;
    for (const leaf of leaves) {
      const s = chunkSpan(footer, rg, leaf);
      if (s === null) return;
      from = Math.min(from, s.offset);
      to = Math.max(to, s.offset + s.length);
      own += s.length;
    }
    if (leaves.length < 2 || own < (to - from) * PREFETCH_DENSITY) return;
    let bytes: Uint8Array;
    try {
      bytes = await input.io.readRange(this.uri, from, to - from);
    } catch (e) {
      throw this.guard === null ? fileReadError('Parquet', this.uri, e) : this.guard.error('Parquet', this.uri, e);
    }
    // a short read is left to the decoder's own reads, which name what is cut short
    if (bytes.byteLength === to - from) this.held = { offset: from, bytes };
  }

  /** a ranged read of the file, from the prefetched bytes when they hold it */
  private readonly readRange = (offset: number, length: number): Promise<Uint8Array> => {
    const h = this.held;
    if (h !== null && offset >= h.offset && offset + length <= h.offset + h.bytes.byteLength) {
      return Promise.resolve(h.bytes.subarray(offset - h.offset, offset - h.offset + length));
    }
    return (this.input as { readonly io: IcebergIO }).io.readRange(this.uri, offset, length);
  };

  async decodeTable(rg: number, names: readonly string[]): Promise<DecodedTable> {
    const input = this.input;
    if (this.footer !== null && !(input instanceof Uint8Array)) {
      const t = await decodeJs(this.footer, rg, names, this.uri, this.readRange, this.guard);
      if (t !== null) return t;
    }
    this.file ??= openParquet(input, this.uri, this.guard).then((o) => o.file);
    return decodeRowGroupAsync(await this.file, rg, names, this.uri, this.guard);
  }

  free(): void {
    this.held = null;
    void this.file?.then((f) => {
      try {
        f.free();
      } catch {
        // still borrowed by a read whose decoder panicked (wasm-panic-trap.ts): leave it to the GC
      }
    }, () => {});
  }
}

/** small files up to this size are read whole and decoded in one sync call (every column) */
const WHOLE_DECODE_BYTES = 256 * 1024;
/**
 * files up to this size are decoded whole whatever is asked (the footer read brought their bytes); bigger
 * ones (up to WHOLE_DECODE_BYTES) only when at least half of their columns are asked: a scan of many such
 * files wanting a few columns decoded every column of each (TPC-H SF 0.1 Q1: 7 of lineitem's 16, 84 files of
 * 170 KB; -35 % CPU with the ranged reader, whose columns are cached all the same)
 */
const TINY_BYTES = 64 * 1024;

class SmallFileSource implements ParquetSource {
  private bytes: Uint8Array | null = null;
  private readonly key: string;

  private constructor(
    private readonly io: IcebergIO,
    private readonly uri: string,
    private readonly size: number,
    readonly fields: readonly { name: string; fieldId: number | null }[],
    readonly rowGroupRows: readonly number[],
    private readonly tail: { readonly offset: number; readonly bytes: Uint8Array },
    private readonly metrics: CacheMetrics | undefined,
    private readonly footer: ParquetFooter,
  ) {
    this.key = fileCacheKey(uri, size);
  }

  static async open(io: IcebergIO, uri: string, size: number, metrics: CacheMetrics | undefined): Promise<SmallFileSource> {
    // `io` counts the tail read when the footer is not cached yet (footerCachedIO)
    const footer = await readParquetFooter(io, uri, size);
    return new SmallFileSource(io, uri, size, footer.topLevel, footer.rowGroups.map((r) => r.numRows), { offset: footer.tailOffset, bytes: footer.tail }, metrics, footer);
  }

  private async fileBytes(): Promise<Uint8Array> {
    if (this.bytes !== null) return this.bytes;
    if (this.tail.offset === 0 && this.tail.bytes.byteLength === this.size) return (this.bytes = this.tail.bytes);
    const bytes = await this.io.read(this.uri);
    if (this.metrics) this.metrics.bytesRead += bytes.byteLength;
    return (this.bytes = bytes);
  }

  async decode(rg: number, names: readonly string[], idByName: ReadonlyMap<string, number>): Promise<DecodedRowGroup> {
    const hit = cachedRowGroup(this.key, rg);
    const missing = hit === undefined ? names : names.filter((n) => !hit.columns.has(n));
    if (this.metrics) {
      this.metrics.fileCacheLookups = (this.metrics.fileCacheLookups ?? 0) + names.length;
      this.metrics.fileCacheHits = (this.metrics.fileCacheHits ?? 0) + names.length - missing.length;
    }
    if (missing.length === 0) return assembleRowGroup(hit!.batchLengths, names, (n) => hit!.columns.get(n)!, idByName);
    let fresh = await this.decodeFresh(rg, missing);
    addToRowGroup(this.key, rg, fresh.batchLengths, fresh.byName, fresh.ipcBytes);
    if (hit !== undefined && !sameLengths(hit.batchLengths, fresh.batchLengths)) {
      // cannot happen with one batch size; decode everything together rather than mix misaligned batches
      fresh = await this.decodeFresh(rg, names);
    }
    const from = fresh;
    return assembleRowGroup(from.batchLengths, names, (n) => from.byName.get(n) ?? hit!.columns.get(n) ?? [], idByName);
  }

  /**
   * parquet-wasm 0.8's sync reader decodes every column whatever `columns` says: used (and all its columns
   * cached) for a tiny file or when every column is wanted; otherwise the async reader fetches only `names`.
   */
  private async decodeFresh(rg: number, names: readonly string[]): Promise<DecodedTable> {
    const whole = this.size <= TINY_BYTES || (this.size <= WHOLE_DECODE_BYTES && names.length * 2 >= this.fields.length) || names.length >= this.fields.length;
    if (jsDecodeOn()) {
      // the file's bytes when they are in memory already (tail cached whole, or read before), else ranged reads
      const inMemory = whole ? await this.fileBytes() : this.bytes ?? (this.tail.offset === 0 && this.tail.bytes.byteLength === this.size ? this.tail.bytes : null);
      const read = inMemory !== null
        ? (o: number, l: number) => Promise.resolve(inMemory.subarray(o, o + l))
        : (o: number, l: number) => this.io.readRange(this.uri, o, l);
      // decoded whole (every column cached) when parquet-wasm's sync reader would have been used
      const t = await decodeJs(this.footer, rg, whole ? this.fields.map((f) => f.name) : names, this.uri, read, null);
      if (t !== null) return t;
    }
    if (whole) return decodeRowGroupSync(await this.fileBytes(), rg, names, this.uri);
    this.ranged ??= WasmFileSource.open({ io: this.io, size: this.size }, this.uri);
    return (await this.ranged).decodeTable(rg, names);
  }

  private ranged: Promise<WasmFileSource> | null = null;

  free(): void {
    this.bytes = null;
    void this.ranged?.then((w) => w.free(), () => {});
  }
}

function sameLengths(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}
