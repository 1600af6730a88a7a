/**
 * Tight per-type loops for the common Arrow → JS conversions (arrow-values.ts falls back to its generic
 * per-value path when this returns null). Each loop reads the raw buffers and the validity bitmap directly:
 * no per-value closures, no arrow-js `get()`. Values are exactly the generic path's:
 * - decimal128: the unscaled value from its little-endian 32-bit words through a double when it fits in
 *   53 bits (BigInt(number) instead of four bigint shifts), else the exact bigint path; |unscaled| < 8192
 *   shares one immutable Numeric per (value, scale). A type marked scaledOnly (a scan worker's partial
 *   aggregate that reads the column only through the vector kernels) gets a lazy column instead when every
 *   value fits: the doubles and LAZY_NUMERIC placeholders (without NULLs a sparse array, no element at all),
 *   no Numeric or bigint per value (pgtypes/numeric-column.ts);
 * - utf8: a chunk whose bytes are all ASCII is decoded once (latin1 = ASCII there) and sliced; one-byte
 *   strings come from a shared table (char(1) flags); other chunks decode per value like arrow-js does;
 * - dictionary<utf8>: each dictionary entry is decoded once and the JS strings reused; a whole chunk without
 *   NULLs keeps its codes beside the column (dictionary-strings.ts), and of a type marked codesOnly is a lazy
 *   column (codes and entries, no string per row);
 * - int64 of a type marked keyOnly (a hash join's build key nothing else reads: exec/join-key-only.ts): exact
 *   doubles read from the two 32-bit words and a shared placeholder per row (pgtypes/exact-int64-column.ts),
 *   no BigInt per value; a chunk holding a value of 2^53 or more in magnitude converts as usual;
 * - date32, int32, int64, float64, timestamp[µs]: typed-array copies; bool: bits read in place.
 * With `rows` (late materialization: ascending row indexes), only those rows are converted, in that order.
 */
import { Type, type Data, type DataType } from 'apache-arrow';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { attachLazyScaled, attachLazyScaledOnDemand, attachScaled, LAZY_NUMERIC, sparseLazyNumerics } from '../../common/pgtypes/numeric-column.ts';
import type { IcebergType, NestedField, PrimitiveType } from '../spec/schema.ts';
import { exactDoublesAtRows, exactDoublesOf, hasExactDoubles } from './exact-doubles.ts';
import { dictionaryCodesOf } from './dictionary-codes.ts';
import { attachDictionaryScaled } from './dictionary-scaled.ts';
import { attachDictionaryStrings, lazyDictionaryStrings } from './dictionary-strings.ts';
import { keyOnlyInt64Column } from '../../common/pgtypes/exact-int64-column.ts';

const TWO32 = 4294967296;
/** high word bound of a non-negative value < 2^53 (w1 < 2^21) */
const HI53 = 0x200000;
/** high word bound of a negative value ≥ -2^53 (w1 ≥ 2^32 - 2^21) */
const NEG_HI53 = 0xffe00000;

/** validity bitmap when the chunk has nulls, else null (then every value is valid) */
function nullsOf(d: Data): Uint8Array | null {
  return d.nullable && d.nullCount > 0 ? (d.nullBitmap as Uint8Array) : null;
}

const isNullAt = (bm: Uint8Array, pos: number): boolean => (bm[pos >> 3]! & (1 << (pos & 7))) === 0;

/** two's complement of `words` little-endian 32-bit words starting at vals[at] */
export function decimalWordsToBigInt(vals: Uint32Array, at: number, words: number): bigint {
  let n = 0n;
  for (let w = words - 1; w >= 0; w--) n = (n << 32n) | BigInt(vals[at + w]!);
  const bits = BigInt(words * 32);
  if (n >> (bits - 1n)) n -= 1n << bits;
  return n;
}

/**
 * Shared Numerics for small unscaled values, per scale (Numeric is immutable: quantities, discounts and
 * tax rates repeat a few hundred values across millions of rows, and each would otherwise be an object).
 */
const SMALL = 8192;
const smallByScale: (Numeric | undefined)[][] = [];

