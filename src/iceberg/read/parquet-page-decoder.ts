/**
 * A JS decoder of one Parquet column chunk (its pages, in file order) for the flat column shapes lakegate
 * itself writes: required or optional top-level leaves, data pages v1 and v2, PLAIN and dictionary
 * (PLAIN_DICTIONARY / RLE_DICTIONARY) encodings, RLE definition levels, UNCOMPRESSED or SNAPPY pages (native-snappy.ts).
 * Physical types INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY. The values come out row-aligned (a NULL row
 * holds 0 / an empty string) with a per-row `defined` mask when there are NULLs (fixed-width chunks whose every
 * page is dictionary-encoded come out as entries + per-row codes instead); js-row-group-decode.ts turns
 * them into Arrow data. Anything else throws UnsupportedPage before a value is produced or after: the caller
 * then decodes the row group with parquet-wasm instead.
 * @see https://parquet.apache.org/docs/file-format/data-pages/ and parquet.thrift (PageHeader, DataPageHeader(V2))
 */
import { ThriftCompactReader, type ThriftStruct } from './thrift-compact.ts';
import { decodeRleHybrid, decodeRleHybridAt } from './rle-hybrid-decode.ts';
import { snappyDecompressPage } from './native-snappy.ts';

/** a page or column shape this decoder does not handle (the caller falls back to parquet-wasm) */
export class UnsupportedPage extends Error {}

/** Parquet physical types (parquet.thrift `Type`) */
export const PHYSICAL = { INT32: 1, INT64: 2, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6 } as const;
const PAGE = { DATA: 0, DICTIONARY: 2, DATA_V2: 3 } as const;
const ENCODING = { PLAIN: 0, PLAIN_DICTIONARY: 2, RLE: 3, RLE_DICTIONARY: 8 } as const;
export const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1 } as const;

export interface StringValues {
  /** per row: an index into `dict` (dictionary-encoded chunk), else null */
  readonly indices: Int32Array | null;
  readonly dict: { readonly offsets: Int32Array; readonly bytes: Uint8Array } | null;
  /** plain strings per row (when any page was PLAIN, or no dictionary): offsets into bytes */
  readonly offsets: Int32Array | null;
  readonly bytes: Uint8Array | null;
}

export interface DecodedChunk {
  readonly rows: number;
  /** 1 per row that has a value; null when no row is NULL */
  readonly defined: Uint8Array | null;
  /** fixed-width values, row-aligned, little-endian (width 4 or 8 bytes per row); null when `fixedDict` holds them */
  readonly raw: Uint8Array | null;
  /**
   * `raw` holds values only at the picks (decodeColumnChunk's `picks`) and 0 in every other row: each PLAIN page
   * was copied pick by pick, none whole (js-row-group-decode.ts then converts just those rows)
   */
  readonly rawAtPicksOnly?: boolean;
  /**
   * a fixed-width chunk whose every data page is dictionary-encoded: its dictionary entries (width bytes each)
   * and per row the entry's index (0 in NULL rows and in pages not decoded); the values are not gathered
   */
  readonly fixedDict: { readonly entries: Uint8Array; readonly codes: DictionaryCodeArray } | null;
  readonly strings: StringValues | null;
}

/** per-row dictionary indices, one byte a row for dictionaries of up to 256 entries (two up to 65,536) */
export type DictionaryCodeArray = Uint8Array | Uint16Array | Int32Array;

function codeArray(rows: number, entries: number): DictionaryCodeArray {
  return entries <= 256 ? new Uint8Array(rows) : entries <= 65_536 ? new Uint16Array(rows) : new Int32Array(rows);
}

