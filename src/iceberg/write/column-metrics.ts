/**
 * Per-column metrics of one data file (§ Manifests data_file 109/110/137/125/128): value count (nulls and
 * NaN included), null count, NaN count (float/double), and lower/upper bounds over the non-null, non-NaN
 * values, compared in Iceberg's order (signed numbers, unsigned bytes for binary/uuid/decimal-free types,
 * code points for strings; −0.0 < +0.0). Bounds are serialized at the end (single-value-bytes.ts).
 * Nested columns are counted per primitive leaf (list element, map key/value, struct field), keyed by the
 * leaf's field id; leaves under a list or map get counts but no bounds (see `leaves`).
 */
import type { PrimitiveType } from '../spec/schema.ts';
import type { Numeric } from '../../common/pgtypes/numeric.ts';
import {
  compareBytes, singleValueBytes, truncateBinaryLower, truncateBinaryUpper, truncateStringLower, truncateStringUpper, uuidToBytes,
} from './single-value-bytes.ts';

/** JS strings compare by UTF-16 code units; Iceberg orders by code point (surrogates rank above U+E000–U+FFFF) */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      const sx = x <= 0xdfff ? 1 : 0;
      const sy = y <= 0xdfff ? 1 : 0;
      if (sx !== sy) return sx - sy;
    }
    return x - y;
  }
  return a.length - b.length;
}

function compare(t: PrimitiveType, a: unknown, b: unknown): number {
  switch (t.name) {
    case 'string': return compareStrings(a as string, b as string);
    case 'binary': case 'fixed': return compareBytes(a as Uint8Array, b as Uint8Array);
    case 'uuid': return compareBytes(uuidToBytes(a as string), uuidToBytes(b as string));
    case 'decimal': {
      const x = (a as Numeric).unscaled;
      const y = (b as Numeric).unscaled;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 'boolean': return (a === true ? 1 : 0) - (b === true ? 1 : 0);
    case 'float': case 'double': {
      const x = a as number;
      const y = b as number;
      if (x === 0 && y === 0) return (Object.is(x, -0) ? 0 : 1) - (Object.is(y, -0) ? 0 : 1);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    default: {
      const x = a as number | bigint;
      const y = b as number | bigint;
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
}

/** metrics "types" of a nested column's own ColumnMetrics: it holds its leaves' metrics and is never written itself */
const CONTAINERS = new Set(['struct', 'list', 'map']);

export class ColumnMetrics {
  valueCount = 0;
  nullCount = 0;
  nanCount = 0;
  private min: unknown = undefined;
  private max: unknown = undefined;
  /**
   * A nested column (type name struct/list/map): the metrics of its primitive leaves, in schema order, keyed
   * by their own field ids, as Iceberg Java keeps them (one Parquet column chunk per leaf). Empty otherwise.
   */
  readonly leaves: ColumnMetrics[] = [];

  /** `keepBounds` false: a leaf under a list or map — Java writes no bounds for repeated fields */
  constructor(readonly fieldId: number, readonly type: PrimitiveType, readonly keepBounds = true) {}

  /** the metrics written to the manifest: this column's, or its leaves' for a nested column */
  written(): readonly ColumnMetrics[] {
    if (this.type.name === 'unknown') return []; // v3 unknown: not in the file, no metrics
    return CONTAINERS.has(this.type.name) ? this.leaves : [this];
  }

  /** `n` leaf slots that hold no value (a null or empty list or map above the leaf): counted as nulls, as Parquet does */
  addAbsent(n: number): void {
    this.valueCount += n;
    this.nullCount += n;
  }

  /** one non-null value; NaN is counted and never becomes a bound */
  add(v: unknown): void {
    if (typeof v === 'number' && Number.isNaN(v)) {
      this.nanCount++;
      return;
    }
    if (this.min === undefined || compare(this.type, v, this.min) < 0) this.min = v;
    if (this.max === undefined || compare(this.type, v, this.max) > 0) this.max = v;
  }

  /** a column chunk without bound tracking (min/max already known) */
  addRange(min: unknown, max: unknown): void {
    if (min === undefined) return;
    if (this.min === undefined || compare(this.type, min, this.min) < 0) this.min = min;
    if (this.max === undefined || compare(this.type, max, this.max) > 0) this.max = max;
  }

  merge(o: ColumnMetrics): void {
    this.valueCount += o.valueCount;
    this.nullCount += o.nullCount;
    this.nanCount += o.nanCount;
    this.addRange(o.min, o.max);
    o.leaves.forEach((l, i) => this.leaves[i]?.merge(l));
  }

  lowerBound(): Uint8Array | null {
    if (this.min === undefined || !this.keepBounds || CONTAINERS.has(this.type.name)) return null;
    if (this.type.name === 'string') return singleValueBytes(this.type, truncateStringLower(this.min as string));
    if (this.type.name === 'binary') return truncateBinaryLower(this.min as Uint8Array);
    return singleValueBytes(this.type, this.min);
  }

  upperBound(): Uint8Array | null {
    if (this.max === undefined || !this.keepBounds || CONTAINERS.has(this.type.name)) return null;
    if (this.type.name === 'string') {
      const s = truncateStringUpper(this.max as string);
      return s === null ? null : singleValueBytes(this.type, s);
    }
    if (this.type.name === 'binary') return truncateBinaryUpper(this.max as Uint8Array);
    return singleValueBytes(this.type, this.max);
  }
}
