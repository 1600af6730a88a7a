/**
 * One column of lakegate JS values (common/pgtypes/values.ts) → Arrow Data of the Parquet type Iceberg
 * expects for the column's Iceberg type (§ Parquet type mapping), while feeding ColumnMetrics.
 * Buffers are built directly (no arrow-js builders): int→Int32, long→Int64, float/double, decimal→
 * Decimal128(p,s), date→Date32 days, time→Time64 µs, timestamp→Timestamp µs (timestamptz with "UTC", so
 * Parquet marks it isAdjustedToUTC), string→Utf8, uuid→FixedSizeBinary(16), binary→Binary, boolean→Bool.
 * Lists, structs and maps: nested-column.ts (which builds their leaves here).
 */
import {
  Binary, Bool, DateDay, Decimal, Float32, Float64, FixedSizeBinary, Int32, Int64, makeData, Time, TimeUnit,
  Timestamp, Utf8, type Data, type DataType,
} from 'apache-arrow';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { Numeric, pow10 } from '../../common/pgtypes/numeric.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import type { ColumnMetrics } from './column-metrics.ts';
import { uuidToBytes } from './single-value-bytes.ts';
import { V3_WRITTEN_TYPES, v3ArrowColumn, v3ArrowType } from '../variant/v3-arrow-column.ts';

export function arrowTypeOf(t: PrimitiveType): DataType {
  switch (t.name) {
    case 'boolean': return new Bool();
    case 'int': return new Int32();
    case 'long': return new Int64();
    case 'float': return new Float32();
    case 'double': return new Float64();
    case 'decimal': return new Decimal(t.scale ?? 0, t.precision ?? 38, 128);
    case 'date': return new DateDay();
    case 'time': return new Time(TimeUnit.MICROSECOND, 64);
    case 'timestamp': return new Timestamp(TimeUnit.MICROSECOND, null);
    case 'timestamptz': return new Timestamp(TimeUnit.MICROSECOND, 'UTC');
    case 'string': return new Utf8();
    case 'uuid': return new FixedSizeBinary(16);
    case 'binary': return new Binary();
    case 'variant': case 'geometry': case 'geography': return v3ArrowType(t);
    default: throw pgError(SqlState.feature_not_supported, `writing Iceberg type "${t.name}" is not supported`);
  }
}

const enc = new TextEncoder();

/** the value at the column's decimal scale, checked against its precision (22003 as PostgreSQL) */
function decimalUnscaled(v: unknown, t: PrimitiveType): { n: Numeric; unscaled: bigint } {
  const num = v as Numeric;
  if (!(num instanceof Numeric) || !num.isFinite()) {
    throw pgError(SqlState.numeric_value_out_of_range, 'numeric field overflow', { detail: 'Iceberg decimals cannot hold NaN or infinity.' });
  }
  const scale = t.scale ?? 0;
  const r = num.scale === scale ? num : num.round(scale);
  const unscaled = r.scale === scale ? r.unscaled : r.unscaled * pow10(scale - r.scale);
  const limit = pow10(t.precision ?? 38);
  if (unscaled >= limit || unscaled <= -limit) {
    throw pgError(SqlState.numeric_value_out_of_range, 'numeric field overflow', {
      detail: `A field with precision ${t.precision}, scale ${scale} must round to an absolute value less than 10^${(t.precision ?? 38) - scale}.`,
    });
  }
  return { n: r.scale === scale ? r : Numeric.of(unscaled, scale), unscaled };
}