function smallNumeric(u: number, scale: number): Numeric {
  const cache = (smallByScale[scale] ??= new Array<Numeric | undefined>(2 * SMALL));
  return (cache[u + SMALL] ??= Numeric.of(BigInt(u), scale));
}

const SMALL_N = BigInt(SMALL);

/** Numeric.of(u, scale) for scale ≥ 0, sharing the instance of a small value (scan worker transfer). */
export function numericOfUnscaled(u: bigint, scale: number): Numeric {
  return u >= -SMALL_N && u < SMALL_N ? smallNumeric(Number(u), scale) : Numeric.of(u, scale);
}

/** numericOfUnscaled for an unscaled value that is an exact integer in a double (|u| < 2^53) */
export function numericOfUnscaledNumber(u: number, scale: number): Numeric {
  return u >= -SMALL && u < SMALL ? smallNumeric(u, scale) : Numeric.of(BigInt(u), scale);
}

/** the rows a loop visits: `rows`, or 0..length-1 */
type Rows = readonly number[] | null;

/** the (non-spec) key marking a decimal type whose columns may come back lazy; a string, so it survives structured clone */
const SCALED_ONLY = 'lakegate:scaledOnly';

/** `f` with its decimal type marked scaledOnly (the reader may hand back lazy columns for it) */
export function scaledOnlyField(f: NestedField): NestedField {
  return { ...f, type: { ...f.type, [SCALED_ONLY]: true } as unknown as IcebergType };
}

const isScaledOnly = (t: PrimitiveType): boolean => (t as PrimitiveType & { [SCALED_ONLY]?: boolean })[SCALED_ONLY] === true;

/** the (non-spec) key marking a string type whose dictionary-coded chunks may come back as lazy columns */
const CODES_ONLY = 'lakegate:codesOnly';

/**
 * `f` with its string type marked codesOnly: a whole dictionary-coded chunk without NULLs comes back as a lazy
 * column (dictionary-strings.ts lazyDictionaryStrings: codes and entries, no string per row) — for a scan
 * worker's partial aggregate that reads the column only as a group key (exec/partial/run-fragment.ts)
 */
export function codesOnlyField(f: NestedField): NestedField {
  return { ...f, type: { ...f.type, [CODES_ONLY]: true } as unknown as IcebergType };
}

const isCodesOnly = (t: PrimitiveType): boolean => (t as PrimitiveType & { [CODES_ONLY]?: boolean })[CODES_ONLY] === true;

/** `f` without codesOnly (a scan whose batches leave the worker as they are: a lazy column must not) */
export function withoutCodesOnly(f: NestedField): NestedField {
  if (f.type.kind !== 'primitive' || !isCodesOnly(f.type)) return f;
  const { [CODES_ONLY]: _marked, ...type } = f.type as PrimitiveType & { [CODES_ONLY]?: boolean };
  return { ...f, type: type as IcebergType };
}

/** the (non-spec) key marking an int8 type whose columns may come back key-only */
const KEY_ONLY = 'lakegate:keyOnly';

/**
 * `f` with its long type marked keyOnly: int64 chunks come back as key-only columns (exact doubles attached and a
 * placeholder per row, no BigInt) — for a scan whose consumer reads the column only as a hash key
 * (exec/join-key-only.ts); column-transfer.ts packs such a column as its doubles
 */
export function keyOnlyField(f: NestedField): NestedField {
  return { ...f, type: { ...f.type, [KEY_ONLY]: true } as unknown as IcebergType };
}

const isKeyOnly = (t: PrimitiveType): boolean => (t as PrimitiveType & { [KEY_ONLY]?: boolean })[KEY_ONLY] === true;

/** what keyOnlyFields reads of a FileScanTask */
interface KeyOnlyTask {
  readonly positionDeletes: readonly unknown[];
  readonly equalityDeletes: readonly unknown[];
  readonly rowRange?: readonly [number, number];
}

