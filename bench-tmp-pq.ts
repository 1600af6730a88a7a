import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
const n = 1_000_000;
const t = tableFromArrays({ id: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)), name: Array.from({ length: n }, (_, i) => `name-${i % 1000}`), ts: BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 1000000n) });
for (const [label, c, dict] of [['zstd', Compression.ZSTD, true], ['none', Compression.UNCOMPRESSED, true], ['snappy', Compression.SNAPPY, true], ['zstd-nodict', Compression.ZSTD, false]] as const) {
  const s = performance.now();
  const ipc = tableToIPC(t, 'stream');
  const s1 = performance.now();
  const props = new WriterPropertiesBuilder().setCompression(c).setDictionaryEnabled(dict).build();
  const bytes = writeParquet(WasmTable.fromIPCStream(ipc), props);
  console.log(label, Math.round(s1 - s), Math.round(performance.now() - s1), bytes.byteLength);
}