/** the first index ≥ `from` of ascending `a` whose value is ≥ `v` (binary search: a page's picks, not every pick, visited) */
function firstAtOrPast(a: ArrayLike<number>, from: number, v: number): number {
  let lo = from, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** a page's picked rows are decoded one by one while they are at most one in this many of its rows */
const SPARSE_SHARE = 8;

const widthOf = (physical: number): number => (physical === PHYSICAL.INT32 || physical === PHYSICAL.FLOAT ? 4 : 8);

/**
 * per-thread scratch for decompressed page bodies: every body is consumed (copied into the chunk's values, or
 * decoded into indices / levels) before the next page is decompressed
 */
let bodyScratch = new Uint8Array(0);

function decompress(codec: number, src: Uint8Array, size: number): Uint8Array {
  if (codec === CODEC.UNCOMPRESSED) return src;
  if (bodyScratch.length < size) bodyScratch = new Uint8Array(Math.max(size, 256 * 1024));
  return snappyDecompressPage(src, size, bodyScratch);
}

const readU32 = (b: Uint8Array, p: number): number => (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;

/** a growable byte buffer with per-row offsets (plain strings) */
class StringBuilder {
  bytes: Uint8Array;
  size = 0;
  readonly offsets: Int32Array;
  /** `capacity`: the bytes expected (grows past it by doubling) */
  constructor(rows: number, capacity = 1024) {
    this.offsets = new Int32Array(rows + 1);
    this.bytes = new Uint8Array(Math.max(capacity, 1024));
  }
  reserve(n: number): void {
    if (this.size + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.size + n));
    next.set(this.bytes.subarray(0, this.size));
    this.bytes = next;
  }
  append(src: Uint8Array, a: number, b: number): void {
    const n = b - a;
    this.reserve(n);
    if (n < 16) for (let k = 0; k < n; k++) this.bytes[this.size + k] = src[a + k]!;
    else this.bytes.set(src.subarray(a, b), this.size);
    this.size += n;
  }
  /**
   * `count` PLAIN byte arrays (4-byte length, then the bytes) of `src` from `pos` to `end`, each value's end
   * in `bytes` written to `ends[0..count)`. The page's bytes are copied once and the values moved together over
   * their length prefixes in place (copyWithin): no view per value — a native Snappy body is a Buffer, whose
   * subarray is a FastBuffer made through its species constructor (~100 ns and garbage per value: TPC-H q13's
   * 1.5M o_comments)
   */
  appendPlain(src: Uint8Array, pos: number, end: number, count: number, ends: Int32Array): void {
    this.reserve(end - pos);
    const bytes = this.bytes, stop = this.size + end - pos;
    bytes.set(src.subarray(pos, end), this.size);
    let r = this.size, w = this.size;
    for (let i = 0; i < count; i++) {
      if (r + 4 > stop) throw new Error('PLAIN byte array past the end of the page');
      const n = readU32(bytes, r);
      r += 4;
      if (r + n > stop) throw new Error('PLAIN byte array past the end of the page');
      if (n < 16) for (let k = 0; k < n; k++) bytes[w + k] = bytes[r + k]!;
      else bytes.copyWithin(w, r, r + n);
      w += n;
      r += n;
      ends[i] = w;
    }
    this.size = w;
  }
}

/** PLAIN byte arrays: `count` (4-byte length, bytes) values from `pos` → start offsets and ends in `b` */
function plainByteArrays(b: Uint8Array, pos: number, end: number, count: number): { starts: Int32Array; ends: Int32Array } {
  const starts = new Int32Array(count), ends = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    if (pos + 4 > end) throw new Error('PLAIN byte array past the end of the page');
    const n = readU32(b, pos);
    pos += 4;
    if (pos + n > end) throw new Error('PLAIN byte array past the end of the page');
    starts[i] = pos;
    ends[i] = pos + n;
    pos += n;
  }
  return { starts, ends };
}

/**
 * Which data pages to decode: `wanted(first, count)` for the page of rows [first, first + count), asked in row
 * order. A page not wanted is neither decompressed nor decoded: its rows hold placeholders (0, dictionary entry
 * 0 or an empty string) that the caller never reads.
 */
export type PageFilter = (first: number, count: number) => boolean;

/**
 * the PageFilter of the pages holding one of `rows` (ascending row-group-local rows); each page binary-searches
 * its first row (a page's picks are not stepped through one by one: `rows` may be a number[] or a typed array,
 * whose element loads in a shared loop are slow)
 */
export function pagesHoldingRows(rows: ArrayLike<number>): PageFilter {
  let at = 0;
  return (first, count) => {
    at = firstAtOrPast(rows, at, first);
    return at < rows.length && rows[at]! < first + count;
  };
}

