/**
 * Tight per-type loops for the common Arrow → JS conversions (arrow-values.ts falls back to its generic
 * per-value path when this returns null). Each loop reads the raw buffers and the validity bitmap directly:
 * no per-value closures, no arrow-js `get()`. Values are exactly the generic path's:
 * - decimal128: the unscaled value from its little-endian 32-bit words through a double when it fits in
 *   53 bits (BigInt(number) instead of four bigint shifts), else the exact bigint path; |unscaled| < 8192
 *   shares one immutable Numeric per (value, scale);
 * - utf8: a chunk whose bytes are all ASCII is decoded once (latin1 = ASCII there) and sliced; one-byte
 *   strings come from a shared table (char(1) flags); other chunks decode per value like arrow-js does;
 * - dictionary<utf8>: each dictionary entry is decoded once and the JS strings reused;
 * - date32, int32, int64, float64: typed-array copies.
 */
import { Type, type Data, type DataType } from 'apache-arrow';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { PrimitiveType } from '../spec/schema.ts';

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

function decimal128Values(d: Data, scale: number): unknown[] {
  const n = d.length, out = new Array<unknown>(n);
  const vals = d.values as Uint32Array;
  const bm = nullsOf(d), off = d.offset;
  for (let i = 0; i < n; i++) {
    if (bm !== null && isNullAt(bm, off + i)) { out[i] = null; continue; }
    const at = i * 4;
    const w0 = vals[at]!, w1 = vals[at + 1]!, w2 = vals[at + 2]!, w3 = vals[at + 3]!;
    let u: number;
    if (w3 === 0 && w2 === 0 && w1 < HI53) u = w1 * TWO32 + w0;
    else if (w3 === 0xffffffff && w2 === 0xffffffff && w1 >= NEG_HI53) u = (w1 - TWO32) * TWO32 + w0;
    else { out[i] = Numeric.of(decimalWordsToBigInt(vals, at, 4), scale); continue; }
    out[i] = u >= -SMALL && u < SMALL ? smallNumeric(u, scale) : Numeric.of(BigInt(u), scale);
  }
  return out;
}

/** interned one-character ASCII strings */
const ASCII1: string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
const utf8 = new TextDecoder('utf-8');

function utf8Values(d: Data): unknown[] {
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

/** dictionary-encoded strings: entries decoded once (String() of each, as the generic path does) */
function dictionaryStringValues(d: Data): unknown[] | null {
  const dict = (d as Data & { dictionary?: { data: Data[] } }).dictionary;
  if (dict === undefined || !dict.data.every((c) => c.typeId === Type.Utf8)) return null;
  const entries: string[] = [];
  for (const c of dict.data) for (const v of utf8Values(c)) entries.push(String(v));
  const n = d.length, out = new Array<unknown>(n);
  const idx = d.values as ArrayLike<number | bigint>;
  const bm = nullsOf(d), off = d.offset;
  for (let i = 0; i < n; i++) out[i] = bm !== null && isNullAt(bm, off + i) ? null : entries[Number(idx[i]!)];
  return out;
}

/** copies a typed array (or maps it with fround/BigInt) honoring the validity bitmap */
function copyValues(d: Data, map: 0 | 1 | 2): unknown[] {
  const n = d.length, out = new Array<unknown>(n);
  const vals = d.values as ArrayLike<number> | ArrayLike<bigint>;
  const bm = nullsOf(d), off = d.offset;
  for (let i = 0; i < n; i++) {
    if (bm !== null && isNullAt(bm, off + i)) { out[i] = null; continue; }
    const v = vals[i]!;
    out[i] = map === 0 ? v : map === 1 ? Math.fround(v as number) : BigInt(v as number);
  }
  return out;
}

/** Fast conversion of one chunk, or null when the generic path must handle this Arrow/Iceberg pair. */
export function fastPrimitiveValues(d: Data, t: PrimitiveType): unknown[] | null {
  const tid = d.typeId;
  const type = d.type as DataType & { bitWidth?: number; isSigned?: boolean; unit?: number };
  switch (t.name) {
    case 'decimal':
      return tid === Type.Decimal && type.bitWidth === 128 ? decimal128Values(d, t.scale ?? 0) : null;
    case 'string':
      if (tid === Type.Utf8) return utf8Values(d);
      return tid === Type.Dictionary ? dictionaryStringValues(d) : null;
    case 'date':
      return tid === Type.Date && type.unit === 0 /* DAY */ ? copyValues(d, 0) : null;
    case 'int':
      return tid === Type.Int && type.bitWidth === 32 && type.isSigned === true ? copyValues(d, 0) : null;
    case 'long':
      if (tid !== Type.Int || type.isSigned !== true) return null;
      return type.bitWidth === 64 ? copyValues(d, 0) : type.bitWidth === 32 ? copyValues(d, 2) : null;
    case 'double':
      return tid === Type.Float && d.values instanceof Float64Array ? copyValues(d, 0) : null;
    case 'float':
      return tid === Type.Float && (d.values instanceof Float32Array || d.values instanceof Float64Array) ? copyValues(d, 1) : null;
    default:
      return null;
  }
}
