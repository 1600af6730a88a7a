import { ParquetDataWriter } from '/work/main/src/iceberg/write/parquet-data-writer.ts';
import { parseSchema } from '/work/main/src/iceberg/spec/schema.ts';
import { Numeric } from '/work/main/src/common/pgtypes/numeric.ts';
const schema = parseSchema({ type: 'struct', 'schema-id': 0, fields: [
  { id: 1, name: 'id', required: true, type: 'long' }, { id: 2, name: 'name', required: false, type: 'string' },
  { id: 3, name: 'amount', required: false, type: 'decimal(12, 2)' }, { id: 4, name: 'ts', required: false, type: 'timestamptz' }] });
const batches = [];
for (let i = 0; i < 1_000_000; i += 8192) {
  const n = Math.min(8192, 1_000_000 - i);
  batches.push({ length: n, columns: [Array.from({ length: n }, (_, k) => BigInt(i + k)), Array.from({ length: n }, (_, k) => `name-${(i + k) % 1000}`),
    Array.from({ length: n }, (_, k) => Numeric.of(BigInt((i + k) % 100000), 2)), Array.from({ length: n }, (_, k) => BigInt(i + k) * 1000000n)] });
}
import { tableToIPC, Table } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
const io = { read: async () => new Uint8Array(), readRange: async () => new Uint8Array(), write: async () => {}, writeIfAbsent: async () => true };
const t0 = performance.now();
const w = new ParquetDataWriter(io, 'x', schema);
let t = 0;
for (const b of batches) { const s = performance.now(); await w.add(b); t += performance.now() - s; }
const s2 = performance.now();
await w.close();
console.log({ convertMs: Math.round(t), flushMs: Math.round(performance.now() - s2), totalMs: Math.round(performance.now() - t0) });
