/**
 * Batches across threads: each column of JS values (common/pgtypes/values.ts) is packed by its Iceberg type
 * into one typed array plus a null mask, whose buffers are transferred (moved, not copied); the main thread
 * unpacks them into plain arrays again. That is cheaper on the main thread than decoding Arrow there, and the
 * main thread is the one that also runs the rest of the query.
 *   int, date → Int32Array · float, double, time → Float64Array · long, timestamp* → BigInt64Array (the main
 *   thread's column keeps the words, read as exact doubles below 2^53 when it becomes a hash key: exact-int64-column.ts)
 *   · a key-only int8 column (a hash join's build key: arrow-fast-columns.ts keyOnlyField) → Float64Array of its
 *   exact doubles, key-only again on arrival: no BigInt on either thread
 *   boolean → Uint8Array · decimal (one scale, |unscaled| < 2^53) → Float64Array of unscaled values, taken
 *   from the decoder's doubles when attached (pgtypes/numeric-column.ts) and attached again on arrival, so the
 *   main thread's vector kernels read them too; without NULLs it arrives self-materializing (its Numerics made
 *   only when a reader reads a row: joins carry it as it is, kernels read the doubles) · decimal (one scale,
 *   fits in 64 bits) → BigInt64Array
 *   everything else (strings, uuid, binary, arrays, jsonb) → the array itself, structured-cloned
 *   (Numerics inside tagged, see cloneable.ts).
 * A value of an unexpected JS type makes the column fall back to the cloned form, so packing never changes a value.
 * A batch the scan marked exact (exact-rows.ts) arrives marked.
 */
import type { Batch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergType } from '../spec/schema.ts';
import { fromCloneable, needsTagging, toCloneable } from './cloneable.ts';
import { attachScaled, scaledColumnOf, selfMaterializingNumerics } from '../../common/pgtypes/numeric-column.ts';
import { attachExactInt64, attachInt64Words, exactInt64Of, KEY_ONLY_INT64, keyOnlyInt64Column } from '../../common/pgtypes/exact-int64-column.ts';
import { holeProto, oneSlotArray } from '../../common/one-slot-array.ts';
import { numericOfUnscaled, numericOfUnscaledNumber } from '../read/arrow-fast-columns.ts';
import { isExact, markExact } from './exact-rows.ts';
import { packStringCodes, unpackStringCodes, type StringCodesColumn } from './string-codes.ts';

export type PackedColumn =
  | { readonly kind: 'i32'; readonly values: Int32Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'f64'; readonly values: Float64Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'i64'; readonly values: BigInt64Array; readonly nulls: Uint8Array | null }
  /** a key-only int8 column: its exact doubles (0 at NULL rows) */
  | { readonly kind: 'i64exact'; readonly values: Float64Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'bool'; readonly values: Uint8Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'decimal'; readonly values: BigInt64Array; readonly scale: number; readonly nulls: Uint8Array | null }
  | { readonly kind: 'decimal53'; readonly values: Float64Array; readonly scale: number; readonly nulls: Uint8Array | null }
  | { readonly kind: 'cloned'; readonly values: readonly unknown[]; readonly tagged: boolean }
  /** a low-cardinality string column: distinct values once, a code per row (string-codes.ts) */
  | StringCodesColumn;

export interface PackedBatch {
  readonly length: number;
  readonly columns: readonly PackedColumn[];
  /** the batch was marked exact by the scan (exact-rows.ts): marked again on arrival */
  readonly exact?: true;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

type Packer = (col: readonly unknown[], n: number) => PackedColumn | null;

/** the null mask, allocated at the first null only */
class NullMask {
  mask: Uint8Array | null = null;
  constructor(private readonly n: number) {}
  set(i: number): void {
    (this.mask ??= new Uint8Array(this.n))[i] = 1;
  }
}

const packInt32: Packer = (col, n) => {
  const out = new Int32Array(n);
  const nulls = new NullMask(n);
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) { nulls.set(i); continue; }
    if (typeof v !== 'number' || (v | 0) !== v || Object.is(v, -0)) return null;
    out[i] = v;
  }
  return { kind: 'i32', values: out, nulls: nulls.mask };
};

const packFloat64: Packer = (col, n) => {
  const out = new Float64Array(n);
  const nulls = new NullMask(n);
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) { nulls.set(i); continue; }
    if (typeof v !== 'number') return null;
    out[i] = v;
  }
  return { kind: 'f64', values: out, nulls: nulls.mask };
};

