/**
 * A Blob whose bytes are fetched lazily through IcebergIO.readRange. parquet-wasm's async reader
 * (ParquetFile.fromFile) only calls `size`, `slice(start, end)` and `arrayBuffer()`, so it reads the
 * footer first and then just the column chunks it decodes — never the whole file.
 */
import type { IcebergIO } from '../io.ts';

interface BlobLike {
  readonly size: number;
  readonly type: string;
  slice(start?: number, end?: number): BlobLike;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export function rangeBlob(io: IcebergIO, uri: string, size: number, onRead?: (offset: number, length: number) => void): Blob {
  const make = (from: number, to: number): BlobLike => ({
    size: to - from,
    type: '',
    slice(start = 0, end = to - from): BlobLike {
      const len = to - from;
      const s = Math.min(len, Math.max(0, start < 0 ? len + start : start));
      const e = Math.min(len, Math.max(s, end < 0 ? len + end : end));
      return make(from + s, from + e);
    },
    async arrayBuffer(): Promise<ArrayBuffer> {
      onRead?.(from, to - from);
      const b = await io.readRange(uri, from, to - from);
      return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength
        ? (b.buffer as ArrayBuffer)
        : (b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
    },
  });
  const blob = make(0, size);
  // wasm-bindgen's Blob import checks the prototype chain, not the implementation
  Object.setPrototypeOf(blob, Blob.prototype);
  return blob as unknown as Blob;
}