/**
 * The fields of a pool scan reading `fields` (table columns `wanted`) with `keyOnly` (ScanContext.keyOnly) marked
 * keyOnly: long fields no pushed filter reads (`readByFilter`: a worker's row filter reads values) of tasks
 * without delete files (deletes compare values) and without a row range (file-scan-task-reader.ts picks the
 * rows of such tasks, and a plain pick would drop the doubles). `fields` itself when none is marked.
 */
export function keyOnlyFields(
  fields: readonly NestedField[], wanted: readonly number[], keyOnly: readonly number[] | undefined,
  readByFilter: ReadonlySet<number>, tasks: readonly KeyOnlyTask[],
): readonly NestedField[] {
  if (keyOnly === undefined || keyOnly.length === 0) return fields;
  if (tasks.some((t) => t.positionDeletes.length > 0 || t.equalityDeletes.length > 0 || t.rowRange !== undefined)) return fields;
  let out: NestedField[] | null = null;
  for (let k = 0; k < fields.length; k++) {
    const f = fields[k]!;
    if (!keyOnly.includes(wanted[k]!) || f.type.kind !== 'primitive' || f.type.name !== 'long' || readByFilter.has(f.id)) continue;
    (out ??= fields.slice())[k] = keyOnlyField(f);
  }
  return out ?? fields;
}

/** the words of an int64 are read low first: little-endian platforms only (others convert as usual) */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** the high word of every int64 below 2^53 in magnitude lies in [-2^21, 2^21) */
const HI_LIMIT = 0x200000;

/**
 * an int64 chunk (rows `rows`, or all) as a key-only column: doubles from the two int32 words of each value, or
 * null when a value is 2^53 or more in magnitude (-2^53 itself included: not a safe integer)
 */
function keyOnlyInt64Values(d: Data, rows: Rows): unknown[] | null {
  const vals = d.values as BigInt64Array;
  if (!LITTLE_ENDIAN || !(vals instanceof BigInt64Array)) return null;
  const w = new Int32Array(vals.buffer, vals.byteOffset, 2 * vals.length);
  const n = rows === null ? d.length : rows.length;
  const bm = nullsOf(d), off = d.offset;
  const f = new Float64Array(n);
  let nulls: Uint8Array | null = null;
  for (let k = 0; k < n; k++) {
    const i = rows === null ? k : rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) { (nulls ??= new Uint8Array(n))[k] = 1; continue; }
    const hi = w[2 * i + 1]!;
    if (hi >= HI_LIMIT || hi < -HI_LIMIT) return null;
    const x = hi * TWO32 + (w[2 * i]! >>> 0);
    if (x === -9007199254740992) return null;
    f[k] = x;
  }
  return keyOnlyInt64Column(f, n, nulls);
}

/**
 * a whole dictionary-coded chunk without NULLs as a lazy column whose doubles are gathered only if a kernel
 * reads them, its codes and entries' doubles beside it (dictionary-scaled.ts: aggregates sum per code and
 * never ask for them); null when the chunk is not one
 */
function codedLazyDecimalValues(d: Data, scale: number): unknown[] | null {
  if (nullsOf(d) !== null || !hasExactDoubles(d)) return null;
  const dc = dictionaryCodesOf(d);
  const entries = dc === undefined ? undefined : exactDoublesOf(dc.dictionary);
  if (dc === undefined || entries === undefined || dc.codes.length !== d.length) return null;
  const out = sparseLazyNumerics(d.length);
  attachLazyScaledOnDemand(out, () => exactDoublesOf(d)!, scale, true);
  attachDictionaryScaled(out, { codes: dc.codes, entries });
  return out;
}

/**
 * a scaledOnly decimal128 chunk as a lazy column (numeric-column.ts), or null when a value does not fit in a
 * double exactly (then the Numerics are built as usual)
 */
