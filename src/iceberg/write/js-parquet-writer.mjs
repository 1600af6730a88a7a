// A Parquet file written in JS straight from COPY's typed column buffers (typed-columns.ts: int32 / date,
// int64, decimal, UTF-8): no Arrow IPC stream, no copy into wasm memory, no parquet-wasm. It writes what
// parquet-wasm (arrow-rs) writes for the same columns — the same physical and logical types, field ids,
// dictionary pages with RLE_DICTIONARY data pages (PLAIN for the columns the writer keeps off the dictionary
// and for chunks whose dictionary passes 1 MiB), data pages v1 of at most 20,000 rows, RLE definition levels,
// chunk Statistics with min_value / max_value, a ColumnIndex and OffsetIndex per chunk and TypeDefinedOrder
// column orders — so the reader's JS page decoder, page-index pruning and row-group statistics see the same file
// shape. Codecs: snappy (native `snappy`, else snappyjs) and uncompressed; a snappy file's chunks whose dictionary
// and first data page barely shrink are written uncompressed (js-parquet-chunk-codec.mjs); anything else (zstd, …) and
// other column types return null, and the caller encodes with parquet-wasm instead.
// Plain JS (loaded by the encode worker without tsx).
import { createRequire } from 'node:module';
import { DataType, tableFromIPC } from 'apache-arrow';
import { PHYSICAL, writeColumnChunk } from './js-parquet-column.mjs';
import { fileBoundsOfChunks } from './js-parquet-chunk-bounds.mjs';
import { ThriftWriter, T } from './thrift-compact-writer.mjs';

const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1 };
const CONVERTED = { UTF8: 0, DECIMAL: 5, DATE: 6 };
const REPETITION = { REQUIRED: 0, OPTIONAL: 1 };
const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]); // "PAR1"

const require = createRequire(import.meta.url);

