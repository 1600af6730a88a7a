/**
 * A typed column (typed-columns.ts) → Arrow Data for its Iceberg field without converting values: the
 * buffers are wrapped as they are (int → Int32, date → DateDay, long → Int64, decimal(p,s) → Decimal128,
 * string → Utf8), and ColumnMetrics get the same counts and bounds arrowColumn would have given them,
 * computed over the buffers (bounds as numbers, bigints only for values beyond 2^53). Returns null when
 * the column's buffer does not match the field's type; the caller then converts JS values (arrowColumn).
 */
import { makeData, type Data } from 'apache-arrow';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { arrowTypeOf } from './arrow-column.ts';
import type { ColumnMetrics } from './column-metrics.ts';
import { decimalUnscaledAt, int64Number, type TypedColumn, type Utf8Column } from './typed-columns.ts';

function matches(col: TypedColumn, t: PrimitiveType): boolean {
  switch (col.kind) {
    case 'int32': return t.name === col.domain;
    case 'int64': return t.name === 'long';
    case 'decimal': return t.name === 'decimal' && t.scale === col.scale && (t.precision ?? 38) >= col.precision;
    case 'utf8': return t.name === 'string';
    default: return false;
  }
}

const valid = (bitmap: Uint8Array | null, i: number): boolean => bitmap === null || (bitmap[i >> 3]! & (1 << (i & 7))) !== 0;

/**
 * min/max of the values held as `stride` 32-bit words each (lo, hi, then sign words for decimals) when every
 * non-null one is a safe integer (hi within ±2^21, the words above it the sign): one loop without calls,
 * the common case of a bulk load. null when some value is not (the caller then takes bounds64).
 */
function safeBounds(w: Int32Array, stride: number, length: number, bitmap: Uint8Array | null): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < length; i++) {
    if (bitmap !== null && (bitmap[i >> 3]! & (1 << (i & 7))) === 0) continue;
    const k = i * stride;
    const hi = w[k + 1]!;
    if (hi > 0x1fffff || hi < -0x200000) return null;
    if (stride === 4) {
      const sign = hi < 0 ? -1 : 0;
      if (w[k + 2] !== sign || w[k + 3] !== sign) return null;
    }
    const v = hi * 2 ** 32 + (w[k]! >>> 0);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** min/max over 64-bit words read as numbers where exact (`at` returns null beyond 2^53), else as bigints */
function bounds64(length: number, bitmap: Uint8Array | null, at: (i: number) => number | null, big: (i: number) => bigint): [bigint, bigint] | null {
  let min = Infinity;
  let max = -Infinity;
  let bmin: bigint | null = null;
  let bmax: bigint | null = null;
  for (let i = 0; i < length; i++) {
    if (!valid(bitmap, i)) continue;
    const v = at(i);
    if (v !== null) {
      if (v < min) min = v;
      if (v > max) max = v;
      continue;
    }
    const b = big(i);
    if (bmin === null || b < bmin) bmin = b;
    if (bmax === null || b > bmax) bmax = b;
  }
  let lo = min === Infinity ? bmin : BigInt(min);
  let hi = max === -Infinity ? bmax : BigInt(max);
  if (lo === null || hi === null) return null;
  if (bmin !== null && bmin < lo) lo = bmin;
  if (bmax !== null && bmax > hi) hi = bmax;
  return [lo, hi];
}

/** byte order of UTF-8 = code point order, Iceberg's string order */
function compareUtf8(data: Uint8Array, a0: number, a1: number, b0: number, b1: number): number {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let k = 0; k < n; k++) {
    const d = data[a0 + k]! - data[b0 + k]!;
    if (d !== 0) return d;
  }
  return (a1 - a0) - (b1 - b0);
}

const utf8 = new TextDecoder();

function utf8Bounds(col: Utf8Column): [string, string] | null {
  const { offsets, data, validity } = col;
  let min = -1;
  let max = -1;
  // first bytes of the bounds so far (-1: empty string): a value whose first byte lies strictly between
  // them is neither bound, the usual case for free text, and needs no full comparison
  let minFirst = 256;
  let maxFirst = -1;
  for (let i = 0; i < col.length; i++) {
    if (!valid(validity, i)) continue;
    const s = offsets[i]!;
    const e = offsets[i + 1]!;
    if (min < 0) {
      min = max = i;
      minFirst = maxFirst = s < e ? data[s]! : -1;
      continue;
    }
    if (s < e) {
      const f = data[s]!;
      if (f > minFirst && f < maxFirst) continue;
    }
    if (compareUtf8(data, s, e, offsets[min]!, offsets[min + 1]!) < 0) {
      min = i;
      minFirst = s < e ? data[s]! : -1;
    } else if (compareUtf8(data, s, e, offsets[max]!, offsets[max + 1]!) > 0) {
      max = i;
      maxFirst = s < e ? data[s]! : -1;
    }
  }
  if (min < 0) return null;
  const str = (i: number): string => utf8.decode(data.subarray(offsets[i]!, offsets[i + 1]!));
  return [str(min), str(max)];
}


