import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { tableFromArrays, tableToIPC, Table, RecordBatch, Decimal, makeData, Struct, Field, Schema } from 'apache-arrow';
const n = 1_000_000;
const t = tableFromArrays({ id: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)) });
const dec = makeData({ type: new Decimal(2, 12, 128), length: n, data: new Uint32Array(n * 4).map((_, i) => (i % 4 === 0 ? i : 0)) });
const f = new Field('d', new Decimal(2, 12, 128), true);
const sch = new Schema([f]);
const tb = new Table(sch, [new RecordBatch(sch, makeData({ type: new Struct([f]), length: n, children: [dec] }))]);
const many = new Table(t.schema, t.batches[0]!.data.children[0] ? Array.from({ length: 122 }, (_, k) => t.slice(k * 8192, (k + 1) * 8192).batches[0]!) : []);
for (const [label, tab] of [['one-batch', t], ['122-batches', many], ['decimal', tb]] as const) {
  const s = performance.now();
  const ipc = tableToIPC(tab, 'stream');
  const s1 = performance.now();
  const bytes = writeParquet(WasmTable.fromIPCStream(ipc), new WriterPropertiesBuilder().setCompression(Compression.ZSTD).build());
  console.log(label, Math.round(s1 - s), Math.round(performance.now() - s1), bytes.byteLength);
}
