// Arrow IPC stream → Parquet bytes (parquet-wasm), the CPU-heavy half of writing a data file. Plain JS with
// no TypeScript imports so it loads in a worker thread in milliseconds (no tsx); ParquetDataWriter calls it
// in-thread for small files and through parquet-encode-pool.ts (piscina, default export) for big ones, so a
// COPY keeps decoding on the main thread while the previous file is encoded on another core. A file of COPY's
// typed buffers comes as the buffers themselves: written to Parquet in JS (js-parquet-writer.mjs), or with
// LAKEGATE_PARQUET_WRITER=wasm turned into Arrow, bounds and IPC here (typed-file-ipc.mjs) for parquet-wasm.
import { Compression, Table, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { typedFileBuffers, typedFileIpc } from './typed-file-ipc.mjs';
import { writeTypedParquetFile } from './js-parquet-writer.mjs';

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

/** Iceberg's `write.parquet.compression-codec` names → parquet-wasm's codecs; absent or unknown: DEFAULT_CODEC */
const CODECS = {
  uncompressed: Compression.UNCOMPRESSED, snappy: Compression.SNAPPY, gzip: Compression.GZIP, lz4: Compression.LZ4_RAW,
  brotli: Compression.BROTLI, zstd: Compression.ZSTD,
};

const codecOf = (name) => CODECS[String(name ?? '').toLowerCase()] ?? Compression.SNAPPY;

/**
 * Snappy when the table names no codec (Spark's and parquet-mr's default codec; Iceberg Java's is zstd): measured on TPC-H lineitem
 * (300k rows, one thread, CPU time), zstd level 1 took 626 ms to write and 174 ms to read back for 7.96 MB,
 * snappy 369 ms and 61 ms for 10.7 MB. Writing is COPY's bottleneck thread and reading every scan's, so
 * files ~35 % larger buy both. `noDictionary`: columns (by name) written PLAIN from the start instead of
 * trying a dictionary first.
 */
export function encodeParquetIpc(ipc, options) {
  reserveWasmMemory(ipc.byteLength * 2);
  let builder = new WriterPropertiesBuilder().setCompression(codecOf(options.compressionCodec)).setMaxRowGroupSize(options.rowGroupRows);
  for (const name of options.noDictionary ?? []) builder = builder.setColumnDictionaryEnabled(name, false);
  return writeParquet(Table.fromIPCStream(ipc), builder.build());
}

/** piscina task: `null` warms the thread up; the result's buffer is moved back, not copied */
export default function encodeTask(task) {
  if (task === null) return null;
  return move(encodeParquetIpc(task.ipc, task.options));
}

/**
 * which writer makes a typed file's Parquet: `js` (the default: js-parquet-writer.mjs, straight from the buffers;
 * codecs it does not cover still go to parquet-wasm) or `wasm` (Arrow IPC → parquet-wasm). Measured on a COPY of
 * TPC-H lineitem SF 0.2 (encode thread CPU, loaded 2-core VM): 2.6 s vs 4.3 s, peak RSS 478 vs 680 MB (no wasm
 * memory, no IPC copy), the same 42 MB of files. Read per call so tests can switch it; a worker thread sees the
 * environment of its start.
 */
const jsWriter = () => (process.env.LAKEGATE_PARQUET_WRITER ?? 'js').toLowerCase() !== 'wasm';

/**
 * a file of typed buffers (typed-file-ipc.mjs) → its Parquet bytes and column bounds: per column for the whole
 * file from the JS writer (its chunks' statistics, no second pass over the values), per batch and column from
 * typed-file-ipc.mjs
 */
export function encodeTypedFile(task) {
  if (jsWriter()) {
    const file = writeTypedParquetFile(task);
    if (file !== null) return { bytes: file.bytes, bounds: [file.bounds] };
  }
  const { ipc, bounds } = typedFileIpc(task);
  return { bytes: encodeParquetIpc(ipc, task.options), bounds };
}

/**
 * piscina task (`name: 'encodeTypedTask'`): encodeTypedFile, with the Parquet bytes and the task's own buffers
 * moved back (the caller recycles them, typed-buffer-pool.ts)
 */
export function encodeTypedTask(task) {
  const { bytes, bounds } = encodeTypedFile(task);
  const buffers = typedFileBuffers(task.batches);
  return move({ [transferableSymbol]: [bytes.buffer, ...buffers], [valueSymbol]: { bytes, bounds, buffers } });
}

/** parquet-row-group-merge.ts, loaded on the first merge task: the module is TypeScript, so tsx is registered then */
let mergeModule = null;

/**
 * piscina task (`name: 'mergePiecesTask'`, used with LAKEGATE_COPY_MERGE_WORKER=on): a partition's held pieces
 * (parquet-row-group-merge.ts) merged into one row group here instead of on the thread that stages rows, which is
 * COPY's critical path by month (the merge was 6–9 % of its CPU at SF 1; this thread had slack). Returns [merged],
 * or the pieces themselves when the merge cannot take them (each then stays a row group of its own), moved back.
 * tsx is registered only here, so a thread that never merges keeps loading in milliseconds.
 */
export async function mergePiecesTask(task) {
  if (mergeModule === null) {
    const { register } = await import('tsx/esm/api');
    register();
    mergeModule = await import('./parquet-row-group-merge.ts');
  }
  const merged = mergeModule.mergeRowGroups(task.pieces);
  const parts = merged === null ? task.pieces : [merged];
  const buffers = [...new Set(parts.map((p) => p.buffer))];
  return move({ [transferableSymbol]: buffers, [valueSymbol]: parts });
}
