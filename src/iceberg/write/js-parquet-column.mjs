// One Parquet column chunk written by the JS Parquet writer from COPY's typed column buffers: a dictionary page
// and RLE_DICTIONARY data pages, or PLAIN data pages (a column the caller keeps off the dictionary, or whose
// dictionary outgrew its limit), data pages v1 with RLE definition levels for optional columns, each page
// compressed on its own, with the page statistics the ColumnIndex / OffsetIndex (page index) carry and the
// chunk's Statistics. Plain JS (loaded by the encode worker without tsx).
// @see https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift
import { ByteSink, bitWidthOf, encodeDefLevels, encodeRleHybrid } from './rle-hybrid-encode.mjs';
import { BytesDictionary, FixedDictionary, compareBytes, compareWords } from './js-parquet-dictionary.mjs';
import { ThriftWriter } from './thrift-compact-writer.mjs';
import { dictMinMax, dictionaryRanks } from './js-parquet-dictionary-bounds.mjs';
import { ChunkCompressor } from './js-parquet-chunk-codec.mjs';

export const PHYSICAL = { INT32: 1, INT64: 2, BYTE_ARRAY: 6, FIXED_LEN_BYTE_ARRAY: 7 };
export const ENCODING = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 };
const PAGE = { DATA: 0, DICTIONARY: 2 };

/** rows per data page (arrow-rs's data_page_row_count_limit) */
export const PAGE_ROWS = 20_000;
/** bytes of values per PLAIN string page and of a dictionary page (arrow-rs's page and dictionary size limits) */
export const PAGE_BYTES = 1024 * 1024;

/** the column's values as 32-bit words (`stride` per row) */
export function wordsOf(col) {
  switch (col.kind) {
    case 'int32': return col.values;
    case 'int64': return new Int32Array(col.values.buffer, col.values.byteOffset, col.length * 2);
    case 'decimal': return new Int32Array(col.words.buffer, col.words.byteOffset, col.length * 4);
    default: return null;
  }
}

// scratch buffers of this thread, reused chunk after chunk
const body = new ByteSink(1 << 20);
let levels = new Uint8Array(PAGE_ROWS);
let gather = new Int32Array(PAGE_ROWS * 2);
let codes = new Int32Array(1 << 17);

/** the value at word position `p` of `w` as its Parquet bytes (plain encoding; statistics) */
function fixedBytes(layout, w, p) {
  if (layout.physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY) {
    const n = layout.valueBytes;
    const out = new Uint8Array(n);
    for (let b = 0; b < n; b++) {
      const k = n - 1 - b; // byte k of the little-endian 16-byte value, written big-endian
      out[b] = (w[p + (k >> 2)] >>> ((k & 3) * 8)) & 0xff;
    }
    return out;
  }
  return new Uint8Array(Int32Array.from(w.subarray(p, p + layout.kw)).buffer);
}