/**
 * Decodes the pages of one column chunk (`chunk`: the bytes from its first page to the end of its last) of
 * `rows` rows. `optional`: the leaf has definition levels (max level 1). `uncompressedBytes` (the chunk's
 * total_uncompressed_size, an upper bound of its plain string bytes) sizes the string buffer once. `wanted`:
 * decode only some data pages (PageFilter); the dictionary page is always decoded. `picks`: the only rows
 * (ascending, row-group-local) read afterwards — a dictionary page without NULLs holding few of them decodes
 * just their indices (decodeRleHybridAt), the other rows get entry 0 as placeholder; a PLAIN fixed-width page
 * without NULLs holding few of them copies just their values (the others stay 0: `rawAtPicksOnly`).
 */
export function decodeColumnChunk(chunk: Uint8Array, codec: number, physical: number, optional: boolean, rows: number, uncompressedBytes = 0, wanted?: PageFilter, picks?: ArrayLike<number>): DecodedChunk {
  if (codec !== CODEC.UNCOMPRESSED && codec !== CODEC.SNAPPY) throw new UnsupportedPage(`codec ${codec}`);
  const isString = physical === PHYSICAL.BYTE_ARRAY;
  const width = widthOf(physical);
  // fixed width: per-row dictionary indices while every data page is dictionary-encoded, values from the first PLAIN page
  let raw: Uint8Array | null = null;
  /** some row outside the picks got a value in `raw` (a page copied or gathered whole) */
  let rawWhole = false;
  let codes: DictionaryCodeArray | null = null;
  let defined: Uint8Array | null = null;
  // strings: dictionary indices per row until a PLAIN page comes, then plain strings for every row
  let dictRaw: Uint8Array | null = null;
  let dictStr: { offsets: Int32Array; bytes: Uint8Array } | null = null;
  let indices = null as Int32Array | null;
  let plain = null as StringBuilder | null;
  let row = 0;
  let pos = 0;
  let levelBuf = levelScratch;
  /** the first of `picks` at or past the current page */
  let pick = 0;

  while (row < rows) {
    if (pos >= chunk.length) throw new Error(`column chunk ends after ${row} of ${rows} rows`);
    const r = new ThriftCompactReader(chunk.subarray(pos));
    const h = r.struct();
    const type = h.get(1) as number;
    const uncompressed = h.get(2) as number;
    const compressed = h.get(3) as number;
    const bodyStart = pos + r.pos;
    const bodyEnd = bodyStart + compressed;
    if (bodyEnd > chunk.length) throw new Error('page past the end of the column chunk');
    pos = bodyEnd;
    if (type === PAGE.DICTIONARY) {
      const dh = h.get(7) as ThriftStruct;
      const enc = dh.get(2) as number;
      if (enc !== ENCODING.PLAIN && enc !== ENCODING.PLAIN_DICTIONARY) throw new UnsupportedPage(`dictionary encoding ${enc}`);
      const n = dh.get(1) as number;
      const body = decompress(codec, chunk.subarray(bodyStart, bodyEnd), uncompressed);
      if (isString) {
        const { starts, ends } = plainByteArrays(body, 0, body.length, n);
        const offsets = new Int32Array(n + 1);
        const sb = new StringBuilder(0, body.length);
        for (let i = 0; i < n; i++) { sb.append(body, starts[i]!, ends[i]!); offsets[i + 1] = sb.size; }
        dictStr = { offsets, bytes: sb.bytes.subarray(0, sb.size) };
      } else {
        if (n * width > body.length) throw new Error('dictionary page shorter than its values');
        dictRaw = new Uint8Array(n * width); // an aligned copy (a Buffer's slice would be an unaligned view)
        dictRaw.set(body.subarray(0, n * width));
      }
      continue;
    }
    if (type !== PAGE.DATA && type !== PAGE.DATA_V2) throw new UnsupportedPage(`page type ${type}`);
    let count: number, enc: number, body: Uint8Array, p: number;
    let nullsInPage = false;
    const header = h.get(type === PAGE.DATA ? 5 : 8) as ThriftStruct;
    count = header.get(1) as number;
    if (row + count > rows) throw new Error(`data pages hold more than the row group's ${rows} rows`);
    if (picks !== undefined) pick = firstAtOrPast(picks, pick, row);
    if (wanted !== undefined && !wanted(row, count)) {
      // placeholders: raw and dictionary indices stay 0; plain strings get empty values
      if (isString) {
        const pageEnc = header.get(type === PAGE.DATA ? 2 : 4) as number;
        if (plain === null && (pageEnc === ENCODING.PLAIN || dictStr === null)) {
          plain = dictRowsToPlain(indices, dictStr, defined, row, rows, uncompressedBytes);
          indices = null;
        }
        if (plain !== null) plain.offsets.fill(plain.size, row + 1, row + count + 1);
        else indices ??= new Int32Array(rows);
      }
      if (defined !== null) defined.fill(1, row, row + count);
      row += count;
      continue;
    }
    if (levelBuf.length < count) levelBuf = levelScratch = new Int32Array(count);
    if (type === PAGE.DATA) {
      enc = header.get(2) as number;
      body = decompress(codec, chunk.subarray(bodyStart, bodyEnd), uncompressed);
      p = 0;
      if (optional) {
        if ((header.get(3) as number) !== ENCODING.RLE) throw new UnsupportedPage('definition levels not RLE');
        const len = readU32(body, 0);
        decodeRleHybrid(body, 4, 4 + len, 1, levelBuf, 0, count);
        p = 4 + len;
        nullsInPage = true;
      }
    } else {
      enc = header.get(4) as number;
      const defLen = (header.get(5) as number) ?? 0;
      const repLen = (header.get(6) as number) ?? 0;
      if (repLen !== 0) throw new UnsupportedPage('repetition levels');
      const isCompressed = header.get(7) !== false;
      if (optional) {
        decodeRleHybrid(chunk, bodyStart, bodyStart + defLen, 1, levelBuf, 0, count);
        nullsInPage = (header.get(2) as number) > 0;
      }
      const dataStart = bodyStart + defLen;
      body = isCompressed ? decompress(codec, chunk.subarray(dataStart, bodyEnd), uncompressed - defLen) : chunk.subarray(dataStart, bodyEnd);
      p = 0;
    }
    // rows with a value in this page
    let present = count;
    if (nullsInPage) {
      present = 0;
      for (let k = 0; k < count; k++) present += levelBuf[k]!;
      if (present < count && defined === null) {
        defined = new Uint8Array(rows);
        defined.fill(1, 0, row);
      }
    }
    if (defined !== null) {
      if (nullsInPage) for (let k = 0; k < count; k++) defined[row + k] = levelBuf[k]!;
      else defined.fill(1, row, row + count);
    }
    const dense = present === count;
    /** the row of the i-th value of this page */
    let rowsOfValues: Int32Array | null = null;
    if (!dense) {
      rowsOfValues = new Int32Array(present);
      for (let k = 0, i = 0; k < count; k++) if (levelBuf[k] === 1) rowsOfValues[i++] = row + k;
    }
    if (enc === ENCODING.PLAIN_DICTIONARY || enc === ENCODING.RLE_DICTIONARY) {
      if (isString ? dictStr === null : dictRaw === null) throw new Error('dictionary-encoded page without a dictionary page');
      const idx = scratchIndices(present);
      const bitWidth = body[p]!;
      const dictN = isString ? dictStr!.offsets.length - 1 : dictRaw!.length / width;
      const upTo = picks !== undefined && dense && dictN > 0 ? firstAtOrPast(picks, pick, row + count) : pick;
      if (upTo > pick && (upTo - pick) * SPARSE_SHARE <= count) {
        idx.fill(0);
        decodeRleHybridAt(body, p + 1, body.length, bitWidth, idx, count, picks!, pick, upTo, row, dictN);
      } else {
        decodeRleHybrid(body, p + 1, body.length, bitWidth, idx, 0, present, dictN);
      }
      if (isString) {
        if (plain === null) {
          indices ??= new Int32Array(rows);
          if (dense) indices.set(idx, row);
          else for (let i = 0; i < present; i++) indices[rowsOfValues![i]!] = idx[i]!;
        } else {
          const d = dictStr!;
          for (let k = 0, i = 0; k < count; k++) {
            if (dense || levelBuf[k] === 1) { const e = idx[i++]!; plain.append(d.bytes, d.offsets[e]!, d.offsets[e + 1]!); }
            plain.offsets[row + k + 1] = plain.size;
          }
        }
      } else if (raw === null) {
        codes ??= codeArray(rows, dictN);
        if (dense) codes.set(idx, row);
        else for (let i = 0; i < present; i++) codes[rowsOfValues![i]!] = idx[i]!;
      } else {
        gatherFixed(dictRaw!, width, idx, raw, row, rowsOfValues);
        rawWhole = true;
      }
    } else if (enc === ENCODING.PLAIN) {
      if (isString) {
        const sb = (plain ??= dictRowsToPlain(indices, dictStr, defined, row, rows, uncompressedBytes));
        indices = null;
        const ends = new Int32Array(present);
        let at = sb.size;
        sb.appendPlain(body, p, body.length, present, ends);
        for (let k = 0, i = 0; k < count; k++) {
          if (dense || levelBuf[k] === 1) at = ends[i++]!;
          sb.offsets[row + k + 1] = at;
        }
      } else {
        if (p + present * width > body.length) throw new Error('PLAIN values past the end of the page');
        if (raw === null) {
          raw = new Uint8Array(rows * width);
          if (codes !== null) { gatherCodes(dictRaw!, width, codes, raw, row); codes = null; rawWhole = true; } // the dictionary rows so far
        }
        // few picks in this page: only their values (the rest stay 0, and the caller converts only the picks)
        const upTo = picks !== undefined && dense ? firstAtOrPast(picks, pick, row + count) : pick;
        if (picks !== undefined && dense && (upTo - pick) * SPARSE_SHARE <= count) copyAtPicks(body, p, width, raw, row, picks, pick, upTo);
        else {
          rawWhole = true;
          if (dense) raw.set(body.subarray(p, p + present * width), row * width);
          else for (let i = 0; i < present; i++) raw.set(body.subarray(p + i * width, p + (i + 1) * width), rowsOfValues![i]! * width);
        }
      }
    } else {
      throw new UnsupportedPage(`data page encoding ${enc}`);
    }
    row += count;
  }
  const strings: StringValues | null = !isString ? null
    : plain !== null ? { indices: null, dict: null, offsets: plain.offsets, bytes: plain.bytes.subarray(0, plain.size) }
    : indices !== null ? { indices, dict: dictStr, offsets: null, bytes: null }
    : { indices: null, dict: null, offsets: new Int32Array(rows + 1), bytes: new Uint8Array(0) }; // no values at all
  // one shape for every chunk (decodedChunk): the readers of a chunk stay monomorphic
  if (isString) return decodedChunk(rows, defined, null, false, null, strings);
  if (raw === null && codes !== null) return decodedChunk(rows, defined, null, false, { entries: dictRaw!, codes }, null);
  const atPicksOnly = picks !== undefined && !rawWhole;
  return decodedChunk(rows, defined, raw ?? new Uint8Array(rows * width), atPicksOnly, null, null); // no page decoded: placeholders
}

