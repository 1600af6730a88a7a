/**
 * One row group's columns decoded in JS (parquet-page-decoder.ts) straight into Arrow data of the types
 * parquet-wasm produces for them — Int32, Date32, Int64, Decimal128, Float32/64, Utf8 — so everything after
 * the decode (Arrow filters, conversion to JS values, the decoded-column cache) is unchanged, without the
 * WASM decode, the Arrow IPC copy out of WASM memory and the IPC parse. Dictionary-encoded strings with a
 * small dictionary stay dictionary<utf8> (every reader of Arrow data here handles it, and each entry is
 * decoded once); dictionary-encoded int, date, long and decimal chunks keep their per-row codes beside the
 * values (dictionary-codes.ts) so pushed filters judge each entry once, and a decimal's exact doubles are
 * gathered from its entries'. Only flat top-level leaves of the shapes listed in jsLeafOf qualify; any other column, or a
 * page the decoder does not handle, makes the whole call answer null and the caller use parquet-wasm.
 */
import { DateDay, Decimal, Dictionary, Float32, Float64, Int32, Int64, Null, Utf8, makeData, makeVector, type Data, type DataType } from 'apache-arrow';
import type { ColumnPageIndex } from './page-index.ts';
import { pageWindow, rowsInWindow, windowBytes } from './page-window.ts';
import type { ThriftStruct } from './thrift-compact.ts';
import { asNumber, type ParquetFooter } from './parquet-footer.ts';
import { CODEC, decodeColumnChunk, gatherDictionaryValues, pagesHoldingRows, PHYSICAL, UnsupportedPage, type DecodedChunk, type DictionaryCodeArray } from './parquet-page-decoder.ts';
import { ROWS_PER_BATCH, type DecodedTable } from './row-group-decode.ts';
import { setExactDoubles } from './exact-doubles.ts';
import { setDictionaryCodes } from './dictionary-codes.ts';
import { LazyDecimalData, type DecimalSource } from './lazy-decimal-data.ts';
import { DictionaryIntData } from './dictionary-int-data.ts';

type LeafKind = 'int32' | 'date' | 'int64' | 'decimal' | 'float' | 'double' | 'string';

export interface JsLeaf {
  readonly name: string;
  /** index of its column chunk in each row group */
  readonly index: number;
  readonly physical: number;
  readonly optional: boolean;
  readonly kind: LeafKind;
  readonly precision: number;
  readonly scale: number;
}

/** encodings a column chunk may list (PLAIN, PLAIN_DICTIONARY, RLE, RLE_DICTIONARY) */
const ENCODINGS = new Set([0, 2, 3, 8]);
/** a dictionary with more entries than this share of its rows is turned into plain utf8 (each batch would judge it whole) */
const DICT_SHARE = 4;

/** the kind of a flat leaf this decoder produces, or null (converted_type / logicalType of parquet.thrift) */
function kindOf(e: ThriftStruct): { kind: LeafKind; precision: number; scale: number } | null {
  const physical = asNumber(e.get(1));
  const converted = asNumber(e.get(6));
  const logical = e.get(10) as ThriftStruct | undefined;
  const lk = logical === undefined ? undefined : [...logical.keys()][0];
  const plain = { precision: 0, scale: 0 };
  const intOf = (bits: number): boolean => {
    if (lk === 10) {
      const i = logical!.get(10) as ThriftStruct;
      return asNumber(i.get(1)) === bits && i.get(2) === true;
    }
    return lk === undefined && (converted === undefined || converted === (bits === 32 ? 17 : 18));
  };
  switch (physical) {
    case PHYSICAL.INT32:
      if (lk === 6 || (lk === undefined && converted === 6)) return { kind: 'date', ...plain };
      return intOf(32) ? { kind: 'int32', ...plain } : null;
    case PHYSICAL.INT64: {
      if (lk === 5 || (lk === undefined && converted === 5)) {
        const d = lk === 5 ? (logical!.get(5) as ThriftStruct) : null;
        const precision = asNumber(d === null ? e.get(8) : d.get(2)) ?? 0;
        const scale = asNumber(d === null ? e.get(7) : d.get(1)) ?? 0;
        return precision >= 1 && precision <= 18 && scale >= 0 ? { kind: 'decimal', precision, scale } : null;
      }
      return intOf(64) ? { kind: 'int64', ...plain } : null;
    }
    case PHYSICAL.FLOAT: return lk === undefined && converted === undefined ? { kind: 'float', ...plain } : null;
    case PHYSICAL.DOUBLE: return lk === undefined && converted === undefined ? { kind: 'double', ...plain } : null;
    case PHYSICAL.BYTE_ARRAY: return lk === 1 || (lk === undefined && converted === 0) ? { kind: 'string', ...plain } : null;
    default: return null;
  }
}

