import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
const n = 1_000_000;
const t = tableFromArrays({ id: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)), name: Array.from({ length: n }, (_, i) => `name-${i % 1000}`) });
for (let k = 0; k < 3; k++) {
  const ipc = tableToIPC(t, 'stream');
  const s1 = performance.now();
  const bytes = writeParquet(WasmTable.fromIPCStream(ipc), new WriterPropertiesBuilder().setCompression(Compression.ZSTD).build());
  console.log(k, Math.round(performance.now() - s1), bytes.byteLength);
}