/** snappy block compression: the native package, else snappyjs (pure JS) */
function loadSnappy() {
  try {
    const { compressSync } = require('snappy');
    return (bytes) => {
      const out = compressSync(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    };
  } catch {
    const snappyjs = require('snappyjs');
    return (bytes) => snappyjs.compress(bytes.slice());
  }
}

let snappy = null;

function compressorOf(codecName) {
  const name = String(codecName ?? 'snappy').toLowerCase();
  if (name === 'snappy') {
    snappy ??= loadSnappy();
    return { codec: CODEC.SNAPPY, compress: snappy };
  }
  if (name === 'uncompressed' || name === 'none') return { codec: CODEC.UNCOMPRESSED, compress: null };
  return null;
}

/** bytes of a FIXED_LEN_BYTE_ARRAY decimal of `precision` digits (arrow-rs's decimal_length_from_precision) */
export function decimalLength(precision) {
  return Math.ceil((Math.log2(10 ** precision + 1) + 1) / 8);
}

/** how a field's column is stored, or null when this writer does not handle it */
function layoutOf(field, dictionary) {
  const t = field.type;
  const base = { name: field.name, optional: field.nullable, fieldId: Number(field.metadata.get('PARQUET:field_id')), dictionary };
  if (!Number.isFinite(base.fieldId)) return null;
  if (DataType.isInt(t) && t.bitWidth === 32 && t.isSigned) return { ...base, physical: PHYSICAL.INT32, kw: 1, stride: 1, valueBytes: 4, kind: 'int32' };
  if (DataType.isDate(t) && t.unit === 0) return { ...base, physical: PHYSICAL.INT32, kw: 1, stride: 1, valueBytes: 4, kind: 'int32', converted: CONVERTED.DATE, logical: 'date' };
  if (DataType.isInt(t) && t.bitWidth === 64 && t.isSigned) return { ...base, physical: PHYSICAL.INT64, kw: 2, stride: 2, valueBytes: 8, kind: 'int64' };
  if (DataType.isDecimal(t) && t.bitWidth === 128) {
    const dec = { ...base, stride: 4, kind: 'decimal', converted: CONVERTED.DECIMAL, logical: 'decimal', precision: t.precision, scale: t.scale };
    if (t.precision <= 9) return { ...dec, physical: PHYSICAL.INT32, kw: 1, valueBytes: 4 };
    if (t.precision <= 18) return { ...dec, physical: PHYSICAL.INT64, kw: 2, valueBytes: 8 };
    return { ...dec, physical: PHYSICAL.FIXED_LEN_BYTE_ARRAY, kw: 4, valueBytes: decimalLength(t.precision) };
  }
  if (DataType.isUtf8(t)) return { ...base, physical: PHYSICAL.BYTE_ARRAY, kind: 'utf8', converted: CONVERTED.UTF8, logical: 'string' };
  return null;
}

function writeSchema(t, layouts) {
  t.listBegin(2, T.STRUCT, layouts.length + 1);
  t.elementBegin();
  t.string(4, 'arrow_schema');
  t.i32(5, layouts.length);
  t.structEnd();
  for (const l of layouts) {
    t.elementBegin();
    t.i32(1, l.physical);
    if (l.physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY) t.i32(2, l.valueBytes);
    t.i32(3, l.optional ? REPETITION.OPTIONAL : REPETITION.REQUIRED);
    t.string(4, l.name);
    if (l.converted !== undefined) t.i32(6, l.converted);
    if (l.logical === 'decimal') {
      t.i32(7, l.scale);
      t.i32(8, l.precision);
    }
    t.i32(9, l.fieldId);
    if (l.logical !== undefined) {
      t.structBegin(10);
      if (l.logical === 'string') { t.structBegin(1); t.structEnd(); }
      else if (l.logical === 'date') { t.structBegin(6); t.structEnd(); }
      else { t.structBegin(5); t.i32(1, l.scale); t.i32(2, l.precision); t.structEnd(); }
      t.structEnd();
    }
    t.structEnd();
  }
}

function writeColumnChunkMeta(t, l, c, codec) {
  t.elementBegin();
  t.i64(2, 0);
  t.structBegin(3);
  t.i32(1, l.physical);
  const encodings = c.dictionary ? [0, 3, 8] : [0, 3]; // PLAIN, RLE (levels), RLE_DICTIONARY
  t.listBegin(2, T.I32, encodings.length);
  for (const e of encodings) t.zigzag(e);
  t.listBegin(3, T.BINARY, 1);
  t.rawBinary(new TextEncoder().encode(l.name));
  t.i32(4, c.compressed ? codec : CODEC.UNCOMPRESSED); // a chunk that did not shrink is written uncompressed
  t.i64(5, c.rows);
  t.i64(6, c.uncompressedSize);
  t.i64(7, c.compressedSize);
  t.i64(9, c.dataPageOffset);
  if (c.dictionary) t.i64(11, c.dictionaryPageOffset);
  t.structBegin(12);
  // legacy min/max (signed order = the integer types' order), as arrow-rs writes them
  const legacy = c.chunkMin !== null && (l.physical === PHYSICAL.INT32 || l.physical === PHYSICAL.INT64);
  if (legacy) { t.binary(1, c.chunkMax); t.binary(2, c.chunkMin); }
  t.i64(3, c.nulls);
  if (c.chunkMin !== null) {
    const b = statBounds(l, c.chunkMin, c.chunkMax);
    t.binary(5, b.max);
    t.binary(6, b.min);
    t.bool(7, b.maxExact);
    t.bool(8, b.minExact);
  }
  t.structEnd();
  t.listBegin(13, T.STRUCT, c.dictionary ? 2 : 1);
  t.elementBegin(); t.i32(1, 0); t.i32(2, c.dictionary ? 8 : 0); t.i32(3, c.pages.length); t.structEnd();
  if (c.dictionary) { t.elementBegin(); t.i32(1, 2); t.i32(2, 0); t.i32(3, 1); t.structEnd(); }
  t.structEnd();
  t.i64(4, c.offsetIndex.offset);
  t.i32(5, c.offsetIndex.length);
  if (c.columnIndex !== null) {
    t.i64(6, c.columnIndex.offset);
    t.i32(7, c.columnIndex.length);
  }
  t.structEnd();
}

/** longest string min/max written untruncated, in chunk statistics and in the ColumnIndex (arrow-rs: 64 for both) */
const STAT_MAX_BYTES = 64;

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** the longest prefix of UTF-8 `b` of at most STAT_MAX_BYTES bytes ending on a character boundary */
function utf8Prefix(b) {
  let n = STAT_MAX_BYTES;
  while (n > 0 && (b[n] & 0xc0) === 0x80) n--;
  return b.subarray(0, n);
}

/**
 * a string bound cut to STAT_MAX_BYTES as arrow-rs cuts it: a min to its prefix; a max to its prefix with the
 * last character that can be incremented (to a character of the same UTF-8 length) incremented and the ones
 * after it dropped — still ≥ every value. `exact` false when cut; the value itself when no cut bound exists.
 */
function cutBound(b, isMax) {
  if (b.length <= STAT_MAX_BYTES) return { v: b, exact: true };
  const prefix = utf8Prefix(b);
  if (!isMax) return { v: prefix.slice(), exact: false };
  const chars = [...utf8Decoder.decode(prefix)];
  for (let k = chars.length - 1; k >= 0; k--) {
    const cp = chars[k].codePointAt(0) + 1;
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) continue;
    const next = String.fromCodePoint(cp);
    if (utf8Encoder.encode(next).length !== utf8Encoder.encode(chars[k]).length) continue;
    return { v: utf8Encoder.encode(chars.slice(0, k).join('') + next), exact: false };
  }
  return { v: b, exact: true };
}