/** a DecodedChunk, every field present in one order */
function decodedChunk(rows: number, defined: Uint8Array | null, raw: Uint8Array | null, rawAtPicksOnly: boolean, fixedDict: DecodedChunk['fixedDict'], strings: StringValues | null): DecodedChunk {
  return { rows, defined, raw, rawAtPicksOnly, fixedDict, strings };
}

/** the PLAIN values (from `p` in `body`) of the page's rows picks[from … to-1] (the page starts at row `row`, no NULLs) */
function copyAtPicks(body: Uint8Array, p: number, width: number, raw: Uint8Array, row: number, picks: ArrayLike<number>, from: number, to: number): void {
  for (let k = from; k < to; k++) {
    const r = picks[k]!;
    const src = p + (r - row) * width, dst = r * width;
    for (let b = 0; b < width; b++) raw[dst + b] = body[src + b]!;
  }
}

/** the values of rows [0, upTo) by their dictionary codes (a chunk's pages switched from dictionary to PLAIN) */
function gatherCodes(dict: Uint8Array, width: number, codes: DictionaryCodeArray, raw: Uint8Array, upTo: number): void {
  const d32 = new Int32Array(dict.buffer, dict.byteOffset, dict.byteLength >> 2);
  const o32 = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength >> 2);
  if (width === 4) {
    for (let i = 0; i < upTo; i++) o32[i] = d32[codes[i]!]!;
  } else {
    for (let i = 0; i < upTo; i++) {
      const e = codes[i]! * 2;
      o32[2 * i] = d32[e]!;
      o32[2 * i + 1] = d32[e + 1]!;
    }
  }
}

