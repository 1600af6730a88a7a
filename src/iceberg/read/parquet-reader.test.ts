import { describe, expect, it } from 'vitest';
import {
  Field, Schema, Struct, List, Map_, Int32, Int64, Utf8, TimestampNanosecond, TimeMicrosecond, FixedSizeBinary, Decimal,
  makeData, makeTable, tableFromArrays, tableToIPC, vectorFromArray, Table as ArrowTable, RecordBatch, Float64,
} from 'apache-arrow';
import { Table as WasmTable, writeParquet } from 'parquet-wasm';
import { readParquetColumns } from './parquet-reader.ts';
import { parseType, parsePrimitive, type IcebergType } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';

const id = (n: number) => new Map([['PARQUET:field_id', String(n)]]);

/** A Parquet file written by arrow-rs (parquet-wasm) with field ids on every column. */
function sampleParquet(): Uint8Array {
  const base = tableFromArrays({ a: Int32Array.from([1, 2, 3]) });
  const tagsVec = vectorFromArray([['x', 'y'], [], null], new List(new Field('element', new Utf8(), true, id(11))));
  const dblVec = vectorFromArray([1.5, null, -0], new Float64());
  const structType = new Struct([new Field('x', new Int64(), true, id(21)), new Field('label', new Utf8(), true, id(22))]);
  const pt = vectorFromArray([{ x: 5n, label: 'p' }, null, { x: -1n, label: null }], structType);
  const mapType = new Map_<Utf8, Int32>(new Field('entries', new Struct<{ key: Utf8; value: Int32 }>([new Field('key', new Utf8(), false, id(31)), new Field('value', new Int32(), true, id(32))]), false));
  const props = vectorFromArray([new Map([['b', 2], ['a', 1]]), null, new Map()], mapType);
  const uuidBytes = Uint8Array.from(Buffer.from('f79c3e098b0c4c2e8c3d2b0e6a2f1a10'.repeat(3), 'hex'));
  const uuid = makeData({ type: new FixedSizeBinary(16), length: 3, nullCount: 0, data: uuidBytes });
  // decimal(9,2): 128-bit little-endian words
  const dec = new Uint32Array(12);
  dec.set([1420, 0, 0, 0], 0);
  dec.set([0xffffffff - 499, 0xffffffff, 0xffffffff, 0xffffffff], 4);
  const decData = makeData({ type: new Decimal(2, 9, 128), length: 3, nullCount: 0, data: dec });
  // third value null (validity bit 2 clear)
  const ts = makeData({ type: new TimestampNanosecond(), length: 3, nullCount: 1, nullBitmap: Uint8Array.of(0b011), data: BigInt64Array.of(1_000_001_999n, -1n, 0n) });
  const tm = makeData({ type: new TimeMicrosecond(), length: 3, nullCount: 1, nullBitmap: Uint8Array.of(0b011), data: BigInt64Array.of(3_600_000_001n, 0n, 0n) });
  const fields = [
    new Field('a', new Int32(), true, id(1)),
    new Field('ts', new TimestampNanosecond(), true, id(2)),
    new Field('t', new TimeMicrosecond(), true, id(3)),
    new Field('tags', tagsVec.type, true, id(10)),
    new Field('pt', structType, true, id(20)),
    new Field('props', mapType, true, id(30)),
    new Field('u', new FixedSizeBinary(16), false, id(40)),
    new Field('price', new Decimal(2, 9, 128), false, id(50)),
    new Field('dbl', new Float64(), true, id(60)),
  ];
  const schema = new Schema(fields);
  const children = [
    base.getChild('a')!.data[0]!, ts, tm, tagsVec.data[0]!,
    pt.data[0]!, props.data[0]!, uuid, decData, dblVec.data[0]!,
  ];
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: 3, nullCount: 0, children }));
  const table = new ArrowTable(schema, [batch]);
  void makeTable;
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(table, 'stream')));
}

async function readAll(bytes: Uint8Array, cols: { fieldId: number; type: IcebergType; missingValue?: unknown }[]) {
  const out: unknown[][] = cols.map(() => []);
  for await (const c of readParquetColumns(bytes, 'mem.parquet', cols.map((x) => ({ missingValue: null, ...x })))) {
    c.columns.forEach((v, i) => out[i]!.push(...v));
  }
  return out;
}

describe('Parquet reader: columns by field id → JS values', () => {
  const bytes = sampleParquet();
  const P = parsePrimitive;

  it('reads primitives, promotes int→long, truncates ns → µs, keeps decimals exact', async () => {
    const [a, ts, t, u, price, dbl] = await readAll(bytes, [
      { fieldId: 1, type: P('long') },
      { fieldId: 2, type: P('timestamp_ns') },
      { fieldId: 3, type: P('time') },
      { fieldId: 40, type: P('uuid') },
      { fieldId: 50, type: P('decimal(9, 2)') },
      { fieldId: 60, type: P('double') },
    ]);
    expect(a).toEqual([1n, 2n, 3n]);
    expect(ts).toEqual([1_000_001n, -1n, null]);
    expect(t).toEqual([3_600_000_001, 0, null]);
    expect(u).toEqual(Array(3).fill('f79c3e09-8b0c-4c2e-8c3d-2b0e6a2f1a10'));
    expect((price as Numeric[]).slice(0, 2).map((n) => n.toString())).toEqual(['14.20', '-5.00']);
    expect(dbl).toEqual([1.5, null, -0]);
  });

  it('missing ids read as the fallback value; columns are matched by id, not name', async () => {
    const [x, a] = await readAll(bytes, [{ fieldId: 99, type: P('int'), missingValue: 7 }, { fieldId: 1, type: P('int') }]);
    expect(x).toEqual([7, 7, 7]);
    expect(a).toEqual([1, 2, 3]);
  });

  it('list → PgArray, struct and map → jsonb text', async () => {
    const [tags, pt, props] = await readAll(bytes, [
      { fieldId: 10, type: parseType({ type: 'list', 'element-id': 11, 'element-required': false, element: 'string' }) },
      { fieldId: 20, type: parseType({ type: 'struct', fields: [
        { id: 22, name: 'label', required: false, type: 'string' },
        { id: 21, name: 'x', required: false, type: 'long' },
        { id: 23, name: 'added', required: false, type: 'int' },
      ] }) },
      { fieldId: 30, type: parseType({ type: 'map', 'key-id': 31, key: 'string', 'value-id': 32, 'value-required': false, value: 'int' }) },
    ]);
    expect(isPgArray(tags![0])).toBe(true);
    expect(tags!.map((v) => (v === null ? null : (v as { values: unknown[] }).values))).toEqual([['x', 'y'], [], null]);
    expect(pt).toEqual(['{"x": 5, "added": null, "label": "p"}', null, '{"x": -1, "added": null, "label": null}']);
    expect(props).toEqual(['{"a": 1, "b": 2}', null, '{}']);
  });
});
