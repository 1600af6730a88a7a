/**
 * Builders for typed-columns.ts: a fixed row capacity per batch, appends without per-value allocation.
 * `value(v)` takes a JS value (from a type input function) and returns false when the buffer cannot hold
 * it; the caller then continues the batch as a values column (`toValues`), keeping every earlier row.
 */
import { Numeric, pow10 } from '../../common/pgtypes/numeric.ts';
import { materializeColumn, type TypedColumn } from './typed-columns.ts';
import { takeBuffer } from './typed-buffer-pool.ts';

export interface ColumnBuilder {
  /** rows appended so far */
  readonly length: number;
  appendNull(): void;
  /** appends a JS value; false (nothing appended) when this buffer cannot hold it */
  value(v: unknown): boolean;
  /** the column of the rows appended; the builder must not be used afterwards */
  finish(): TypedColumn;
}

/**
 * a validity bitmap for `capacity` rows whose first `valid` rows are marked valid (the rest 0): made when a column
 * meets its first NULL, so a column without NULLs sets no bit per row
 */
export function validPrefixBitmap(capacity: number, valid: number): Uint8Array {
  const bitmap = new Uint8Array(takeBuffer((capacity + 7) >> 3)).fill(0);
  bitmap.fill(0xff, 0, valid >> 3);
  if ((valid & 7) !== 0) bitmap[valid >> 3] = (1 << (valid & 7)) - 1;
  return bitmap;
}

abstract class BitmapBuilder {
  length = 0;
  nullCount = 0;
  /** null until the first NULL: every row so far is valid */
  protected validity: Uint8Array | null = null;

  constructor(protected readonly capacity: number) {}

  /** marks the next row valid and returns its index */
  protected next(): number {
    const i = this.length++;
    if (this.validity !== null) this.validity[i >> 3]! |= 1 << (i & 7);
    return i;
  }

  appendNull(): void {
    this.validity ??= validPrefixBitmap(this.capacity, this.length);
    this.length++;
    this.nullCount++;
  }

  protected bitmap(): Uint8Array | null {
    return this.nullCount === 0 ? null : this.validity;
  }
}

export class Int32Builder extends BitmapBuilder implements ColumnBuilder {
  readonly values: Int32Array;

  constructor(capacity: number, private readonly domain: 'int' | 'date') {
    super(capacity);
    this.values = new Int32Array(takeBuffer(capacity * 4));
  }

  append(v: number): void {
    this.values[this.next()] = v;
  }

  value(v: unknown): boolean {
    if (typeof v !== 'number' || (v | 0) !== v) return false;
    this.append(v);
    return true;
  }

  finish(): TypedColumn {
    return { kind: 'int32', domain: this.domain, length: this.length, nullCount: this.nullCount, validity: this.bitmap(), values: this.values.subarray(0, this.length) };
  }
}

const TWO32 = 2 ** 32;

export class Int64Builder extends BitmapBuilder implements ColumnBuilder {
  readonly values: BigInt64Array;
  private readonly words: Int32Array;

  constructor(capacity: number) {
    super(capacity);
    this.values = new BigInt64Array(takeBuffer(capacity * 8));
    this.words = new Int32Array(this.values.buffer);
  }

  /** a safe integer, written as two 32-bit words (no bigint) */
  appendNumber(v: number): void {
    const i = this.next();
    if ((v | 0) === v) {
      // an int32 (TPC-H's keys): no division
      this.words[2 * i] = v;
      this.words[2 * i + 1] = v >> 31;
      return;
    }
    const hi = Math.floor(v / TWO32);
    this.words[2 * i] = v - hi * TWO32;
    this.words[2 * i + 1] = hi;
  }

  value(v: unknown): boolean {
    if (typeof v !== 'bigint') return false;
    this.values[this.next()] = v;
    return true;
  }

  finish(): TypedColumn {
    return { kind: 'int64', length: this.length, nullCount: this.nullCount, validity: this.bitmap(), values: this.values.subarray(0, this.length) };
  }
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

export class DecimalBuilder extends BitmapBuilder implements ColumnBuilder {
  private readonly words: BigInt64Array;
  private readonly words32: Int32Array;

  constructor(capacity: number, private readonly precision: number, private readonly scale: number) {
    super(capacity);
    this.words = new BigInt64Array(takeBuffer(capacity * 16));
    this.words32 = new Int32Array(this.words.buffer);
  }

  /** an unscaled value that is a safe integer: four 32-bit words, sign-extended */
  appendUnscaled(v: number): void {
    const i = this.next();
    if ((v | 0) === v) {
      // an int32 (TPC-H's prices in cents): its sign fills the upper words, no division
      const sign = v >> 31;
      this.words32[4 * i] = v;
      this.words32[4 * i + 1] = sign;
      this.words32[4 * i + 2] = sign;
      this.words32[4 * i + 3] = sign;
      return;
    }
    const hi = Math.floor(v / TWO32);
    const sign = hi < 0 ? -1 : 0;
    this.words32[4 * i] = v - hi * TWO32;
    this.words32[4 * i + 1] = hi;
    this.words32[4 * i + 2] = sign;
    this.words32[4 * i + 3] = sign;
  }

