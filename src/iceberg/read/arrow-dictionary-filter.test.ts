/**
 * Filters judged per dictionary entry (arrow-dictionary-filter.ts) on chunks the JS page decoder kept codes
 * for: the rows selected equal the JS-value row test's (parallel/row-filter.ts) for int, long, date and
 * decimal columns with NULLs, every compare op and IN, and the codes are really there (the path is taken).
 */
import { describe, expect, it } from 'vitest';
import { DateDay, Decimal, Field, Int32, Int64, RecordBatch, Schema, Struct, Table, makeData, tableToIPC, vectorFromArray, type Data, type DataType } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, WriterVersion, writeParquet } from 'parquet-wasm';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { BoundPredicate, CompareOp } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { dictionaryCodesOf } from './dictionary-codes.ts';
import { readParquetFooter } from './parquet-footer.ts';
import { decodeRowGroupJs, jsLeavesFor } from './js-row-group-decode.ts';
import { decimalData } from './testing/decimal-data.ts';

const N = 20_000;
const P = (name: string, extra: Partial<PrimitiveType> = {}): PrimitiveType => ({ kind: 'primitive', name, ...extra }) as PrimitiveType;


const cols: { name: string; type: DataType; ice: PrimitiveType; data: Data }[] = [
  // l_quantity-like: 50 entries, some NULLs
  { name: 'qty', type: new Decimal(2, 15, 128), ice: P('decimal', { precision: 15, scale: 2 }), data: decimalData(Array.from({ length: N }, (_, i) => (i % 41 === 0 ? null : BigInt((i * 7) % 50 + 1) * 100n)), 15, 2) },
  // l_discount-like: 11 entries, negative ones too
  { name: 'disc', type: new Decimal(2, 15, 128), ice: P('decimal', { precision: 15, scale: 2 }), data: decimalData(Array.from({ length: N }, (_, i) => BigInt((i * 3) % 11) - 2n), 15, 2) },
  { name: 'd', type: new DateDay(), ice: P('date'), data: vectorFromArray(Array.from({ length: N }, (_, i) => (i % 13 === 0 ? null : new Date(Date.UTC(1994, 0, 1) + ((i * 11) % 31) * 86_400_000))), new DateDay()).data[0]! },
  { name: 'i', type: new Int32(), ice: P('int'), data: vectorFromArray(Array.from({ length: N }, (_, i) => ((i * 17) % 25) - 12), new Int32()).data[0]! },
  { name: 'l', type: new Int64(), ice: P('long'), data: vectorFromArray(Array.from({ length: N }, (_, i) => (i % 7 === 0 ? null : BigInt((i * 5) % 40) * 3_000_000_000n - 60_000_000_000n)), new Int64()).data[0]! },
];

function writeFile(): Uint8Array {
  const fields = cols.map((c, i) => new Field(c.name, c.type, true, new Map([['PARQUET:field_id', String(i + 1)]])));
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: N, nullCount: 0, children: cols.map((c) => c.data) }));
  const props = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setDictionaryEnabled(true).setWriterVersion(WriterVersion.V1).setMaxRowGroupSize(N).build();
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(new Table([batch]), 'stream')), props);
}

describe('filters judged per dictionary entry', async () => {
  const bytes = writeFile();
  const io = { read: () => Promise.resolve(bytes), readRange: (_u: string, o: number, l: number) => Promise.resolve(bytes.subarray(o, o + l)) };
  const footer = await readParquetFooter(io, 'mem://dict.parquet', bytes.byteLength);
  const decoded = (await decodeRowGroupJs(footer, 0, jsLeavesFor(footer, cols.map((c) => c.name))!, (o, l) => Promise.resolve(bytes.subarray(o, o + l))))!;
  const ids = new Map(cols.map((_c, i) => [i + 1, i]));
  const batches = decoded.batchLengths.map((len, b) => ({ len, data: cols.map((c) => decoded.byName.get(c.name)![b]!) }));

  it('keeps the dictionary codes of every fixed-width column', () => {
    for (const b of batches) for (const d of b.data) expect(dictionaryCodesOf(d)?.codes.length).toBe(b.len);
    expect(batches.length).toBeGreaterThan(1);
  });

  it('selects the rows the JS-value test keeps, for every op, IN and AND / OR', () => {
    const OPS: CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];
    const consts: Record<string, unknown[]> = {
      qty: [Numeric.of(2400n, 2), Numeric.of(1n, 0), Numeric.of(2401n, 3), Numeric.of(9999n, 0)],
      disc: [Numeric.of(5n, 2), Numeric.of(-1n, 2), Numeric.of(0n, 0), Numeric.of(75n, 3)],
      d: [Date.UTC(1994, 0, 15) / 86_400_000, 0],
      i: [0, -12, 12, 100],
      l: [0n, -60_000_000_000n, 3_000_000_000n * 17n - 60_000_000_000n + 1n],
    };
    const preds: BoundPredicate[] = [];
    cols.forEach((c, i) => {
      for (const value of consts[c.name]!) for (const op of OPS) preds.push({ kind: 'compare', op, fieldId: i + 1, type: c.ice, value });
    });
    preds.push({ kind: 'in', fieldId: 4, type: cols[3]!.ice, values: [-12, 0, 5, 99] });
    preds.push({ kind: 'in', fieldId: 5, type: cols[4]!.ice, values: [-60_000_000_000n, 0n, 9n] });
    // q19's shape: quantity ranges OR'ed with another column's test
    const range = (lo: bigint, hi: bigint): BoundPredicate => ({ kind: 'and', args: [
      { kind: 'compare', op: '>=', fieldId: 1, type: cols[0]!.ice, value: Numeric.of(lo, 0) },
      { kind: 'compare', op: '<=', fieldId: 1, type: cols[0]!.ice, value: Numeric.of(hi, 0) },
    ] });
    preds.push({ kind: 'or', args: [range(1n, 11n), { kind: 'and', args: [range(10n, 20n), { kind: 'compare', op: '<', fieldId: 3, type: cols[2]!.ice, value: Date.UTC(1994, 0, 20) / 86_400_000 }] }] });
    let nonTrivial = 0;
    const valuesOf = batches.map((b) => cols.map((c, i) => arrowDataToValues(b.data[i]!, c.ice, 'mem://dict.parquet')));
    for (const p of preds) {
      const select = compileArrowSelect(p, ids)!;
      const test = compileRowTest(p, ids)!;
      for (const [k, b] of batches.entries()) {
        const values = valuesOf[k]!;
        const want = Array.from({ length: b.len }, (_v, r) => r).filter((r) => test(values, r));
        expect(select(b.data, b.len), JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).toEqual({ rows: want, complete: true });
        if (want.length > 0 && want.length < b.len) nonTrivial++;
      }
    }
    expect(nonTrivial).toBeGreaterThan(preds.length);
  });
});