/** builds the column and counts its metrics; `length` rows of `values` */
export function arrowColumn(values: readonly unknown[], length: number, t: PrimitiveType, m: ColumnMetrics): Data {
  if (V3_WRITTEN_TYPES.has(t.name)) return v3ArrowColumn(values, length, t, m);
  const type = arrowTypeOf(t);
  const nullBitmap = new Uint8Array((length + 7) >> 3);
  let nullCount = 0;
  const valid = (i: number): boolean => {
    const v = values[i];
    if (v === null || v === undefined) {
      nullCount++;
      return false;
    }
    nullBitmap[i >> 3]! |= 1 << (i & 7);
    return true;
  };
  m.valueCount += length;
  const finish = (props: Record<string, unknown>): Data => {
    m.nullCount += nullCount;
    return makeData({ type, length, nullCount, ...(nullCount > 0 ? { nullBitmap } : {}), ...props } as Parameters<typeof makeData>[0]);
  };
  switch (t.name) {
    case 'boolean': {
      const data = new Uint8Array((length + 7) >> 3);
      for (let i = 0; i < length; i++) if (valid(i)) { const v = values[i] === true; if (v) data[i >> 3]! |= 1 << (i & 7); m.add(v); }
      return finish({ data });
    }
    case 'int': case 'date': {
      const data = new Int32Array(length);
      for (let i = 0; i < length; i++) {
        if (!valid(i)) continue;
        const v = Number(values[i]);
        if (!Number.isFinite(v)) throw pgError(SqlState.datetime_field_overflow, 'date out of range', { detail: 'Iceberg dates cannot hold infinity.' });
        data[i] = v;
        m.add(v);
      }
      return finish({ data });
    }
    case 'long': case 'time': case 'timestamp': case 'timestamptz': {
      const data = new BigInt64Array(length);
      const asNumber = t.name === 'time';
      for (let i = 0; i < length; i++) {
        if (!valid(i)) continue;
        const v = BigInt(values[i] as number | bigint);
        data[i] = v;
        m.add(asNumber ? Number(v) : v);
      }
      return finish({ data });
    }
    case 'float': case 'double': {
      const data = t.name === 'float' ? new Float32Array(length) : new Float64Array(length);
      for (let i = 0; i < length; i++) if (valid(i)) { const v = values[i] as number; data[i] = v; m.add(t.name === 'float' ? Math.fround(v) : v); }
      return finish({ data });
    }
    case 'decimal': {
      const data = new Uint32Array(length * 4);
      const words = new BigInt64Array(data.buffer);
      for (let i = 0; i < length; i++) {
        if (!valid(i)) continue;
        const { n, unscaled } = decimalUnscaled(values[i], t);
        if (unscaled >= I64_MIN && unscaled <= I64_MAX) {
          // little-endian 128-bit two's complement: the low word, then its sign extension
          words[i * 2] = unscaled;
          words[i * 2 + 1] = unscaled < 0n ? -1n : 0n;
        } else {
          let u = BigInt.asUintN(128, unscaled);
          for (let w = 0; w < 4; w++) { data[i * 4 + w] = Number(u & 0xffffffffn); u >>= 32n; }
        }
        m.add(n);
      }
      return finish({ data });
    }
    case 'uuid': {
      const data = new Uint8Array(length * 16);
      for (let i = 0; i < length; i++) if (valid(i)) { data.set(uuidToBytes(values[i] as string), i * 16); m.add(values[i]); }
      return finish({ data });
    }
    case 'string': {
      const ascii = asciiStringColumn(values, length, valid, m);
      if (ascii !== null) return finish(ascii);
      return finish(variableWidth(values, length, t, valid, m));
    }
    case 'binary': return finish(variableWidth(values, length, t, valid, m));
    default: throw pgError(SqlState.feature_not_supported, `writing Iceberg type "${t.name}" is not supported`);
  }
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/**
 * A string column encoded in one step: the values joined and encoded once. When the bytes are as many as
 * the UTF-16 units every character is ASCII, so the character offsets are the byte offsets; otherwise null
 * (the caller encodes value by value). Metrics are counted only on success.
 */
function asciiStringColumn(values: readonly unknown[], length: number, valid: (i: number) => boolean, m: ColumnMetrics): { valueOffsets: Int32Array; data: Uint8Array } | null {
  const strs = new Array<string>(length);
  const valueOffsets = new Int32Array(length + 1);
  let total = 0;
  for (let i = 0; i < length; i++) {
    const v = values[i];
    const s = v === null || v === undefined ? '' : (v as string);
    strs[i] = s;
    total += s.length;
    if (total > 0x7fffffff) return null;
    valueOffsets[i + 1] = total;
  }
  const joined = strs.join('');
  const data = new Uint8Array(total);
  const r = enc.encodeInto(joined, data);
  if (r.read !== joined.length || r.written !== total) return null;
  for (let i = 0; i < length; i++) if (valid(i)) m.add(values[i]);
  return { valueOffsets, data };
}

/** string (value by value) or binary: offsets + concatenated bytes */
function variableWidth(values: readonly unknown[], length: number, t: PrimitiveType, valid: (i: number) => boolean, m: ColumnMetrics): { valueOffsets: Int32Array; data: Uint8Array } {
  {
    {
      const parts: Uint8Array[] = new Array<Uint8Array>(length);
      const valueOffsets = new Int32Array(length + 1);
      let total = 0;
      const empty: Uint8Array = new Uint8Array(0);
      for (let i = 0; i < length; i++) {
        let b: Uint8Array = empty;
        if (valid(i)) {
          const v = values[i];
          b = t.name === 'string' ? enc.encode(v as string) : (v as Uint8Array);
          m.add(v);
        }
        parts[i] = b;
        total += b.length;
        if (total > 0x7fffffff) throw pgError(SqlState.program_limit_exceeded, 'Arrow column chunk exceeds 2 GiB');
        valueOffsets[i + 1] = total;
      }
      const data = new Uint8Array(total);
      for (let i = 0; i < length; i++) data.set(parts[i]!, valueOffsets[i]!);
      return { valueOffsets, data };
    }
  }
}

/** rough in-memory size of a built column (nested children included), for rolling files at a target size */
export function dataBytes(d: Data): number {
  let n = (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0);
  for (const c of d.children) n += dataBytes(c);
  return n;
}