/** PLAIN values of the non-null rows [from, to) of a fixed-width column into `body` */
function plainFixed(layout, w, stride, validity, from, to, nulls) {
  const kw = layout.kw;
  if (layout.physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY) {
    const n = layout.valueBytes;
    body.ensure((to - from) * n);
    for (let i = from; i < to; i++) {
      if (validity !== null && ((validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
      const p = i * stride;
      for (let k = n - 1; k >= 0; k--) body.buf[body.pos++] = (w[p + (k >> 2)] >>> ((k & 3) * 8)) & 0xff;
    }
    return;
  }
  if (nulls === 0 && kw === stride) {
    body.bytes(new Uint8Array(w.buffer, w.byteOffset + from * stride * 4, (to - from) * stride * 4));
    return;
  }
  if (gather.length < (to - from) * kw) gather = new Int32Array((to - from) * kw);
  let g = 0;
  for (let i = from; i < to; i++) {
    if (validity !== null && ((validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
    const p = i * stride;
    gather[g++] = w[p];
    if (kw === 2) gather[g++] = w[p + 1];
  }
  body.bytes(new Uint8Array(gather.buffer, 0, g * 4));
}

/** [min, max] row of the non-null rows [from, to) of a fixed-width column (-1 when all are NULL) */
function fixedMinMax(kw, w, stride, validity, from, to) {
  let lo = -1;
  let hi = -1;
  for (let i = from; i < to; i++) {
    if (validity !== null && ((validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
    if (lo < 0) { lo = hi = i; continue; }
    if (kw === 1) {
      const v = w[i * stride];
      if (v < w[lo * stride]) lo = i;
      else if (v > w[hi * stride]) hi = i;
    } else if (compareWords(w, i * stride, w, lo * stride, kw) < 0) lo = i;
    else if (compareWords(w, i * stride, w, hi * stride, kw) > 0) hi = i;
  }
  return [lo, hi];
}

/** PLAIN strings of the non-null rows [from, to) into `body`; returns [min, max] row (-1: all NULL) */
function plainStrings(col, from, to) {
  const { offsets, data, validity } = col;
  let lo = -1;
  let hi = -1;
  let loFirst = 256;
  let hiFirst = -1;
  body.ensure((to - from) * 4 + offsets[to] - offsets[from]);
  const out = body.buf;
  let p = body.pos;
  for (let i = from; i < to; i++) {
    if (validity !== null && ((validity[i >> 3] >> (i & 7)) & 1) === 0) continue;
    const s = offsets[i];
    const e = offsets[i + 1];
    const n = e - s;
    out[p] = n & 0xff; out[p + 1] = (n >>> 8) & 0xff; out[p + 2] = (n >>> 16) & 0xff; out[p + 3] = n >>> 24;
    p += 4;
    // short values copied by a loop: a subarray + set per value cost more than the bytes (l_comment: 27 on average)
    if (n <= 64) for (let k = s; k < e; k++) out[p++] = data[k];
    else { out.set(data.subarray(s, e), p); p += n; }
    // a value whose first byte lies strictly between the bounds' first bytes is neither bound
    const f = s < e ? data[s] : -1;
    if (lo >= 0 && f > loFirst && f < hiFirst) continue;
    if (lo < 0) { lo = hi = i; loFirst = hiFirst = f; continue; }
    if (compareBytes(data, s, e, data, offsets[lo], offsets[lo + 1]) < 0) { lo = i; loFirst = f; }
    else if (compareBytes(data, s, e, data, offsets[hi], offsets[hi + 1]) > 0) { hi = i; hiFirst = f; }
  }
  body.pos = p;
  return [lo, hi];
}

/** the dictionary of a chunk and the codes of its non-null rows, or null when it passed its limit */
function buildDictionary(layout, segments, nonNull) {
  if (codes.length < nonNull) codes = new Int32Array(nonNull);
  const dict = layout.physical === PHYSICAL.BYTE_ARRAY ? new BytesDictionary(PAGE_BYTES) : new FixedDictionary(layout.kw, layout.valueBytes, PAGE_BYTES);
  let at = 0;
  for (const { col, from, to } of segments) {
    at = layout.physical === PHYSICAL.BYTE_ARRAY
      ? dict.add(col.offsets, col.data, col.validity, from, to, codes, at)
      : dict.add(wordsOf(col), layout.stride, col.validity, from, to, codes, at);
    if (at < 0) break;
  }
  dict.release();
  return at < 0 ? null : dict;
}

/** the dictionary page body: its entries PLAIN */
function dictionaryBody(layout, dict) {
  body.reset();
  if (layout.physical === PHYSICAL.BYTE_ARRAY) {
    for (let c = 0; c < dict.size; c++) {
      body.u32le(dict.offsets[c + 1] - dict.offsets[c]);
      body.bytes(dict.data.subarray(dict.offsets[c], dict.offsets[c + 1]));
    }
  } else if (layout.physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY) {
    for (let c = 0; c < dict.size; c++) body.bytes(fixedBytes(layout, dict.entries, c * layout.kw));
  } else body.bytes(new Uint8Array(dict.entries.buffer, 0, dict.size * layout.kw * 4));
  return body.view();
}

/** the value of dictionary entry `c` as Parquet statistics bytes */
function entryBytes(layout, dict, c) {
  if (layout.physical === PHYSICAL.BYTE_ARRAY) return dict.data.slice(dict.offsets[c], dict.offsets[c + 1]);
  return fixedBytes(layout, dict.entries, c * layout.kw);
}

function pageHeader(type, uncompressed, compressed, numValues, encoding) {
  const t = new ThriftWriter(64);
  t.elementBegin();
  t.i32(1, type);
  t.i32(2, uncompressed);
  t.i32(3, compressed);
  if (type === PAGE.DATA) {
    t.structBegin(5);
    t.i32(1, numValues);
    t.i32(2, encoding);
    t.i32(3, ENCODING.RLE);
    t.i32(4, ENCODING.RLE);
    t.structEnd();
  } else {
    t.structBegin(7);
    t.i32(1, numValues);
    t.i32(2, ENCODING.PLAIN);
    t.structEnd();
  }
  t.structEnd();
  return t.view().slice();
}

/** the page ends within rows [from, to) of one batch column: PAGE_ROWS rows, PLAIN string pages also PAGE_BYTES */
function pageEnds(col, from, to, plainStrings) {
  const ends = [];
  let s = from;
  while (s < to) {
    let e = Math.min(s + PAGE_ROWS, to);
    if (plainStrings) {
      const o = col.offsets;
      while (e > s + 1 && o[e] - o[s] > PAGE_BYTES) e = s + Math.max(1, (e - s) >> 1);
    }
    ends.push(e);
    s = e;
  }
  return ends;
}

/**
 * writes one column chunk made of `segments` (rows [from, to) of batch columns, in order) at file offset
 * `offset`. `layout`: { physical, kw, stride, valueBytes, optional, dictionary }; `compress(bytes)` → a new
 * Uint8Array, or null for an uncompressed file. Returns the chunk's bytes (parts), its ColumnMetaData facts
 * (`compressed`: whether its pages went through `compress`, js-parquet-chunk-codec.mjs) and its page index entries.
 */
export function writeColumnChunk(layout, segments, offset, compress) {
  let rows = 0;
  let nulls = 0;
  for (const s of segments) {
    rows += s.to - s.from;
    if (s.col.validity !== null) for (let i = s.from; i < s.to; i++) nulls += 1 - ((s.col.validity[i >> 3] >> (i & 7)) & 1);
  }
  const dict = layout.dictionary ? buildDictionary(layout, segments, rows - nulls) : null;
  const parts = [];
  let pos = offset;
  let uncompressedTotal = 0;
  const add = (header, bytes, rawLength) => {
    parts.push(header, bytes);
    pos += header.length + bytes.length;
    uncompressedTotal += header.length + rawLength;
  };
  const codec = new ChunkCompressor(compress);
  let dictionaryPageOffset = -1;
  let width = 0;
  // the dictionary page is written once it and the first data page have decided the chunk's codec
  let dictionaryRaw = null;
  if (dict !== null) {
    dictionaryRaw = dictionaryBody(layout, dict).slice();
    width = bitWidthOf(dict.size - 1);
  }
  const ranks = dict === null ? null : dictionaryRanks(layout, dict, rows - nulls);
  let dataPageOffset = -1;
  const pages = []; // { offset, size, firstRow, nulls, rows, min, max } (min/max: bytes, null for an all-NULL page)
  let firstRow = 0;
  let codeAt = 0;
  let chunkMin = null;
  let chunkMax = null;
  const cmp = layout.physical === PHYSICAL.BYTE_ARRAY
    ? (a, b) => compareBytes(a, 0, a.length, b, 0, b.length)
    : layout.physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY
      ? (a, b) => ((a[0] ^ 0x80) - (b[0] ^ 0x80)) || compareBytes(a, 1, a.length, b, 1, b.length)
      : (a, b) => compareWords(new Int32Array(a.buffer), 0, new Int32Array(b.buffer), 0, layout.kw);
  for (const { col, from, to } of segments) {
    const w = dict === null && layout.physical !== PHYSICAL.BYTE_ARRAY ? wordsOf(col) : null;
    let s = from;
    for (const e of pageEnds(col, from, to, dict === null && layout.physical === PHYSICAL.BYTE_ARRAY)) {
      body.reset();
      let pageNulls = 0;
      if (layout.optional) {
        if (levels.length < e - s) levels = new Uint8Array(e - s);
        body.u32le(0); // the levels' length, filled in below
        pageNulls = encodeDefLevels(body, col.validity, s, e, levels);
        const n = body.pos - 4;
        body.buf[0] = n & 0xff; body.buf[1] = (n >>> 8) & 0xff; body.buf[2] = (n >>> 16) & 0xff; body.buf[3] = n >>> 24;
      }
      let min = null;
      let max = null;
      if (dict !== null) {
        const k = e - s - pageNulls;
        body.ensure(1);
        body.buf[body.pos++] = width;
        encodeRleHybrid(body, codes, codeAt, codeAt + k, width);
        if (k > 0) {
          const [lo, hi] = dictMinMax(layout, dict, ranks, codes, codeAt, codeAt + k);
          min = entryBytes(layout, dict, lo);
          max = entryBytes(layout, dict, hi);
        }
        codeAt += k;
      } else if (layout.physical === PHYSICAL.BYTE_ARRAY) {
        const [lo, hi] = plainStrings(col, s, e);
        if (lo >= 0) {
          min = col.data.slice(col.offsets[lo], col.offsets[lo + 1]);
          max = col.data.slice(col.offsets[hi], col.offsets[hi + 1]);
        }
      } else {
        plainFixed(layout, w, layout.stride, col.validity, s, e, pageNulls);
        const [lo, hi] = fixedMinMax(layout.kw, w, layout.stride, col.validity, s, e);
        if (lo >= 0) {
          min = fixedBytes(layout, w, lo * layout.stride);
          max = fixedBytes(layout, w, hi * layout.stride);
        }
      }
      const raw = body.view();
      if (dataPageOffset < 0) {
        codec.decide(raw, dictionaryRaw);
        if (dictionaryRaw !== null) {
          dictionaryPageOffset = pos;
          const packedDictionary = codec.page(dictionaryRaw);
          add(pageHeader(PAGE.DICTIONARY, dictionaryRaw.length, packedDictionary.length, dict.size, 0), packedDictionary, dictionaryRaw.length);
        }
        dataPageOffset = pos;
      }
      const packed = codec.page(raw);
      const header = pageHeader(PAGE.DATA, raw.length, packed.length, e - s, dict !== null ? ENCODING.RLE_DICTIONARY : ENCODING.PLAIN);
      pages.push({ offset: pos, size: header.length + packed.length, firstRow, nulls: pageNulls, min, max });
      add(header, packed, raw.length);
      if (min !== null) {
        if (chunkMin === null || cmp(min, chunkMin) < 0) chunkMin = min;
        if (chunkMax === null || cmp(max, chunkMax) > 0) chunkMax = max;
      }
      firstRow += e - s;
      s = e;
    }
  }
  return {
    parts, rows, nulls, pages, chunkMin, chunkMax, cmp,
    dictionary: dict !== null, dictionaryPageOffset, dataPageOffset, compressed: codec.compressed === true,
    compressedSize: pos - offset, uncompressedSize: uncompressedTotal,
  };
}