export function typedArrowData(col: TypedColumn, t: PrimitiveType, m: ColumnMetrics): Data | null {
  if (col.kind === 'values' || !matches(col, t)) return null;
  const { length, nullCount, validity } = col;
  m.valueCount += length;
  m.nullCount += nullCount;
  const base = { type: arrowTypeOf(t), length, nullCount, ...(validity === null ? {} : { nullBitmap: validity }) };
  switch (col.kind) {
    case 'int32': {
      const v = col.values;
      let min = Infinity;
      let max = -Infinity;
      for (let i = 0; i < length; i++) {
        if (validity !== null && !valid(validity, i)) continue;
        const x = v[i]!;
        if (x < min) min = x;
        if (x > max) max = x;
      }
      if (min !== Infinity) m.addRange(min, max);
      return makeData({ ...base, data: v } as Parameters<typeof makeData>[0]);
    }
    case 'int64': {
      const words = new Int32Array(col.values.buffer, col.values.byteOffset, length * 2);
      const safe = safeBounds(words, 2, length, validity);
      const b: [bigint, bigint] | null = safe !== null ? (safe[0] === Infinity ? null : [BigInt(safe[0]), BigInt(safe[1])]) : bounds64(length, validity, (i) => int64Number(words, i), (i) => col.values[i]!);
      if (b !== null) m.addRange(b[0], b[1]);
      return makeData({ ...base, data: col.values } as Parameters<typeof makeData>[0]);
    }
    case 'decimal': {
      const w32 = new Int32Array(col.words.buffer, col.words.byteOffset, length * 4);
      const at = (i: number): number | null => {
        const hi = w32[4 * i + 1]!;
        const sign = hi < 0 ? -1 : 0;
        if (w32[4 * i + 2] !== sign || w32[4 * i + 3] !== sign || hi > 0x1fffff || hi < -0x200000) return null;
        return hi * 2 ** 32 + (w32[4 * i]! >>> 0);
      };
      const safe = safeBounds(w32, 4, length, validity);
      const b: [bigint, bigint] | null = safe !== null ? (safe[0] === Infinity ? null : [BigInt(safe[0]), BigInt(safe[1])]) : bounds64(length, validity, at, (i) => decimalUnscaledAt(col, i));
      if (b !== null) m.addRange(Numeric.of(b[0], col.scale), Numeric.of(b[1], col.scale));
      return makeData({ ...base, data: new Uint32Array(col.words.buffer, col.words.byteOffset, length * 4) } as Parameters<typeof makeData>[0]);
    }
    case 'utf8': {
      const b = utf8Bounds(col);
      if (b !== null) m.addRange(b[0], b[1]);
      return makeData({ ...base, valueOffsets: col.offsets, data: col.data } as Parameters<typeof makeData>[0]);
    }
  }
}

/**
 * Whether nearly all values of a sample differ (over 90 % of the first `sample` rows): parquet-rs then
 * spends its time building a dictionary page that overflows and falls back to PLAIN in every row group
 * (TPC-H lineitem: l_partkey, l_extendedprice, l_comment; measured 20 % of the encode time), so such
 * columns are written PLAIN from the start. A column of a few thousand values (dates) keeps its
 * dictionary: 2048 draws from 2500 values are only ~65 % distinct. Values are compared by 32-bit word or string-byte hash: a
 * collision only makes a column look less distinct.
 */
export function mostlyDistinct(col: TypedColumn, sample = 2048): boolean {
  const n = Math.min(col.length, sample);
  if (n < 256 || col.kind === 'values') return false;
  const seen = new Set<number>();
  let nonNull = 0;
  for (let i = 0; i < n; i++) {
    if (!valid(col.validity, i)) continue;
    nonNull++;
    switch (col.kind) {
      case 'int32': seen.add(col.values[i]!); break;
      case 'int64': seen.add(Number(BigInt.asIntN(52, col.values[i]!))); break;
      case 'decimal': seen.add(Number(BigInt.asIntN(52, col.words[2 * i]!))); break;
      case 'utf8': {
        let h = 0x811c9dc5;
        for (let k = col.offsets[i]!; k < col.offsets[i + 1]!; k++) h = Math.imul(h ^ col.data[k]!, 0x01000193);
        seen.add(h);
        break;
      }
    }
  }
  return nonNull >= 256 && seen.size > nonNull * 0.9;
}
