/**
 * Typed batches (COPY's buffers) through ParquetDataWriter: the same Parquet values and the same per-column
 * metrics as the JS values of the same rows, in-thread and with the encode worker (files kept in order);
 * NOT NULL; a values column among typed ones.
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter, type DataFileInfo } from './parquet-data-writer.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema, type Schema } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { TypedBatch, materializeColumn, type TypedColumn } from './typed-columns.ts';
import { mostlyDistinct, sortedKeys } from './typed-arrow-data.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'l', required: false, type: 'long' },
    { id: 3, name: 'n', required: false, type: 'decimal(38, 2)' },
    { id: 4, name: 'd', required: false, type: 'date' },
    { id: 5, name: 's', required: false, type: 'string' },
    { id: 6, name: 'v', required: false, type: 'double' },
  ],
});

/** rows k·n … k·n+n−1 as typed columns (every 7th row NULL where nullable; wide longs/decimals every 5th) */
function typedBatch(k: number, n: number): TypedBatch {
  const i = new Int32Builder(n, 'int');
  const l = new Int64Builder(n);
  const d = new DecimalBuilder(n, 38, 2);
  const dt = new Int32Builder(n, 'date');
  const s = new Utf8Builder(n);
  const values: unknown[] = [];
  const enc = new TextEncoder();
  for (let r = k * n; r < k * n + n; r++) {
    i.append(r - 50);
    if (r % 7 === 3) {
      l.appendNull(); d.appendNull(); dt.appendNull(); s.appendNull(); values.push(null);
      continue;
    }
    if (r % 5 === 0) l.value(-(2n ** 62n) + BigInt(r)); else l.appendNumber(r * 1_000_003 - 9_000_000);
    if (r % 5 === 1) d.value(Numeric.of(10n ** 30n * BigInt(r), 2)); else d.appendUnscaled(r * 37 - 500);
    dt.append(r - 400);
    const str = r % 3 === 0 ? `é${r}` : `s${(r * 7919) % 1000}`;
    const b = enc.encode(str);
    s.appendBytes(b, 0, b.length);
    values.push(r / 4);
  }
  const cols: TypedColumn[] = [i.finish(), l.finish(), d.finish(), dt.finish(), s.finish(), { kind: 'values', length: n, values }];
  return new TypedBatch(n, cols);
}

async function write(batches: readonly TypedBatch[], plain: boolean, workerMinBytes: number, s: Schema = schema): Promise<{ files: DataFileInfo[]; io: ReturnType<typeof memoryWriteIO> }> {
  const io = memoryWriteIO();
  const w = new ParquetDataWriter(io, 'memory://t/data', s, { targetFileSizeBytes: 20_000, workerMinBytes, relationName: 't' });
  for (const b of batches) await w.add(plain ? { length: b.length, columns: b.typed.map(materializeColumn) } : b);
  return { files: await w.close(), io };
}

async function readBack(io: ReturnType<typeof memoryWriteIO>, files: readonly DataFileInfo[]): Promise<unknown[][]> {
  const out: unknown[][] = schema.fields.map(() => []);
  for (const f of files) {
    for await (const chunk of readParquetColumns(io.files.get(f.path)!, f.path, schema.fields.map((x) => ({ fieldId: x.id, type: x.type, missingValue: null })))) {
      chunk.columns.forEach((col, c) => out[c]!.push(...col));
    }
  }
  return out;
}

const metricsOf = (files: readonly DataFileInfo[]): unknown => files.map((f) => ({
  rows: f.recordCount,
  m: f.metrics.map((m) => [m.fieldId, m.valueCount, m.nullCount, m.nanCount, m.lowerBound(), m.upperBound()]),
}));

describe('typed batches through ParquetDataWriter', () => {
  const batches = Array.from({ length: 6 }, (_, k) => typedBatch(k, 500));

  it('gives the values and metrics of the same rows as JS values, in-thread and in the encode worker', async () => {
    const plain = await write(batches, true, Infinity);
    const typedInThread = await write(batches, false, Infinity);
    const typedWorker = await write(batches, false, 0);
    expect(plain.files.length).toBeGreaterThan(2);
    expect(metricsOf(typedInThread.files)).toEqual(metricsOf(plain.files));
    expect(metricsOf(typedWorker.files)).toEqual(metricsOf(plain.files));
    const expected = await readBack(plain.io, plain.files);
    expect(await readBack(typedInThread.io, typedInThread.files)).toEqual(expected);
    expect(await readBack(typedWorker.io, typedWorker.files)).toEqual(expected);
    // file names number the files in order, and the files come back in that order
    expect(typedWorker.files.map((f) => f.path.slice(-14))).toEqual(typedWorker.files.map((_, k) => `-${String(k).padStart(5, '0')}.parquet`));
    expect(expected[0]!.slice(0, 3)).toEqual([-50, -49, -48]);
  }, 60_000);

  it('NULL in a required typed column is 23502', async () => {
    const i = new Int32Builder(2, 'int');
    i.append(1);
    i.appendNull();
    const s = parseSchema({ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'i', required: true, type: 'int' }] });
    const w = new ParquetDataWriter(memoryWriteIO(), 'memory://t/data', s, { relationName: 't' });
    await expect(w.add(new TypedBatch(2, [i.finish()]))).rejects.toMatchObject({ code: '23502', message: 'null value in column "i" of relation "t" violates not-null constraint' });
  });

  it('picks PLAIN for columns whose sampled values nearly all differ', () => {
    const b = typedBatch(0, 2048);
    expect(b.typed.slice(0, 5).map((c) => mostlyDistinct(c))).toEqual([true, true, true, true, false]);
    const few = new Int32Builder(2048, 'date');
    for (let r = 0; r < 2048; r++) few.append(r % 300);
    expect(mostlyDistinct(few.finish())).toBe(false);
  });

  it('picks PLAIN for a sorted key with many values, not for sorted columns with few or unsorted ones', () => {
    const int32 = (f: (r: number) => number, n = 2048): TypedColumn => {
      const b = new Int32Builder(n, 'int');
      for (let r = 0; r < n; r++) b.append(f(r));
      return b.finish();
    };
    const int64 = (f: (r: number) => number, n = 2048): TypedColumn => {
      const b = new Int64Builder(n);
      for (let r = 0; r < n; r++) b.appendNumber(f(r));
      return b.finish();
    };
    // lineitem's l_orderkey: ~4 rows per key, ascending; beyond 2^32 (high words) and descending too
    expect(sortedKeys(int64((r) => 1 + Math.floor(r / 4) * 3))).toBe(true);
    expect(sortedKeys(int64((r) => 2 ** 40 + Math.floor(r / 4) * 2 ** 31))).toBe(true);
    expect(sortedKeys(int32((r) => 10_000 - Math.floor(r / 5)))).toBe(true);
    expect(sortedKeys(int64((r) => -(2 ** 35) + r * 2 ** 30))).toBe(true);
    // sorted with few values (long runs), unsorted keys, one step back, too few rows, strings
    expect(sortedKeys(int32((r) => Math.floor(r / 100)))).toBe(false);
    expect(sortedKeys(int32((r) => (r * 7919) % 2048))).toBe(false);
    expect(sortedKeys(int64((r) => (r === 1000 ? 0 : r + 10)))).toBe(false);
    expect(sortedKeys(int32((r) => r, 200))).toBe(false);
    expect(sortedKeys(typedBatch(0, 2048).typed[4]!)).toBe(false);
  });
});
