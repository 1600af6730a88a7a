/**
 * The sort order of a Parquet leaf column's statistics values (Statistics.min_value / max_value, ColumnIndex
 * min_values / max_values: PLAIN-encoded bytes), taken from its physical and logical type as the spec defines
 * it, and the merges that need it: one column chunk's statistics out of several (parquet-row-group-merge.ts)
 * and a ColumnIndex's boundary_order. Types without a defined order (INT96) get no comparator: their merged
 * chunk carries no min/max.
 * @see https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (sort orders) and parquet.thrift
 */
import { TType, intField, structField, type TNode, type TStruct } from './thrift-compact-tree.ts';

export type StatCompare = (a: Uint8Array, b: Uint8Array) => number;

// parquet.thrift ids
const SE = { type: 1, convertedType: 6, logicalType: 10 } as const;
const LT = { decimal: 5, integer: 10 } as const;
const ST = { max: 1, min: 2, nullCount: 3, distinctCount: 4, maxValue: 5, minValue: 6, maxExact: 7, minExact: 8 } as const;
const CONVERTED_DECIMAL = 5;
const CONVERTED_UNSIGNED = new Set([11, 12, 13, 14]); // UINT_8 … UINT_64

function isBool(n: TNode | undefined): n is Extract<TNode, { t: 1 | 2 }> {
  return n !== undefined && (n.t === TType.BOOL_TRUE || n.t === TType.BOOL_FALSE);
}

const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

function unsignedBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** two's complement big-endian integers of any length (DECIMAL as BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY) */
function signedBigEndian(a: Uint8Array, b: Uint8Array): number {
  const na = a.length > 0 && (a[0]! & 0x80) !== 0;
  const nb = b.length > 0 && (b[0]! & 0x80) !== 0;
  if (na !== nb) return na ? -1 : 1;
  const n = Math.max(a.length, b.length);
  const fill = na ? 0xff : 0;
  for (let i = 0; i < n; i++) {
    const x = i < n - a.length ? fill : a[i - (n - a.length)]!;
    const y = i < n - b.length ? fill : b[i - (n - b.length)]!;
    if (x !== y) return x - y;
  }
  return 0;
}

/** the comparator of a leaf column's statistics values; null when its type defines no order */
export function statCompareOf(leaf: TStruct): StatCompare | null {
  const physical = intField(leaf, SE.type);
  const converted = intField(leaf, SE.convertedType);
  const logical = structField(leaf, SE.logicalType);
  const integer = logical === undefined ? undefined : structField(logical, LT.integer);
  const signedFlag = integer?.get(2);
  const unsigned = (converted !== undefined && CONVERTED_UNSIGNED.has(converted)) || (isBool(signedFlag) && signedFlag.v === false);
  const decimal = converted === CONVERTED_DECIMAL || (logical !== undefined && logical.has(LT.decimal));
  switch (physical) {
    case 0: return (a, b) => (a[0] ?? 0) - (b[0] ?? 0); // BOOLEAN
    case 1: return unsigned ? (a, b) => dv(a).getUint32(0, true) - dv(b).getUint32(0, true) : (a, b) => dv(a).getInt32(0, true) - dv(b).getInt32(0, true);
    case 2: return (a, b) => {
      const x = unsigned ? dv(a).getBigUint64(0, true) : dv(a).getBigInt64(0, true);
      const y = unsigned ? dv(b).getBigUint64(0, true) : dv(b).getBigInt64(0, true);
      return x < y ? -1 : x > y ? 1 : 0;
    };
    case 4: return (a, b) => dv(a).getFloat32(0, true) - dv(b).getFloat32(0, true);
    case 5: return (a, b) => dv(a).getFloat64(0, true) - dv(b).getFloat64(0, true);
    case 6: case 7: return decimal ? signedBigEndian : unsignedBytes;
    default: return null; // INT96
  }
}

const bin = (s: TStruct, id: number): Uint8Array | undefined => {
  const n = s.get(id);
  return n?.t === TType.BINARY ? n.v : undefined;
};

const isTrue = (n: TNode | undefined): boolean => isBool(n) && n.v;

/**
 * the Statistics of one column chunk made of `parts` (one per merged chunk; undefined: that chunk had none):
 * null counts added, min/max the extremes under `cmp`. A bound that some part lacks (while it has non-null
 * values) is dropped: an absent bound means "unknown", not "none".
 */
export function mergeStatistics(parts: readonly (TStruct | undefined)[], cmp: StatCompare | null): TStruct | undefined {
  if (parts.some((p) => p === undefined)) return undefined;
  const ps = parts as readonly TStruct[];
  const out: TStruct = new Map();
  if (ps.every((p) => p.has(ST.nullCount))) {
    out.set(ST.nullCount, { t: TType.I64, v: ps.reduce((s, p) => s + BigInt(intField(p, ST.nullCount) ?? 0), 0n) });
  }
  if (cmp === null) return out;
  for (const [id, pick] of [[ST.max, 1], [ST.min, -1], [ST.maxValue, 1], [ST.minValue, -1]] as const) {
    let best: Uint8Array | undefined;
    let known = true;
    for (const p of ps) {
      const v = bin(p, id);
      if (v === undefined) {
        // a chunk of only NULLs has no bounds and does not widen them
        const allNull = p.has(ST.nullCount) && (p.get(ST.minValue) === undefined && p.get(ST.min) === undefined);
        if (!allNull) known = false;
        continue;
      }
      if (best === undefined || Math.sign(cmp(v, best)) === pick) best = v;
    }
    if (known && best !== undefined) out.set(id, { t: TType.BINARY, v: best });
  }
  if (out.has(ST.maxValue)) out.set(ST.maxExact, { t: TType.BOOL_TRUE, v: ps.every((p) => isTrue(p.get(ST.maxExact))) });
  if (out.has(ST.minValue)) out.set(ST.minExact, { t: TType.BOOL_TRUE, v: ps.every((p) => isTrue(p.get(ST.minExact))) });
  return out;
}

/** ColumnIndex boundary_order (0 UNORDERED, 1 ASCENDING, 2 DESCENDING) of pages' bounds, null pages skipped */
export function boundaryOrder(nullPages: readonly boolean[], mins: readonly Uint8Array[], maxs: readonly Uint8Array[], cmp: StatCompare | null): number {
  if (cmp === null) return 0;
  let asc = true;
  let desc = true;
  let prev = -1;
  for (let i = 0; i < mins.length; i++) {
    if (nullPages[i] === true) continue;
    if (prev >= 0) {
      const a = cmp(mins[prev]!, mins[i]!);
      const b = cmp(maxs[prev]!, maxs[i]!);
      if (a > 0 || b > 0) asc = false;
      if (a < 0 || b < 0) desc = false;
    }
    prev = i;
  }
  return asc ? 1 : desc ? 2 : 0;
}
