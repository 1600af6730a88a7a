/**
 * Typed column buffers for bulk loads (COPY FROM): values land in the typed arrays Arrow and Parquet use
 * (Int32Array, BigInt64Array, 128-bit decimal words, UTF-8 bytes + offsets, a validity bitmap) instead of
 * one JS value per field, so a load makes no per-field garbage and the writer wraps the buffers as Arrow
 * Data without converting (typed-arrow-data.ts). A column that meets a value its buffer cannot hold (a date
 * ±infinity, a NaN numeric, a numeric wider than its scale) turns into a plain JS values column, so every
 * value survives unchanged and the writer's usual checks still raise their errors.
 * A TypedBatch is a Batch: `columns` materializes the JS values (pgtypes/values.ts) on first use.
 */
import type { Batch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';

interface ColumnBase {
  readonly length: number;
  readonly nullCount: number;
  /** bit i set = row i is not NULL (LSB first, Arrow's layout); null when nullCount is 0 */
  readonly validity: Uint8Array | null;
}

/** int2/int4 (`int`) or date (`date`: days since 1970-01-01) */
export interface Int32Column extends ColumnBase { readonly kind: 'int32'; readonly domain: 'int' | 'date'; readonly values: Int32Array }
/** int8 */
export interface Int64Column extends ColumnBase { readonly kind: 'int64'; readonly values: BigInt64Array }
/** numeric(p, s): two little-endian 64-bit words per value (128-bit two's complement unscaled value) */
export interface DecimalColumn extends ColumnBase { readonly kind: 'decimal'; readonly precision: number; readonly scale: number; readonly words: BigInt64Array }
/** text / varchar / bpchar: UTF-8 bytes, value i at data[offsets[i], offsets[i+1]) */
export interface Utf8Column extends ColumnBase { readonly kind: 'utf8'; readonly offsets: Int32Array; readonly data: Uint8Array }
/** anything else: JS values as the type input functions return them */
export interface ValuesColumn { readonly kind: 'values'; readonly length: number; readonly values: readonly unknown[] }

export type TypedColumn = Int32Column | Int64Column | DecimalColumn | Utf8Column | ValuesColumn;

const utf8 = new TextDecoder();
const TWO32 = 2 ** 32;

/** the 64-bit integer at BigInt64Array-compatible Int32Array words (lo, hi) as a number when exact, else null */
export function int64Number(w: Int32Array, i: number): number | null {
  const hi = w[2 * i + 1]!;
  if (hi > 0x1fffff || hi < -0x200000) return null;
  return hi * TWO32 + (w[2 * i]! >>> 0);
}

function isValid(col: ColumnBase, i: number): boolean {
  return col.validity === null || (col.validity[i >> 3]! & (1 << (i & 7))) !== 0;
}

/** the unscaled 128-bit value of decimal row i */
export function decimalUnscaledAt(col: DecimalColumn, i: number): bigint {
  const lo = col.words[2 * i]!;
  const hi = col.words[2 * i + 1]!;
  if (hi === (lo < 0n ? -1n : 0n)) return lo;
  return (hi << 64n) | BigInt.asUintN(64, lo);
}

/** the JS value of row i (pgtypes/values.ts), null for NULL */
export function typedValueAt(col: TypedColumn, i: number): unknown {
  if (col.kind === 'values') return col.values[i] ?? null;
  if (!isValid(col, i)) return null;
  switch (col.kind) {
    case 'int32': return col.values[i]!;
    case 'int64': return col.values[i]!;
    case 'decimal': return Numeric.of(decimalUnscaledAt(col, i), col.scale);
    case 'utf8': return utf8.decode(col.data.subarray(col.offsets[i]!, col.offsets[i + 1]!));
  }
}

/** all rows as JS values */
export function materializeColumn(col: TypedColumn): unknown[] {
  if (col.kind === 'values') return col.values.length === col.length ? col.values as unknown[] : Array.from({ length: col.length }, (_, i) => col.values[i] ?? null);
  const out = new Array<unknown>(col.length);
  if (col.kind === 'utf8' && col.nullCount === 0) {
    // one decode for the whole column when it is ASCII (byte offsets = string offsets)
    const all = utf8.decode(col.data.subarray(0, col.offsets[col.length]!));
    if (all.length === col.offsets[col.length]) {
      for (let i = 0; i < col.length; i++) out[i] = all.slice(col.offsets[i]!, col.offsets[i + 1]!);
      return out;
    }
  }
  for (let i = 0; i < col.length; i++) out[i] = typedValueAt(col, i);
  return out;
}

/** the buffers behind typed columns (for recycling, typed-buffer-pool.ts) */
export function* typedBuffers(cols: readonly TypedColumn[]): Iterable<ArrayBufferLike> {
  for (const c of cols) {
    if (c.kind === 'values') continue;
    if (c.validity !== null) yield c.validity.buffer;
    if (c.kind === 'decimal') yield c.words.buffer;
    else if (c.kind === 'utf8') {
      yield c.offsets.buffer;
      yield c.data.buffer;
    } else yield c.values.buffer;
  }
}

export function typedNullCount(col: TypedColumn): number {
  if (col.kind !== 'values') return col.nullCount;
  let n = 0;
  for (let i = 0; i < col.length; i++) if (col.values[i] === null || col.values[i] === undefined) n++;
  return n;
}

/** A Batch whose columns are typed buffers; `columns` (JS values) is built on first use and kept. */
export class TypedBatch implements Batch {
  #columns: unknown[][] | null = null;

  constructor(readonly length: number, readonly typed: readonly TypedColumn[]) {}

  get columns(): readonly (readonly unknown[])[] {
    this.#columns ??= this.typed.map(materializeColumn);
    return this.#columns;
  }
}

export function isTypedBatch(b: Batch): b is TypedBatch {
  return b instanceof TypedBatch;
}
