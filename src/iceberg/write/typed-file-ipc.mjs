// The typed buffers of one data file (COPY's TypedBatches, typed-columns.ts) → the Arrow IPC stream
// parquet-wasm encodes, plus each column's bounds for the file's Iceberg metrics (typed-bounds.mjs). Runs in
// the encode worker (parquet-encode.mjs): the thread that decodes COPY input only fills buffers and hands
// them over (transferred, not copied); building Arrow, the bounds and the IPC copy happen here, next to the
// Parquet encoding. Plain JS without TypeScript imports so a worker loads it without tsx.
import { isMainThread } from 'node:worker_threads';
import { AsyncByteQueue, RecordBatch, RecordBatchStreamWriter, Struct, Table, makeData, tableFromIPC } from 'apache-arrow';
import { typedBounds } from './typed-bounds.mjs';
import { addColumnBuffers } from './column-buffers.mjs';

/** a buffer column wrapped as Arrow Data of `type` (the field's type: Int32, DateDay, Int64, Decimal128, Utf8) */
function bufferData(type, col) {
  const base = { type, length: col.length, nullCount: col.nullCount, ...(col.validity === null ? {} : { nullBitmap: col.validity }) };
  switch (col.kind) {
    case 'int32': case 'int64': return makeData({ ...base, data: col.values });
    case 'decimal': return makeData({ ...base, data: new Uint32Array(col.words.buffer, col.words.byteOffset, col.length * 4) });
    case 'utf8': return makeData({ ...base, valueOffsets: col.offsets, data: col.data });
    default: throw new Error(`typed file: no buffer for a ${col.kind} column`);
  }
}

/**
 * `task.schema`: the file's Arrow schema as an IPC stream without batches (names, types, nullability, field
 * ids); `task.batches`: per batch its row count and one buffer column per field. Returns the IPC stream of
 * all rows and, per batch and column, typedBounds of that column.
 */
export function typedFileIpc(task) {
  const schema = tableFromIPC(task.schema).schema;
  const type = new Struct(schema.fields);
  const bounds = [];
  const batches = task.batches.map((b) => {
    bounds.push(b.columns.map((c) => typedBounds(c)));
    const children = b.columns.map((c, i) => bufferData(schema.fields[i].type, c));
    return new RecordBatch(schema, makeData({ type, length: b.length, nullCount: 0, children }));
  });
  return { ipc: streamBytes(new Table(schema, batches)), bounds };
}

/** the IPC writer's output kept as the chunks it writes (views of the column buffers, not copies) */
class ChunkSink extends AsyncByteQueue {
  chunks = [];
  bytes = 0;

  write(chunk) {
    if (chunk.byteLength === 0) return;
    this.chunks.push(chunk);
    this.bytes += chunk.byteLength;
  }
}

/**
 * an encode thread's IPC stream buffer, reused file after file: on this VM the first touch of fresh memory costs
 * ≈ 6 ms of CPU per MB (page faults), so a new 48 MiB buffer per file (tableToIPC's join) cost more than the
 * copy into it. Kept for the thread's life (an idle encode thread ends after 30 s, parquet-encode-pool.ts); the
 * main thread, which encodes only small or occasional files, makes a fresh one each time.
 */
let scratch = null;

/** `table` as one IPC stream, in `scratch` on a worker thread (valid until the next call) */
function streamBytes(table) {
  const sink = new ChunkSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink);
  writer.write(table);
  writer.finish();
  let out;
  if (isMainThread) out = new Uint8Array(sink.bytes);
  else {
    if (scratch === null || scratch.byteLength < sink.bytes) scratch = new Uint8Array(Math.ceil(sink.bytes * 1.25));
    out = scratch.subarray(0, sink.bytes);
  }
  let at = 0;
  for (const c of sink.chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** the distinct ArrayBuffers behind a task's columns (what is transferred to the worker and back) */
export function typedFileBuffers(batches) {
  const out = new Set();
  for (const b of batches) addColumnBuffers(b.columns, out);
  return [...out];
}
