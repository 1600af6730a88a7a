/**
 * An Int32 / Date32 Arrow chunk of a dictionary-coded column chunk whose row values are gathered from the
 * dictionary's entries on the first read of `values` (js-row-group-decode.ts). Pushed filters judge such a chunk
 * by its codes (dictionary-codes.ts, arrow-dictionary-filter.ts), and a column only filtered on is then not read
 * again on an exactly judged batch (unread-nulls.ts): TPC-H q1's l_shipdate was gathered, 4 bytes a row, for
 * nothing (1.6–2.3 % of its scan workers, 24 MB of fresh buffers per run).
 *
 * The accessor sits on the class's prototype, as LazyDecimalData's does (lazy-decimal-data.ts: an own accessor
 * turns a Data into a dictionary-mode object, and its readers then deoptimize after every full GC).
 */
import { BufferType, Data, type DateDay, type Int32 } from 'apache-arrow';

/** the chunk-wide row values, gathered once for all the chunk's batches (4 bytes a row, little-endian) */
export type ChunkValues = () => Uint8Array;

export class DictionaryIntData extends Data<Int32 | DateDay> {
  /** the values once made or assigned (null: not yet) */
  lazyValues: Int32Array | null = null;
  readonly chunkValues: ChunkValues;
  /** the first row of this batch within the chunk */
  readonly chunkStart: number;

  constructor(type: Int32 | DateDay, length: number, nullBitmap: Uint8Array | undefined, nullCount: number, chunkValues: ChunkValues, start: number) {
    // as makeData's Int visitor (an empty bitmap when there is none), without the values buffer: the
    // prototype's accessor answers for it
    super(type, 0, length, nullCount, { [BufferType.VALIDITY]: nullBitmap ?? new Uint8Array(0) });
    this.chunkValues = chunkValues;
    this.chunkStart = start;
  }

  /** this batch's rows of the chunk's values (a view: the chunk's batches share one gathered buffer) */
  makeValues(): Int32Array {
    const raw = this.chunkValues();
    return new Int32Array(raw.buffer, raw.byteOffset + this.chunkStart * 4, this.length);
  }
}

Object.defineProperty(DictionaryIntData.prototype, 'values', {
  configurable: true,
  enumerable: true,
  get(this: DictionaryIntData): Int32Array {
    return (this.lazyValues ??= this.makeValues());
  },
  set(this: DictionaryIntData, x: Int32Array) {
    this.lazyValues = x;
  },
});

/** whether `d`'s row values have not been gathered yet (tests, diagnosis) */
export function valuesPending(d: Data): boolean {
  return d instanceof DictionaryIntData && d.lazyValues === null;
}
