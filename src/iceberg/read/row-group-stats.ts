/**
 * Parquet column chunk Statistics (ColumnMetaData 12: min_value 6 / max_value 5, legacy min 2 / max 1,
 * null_count 3) → FieldStats in lakegate JS values of the column's Iceberg type, for row-group pruning.
 * Values are PLAIN-encoded by physical type (INT32/INT64/FLOAT/DOUBLE little-endian, BYTE_ARRAY and
 * FIXED_LEN_BYTE_ARRAY raw; decimals big-endian unscaled there). Legacy min/max are only trusted for
 * numeric physical types (they were written in signed byte order for binary columns). Anything unclear
 * (INT96, time, uuid, a decimal scale differing from the table's, strings that are not valid UTF-8 after
 * truncation, NaN bounds) gives no bounds; Parquet has no NaN count, so float bounds never prune `>`.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { bigIntFromBE, nanosToMicros } from '../spec/types.ts';
import { mightMatch, type FieldStats } from '../scan/stats-evaluator.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { asNumber, type ParquetFooter } from './parquet-footer.ts';
import type { ThriftStruct } from './thrift-compact.ts';

const PT = { BOOLEAN: 0, INT32: 1, INT64: 2, INT96: 3, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6, FIXED: 7 } as const;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** µs multiplier (or ns divisor) of an INT64 timestamp element: 1000 ms, 1 µs, -1 ns; undefined unknown */
function timestampUnit(e: ThriftStruct): number | undefined {
  const logical = e.get(10) as ThriftStruct | undefined;
  const ts = logical?.get(8) as ThriftStruct | undefined;
  const unit = ts?.get(2) as ThriftStruct | undefined;
  if (unit !== undefined) return unit.has(1) ? 1000 : unit.has(2) ? 1 : unit.has(3) ? -1 : undefined;
  const converted = asNumber(e.get(6));
  return converted === 9 ? 1000 : converted === 10 ? 1 : undefined;
}

function decimalScale(e: ThriftStruct): number | undefined {
  const logical = e.get(10) as ThriftStruct | undefined;
  const dec = logical?.get(5) as ThriftStruct | undefined;
  return asNumber(dec?.get(1)) ?? (asNumber(e.get(6)) === 5 ? asNumber(e.get(7)) ?? 0 : undefined);
}

/** a PLAIN INT32 statistics value, when the leaf is INT32 and the value 4 bytes */
function int32(physical: number | undefined, dv: DataView): number | undefined {
  return physical === PT.INT32 && dv.byteLength === 4 ? dv.getInt32(0, true) : undefined;
}

/** a PLAIN INT64 statistics value, when the leaf is INT64 and the value 8 bytes */
function int64(physical: number | undefined, dv: DataView): bigint | undefined {
  return physical === PT.INT64 && dv.byteLength === 8 ? dv.getBigInt64(0, true) : undefined;
}

/** a PLAIN-encoded statistics value (footer Statistics, page index ColumnIndex) of leaf `e` as a JS value of `t`; undefined: unclear */
export function decodeStatValue(t: PrimitiveType, e: ThriftStruct, b: Uint8Array): unknown {
  const physical = asNumber(e.get(1));
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // int32 / int64 are module functions, not closures made per call: tsx compiles with esbuild's keepNames, which
  // names each closure made with an Object.defineProperty — two per page bound read (page index, row groups)
  switch (t.name) {
    case 'boolean': return physical === PT.BOOLEAN && b.byteLength >= 1 ? b[0] !== 0 : undefined;
    case 'int': case 'date': return int32(physical, dv);
    case 'long': { const x = int32(physical, dv); return x !== undefined ? BigInt(x) : int64(physical, dv); }
    case 'float': case 'double': {
      const v = physical === PT.FLOAT && b.byteLength === 4 ? dv.getFloat32(0, true)
        : physical === PT.DOUBLE && b.byteLength === 8 && t.name === 'double' ? dv.getFloat64(0, true) : undefined;
      return v === undefined || Number.isNaN(v) ? undefined : v;
    }
    case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns': {
      const v = int64(physical, dv);
      const unit = timestampUnit(e);
      if (v === undefined || unit === undefined) return undefined;
      return unit === -1 ? nanosToMicros(v) : v * BigInt(unit);
    }
    case 'decimal': {
      if (decimalScale(e) !== (t.scale ?? 0)) return undefined;
      const x = int32(physical, dv);
      const y = x !== undefined ? BigInt(x) : int64(physical, dv);
      if (y !== undefined) return Numeric.of(y, t.scale ?? 0);
      return physical === PT.BYTE_ARRAY || physical === PT.FIXED ? Numeric.of(bigIntFromBE(b), t.scale ?? 0) : undefined;
    }
    case 'string':
      if (physical !== PT.BYTE_ARRAY) return undefined;
      try {
        return utf8.decode(b);
      } catch {
        return undefined;
      }
    case 'binary': case 'fixed': return physical === PT.BYTE_ARRAY || physical === PT.FIXED ? Uint8Array.from(b) : undefined;
    default: return undefined;
  }
}

/** statistics of one column chunk (row group `rg`, field id) as FieldStats; undefined when absent */
export function rowGroupFieldStats(footer: ParquetFooter, rg: number, fieldId: number, t: PrimitiveType): FieldStats | undefined {
  const leaf = footer.leafByFieldId.get(fieldId);
  const group = footer.rowGroups[rg];
  if (leaf === undefined || group === undefined) return undefined;
  const meta = group.columns[leaf.index];
  const stats = meta?.get(12) as ThriftStruct | undefined;
  if (meta === undefined || stats === undefined) return undefined;
  const physical = asNumber(leaf.element.get(1));
  const numeric = physical === PT.INT32 || physical === PT.INT64 || physical === PT.FLOAT || physical === PT.DOUBLE;
  const minBytes = (stats.get(6) ?? (numeric ? stats.get(2) : undefined)) as Uint8Array | undefined;
  const maxBytes = (stats.get(5) ?? (numeric ? stats.get(1) : undefined)) as Uint8Array | undefined;
  const lower = minBytes instanceof Uint8Array ? decodeStatValue(t, leaf.element, minBytes) : undefined;
  const upper = maxBytes instanceof Uint8Array ? decodeStatValue(t, leaf.element, maxBytes) : undefined;
  const nullCount = asNumber(stats.get(3));
  const valueCount = asNumber(meta.get(5)) ?? group.numRows;
  return {
    ...(lower === undefined || upper === undefined ? {} : { lower, upper }),
    ...(nullCount === undefined ? {} : { nullCount, valueCount }),
  };
}

/** indexes of the row groups whose statistics might match `filter` (all when nothing can be ruled out) */
export function selectRowGroups(footer: ParquetFooter, filter: BoundPredicate, typeOf: (fieldId: number) => PrimitiveType | undefined): number[] {
  const out: number[] = [];
  for (let rg = 0; rg < footer.rowGroups.length; rg++) {
    if (filter.kind === 'true' || mightMatch(filter, (id) => {
      const t = typeOf(id);
      return t === undefined ? undefined : rowGroupFieldStats(footer, rg, id, t);
    })) out.push(rg);
  }
  return out;
}