/**
 * The JS-decodable leaves for top-level columns `names`, or null when one of them is not (nested, repeated,
 * another type or annotation, no field id: the footer lists only leaves with ids).
 */
export function jsLeavesFor(footer: ParquetFooter, names: readonly string[]): JsLeaf[] | null {
  const out: JsLeaf[] = [];
  for (const name of names) {
    const top = footer.topLevel.find((t) => t.name === name);
    const leaf = top?.fieldId == null ? undefined : footer.leafByFieldId.get(top.fieldId);
    if (leaf === undefined) return null;
    const rep = asNumber(leaf.element.get(3)) ?? 0;
    if (rep !== 0 && rep !== 1) return null;
    const k = kindOf(leaf.element);
    if (k === null) return null;
    out.push({ name, index: leaf.index, physical: asNumber(leaf.element.get(1))!, optional: rep === 1, ...k });
  }
  return out;
}

/** where a leaf's column chunk lies in the file, or null when it cannot be read here (other file, codec, encoding) */
export function chunkSpan(footer: ParquetFooter, rg: number, leaf: JsLeaf): { offset: number; length: number; codec: number; uncompressed: number } | null {
  const group = footer.rowGroups[rg];
  const cc = group?.chunks[leaf.index];
  const md = group?.columns[leaf.index];
  if (cc === undefined || md === undefined || cc.get(1) !== undefined) return null; // field 1: file_path (another file)
  const codec = asNumber(md.get(4));
  if (codec !== CODEC.UNCOMPRESSED && codec !== CODEC.SNAPPY) return null;
  const encodings = md.get(2);
  if (!Array.isArray(encodings) || !encodings.every((x) => typeof x === 'number' && ENCODINGS.has(x))) return null;
  const data = asNumber(md.get(9));
  const dict = asNumber(md.get(11));
  const length = asNumber(md.get(7));
  if (data === undefined || length === undefined || asNumber(md.get(5)) !== group!.numRows) return null;
  const offset = dict !== undefined && dict > 0 && dict < data ? dict : data;
  return { offset, length, codec, uncompressed: asNumber(md.get(6)) ?? 0 };
}

function arrowTypeOf(leaf: JsLeaf): DataType {
  switch (leaf.kind) {
    case 'int32': return new Int32();
    case 'date': return new DateDay();
    case 'int64': return new Int64();
    case 'decimal': return new Decimal(leaf.scale, leaf.precision, 128);
    case 'float': return new Float32();
    case 'double': return new Float64();
    case 'string': return new Utf8();
  }
}

/** a batch's validity: its bitmap (undefined when no row is NULL) and NULL count */
interface Validity { readonly nullBitmap: Uint8Array | undefined; readonly nullCount: number }

/** no NULL: shared (one shape for every batch, and makeData's props after the spread too) */
const NO_NULLS: Validity = { nullBitmap: undefined, nullCount: 0 };

/** the validity bitmap of rows [start, start + n) and its NULL count */
function validity(defined: Uint8Array | null, start: number, n: number): Validity {
  if (defined === null) return NO_NULLS;
  const bm = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (defined[start + i] === 1) bm[i >> 3]! |= 1 << (i & 7);
    else nulls++;
  }
  return nulls === 0 ? NO_NULLS : { nullBitmap: bm, nullCount: nulls };
}