/** the first non-NULL entry of `col` (rows 0 … n-1), or null */
function firstValue(col: readonly unknown[], n: number): unknown {
  for (let i = 0; i < n; i++) if (col[i] !== null) return col[i];
  return null;
}

/**
 * a key-only column (exact-int64-column.ts: placeholders in every non-NULL row) as a copy of its doubles; such a
 * column is never mixed with values (batch-concat.ts), so its first value tells
 */
function packKeyOnlyInt64(col: readonly unknown[], n: number): PackedColumn | null {
  if (firstValue(col, n) !== KEY_ONLY_INT64) return null;
  const x = exactInt64Of(col, n);
  if (x === undefined) throw new Error('internal error: a key-only int8 column without its exact doubles');
  return { kind: 'i64exact', values: x.f.slice(0, n), nulls: x.nulls === null ? null : x.nulls.slice(0, n) };
}

const packInt64: Packer = (col, n) => {
  const keyOnly = packKeyOnlyInt64(col, n);
  if (keyOnly !== null) return keyOnly;
  const out = new BigInt64Array(n);
  const nulls = new NullMask(n);
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) { nulls.set(i); continue; }
    if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX) return null;
    out[i] = v;
  }
  return { kind: 'i64', values: out, nulls: nulls.mask };
};

const packBool: Packer = (col, n) => {
  const out = new Uint8Array(n);
  const nulls = new NullMask(n);
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) { nulls.set(i); continue; }
    if (typeof v !== 'boolean') return null;
    out[i] = v ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls: nulls.mask };
};

const EXACT = 2 ** 53;

/** the decoder's doubles (a copy: the column may live on) and the NULLs, or null when none are attached at this scale */
function packAttachedDecimal(col: readonly unknown[], n: number, scale: number): PackedColumn | null {
  const att = scaledColumnOf(col);
  if (att === undefined || att.scale !== scale || att.f.length < n) return null;
  const nulls = new NullMask(n);
  // a column its maker knew has no NULL is not looked at (a sparse lazy one has no element to look at: numeric-column.ts)
  if (att.noNulls !== true) for (let i = 0; i < n; i++) if (col[i] === null || col[i] === undefined) nulls.set(i);
  return { kind: 'decimal53', values: att.f.slice(0, n), scale, nulls: nulls.mask };
}

/** Numerics of one scale whose unscaled values are below 2^53 as doubles, or null */
function packDecimal53(col: readonly unknown[], n: number, scale: number): PackedColumn | null {
  const out = new Float64Array(n);
  const nulls = new NullMask(n);
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) { nulls.set(i); continue; }
    if (!Numeric.isNumeric(v) || v.kind !== 0 || v.scale !== scale) return null;
    // one conversion: a double at or past 2^53 means the bigint was (rounding is monotone)
    const d = Number(v.unscaled);
    if (d >= EXACT || d <= -EXACT) return null;
    out[i] = d;
  }
  return { kind: 'decimal53', values: out, scale, nulls: nulls.mask };
}

function packDecimal(scale: number): Packer {
  return (col, n) => packAttachedDecimal(col, n, scale) ?? packDecimal53(col, n, scale) ?? packDecimal64(col, n, scale);
}

function packDecimal64(col: readonly unknown[], n: number, scale: number): PackedColumn | null {
  const out = new BigInt64Array(n);
  const nulls = new NullMask(n);
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) { nulls.set(i); continue; }
    if (!Numeric.isNumeric(v) || !v.isFinite() || v.scale !== scale || v.unscaled < INT64_MIN || v.unscaled > INT64_MAX) return null;
    out[i] = v.unscaled;
  }
  return { kind: 'decimal', values: out, scale, nulls: nulls.mask };
}

function packerFor(t: IcebergType): Packer | null {
  if (t.kind !== 'primitive') return null;
  switch (t.name) {
    case 'int': case 'date': return packInt32;
    case 'float': case 'double': case 'time': return packFloat64;
    case 'long': case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns': return packInt64;
    case 'boolean': return packBool;
    case 'decimal': return packDecimal(t.scale ?? 0);
    case 'string': return packStringCodes;
    default: return null;
  }
}

