/** Types of parquet-encode.mjs (plain JS so worker threads load it without tsx). */
import type { TypedBounds, TypedFile } from './typed-file-ipc.mjs';
export interface ParquetEncodeOptions {
  /** at most this many rows per Parquet row group */
  readonly rowGroupRows: number;
  /** Iceberg's `write.parquet.compression-codec` (uncompressed, snappy, gzip, lz4, brotli, zstd); default snappy */
  readonly compressionCodec?: string;
  /** column names written without dictionary encoding */
  readonly noDictionary?: readonly string[];
}
export interface ParquetEncodeTask {
  readonly ipc: Uint8Array;
  readonly options: ParquetEncodeOptions;
}
export function encodeParquetIpc(ipc: Uint8Array, options: ParquetEncodeOptions): Uint8Array;
export default function encodeTask(task: ParquetEncodeTask | null): unknown;
export interface TypedFileTask extends TypedFile {
  readonly options: ParquetEncodeOptions;
}
export interface TypedFileResult {
  readonly bytes: Uint8Array;
  /** bound sets that together cover the file, each one per column (typedBounds): one for the whole file, or one per batch */
  readonly bounds: readonly (readonly TypedBounds[])[];
}
export function encodeTypedFile(task: TypedFileTask): TypedFileResult;
/** in the worker: the result plus the task's buffers, moved back */
export function encodeTypedTask(task: TypedFileTask): unknown;
/** piscina task: `pieces` merged into one row group (mergeRowGroups); [merged], or the pieces when it cannot */
export function mergePiecesTask(task: { readonly pieces: readonly Uint8Array[] }): Promise<unknown>;