/**
 * int64 unscaled values turned into doubles in place (the same 8 bytes a value: no second buffer for the
 * garbage collector to account), or null — values untouched — when one is past 2^53 in magnitude. With `atRows`
 * (ascending), only those rows are checked and turned: every other row must hold 0, whose 8 zero bytes are
 * the double 0 already (a chunk decoded at its picks only: DecodedChunk.rawAtPicksOnly). One pass that checks
 * and turns each value (a first pass checking every high word was 2.5–3.2 % of q1's scan workers); on a value
 * past 2^53 the rows already turned get their words back (exactDoublesRestored).
 */
export function exactDoublesInPlace(src: Int32Array, atRows?: ArrayLike<number>): Float64Array | null {
  const n = src.length >> 1;
  const out = new Float64Array(src.buffer, src.byteOffset, n);
  if (atRows !== undefined) {
    const m = atRows.length;
    for (let k = 0; k < m; k++) {
      const i = atRows[k]!;
      const hi = src[2 * i + 1]!;
      if (hi < -0x200000 || hi >= 0x200000) {
        restoreWordsAt(src, out, atRows, k);
        return null;
      }
      out[i] = hi * 4294967296 + (src[2 * i]! >>> 0); // reads both words before the write
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    const hi = src[2 * i + 1]!;
    if (hi < -0x200000 || hi >= 0x200000) {
      restoreWords(src, out, i);
      return null;
    }
    out[i] = hi * 4294967296 + (src[2 * i]! >>> 0); // reads both words before the write
  }
  return out;
}

/** the int64 words back in rows 0 … upTo-1, which exactDoublesInPlace turned into (exact) doubles */
function restoreWords(src: Int32Array, out: Float64Array, upTo: number): void {
  for (let i = 0; i < upTo; i++) writeWords(src, i, out[i]!);
}

/** as restoreWords, for rows atRows[0 … upTo-1] */
function restoreWordsAt(src: Int32Array, out: Float64Array, atRows: ArrayLike<number>, upTo: number): void {
  for (let k = 0; k < upTo; k++) { const i = atRows[k]!; writeWords(src, i, out[i]!); }
}

/** the int64 words of the integral double x (|x| ≤ 2^53) into row i */
function writeWords(src: Int32Array, i: number, x: number): void {
  const hi = Math.floor(x / 4294967296);
  src[2 * i] = (x - hi * 4294967296) | 0;
  src[2 * i + 1] = hi;
}

/** a Decimal128 chunk of rows [start, start + n) of `src` whose words are made only if read (lazy-decimal-data.ts) */
function lazyDecimalData(type: Decimal, src: DecimalSource, start: number, n: number, v: Validity): Data {
  return new LazyDecimalData(type, n, v.nullBitmap, v.nullCount, src, start);
}

/**
 * one decoded chunk as Arrow data per batch of ROWS_PER_BATCH rows; `bytes` counts their buffers. With `atRows`
 * (the only rows read afterwards: decodeRowGroupJs), dictionary values are gathered and a decimal's doubles made
 * at those rows alone.
 */
function toArrow(leaf: JsLeaf, c: DecodedChunk, lengths: readonly number[], atRows?: ArrayLike<number>, first = 0): { data: Data[]; bytes: number } {
  const type = arrowTypeOf(leaf);
  const data: Data[] = [];
  let bytes = 0;
  let start = first;
  if (leaf.kind === 'string') {
    const s = c.strings!;
    const dictEntries = s.dict === null ? 0 : s.dict.offsets.length - 1;
    if (s.indices !== null && s.dict !== null && dictEntries * DICT_SHARE <= c.rows) {
      const dictType = new Dictionary(new Utf8(), new Int32());
      const dictionary = makeVector(makeData({ type: new Utf8(), length: dictEntries, nullCount: 0, valueOffsets: s.dict.offsets, data: s.dict.bytes }));
      bytes += s.dict.bytes.byteLength + s.dict.offsets.byteLength;
      for (const n of lengths) {
        const v = validity(c.defined, start, n);
        const idx = s.indices.subarray(start, start + n);
        data.push(makeData({ type: dictType, length: n, data: idx, dictionary, ...v }));
        bytes += idx.byteLength + (v.nullBitmap?.byteLength ?? 0);
        start += n;
      }
      return { data, bytes };
    }
    const { offsets, bytes: strBytes } = s.indices !== null && s.dict !== null ? materialize(s.indices, s.dict, c.defined, c.rows) : { offsets: s.offsets!, bytes: s.bytes! };
    for (const n of lengths) {
      const base = offsets[start]!;
      const offs = new Int32Array(n + 1);
      for (let i = 0; i <= n; i++) offs[i] = offsets[start + i]! - base;
      const v = validity(c.defined, start, n);
      const vals = strBytes.subarray(base, offsets[start + n]!);
      data.push(makeData({ type: type as Utf8, length: n, valueOffsets: offs, data: vals, ...v }));
      bytes += offs.byteLength + vals.byteLength + (v.nullBitmap?.byteLength ?? 0);
      start += n;
    }
    return { data, bytes };
  }
  const fd = c.fixedDict;
  if (fd !== null && leaf.kind === 'decimal') {
    const dd = dictionaryDoubles(fd.entries);
    if (dd !== null) return dictionaryDecimalToArrow(type as Decimal, dd, fd.codes, c.defined, lengths, first);
  }
  // decoded whole: the row values wait for a reader (at picks they are few, and the picks array stays the caller's)
  if (fd !== null && c.raw === null && atRows === undefined && (leaf.kind === 'int32' || leaf.kind === 'date')) return dictionaryIntToArrow(type as Int32 | DateDay, leaf, fd, c.defined, lengths, first);
  const raw = c.raw ?? gatherDictionaryValues(fd!.entries, fd!.codes, leaf.kind === 'int32' || leaf.kind === 'date' || leaf.kind === 'float' ? 4 : 8, atRows);
  // 0 outside atRows: values gathered at them, or PLAIN pages copied at them
  const onlyAtRows = atRows !== undefined && (c.raw === null || c.rawAtPicksOnly === true);
  const buf = raw.buffer, at = raw.byteOffset;
  // integers and dates keep their codes for the filters; the dictionary as an Arrow chunk of their type
  const dictionary = fd === null || leaf.kind === 'float' || leaf.kind === 'double' || leaf.kind === 'decimal' ? null : dictionaryData(type, leaf, fd.entries);
  if (leaf.kind === 'decimal') {
    const src = new Int32Array(buf, at, raw.byteLength >> 2);
    const doubles = exactDoublesInPlace(src, onlyAtRows ? atRows : undefined);
    for (const n of lengths) {
      const v = validity(c.defined, start, n);
      const d = lazyDecimalData(type as Decimal, doubles ?? src, start, n, v);
      if (doubles !== null) setExactDoubles(d, doubles.subarray(start, start + n));
      data.push(d);
      bytes += n * 16 + (v.nullBitmap?.byteLength ?? 0);
      start += n;
    }
    return { data, bytes };
  }
  for (const n of lengths) {
    const v = validity(c.defined, start, n);
    let values: Int32Array | BigInt64Array | Float32Array | Float64Array;
    switch (leaf.kind) {
      case 'int32': case 'date': values = new Int32Array(buf, at + start * 4, n); break;
      case 'float': values = new Float32Array(buf, at + start * 4, n); break;
      case 'int64': values = new BigInt64Array(buf, at + start * 8, n); break;
      default: values = new Float64Array(buf, at + start * 8, n);
    }
    const d = makeData({ type: type as Int32, length: n, data: values as Int32Array, ...v });
    if (dictionary !== null) {
      const codes = fd!.codes.subarray(start, start + n);
      setDictionaryCodes(d, { codes, dictionary });
      bytes += codes.byteLength;
    }
    data.push(d);
    bytes += values.byteLength + (v.nullBitmap?.byteLength ?? 0);
    start += n;
  }
  return { data, bytes };
}

/**
 * An int / date chunk of dictionary codes decoded whole: the codes kept for the filters (dictionary-codes.ts) and
 * the row values gathered from the entries only when first read (dictionary-int-data.ts), once for the chunk's
 * batches (TPC-H q1's l_shipdate: judged by its codes, never read)
 */
function dictionaryIntToArrow(type: Int32 | DateDay, leaf: JsLeaf, fd: NonNullable<DecodedChunk['fixedDict']>, defined: Uint8Array | null, lengths: readonly number[], first: number): { data: Data[]; bytes: number } {
  const dictionary = dictionaryData(type, leaf, fd.entries);
  let raw: Uint8Array | null = null;
  const chunkValues = (): Uint8Array => (raw ??= gatherDictionaryValues(fd.entries, fd.codes, 4));
  const data: Data[] = [];
  let bytes = 0, start = first;
  for (const n of lengths) {
    const v = validity(defined, start, n);
    const d = new DictionaryIntData(type, n, v.nullBitmap, v.nullCount, chunkValues, start);
    const codes = fd.codes.subarray(start, start + n);
    setDictionaryCodes(d, { codes, dictionary });
    data.push(d);
    bytes += n * 4 + codes.byteLength + (v.nullBitmap?.byteLength ?? 0);
    start += n;
  }
  return { data, bytes };
}

/** the int64 unscaled entries of a decimal dictionary as doubles, or null when one is past 2^53 in magnitude */
function dictionaryDoubles(entries: Uint8Array): Float64Array | null {
  const copy = new Int32Array(entries.byteLength >> 2);
  copy.set(new Int32Array(entries.buffer, entries.byteOffset, entries.byteLength >> 2));
  return copy.length === 0 ? null : exactDoublesInPlace(copy);
}

/**
 * A decimal chunk of dictionary codes: each batch's exact doubles gathered from the entries' when first read
 * (filters judge the entries through the codes, late materialization converts only the picked rows: TPC-H
 * q19's l_quantity is never gathered for the rows its filters drop), and the codes kept for the filters
 * (dictionary-codes.ts)
 */
function dictionaryDecimalToArrow(type: Decimal, dd: Float64Array, codes: DictionaryCodeArray, defined: Uint8Array | null, lengths: readonly number[], first: number): { data: Data[]; bytes: number } {
  const dictionary = lazyDecimalData(type, dd, 0, dd.length, NO_NULLS);
  setExactDoubles(dictionary, dd);
  const data: Data[] = [];
  let bytes = 0, start = first;
  for (const n of lengths) {
    const v = validity(defined, start, n);
    const first = start;
    let doubles: Float64Array | null = null;
    const all = (): Float64Array => (doubles ??= gatherDoubles(dd, codes, defined, first, n));
    const d = lazyDecimalData(type, all, 0, n, v);
    setExactDoubles(d, { all, at: (i) => (defined !== null && defined[first + i] === 0 ? 0 : dd[codes[first + i]!]!) });
    setDictionaryCodes(d, { codes: codes.subarray(start, start + n), dictionary });
    data.push(d);
    bytes += n * (16 + codes.BYTES_PER_ELEMENT) + (v.nullBitmap?.byteLength ?? 0);
    start += n;
  }
  return { data, bytes };
}

/** the exact doubles of rows [start, start + n) of a dictionary-coded decimal chunk (NULL rows hold 0) */
function gatherDoubles(dd: Float64Array, codes: DictionaryCodeArray, defined: Uint8Array | null, start: number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = dd[codes[start + i]!]!;
  if (defined !== null) for (let i = 0; i < n; i++) if (defined[start + i] === 0) out[i] = 0;
  return out;
}

/** the entries of an int / date / long dictionary as an Arrow chunk of the column's type */
function dictionaryData(type: DataType, leaf: JsLeaf, entries: Uint8Array): Data {
  const n = entries.byteLength / (leaf.kind === 'int64' ? 8 : 4);
  const values = leaf.kind === 'int64' ? new BigInt64Array(entries.buffer, entries.byteOffset, n) : new Int32Array(entries.buffer, entries.byteOffset, n);
  return makeData({ type: type as Int32, length: n, nullCount: 0, data: values as Int32Array });
}

/** dictionary indices → plain utf8 offsets and bytes (NULL rows empty) */
function materialize(indices: Int32Array, dict: { offsets: Int32Array; bytes: Uint8Array }, defined: Uint8Array | null, rows: number): { offsets: Int32Array; bytes: Uint8Array } {
  const offsets = new Int32Array(rows + 1);
  let total = 0;
  for (let r = 0; r < rows; r++) {
    if (defined === null || defined[r] === 1) { const e = indices[r]!; total += dict.offsets[e + 1]! - dict.offsets[e]!; }
    offsets[r + 1] = total;
  }
  const bytes = new Uint8Array(total);
  for (let r = 0; r < rows; r++) {
    const a = offsets[r]!, b = offsets[r + 1]!;
    if (b === a) continue;
    const e = indices[r]!, s = dict.offsets[e]!;
    if (b - a < 16) for (let k = 0; k < b - a; k++) bytes[a + k] = dict.bytes[s + k]!;
    else bytes.set(dict.bytes.subarray(s, s + b - a), a);
  }
  return { offsets, bytes };
}

/** chunks closer than this are fetched in one read (each ranged read costs an open, a stat or a request) */
const COALESCE_GAP = 256 * 1024;

/** the bytes of each span, neighbouring spans (gap ≤ COALESCE_GAP) fetched in one read */
async function readSpans(spans: readonly { offset: number; length: number }[], read: (offset: number, length: number) => Promise<Uint8Array>): Promise<Uint8Array[]> {
  const order = spans.map((_s, i) => i).sort((a, b) => spans[a]!.offset - spans[b]!.offset);
  const groups: number[][] = [];
  let end = -Infinity;
  for (const i of order) {
    const s = spans[i]!;
    if (groups.length > 0 && s.offset - end <= COALESCE_GAP) groups[groups.length - 1]!.push(i);
    else groups.push([i]);
    end = Math.max(end, s.offset + s.length); // sorted by offset: a new group's span ends past the old end
  }
  const out: Uint8Array[] = new Array(spans.length);
  await Promise.all(groups.map(async (g) => {
    const from = Math.min(...g.map((i) => spans[i]!.offset));
    const to = Math.max(...g.map((i) => spans[i]!.offset + spans[i]!.length));
    const bytes = await read(from, to - from);
    for (const i of g) out[i] = bytes.subarray(spans[i]!.offset - from, spans[i]!.offset - from + spans[i]!.length);
  }));
  return out;
}

/**
 * The rows a caller reads lie in [from, to) of the row group (a piece of it cut across scan workers): with a
 * leaf's page index (`indexOf(leaf.index)`, its page locations), only the pages holding them are fetched and
 * decoded, and batches outside [from, to) (widened to batch bounds) are NullData placeholders nobody reads.
 */
export interface RowWindow {
  readonly from: number;
  readonly to: number;
  readonly indexOf: (leaf: number) => ColumnPageIndex | undefined;
}

/** a batch outside a RowWindow: the right length, no buffers (its rows are another piece's) */
const outsideWindow = (n: number): Data => makeData({ type: new Null(), length: n });

/**
 * Row group `rg`'s `leaves` (jsLeavesFor), their chunks fetched through `read`, decoded; null when a chunk
 * or a page is of a shape the JS decoder leaves to parquet-wasm. Damaged data throws (the caller names the file).
 * With `atRows` (ascending row-group-local rows), only the pages holding one of them are decoded: the other
 * rows hold placeholders (late materialization reads the rows it selected and nothing else). With a `window`
 * (RowWindow), only its pages are read at all.
 */
export async function decodeRowGroupJs(footer: ParquetFooter, rg: number, leaves: readonly JsLeaf[], read: (offset: number, length: number) => Promise<Uint8Array>, atRows?: ArrayLike<number>, window?: RowWindow): Promise<DecodedTable | null> {
  const spans = leaves.map((l) => chunkSpan(footer, rg, l));
  if (spans.some((s) => s === null)) return null;
  const rows = footer.rowGroups[rg]!.numRows;
  const lengths: number[] = [];
  for (let off = 0; off < rows; off += ROWS_PER_BATCH) lengths.push(Math.min(ROWS_PER_BATCH, rows - off));
  // the window widened to whole batches: the batches [b0, b1) are decoded, the others are placeholders
  const b0 = window === undefined ? 0 : Math.floor(window.from / ROWS_PER_BATCH);
  const b1 = window === undefined ? lengths.length : Math.min(lengths.length, Math.ceil(window.to / ROWS_PER_BATCH));
  const ws = b0 * ROWS_PER_BATCH, we = Math.min(rows, b1 * ROWS_PER_BATCH);
  const windows = leaves.map((l, i) => {
    const index = window?.indexOf(l.index);
    return index === undefined ? null : pageWindow(index, spans[i]!, rows, ws, we);
  });
  // each leaf's bytes: its whole chunk, or its window's dictionary page and data pages
  const wanted: { offset: number; length: number }[] = [];
  leaves.forEach((_l, i) => {
    const w = windows[i];
    if (w === null || w === undefined) wanted.push(spans[i]!);
    else wanted.push(w.pages, ...(w.head === null ? [] : [w.head]));
  });
  const fetched = await readSpans(wanted, read);
  const byName = new Map<string, Data[]>();
  let bytes = 0, k = 0;
  for (const [i, leaf] of leaves.entries()) {
    const span = spans[i]!, w = windows[i] ?? null;
    let bytesOf: Uint8Array, first = 0, end = rows, at = atRows;
    if (w === null) {
      bytesOf = fetched[k++]!;
      if (bytesOf.byteLength < span.length) throw new Error(`column chunk of "${leaf.name}" is cut short`);
    } else {
      const pages = fetched[k++]!, head = w.head === null ? null : fetched[k++]!;
      if (pages.byteLength < w.pages.length || (head !== null && head.byteLength < w.head!.length)) throw new Error(`column chunk of "${leaf.name}" is cut short`);
      bytesOf = windowBytes(head, pages);
      first = w.first;
      end = w.end;
      if (atRows !== undefined) at = rowsInWindow(atRows, first, end);
    }
    // every decoded row picked (ascending, distinct: late materialization's row groups that kept all their rows):
    // decoded whole, with no per-page search of the picks and no per-pick gather (TPC-H q1: most row groups)
    if (at !== undefined && at.length === end - first) at = undefined;
    let decoded: DecodedChunk;
    try {
      const uncompressed = w === null ? span.uncompressed : Math.ceil(span.uncompressed * w.share);
      decoded = decodeColumnChunk(bytesOf, span.codec, leaf.physical, leaf.optional, end - first, uncompressed, at === undefined ? undefined : pagesHoldingRows(at), at);
    } catch (e) {
      if (e instanceof UnsupportedPage) return null;
      throw new Error(`row group ${rg} column "${leaf.name}": ${(e as Error).message}`, { cause: e });
    }
    if (window === undefined) {
      const a = toArrow(leaf, decoded, lengths, at);
      byName.set(leaf.name, a.data);
      bytes += a.bytes;
      continue;
    }
    // decoded rows [first, end) ⊇ [ws, we): Arrow data for the window's batches, placeholders around them
    const a = toArrow(leaf, decoded, lengths.slice(b0, b1), at, ws - first);
    const data: Data[] = [];
    for (let b = 0; b < b0; b++) data.push(outsideWindow(lengths[b]!));
    data.push(...a.data);
    for (let b = b1; b < lengths.length; b++) data.push(outsideWindow(lengths[b]!));
    byName.set(leaf.name, data);
    bytes += a.bytes;
  }
  return { batchLengths: lengths, byName, ipcBytes: bytes };
}