  /** a finite Numeric at this scale or below (rescaled exactly); anything else is refused */
  value(v: unknown): boolean {
    if (!Numeric.isNumeric(v) || !v.isFinite() || v.scale > this.scale) return false;
    const u = v.scale === this.scale ? v.unscaled : v.unscaled * pow10(this.scale - v.scale);
    const limit = pow10(this.precision);
    if (u >= limit || u <= -limit) return false;
    const i = this.next();
    if (u >= I64_MIN && u <= I64_MAX) {
      this.words[2 * i] = u;
      this.words[2 * i + 1] = u < 0n ? -1n : 0n;
    } else {
      this.words[2 * i] = BigInt.asIntN(64, u);
      this.words[2 * i + 1] = u >> 64n;
    }
    return true;
  }

  finish(): TypedColumn {
    return {
      kind: 'decimal', precision: this.precision, scale: this.scale, length: this.length, nullCount: this.nullCount, validity: this.bitmap(),
      words: this.words.subarray(0, 2 * this.length),
    };
  }
}

const encoder = new TextEncoder();

export class Utf8Builder extends BitmapBuilder implements ColumnBuilder {
  private readonly offsets: Int32Array;
  private data: Uint8Array;
  private pos = 0;
  /** `data` and the last source seen by appendBytes as DataViews: fields are copied four bytes a step */
  private dataView: DataView;
  private src: Uint8Array | null = null;
  private srcView: DataView | null = null;

  constructor(capacity: number, bytesHint = 16) {
    super(capacity);
    this.offsets = new Int32Array(takeBuffer((capacity + 1) * 4));
    this.offsets[0] = 0;
    this.data = new Uint8Array(takeBuffer(Math.max(1024, capacity * bytesHint)));
    this.dataView = new DataView(this.data.buffer);
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.data.length) return;
    let size = this.data.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(takeBuffer(size));
    grown.set(this.data.subarray(0, this.pos));
    this.data = grown;
    this.dataView = new DataView(grown.buffer);
  }

  /** src[start, end) (valid UTF-8), then `pad` blanks (char(n)) */
  appendBytes(src: Uint8Array, start: number, end: number, pad = 0): void {
    const len = end - start;
    this.reserve(len + pad);
    const data = this.data;
    const dv = this.dataView;
    let p = this.pos;
    if (len < 48) {
      if (src !== this.src) this.srcView = new DataView(src.buffer, src.byteOffset, src.byteLength);
      this.src = src;
      const sv = this.srcView!;
      let k = start;
      for (; k + 4 <= end; k += 4, p += 4) dv.setInt32(p, sv.getInt32(k, true), true);
      for (; k < end; k++) data[p++] = src[k]!;
    } else {
      data.set(src.subarray(start, end), p);
      p += len;
    }
    // blanks four at a time too (char(25) pads TPC-H's l_shipinstruct by 8–21)
    let k = 0;
    for (; k + 4 <= pad; k += 4, p += 4) dv.setInt32(p, 0x20202020, true);
    for (; k < pad; k++) data[p++] = 32;
    this.pos = p;
    this.offsets[this.next() + 1] = p;
  }

  override appendNull(): void {
    super.appendNull();
    this.offsets[this.length] = this.pos;
  }

  value(v: unknown): boolean {
    if (typeof v !== 'string') return false;
    this.reserve(v.length * 3);
    this.pos += encoder.encodeInto(v, this.data.subarray(this.pos)).written;
    this.offsets[this.next() + 1] = this.pos;
    return true;
  }

  finish(): TypedColumn {
    return { kind: 'utf8', length: this.length, nullCount: this.nullCount, validity: this.bitmap(), offsets: this.offsets.subarray(0, this.length + 1), data: this.data.subarray(0, this.pos) };
  }
}

export class ValuesBuilder implements ColumnBuilder {
  private readonly values: unknown[];
  length = 0;

  constructor(capacity: number, prefix: readonly unknown[] = []) {
    this.values = new Array<unknown>(capacity).fill(null);
    for (let i = 0; i < prefix.length; i++) this.values[i] = prefix[i];
    this.length = prefix.length;
  }

  appendNull(): void {
    this.length++;
  }

  value(v: unknown): boolean {
    this.values[this.length++] = v;
    return true;
  }

  finish(): TypedColumn {
    return { kind: 'values', length: this.length, values: this.length === this.values.length ? this.values : this.values.slice(0, this.length) };
  }

  /** a typed builder's rows so far, continued as JS values */
  static from(b: ColumnBuilder, capacity: number): ValuesBuilder {
    return new ValuesBuilder(capacity, materializeColumn(b.finish()));
  }
}