/** the bounds statistics carry: strings cut (cutBound), other values as they are */
function statBounds(layout, min, max) {
  if (layout.physical !== PHYSICAL.BYTE_ARRAY) return { min, max, minExact: true, maxExact: true };
  const lo = cutBound(min, false);
  const hi = cutBound(max, true);
  return { min: lo.v, max: hi.v, minExact: lo.exact, maxExact: hi.exact };
}

/** ASCENDING (1) / DESCENDING (2) / UNORDERED (0) of the non-null pages' min and max values */
function boundaryOrder(pages, cmp) {
  let asc = true;
  let desc = true;
  let prev = null;
  for (const p of pages) {
    if (p.min === null) continue;
    if (prev !== null) {
      if (cmp(p.min, prev.min) < 0 || cmp(p.max, prev.max) < 0) asc = false;
      if (cmp(p.min, prev.min) > 0 || cmp(p.max, prev.max) > 0) desc = false;
    }
    prev = p;
  }
  return asc ? 1 : desc ? 2 : 0;
}

function columnIndexBytes(l, c) {
  const t = new ThriftWriter(256);
  const n = c.pages.length;
  const bounds = c.pages.map((p) => (p.min === null ? p : statBounds(l, p.min, p.max)));
  t.elementBegin();
  t.listBegin(1, T.BOOL_TRUE, n);
  for (const p of c.pages) t.rawBool(p.min === null);
  t.listBegin(2, T.BINARY, n);
  for (const b of bounds) t.rawBinary(b.min ?? new Uint8Array(0));
  t.listBegin(3, T.BINARY, n);
  for (const b of bounds) t.rawBinary(b.max ?? new Uint8Array(0));
  t.i32(4, boundaryOrder(bounds, c.cmp));
  t.listBegin(5, T.I64, n);
  for (const p of c.pages) t.zigzag(p.nulls);
  t.structEnd();
  return t.view().slice();
}

function offsetIndexBytes(c) {
  const t = new ThriftWriter(256);
  t.elementBegin();
  t.listBegin(1, T.STRUCT, c.pages.length);
  for (const p of c.pages) {
    t.elementBegin();
    t.i64(1, p.offset);
    t.i32(2, p.size);
    t.i64(3, p.firstRow);
    t.structEnd();
  }
  t.structEnd();
  return t.view().slice();
}

/**
 * the Parquet file of `task.batches` (typed-file-ipc.d.mts TypedFile + ParquetEncodeOptions), or null when a
 * column type or the codec is one this writer does not handle
 */
