/**
 * Micro-benchmark of Arrow → JS values (arrow-values.ts) on a TPC-H lineitem-like column set written by
 * lakegate's ParquetDataWriter: decimal(15,2) ×4, date, char(1)-like strings ×2, int8 (+ a decimal(38,2)
 * column of edge values, checked but not timed). Decodes the Parquet once, then times the conversion per
 * column group, median of 5 warm runs. `--baseline FILE` also times (and checks value equality against) another
 * arrow-values module exporting arrowDataToValues — e.g. a copy of the previous version with absolute imports.
 *   npx tsx src/iceberg/read/testing/bench-arrow-values.ts [--rows 600000] [--baseline /tmp/arrow-values-before.ts]
 */
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { ParquetFile } from 'parquet-wasm';
import { tableFromIPC } from 'apache-arrow';
import { ParquetDataWriter } from '../../write/parquet-data-writer.ts';
import { parseSchema } from '../../spec/schema.ts';
import { Numeric } from '../../../common/pgtypes/numeric.ts';
import { arrowDataToValues as after } from '../arrow-values.ts';

const { values: opts } = parseArgs({ options: { rows: { type: 'string', default: '600000' }, baseline: { type: 'string', default: '' } } });
const before = opts.baseline === '' ? null
  : ((await import(opts.baseline)) as { arrowDataToValues: typeof after }).arrowDataToValues;
const N = Number(opts.rows);
const schema = parseSchema({ type: 'struct', 'schema-id': 0, fields: [
  { id: 1, name: 'quantity', required: false, type: 'decimal(15, 2)' },
  { id: 2, name: 'extendedprice', required: false, type: 'decimal(15, 2)' },
  { id: 3, name: 'discount', required: false, type: 'decimal(15, 2)' },
  { id: 4, name: 'tax', required: false, type: 'decimal(15, 2)' },
  { id: 5, name: 'shipdate', required: false, type: 'date' },
  { id: 6, name: 'returnflag', required: false, type: 'string' },
  { id: 7, name: 'linestatus', required: false, type: 'string' },
  { id: 8, name: 'orderkey', required: false, type: 'long' },
  { id: 9, name: 'big', required: false, type: 'decimal(38, 2)' },
] });
let seed = 42; const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const cols: unknown[][] = schema.fields.map(() => []);
for (let i = 0; i < N; i++) {
  const nul = i % 997 === 0;
  cols[0]!.push(Numeric.of(BigInt(Math.floor(rnd() * 50 + 1) * 100), 2));
  cols[1]!.push(nul ? null : Numeric.of(BigInt(Math.floor(rnd() * 10_000_000)) * (i % 101 === 0 ? -1n : 1n), 2));
  cols[2]!.push(Numeric.of(BigInt(Math.floor(rnd() * 11)), 2));
  cols[3]!.push(Numeric.of(BigInt(Math.floor(rnd() * 9)), 2));
  cols[4]!.push(nul ? null : 8000 + Math.floor(rnd() * 2500));
  cols[5]!.push('ANR'[Math.floor(rnd() * 3)]!);
  cols[6]!.push(i % 5 === 0 ? 'é' : 'OF'[Math.floor(rnd() * 2)]!);
  cols[7]!.push(BigInt(i * 4));
  cols[8]!.push(i % 7 === 0 ? null : Numeric.of(BigInt(Math.floor((rnd() - 0.5) * 2 ** 53)) * BigInt(1 + (i % 4) * 2 ** (i % 40)), 2));
}
// a few edge decimals: beyond 53 bits, large negatives
for (const [k, v] of [123456789012345678n, -9007199254740993n, -9007199254740991n, 9007199254740991n, -9007199254740992n, 9007199254740992n, -1n, 0n, 2n ** 63n, -(2n ** 64n), 10n ** 37n, -(10n ** 37n), 4294967295n, -4294967296n, -4294967297n].entries()) cols[8]![k] = Numeric.of(v, 2);
const files = new Map<string, Uint8Array>();
const io = { read: async (u: string) => files.get(u)!, readRange: async (u: string, o: number, l: number) => files.get(u)!.subarray(o, o + l),
  write: async (u: string, d: Uint8Array) => { files.set(u, d); }, writeIfAbsent: async (u: string, d: Uint8Array) => { files.set(u, d); return true; } };
const w = new ParquetDataWriter(io, 'memory://b/data', schema);
await w.add({ length: N, columns: cols });
const [info] = await w.close();
const bytes = files.get(info!.path)!;
const pf = await ParquetFile.fromFile(new Blob([bytes]));
const table = tableFromIPC((await pf.read({ batchSize: 8192 })).intoIPCStream());
console.log('rows', table.numRows, 'batches', table.batches.length, 'types', table.schema.fields.map((f) => `${f.name}:${String(f.type)}`).join(' '));
const types = schema.fields.map((f) => f.type);
function run(fn: typeof after, colSel: number[]): number {
  const t0 = performance.now();
  for (const b of table.batches) for (const c of colSel) fn(b.data.children[c]!, types[c]!);
  return performance.now() - t0;
}
if (before !== null) {
  for (const b of table.batches) for (let c = 0; c < types.length; c++) {
    const x = before(b.data.children[c]!, types[c]!), y = after(b.data.children[c]!, types[c]!);
    if (!isDeepStrictEqual(x, y)) { console.error('MISMATCH in column', schema.fields[c]!.name); process.exit(1); }
  }
  console.log('values equal to the baseline in every column');
}
const median = (a: number[]) => a.sort((p, q) => p - q)[a.length >> 1]!;
const groups: [string, number[]][] = [['all', [0,1,2,3,4,5,6,7]], ['decimal×4', [0,1,2,3]], ['date', [4]], ['char(1)×2', [5,6]], ['int8', [7]]];
for (const [name, sel] of groups) {
  const rb: number[] = [], ra: number[] = [];
  if (before !== null) run(before, sel);
  run(after, sel);
  for (let k = 0; k < 5; k++) { if (before !== null) rb.push(run(before, sel)); ra.push(run(after, sel)); }
  const a = median(ra);
  if (before === null) console.log(`${name.padEnd(10)} ${a.toFixed(1).padStart(7)} ms`);
  else console.log(`${name.padEnd(10)} before ${median(rb).toFixed(1).padStart(7)} ms  after ${a.toFixed(1).padStart(7)} ms  x${(median(rb) / a).toFixed(2)}`);
}