function lazyDecimal128Values(d: Data, scale: number, rows: Rows): unknown[] | null {
  const n = rows === null ? d.length : rows.length;
  const coded = rows === null ? codedLazyDecimalValues(d, scale) : null;
  if (coded !== null) return coded;
  // all rows: the decoder's doubles themselves (batches are immutable: nothing writes into an attachment)
  const exact = rows === null ? exactDoublesOf(d) : exactDoublesAtRows(d, rows);
  if (exact !== undefined) {
    const bm = nullsOf(d), off = d.offset;
    const f = exact.length === n ? exact : exact.subarray(0, n);
    // no NULLs: a sparse column, no element per row (numeric-column.ts sparseLazyNumerics)
    const out = bm === null ? sparseLazyNumerics(n) : new Array<unknown>(n);
    if (bm !== null) for (let k = 0; k < n; k++) out[k] = isNullAt(bm, off + (rows === null ? k : rows[k]!)) ? null : LAZY_NUMERIC;
    // no bitmap, no NULL: the kernels skip their per-row NULL scan (vector-numeric.ts toScaled)
    attachLazyScaled(out, f, scale, bm === null);
    return out;
  }
  const vals = d.values as Uint32Array;
  const bm = nullsOf(d), off = d.offset;
  const f = new Float64Array(n), out = bm === null ? sparseLazyNumerics(n) : new Array<unknown>(n);
  for (let k = 0; k < n; k++) {
    const i = rows === null ? k : rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) { out[k] = null; continue; }
    const at = i * 4;
    const w1 = vals[at + 1]!, w2 = vals[at + 2]!, w3 = vals[at + 3]!;
    if (w3 === 0 && w2 === 0 && w1 < HI53) f[k] = w1 * TWO32 + vals[at]!;
    else if (w3 === 0xffffffff && w2 === 0xffffffff && w1 >= NEG_HI53) f[k] = (w1 - TWO32) * TWO32 + vals[at]!;
    else return null;
    if (bm !== null) out[k] = LAZY_NUMERIC;
  }
  attachLazyScaled(out, f, scale, bm === null);
  return out;
}

function decimal128Values(d: Data, scale: number, rows: Rows): unknown[] {
  const n = rows === null ? d.length : rows.length, out = new Array<unknown>(n);
  const bm = nullsOf(d), off = d.offset;
  // a pick of rows reads just their doubles (exactDoublesAtRows: indexed by k)
  const exact = rows === null ? exactDoublesOf(d) : exactDoublesAtRows(d, rows);
  if (exact !== undefined) {
    const f = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const i = rows === null ? k : rows[k]!;
      if (bm !== null && isNullAt(bm, off + i)) { out[k] = null; continue; }
      const u = exact[k]!;
      f[k] = u;
      out[k] = u >= -SMALL && u < SMALL ? smallNumeric(u, scale) : Numeric.of(BigInt(u), scale);
    }
    attachScaled(out, f, scale);
    return out;
  }
  const vals = d.values as Uint32Array;
  // the unscaled values as doubles too, for the vector kernels (pgtypes/numeric-column.ts); dropped past 2^53
  let f: Float64Array | null = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = rows === null ? k : rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) { out[k] = null; continue; }
    const at = i * 4;
    const w0 = vals[at]!, w1 = vals[at + 1]!, w2 = vals[at + 2]!, w3 = vals[at + 3]!;
    let u: number;
    if (w3 === 0 && w2 === 0 && w1 < HI53) u = w1 * TWO32 + w0;
    else if (w3 === 0xffffffff && w2 === 0xffffffff && w1 >= NEG_HI53) u = (w1 - TWO32) * TWO32 + w0;
    else { out[k] = Numeric.of(decimalWordsToBigInt(vals, at, 4), scale); f = null; continue; }
    if (f !== null) f[k] = u;
    out[k] = u >= -SMALL && u < SMALL ? smallNumeric(u, scale) : Numeric.of(BigInt(u), scale);
  }
  if (f !== null) attachScaled(out, f, scale);
  return out;
}

/** interned one-character ASCII strings */
const ASCII1: string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
const utf8 = new TextDecoder('utf-8');

