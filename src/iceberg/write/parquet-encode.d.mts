/** Types of parquet-encode.mjs (plain JS so worker threads load it without tsx). */
export interface ParquetEncodeOptions {
  /** at most this many rows per Parquet row group */
  readonly rowGroupRows: number;
  /** column names written without dictionary encoding */
  readonly noDictionary?: readonly string[];
}
export interface ParquetEncodeTask {
  readonly ipc: Uint8Array;
  readonly options: ParquetEncodeOptions;
}
export function encodeParquetIpc(ipc: Uint8Array, options: ParquetEncodeOptions): Uint8Array;
export default function encodeTask(task: ParquetEncodeTask | null): unknown;