/**
 * the row-aligned values of a chunk decoded with `fixedDict` (entries gathered by code); with `atRows`
 * (ascending), only those rows' (the others hold 0: late materialization reads nothing else)
 */
export function gatherDictionaryValues(entries: Uint8Array, codes: DictionaryCodeArray, width: number, atRows?: ArrayLike<number>): Uint8Array {
  const raw = new Uint8Array(codes.length * width);
  if (atRows === undefined) gatherCodes(entries, width, codes, raw, codes.length);
  else gatherCodesAt(entries, width, codes, raw, atRows);
  return raw;
}

/** gatherCodes of rows `atRows` only */
function gatherCodesAt(dict: Uint8Array, width: number, codes: DictionaryCodeArray, raw: Uint8Array, atRows: ArrayLike<number>): void {
  const d32 = new Int32Array(dict.buffer, dict.byteOffset, dict.byteLength >> 2);
  const o32 = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength >> 2);
  const n = atRows.length;
  if (width === 4) {
    for (let k = 0; k < n; k++) { const i = atRows[k]!; o32[i] = d32[codes[i]!]!; }
  } else {
    for (let k = 0; k < n; k++) {
      const i = atRows[k]!, e = codes[i]! * 2;
      o32[2 * i] = d32[e]!;
      o32[2 * i + 1] = d32[e + 1]!;
    }
  }
}