export function writeTypedParquet(task) {
  return writeTypedParquetFile(task)?.bytes ?? null;
}

/**
 * writeTypedParquet's file and its per-column bounds (typedBounds' form, from the chunks' statistics:
 * js-parquet-chunk-bounds.mjs), or null as writeTypedParquet
 */
export function writeTypedParquetFile(task) {
  const fields = tableFromIPC(task.schema).schema.fields;
  const noDict = new Set(task.options.noDictionary ?? []);
  const layouts = fields.map((f) => layoutOf(f, !noDict.has(f.name)));
  if (layouts.some((l) => l === null)) return null;
  if (task.batches.some((b) => b.columns.some((c, i) => c.kind !== layouts[i].kind))) return null;
  const comp = compressorOf(task.options.compressionCodec);
  if (comp === null) return null;
  const groupRows = task.options.rowGroupRows;
  const parts = [MAGIC];
  let pos = MAGIC.length;
  const groups = [];
  let b = 0;
  let at = 0;
  const total = task.batches.reduce((s, x) => s + x.length, 0);
  for (let start = 0; start < total; start += groupRows) {
    // the batch slices of this row group
    const slices = [];
    let need = Math.min(groupRows, total - start);
    while (need > 0) {
      const batch = task.batches[b];
      const take = Math.min(need, batch.length - at);
      if (take > 0) slices.push({ batch, from: at, to: at + take });
      at += take;
      need -= take;
      if (at >= batch.length) { b++; at = 0; }
    }
    const chunks = layouts.map((l, ci) => {
      const chunk = writeColumnChunk(l, slices.map((s) => ({ col: s.batch.columns[ci], from: s.from, to: s.to })), pos, comp.compress);
      for (const p of chunk.parts) parts.push(p);
      pos += chunk.compressedSize;
      return chunk;
    });
    groups.push({ rows: Math.min(groupRows, total - start), chunks, offset: chunks[0]?.dictionary ? chunks[0].dictionaryPageOffset : chunks[0]?.dataPageOffset ?? pos });
  }
  // page indexes after the row groups: every ColumnIndex, then every OffsetIndex
  for (const g of groups) g.chunks.forEach((c, k) => {
    const ci = columnIndexBytes(layouts[k], c);
    c.columnIndex = { offset: pos, length: ci.length };
    parts.push(ci);
    pos += ci.length;
  });
  for (const g of groups) for (const c of g.chunks) {
    const oi = offsetIndexBytes(c);
    c.offsetIndex = { offset: pos, length: oi.length };
    parts.push(oi);
    pos += oi.length;
  }
  const t = new ThriftWriter(4096);
  t.elementBegin();
  t.i32(1, 1);
  writeSchema(t, layouts);
  t.i64(3, total);
  t.listBegin(4, T.STRUCT, groups.length);
  groups.forEach((g, k) => {
    t.elementBegin();
    t.listBegin(1, T.STRUCT, g.chunks.length);
    g.chunks.forEach((c, ci) => writeColumnChunkMeta(t, layouts[ci], c, comp.codec));
    t.i64(2, g.chunks.reduce((s, c) => s + c.uncompressedSize, 0));
    t.i64(3, g.rows);
    t.i64(5, g.offset);
    t.i64(6, g.chunks.reduce((s, c) => s + c.compressedSize, 0));
    t.i16(7, k);
    t.structEnd();
  });
  t.string(6, 'lakegate js-parquet-writer');
  t.listBegin(7, T.STRUCT, layouts.length);
  for (let i = 0; i < layouts.length; i++) {
    t.elementBegin();
    t.structBegin(1);
    t.structEnd();
    t.structEnd();
  }
  t.structEnd();
  const footer = t.view();
  const out = new Uint8Array(pos + footer.length + 8);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  out.set(footer, o);
  o += footer.length;
  new DataView(out.buffer).setUint32(o, footer.length, true);
  out.set(MAGIC, o + 4);
  return { bytes: out, bounds: fileBoundsOfChunks(layouts, groups) };
}