function utf8Values(d: Data, rows: Rows = null): unknown[] {
  if (rows !== null) return utf8ValuesAt(d, rows);
  const n = d.length, out = new Array<unknown>(n);
  const bytes = d.values as Uint8Array;
  const offs = d.valueOffsets as Int32Array;
  const bm = nullsOf(d), off = d.offset;
  if (n === 0) return out;
  const start = offs[0]!, end = offs[n]!;
  let ascii = true;
  for (let p = start; p < end; p++) if (bytes[p]! >= 0x80) { ascii = false; break; }
  if (ascii) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
    for (let i = 0; i < n; i++) {
      if (bm !== null && isNullAt(bm, off + i)) { out[i] = null; continue; }
      const a = offs[i]!, b = offs[i + 1]!;
      out[i] = b - a === 1 ? ASCII1[bytes[a]!]! : text.substring(a - start, b - start);
    }
    return out;
  }
  // same decoder settings as arrow-js (util/utf8: TextDecoder('utf-8'), BOM stripped, U+FFFD replacement)
  for (let i = 0; i < n; i++) {
    if (bm !== null && isNullAt(bm, off + i)) { out[i] = null; continue; }
    const a = offs[i]!, b = offs[i + 1]!;
    out[i] = b - a === 1 && bytes[a]! < 0x80 ? ASCII1[bytes[a]!]! : utf8.decode(bytes.subarray(a, b));
  }
  return out;
}

/** some rows of a utf8 chunk: each value decoded alone (the whole-chunk latin1 decode would cost more) */
function utf8ValuesAt(d: Data, rows: readonly number[]): unknown[] {
  const n = rows.length, out = new Array<unknown>(n);
  const bytes = d.values as Uint8Array;
  const offs = d.valueOffsets as Int32Array;
  const bm = nullsOf(d), off = d.offset;
  for (let k = 0; k < n; k++) {
    const i = rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) { out[k] = null; continue; }
    const a = offs[i]!, b = offs[i + 1]!;
    out[k] = b - a === 1 && bytes[a]! < 0x80 ? ASCII1[bytes[a]!]! : utf8.decode(bytes.subarray(a, b));
  }
  return out;
}

/** the JS strings of a dictionary (a Vector shared by the batches of one chunk) */
const dictionaryEntries = new WeakMap<object, string[]>();

/**
 * dictionary-encoded strings: entries decoded once (String() of each, as the generic path does); with `rows`,
 * only the entries those rows use
 */
function dictionaryStringValues(d: Data, rows: Rows, codesOnly: boolean): unknown[] | null {
  const dict = (d as Data & { dictionary?: { data: Data[] } }).dictionary;
  if (dict === undefined || !dict.data.every((c) => c.typeId === Type.Utf8)) return null;
  const idx = d.values as ArrayLike<number | bigint>;
  const bm = nullsOf(d), off = d.offset;
  let entryOf: (e: number) => string;
  if (rows === null) {
    // the batches of one decoded chunk share their dictionary: its entries are decoded once
    let entries = dictionaryEntries.get(dict);
    if (entries === undefined) {
      entries = [];
      for (const c of dict.data) for (const v of utf8Values(c)) entries.push(String(v));
      dictionaryEntries.set(dict, entries);
    }
    const n = d.length, all = entries;
    // codesOnly: the codes and entries alone, no string per row (a partial aggregate's group key)
    if (codesOnly && bm === null && idx instanceof Int32Array) return lazyDictionaryStrings(idx.length === n ? idx : idx.subarray(0, n), all);
    const out = new Array<unknown>(n);
    if (bm === null && idx instanceof Int32Array) {
      // no NULLs, int32 indices (the JS decoder's): one load a row
      for (let i = 0; i < n; i++) out[i] = all[idx[i]!]!;
      // the codes ride along: group keys of few values find their group by code (dictionary-strings.ts)
      attachDictionaryStrings(out, { codes: idx.length === n ? idx : idx.subarray(0, n), entries: all });
      return out;
    }
    for (let i = 0; i < n; i++) out[i] = bm !== null && isNullAt(bm, off + i) ? null : all[Number(idx[i]!)]!;
    return out;
  } else {
    // entries by chunk of the dictionary, decoded on first use
    const starts: number[] = [];
    let total = 0;
    for (const c of dict.data) { starts.push(total); total += c.length; }
    const cache = new Array<string | undefined>(total);
    entryOf = (e) => {
      let s = starts.length - 1;
      while (starts[s]! > e) s--;
      return (cache[e] ??= String(utf8ValuesAt(dict.data[s]!, [e - starts[s]!])[0]));
    };
  }
  const n = rows === null ? d.length : rows.length, out = new Array<unknown>(n);
  for (let k = 0; k < n; k++) {
    const i = rows === null ? k : rows[k]!;
    out[k] = bm !== null && isNullAt(bm, off + i) ? null : entryOf(Number(idx[i]!));
  }
  return out;
}

