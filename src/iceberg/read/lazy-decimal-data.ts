/**
 * A Decimal128 Arrow chunk whose 4-word values are built on first read of `values`: the conversion to JS values
 * reads the exact doubles instead (exact-doubles.ts), so scans that only aggregate or compare them never write
 * 16 bytes per value (js-row-group-decode.ts).
 *
 * The accessor sits on the class's prototype, not on each chunk: an own accessor defined on a Data instance
 * (Object.defineProperty over its `values` field) turned the chunk into a dictionary-mode object in V8. Every
 * reader of Arrow data then loaded its fields by hash lookup, and as dictionary maps are shared only through a
 * cache that each full GC empties, optimized readers met a new map per query and were deoptimized ("wrong map")
 * and compiled again run after run (TPC-H q1 reads four decimal chunks per batch).
 */
import { BufferType, Data, type Decimal } from 'apache-arrow';

/** where the words come from: int64 unscaled values (two int32 words each), exact doubles, or doubles made on demand */
export type DecimalSource = Int32Array | Float64Array | (() => Float64Array);

export class LazyDecimalData extends Data<Decimal> {
  /** the words once made or assigned (null: not yet) */
  lazyWords: Uint32Array | null = null;
  readonly source: DecimalSource;
  /** the first row of this chunk within `source` */
  readonly sourceStart: number;

  constructor(type: Decimal, length: number, nullBitmap: Uint8Array | undefined, nullCount: number, source: DecimalSource, start: number) {
    // as makeData's Decimal visitor (an empty bitmap when there is none), without the values buffer: the
    // prototype's accessor answers for it
    super(type, 0, length, nullCount, { [BufferType.VALIDITY]: nullBitmap ?? new Uint8Array(0) });
    this.source = source;
    this.sourceStart = start;
  }

  /** the Decimal128 words of the chunk's rows, made now */
  makeWords(): Uint32Array {
    const s = typeof this.source === 'function' ? this.source() : this.source;
    return s instanceof Float64Array ? decimalWordsOfDoubles(s, this.sourceStart, this.length) : decimalWords(s, this.sourceStart, this.length);
  }
}

Object.defineProperty(LazyDecimalData.prototype, 'values', {
  configurable: true,
  enumerable: true,
  get(this: LazyDecimalData): Uint32Array {
    return (this.lazyWords ??= this.makeWords());
  },
  set(this: LazyDecimalData, x: Uint32Array) {
    this.lazyWords = x;
  },
});

/** Decimal128 words of rows [start, start + n) of int64 unscaled values (sign-extended) */
export function decimalWords(src: Int32Array, start: number, n: number): Uint32Array {
  const words = new Int32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const lo = src[2 * (start + i)]!, hi = src[2 * (start + i) + 1]!;
    const ext = hi >> 31, j = 4 * i;
    words[j] = lo;
    words[j + 1] = hi;
    words[j + 2] = ext;
    words[j + 3] = ext;
  }
  return new Uint32Array(words.buffer);
}

/** Decimal128 words of rows [start, start + n) of exact doubles (|v| < 2^53) */
export function decimalWordsOfDoubles(f: Float64Array, start: number, n: number): Uint32Array {
  const words = new Int32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const v = f[start + i]!;
    const hi = Math.floor(v / 4294967296), ext = hi < 0 ? -1 : 0, j = 4 * i;
    words[j] = v - hi * 4294967296; // 0 ≤ low word < 2^32: its bits
    words[j + 1] = hi;
    words[j + 2] = ext;
    words[j + 3] = ext;
  }
  return new Uint32Array(words.buffer);
}
