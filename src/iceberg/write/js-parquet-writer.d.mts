/** Types of js-parquet-writer.mjs (plain JS so the encode worker loads it without tsx). */
import type { TypedFileTask } from './parquet-encode.mjs';
import type { TypedBounds } from './typed-file-ipc.mjs';

/** the Parquet file of a typed file's buffers, or null when a column type or the codec is not covered (parquet-wasm then) */
export function writeTypedParquet(task: TypedFileTask): Uint8Array | null;
/** writeTypedParquet's file and each column's bounds over the whole file (typedBounds' form, from the chunks' statistics) */
export function writeTypedParquetFile(task: TypedFileTask): { bytes: Uint8Array; bounds: TypedBounds[] } | null;
/** bytes of a FIXED_LEN_BYTE_ARRAY decimal of `precision` digits */
export function decimalLength(precision: number): number;