/** one column of `n` rows packed by its Iceberg type (pack-batches.ts packs the columns it cannot pack piece by piece here) */
export function packColumn(col: readonly unknown[], n: number, t: IcebergType): PackedColumn {
  const packer = packerFor(t);
  const packed = packer?.(col, n) ?? null;
  if (packed !== null) return packed;
  const tagged = t.kind !== 'primitive' || t.name === 'decimal' ? col.some(needsTagging) : false;
  return { kind: 'cloned', values: tagged ? col.map(toCloneable) : col, tagged };
}

/**
 * Packs a batch whose columns have the given Iceberg types; `transfer` collects the buffers to move. `exact`:
 * whether its rows are marked exact (exact-rows.ts) — by default the batch's own mark; a caller that
 * concatenated batches passes whether every piece was marked.
 */
export function packBatch(b: Batch, types: readonly IcebergType[], transfer: ArrayBufferLike[], exact = isExact(b)): PackedBatch {
  const columns = b.columns.map((c, k) => {
    const p = packColumn(c, b.length, types[k]!);
    if (p.kind !== 'cloned') {
      transfer.push(p.values.buffer);
      if (p.nulls !== null) transfer.push(p.nulls.buffer);
    }
    return p;
  });
  return exact ? { length: b.length, columns, exact } : { length: b.length, columns };
}

/** one packed column as the JS values of common/pgtypes/values.ts (int8 and decimal columns keep their words / doubles attached) */
export function unpackColumn(p: PackedColumn, n: number): unknown[] {
  if (p.kind === 'cloned') return p.tagged ? p.values.map(fromCloneable) : (p.values as unknown[]);
  if (p.kind === 'strcodes') return unpackStringCodes(p, n);
  const out = new Array<unknown>(n);
  const { nulls } = p;
  switch (p.kind) {
    case 'bool':
      for (let i = 0; i < n; i++) out[i] = nulls !== null && nulls[i] === 1 ? null : p.values[i] === 1;
      return out;
    case 'decimal':
      for (let i = 0; i < n; i++) out[i] = nulls !== null && nulls[i] === 1 ? null : numericOfUnscaled(p.values[i]!, p.scale);
      return out;
    case 'i64exact':
      // the consumer reads it as a hash key only (arrow-fast-columns.ts keyOnlyField): no BigInt made
      return nulls === null ? sparseKeyOnlyColumn(p.values, n) : keyOnlyInt64Column(p.values, n, nulls);
    case 'decimal53': {
      const f = p.values, scale = p.scale;
      // no NULL: the Numerics are made only if something reads them; kernels, joins and sums read `f`
      if (nulls === null) return selfMaterializingNumerics(f, scale, n);
      for (let i = 0; i < n; i++) out[i] = nulls !== null && nulls[i] === 1 ? null : numericOfUnscaledNumber(f[i]!, scale);
      attachScaled(out, f, scale);
      return out;
    }
    default: {
      const values = p.values;
      if (nulls === null) for (let i = 0; i < n; i++) out[i] = values[i];
      else for (let i = 0; i < n; i++) out[i] = nulls[i] === 1 ? null : values[i];
      if (p.kind === 'i64') {
        // hash keys (group ids, join keys) read these instead of each bigint (common/pgtypes/exact-int64-column.ts)
        attachInt64Words(out, p.values, n, nulls);
      }
      return out;
    }
  }
}

/** what a hole of a sparse key-only column reads as: the placeholder itself */
const KEY_ONLY_HOLES = holeProto(() => KEY_ONLY_INT64);

/**
 * a key-only column without NULLs as a one-slot array (common/one-slot-array.ts): its readers look at a value or
 * two (is it key-only?) and hash the attached doubles, so no slot per row is made. A join's build side lives
 * until its probe ends: TPC-H Q9's 1.5M o_orderkey placeholders at SF 1 were 12 MB of slots per run that the
 * young-generation collector copied before promoting them.
 */
function sparseKeyOnlyColumn(f: Float64Array, n: number): unknown[] {
  const out = oneSlotArray(n, KEY_ONLY_INT64, KEY_ONLY_HOLES);
  attachExactInt64(out, f.length === n ? f : f.subarray(0, n), null);
  return out;
}

export function unpackBatch(p: PackedBatch): Batch {
  const b: Batch = { length: p.length, columns: p.columns.map((c) => unpackColumn(c, p.length)) };
  // the same rows as the worker's batch: its exact verdict holds here (a Filter above skips the judged conjuncts)
  return p.exact === true ? markExact(b) : b;
}
