// Arrow IPC stream → Parquet bytes (parquet-wasm), the CPU-heavy half of writing a data file. Plain JS with
// no TypeScript imports so it loads in a worker thread in milliseconds (no tsx); ParquetDataWriter calls it
// in-thread for small files and through parquet-encode-pool.ts (piscina, default export) for big ones, so a
// COPY keeps decoding on the main thread while the previous file is encoded on another core.
import { Compression, Table, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { move } from 'piscina';

let reserved = 0;

/**
 * parquet-wasm's linear memory grows page by page as the Rust allocator asks, and growing it in many small
 * steps costs seconds for a 100 MB file (measured: 3000 × 64 KiB allocations 1 s cold, 67 ms once grown).
 * One large allocation grows it in one step; WASM memory never shrinks, so this is paid once per
 * high-water mark (per thread: each worker has its own instance).
 */
function reserveWasmMemory(bytes) {
  if (bytes <= reserved) return;
  // an all-zero "IPC stream" is copied into one wasm allocation, rejected (empty stream) and freed: the
  // memory grows in one step, and the zero-filled JS buffer is never touched, so it adds no resident memory
  try {
    Table.fromIPCStream(new Uint8Array(bytes)).free();
  } catch {
    // expected: "Expected schema message, found empty stream"
  }
  reserved = bytes;
}

/**
 * ZSTD at parquet-rs's default level (1; Iceberg Java's default codec is zstd too, at parquet-mr's level 3);
 * `noDictionary`: columns (by name) written PLAIN from the start instead of trying a dictionary first.
 */
export function encodeParquetIpc(ipc, options) {
  reserveWasmMemory(ipc.byteLength * 2);
  let builder = new WriterPropertiesBuilder().setCompression(Compression.ZSTD).setMaxRowGroupSize(options.rowGroupRows);
  for (const name of options.noDictionary ?? []) builder = builder.setColumnDictionaryEnabled(name, false);
  return writeParquet(Table.fromIPCStream(ipc), builder.build());
}

/** piscina task: `null` warms the thread up; the result's buffer is moved back, not copied */
export default function encodeTask(task) {
  if (task === null) return null;
  return move(encodeParquetIpc(task.ipc, task.options));
}