/** copies a typed array (or maps it with fround/BigInt) honoring the validity bitmap */
function copyValues(d: Data, map: 0 | 1 | 2, rows: Rows): unknown[] {
  const n = rows === null ? d.length : rows.length, out = new Array<unknown>(n);
  const vals = d.values as ArrayLike<number> | ArrayLike<bigint>;
  const bm = nullsOf(d), off = d.offset;
  for (let k = 0; k < n; k++) {
    const i = rows === null ? k : rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) { out[k] = null; continue; }
    const v = vals[i]!;
    out[k] = map === 0 ? v : map === 1 ? Math.fround(v as number) : BigInt(v as number);
  }
  return out;
}

/** timestamps in µs (TimeUnit MICROSECOND): the int64 values as they are */
function microsValues(d: Data, rows: Rows): unknown[] {
  return copyValues(d, 0, rows);
}

/** bit-packed booleans (the bitmap of a sliced chunk is not sliced: positions count from d.offset) */
function booleanValues(d: Data, rows: Rows): unknown[] {
  const n = rows === null ? d.length : rows.length, out = new Array<unknown>(n);
  const bits = d.values as Uint8Array;
  const bm = nullsOf(d), off = d.offset;
  for (let k = 0; k < n; k++) {
    const p = off + (rows === null ? k : rows[k]!);
    out[k] = bm !== null && isNullAt(bm, p) ? null : (bits[p >> 3]! & (1 << (p & 7))) !== 0;
  }
  return out;
}

/** Fast conversion of one chunk, or null when the generic path must handle this Arrow/Iceberg pair. */
export function fastPrimitiveValues(d: Data, t: PrimitiveType, rows: Rows = null): unknown[] | null {
  const tid = d.typeId;
  const type = d.type as DataType & { bitWidth?: number; isSigned?: boolean; unit?: number };
  switch (t.name) {
    case 'decimal':
      if (tid !== Type.Decimal || type.bitWidth !== 128) return null;
      return (isScaledOnly(t) ? lazyDecimal128Values(d, t.scale ?? 0, rows) : null) ?? decimal128Values(d, t.scale ?? 0, rows);
    case 'string':
      if (tid === Type.Utf8) return utf8Values(d, rows);
      return tid === Type.Dictionary ? dictionaryStringValues(d, rows, isCodesOnly(t)) : null;
    case 'date':
      return tid === Type.Date && type.unit === 0 /* DAY */ ? copyValues(d, 0, rows) : null;
    case 'int':
      return tid === Type.Int && type.bitWidth === 32 && type.isSigned === true ? copyValues(d, 0, rows) : null;
    case 'long':
      if (tid !== Type.Int || type.isSigned !== true) return null;
      if (type.bitWidth === 64) return (isKeyOnly(t) ? keyOnlyInt64Values(d, rows) : null) ?? copyValues(d, 0, rows);
      return type.bitWidth === 32 ? copyValues(d, 2, rows) : null;
    case 'double':
      return tid === Type.Float && d.values instanceof Float64Array ? copyValues(d, 0, rows) : null;
    case 'float':
      return tid === Type.Float && (d.values instanceof Float32Array || d.values instanceof Float64Array) ? copyValues(d, 1, rows) : null;
    case 'timestamp': case 'timestamptz':
      return tid === Type.Timestamp && type.unit === 2 /* MICROSECOND */ && d.values instanceof BigInt64Array ? microsValues(d, rows) : null;
    case 'boolean':
      return tid === Type.Bool ? booleanValues(d, rows) : null;
    default:
      return null;
  }
}