/** per-thread scratch for a page's definition levels and dictionary indices (both consumed within the page) */
let levelScratch = new Int32Array(0);
let indexScratch = new Int32Array(0);

function scratchIndices(n: number): Int32Array {
  if (indexScratch.length < n) indexScratch = new Int32Array(Math.max(n, 8192));
  return indexScratch.subarray(0, n);
}

/** strings switch to plain at a PLAIN page: the rows so far (dictionary-encoded) are copied out */
function dictRowsToPlain(indices: Int32Array | null, dict: { offsets: Int32Array; bytes: Uint8Array } | null, defined: Uint8Array | null, row: number, rows: number, capacity: number): StringBuilder {
  const sb = new StringBuilder(rows, capacity);
  for (let r = 0; r < row; r++) {
    if (indices !== null && dict !== null && (defined === null || defined[r] === 1)) {
      const e = indices[r]!;
      sb.append(dict.bytes, dict.offsets[e]!, dict.offsets[e + 1]!);
    }
    sb.offsets[r + 1] = sb.size;
  }
  return sb;
}

/** dictionary entries of width 4 or 8 gathered into the rows (`rowsOfValues`, or consecutive from `row`) */
function gatherFixed(dict: Uint8Array, width: number, idx: Int32Array, raw: Uint8Array, row: number, rowsOfValues: Int32Array | null): void {
  const d32 = new Int32Array(dict.buffer, dict.byteOffset, dict.byteLength >> 2);
  const o32 = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength >> 2);
  const n = idx.length;
  if (width === 4) {
    if (rowsOfValues === null) for (let i = 0; i < n; i++) o32[row + i] = d32[idx[i]!]!;
    else for (let i = 0; i < n; i++) o32[rowsOfValues[i]!] = d32[idx[i]!]!;
  } else {
    for (let i = 0; i < n; i++) {
      const at = (rowsOfValues === null ? row + i : rowsOfValues[i]!) * 2, e = idx[i]! * 2;
      o32[at] = d32[e]!;
      o32[at + 1] = d32[e + 1]!;
    }
  }
}
