// The typed buffers of one data file (COPY's TypedBatches, typed-columns.ts) → the Arrow IPC stream
// parquet-wasm encodes, plus each column's bounds for the file's Iceberg metrics (typed-bounds.mjs). Runs in
// the encode worker (parquet-encode.mjs): the thread that decodes COPY input only fills buffers and hands
// them over (transferred, not copied); building Arrow, the bounds and the IPC copy happen here, next to the
// Parquet encoding. Plain JS without TypeScript imports so a worker loads it without tsx.
import { RecordBatch, Struct, Table, makeData, tableFromIPC, tableToIPC } from 'apache-arrow';
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
  return { ipc: tableToIPC(new Table(schema, batches), 'stream'), bounds };
}

/** the distinct ArrayBuffers behind a task's columns (what is transferred to the worker and back) */
export function typedFileBuffers(batches) {
  const out = new Set();
  for (const b of batches) addColumnBuffers(b.columns, out);
  return [...out];
}
