/**
 * Files made of typed buffers only (COPY's batches, every column a buffer of its field's type): the writer
 * hands the buffers to an encode worker (typed-file-ipc.mjs via parquet-encode.mjs), which builds Arrow, the
 * bounds and the Parquet file. The files must hold the same values and the same metrics as the JS values of
 * the same rows give, in-thread and in the worker; a batch with a JS-values column in the middle of a load
 * starts a file of the other kind without losing a row; the buffers come back from the worker for reuse.
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter, type DataFileInfo } from './parquet-data-writer.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { TypedBatch, materializeColumn, type TypedColumn } from './typed-columns.ts';
import { takeBuffer } from './typed-buffer-pool.ts';
import { encodeTypedInWorker } from './parquet-encode-pool.ts';
import { tableToIPC, Table, Schema as ArrowSchema, Field, Int32 } from 'apache-arrow';
import { memoryWriteIO } from './testing/memory-write-io.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'l', required: false, type: 'long' },
    { id: 3, name: 'n', required: false, type: 'decimal(38, 2)' },
    { id: 4, name: 'd', required: false, type: 'date' },
    { id: 5, name: 's', required: false, type: 'string' },
  ],
});

/** rows k·n … k·n+n−1 (every 7th NULL where nullable; longs beyond 2^53 every 5th, decimals beyond 2^64 every 5th) */
function typedBatch(k: number, n: number, allNull = false): TypedBatch {
  const i = new Int32Builder(n, 'int');
  const l = new Int64Builder(n);
  const d = new DecimalBuilder(n, 38, 2);
  const dt = new Int32Builder(n, 'date');
  const s = new Utf8Builder(n);
  const enc = new TextEncoder();
  for (let r = k * n; r < k * n + n; r++) {
    i.append(r - 50);
    if (allNull || r % 7 === 3) {
      l.appendNull(); d.appendNull(); dt.appendNull(); s.appendNull();
      continue;
    }
    if (r % 5 === 0) l.value(-(2n ** 62n) + BigInt(r)); else l.appendNumber(r * 1_000_003 - 9_000_000);
    if (r % 5 === 1) d.value(Numeric.of(10n ** 30n * BigInt(r), 2)); else d.appendUnscaled(r * 37 - 500);
    dt.append(r - 400);
    const str = r % 3 === 0 ? `é${r}` : `s${(r * 7919) % 1000}`;
    const b = enc.encode(str);
    s.appendBytes(b, 0, b.length);
  }
  return new TypedBatch(n, [i.finish(), l.finish(), d.finish(), dt.finish(), s.finish()]);
}

/** the batch with its date column as JS values (as a date column that met 'infinity' is) */
function withValuesColumn(b: TypedBatch): TypedBatch {
  const cols: TypedColumn[] = [...b.typed];
  cols[3] = { kind: 'values', length: b.length, values: materializeColumn(b.typed[3]!) };
  return new TypedBatch(b.length, cols);
}

async function write(batches: readonly TypedBatch[], plain: boolean, workerMinBytes: number): Promise<{ files: DataFileInfo[]; io: ReturnType<typeof memoryWriteIO> }> {
  const io = memoryWriteIO();
  const w = new ParquetDataWriter(io, 'memory://t/data', schema, { targetFileSizeBytes: 20_000, workerMinBytes, relationName: 't' });
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

/** the same rows as JS values, one batch per file: metrics are compared file by file */
async function expectSameAsPlain(make: () => TypedBatch[], workerMinBytes: number): Promise<DataFileInfo[]> {
  const plain = await write(make(), true, Infinity);
  const typed = await write(make(), false, workerMinBytes);
  expect(typed.files.map((f) => f.recordCount)).toEqual(plain.files.map((f) => f.recordCount));
  expect(metricsOf(typed.files)).toEqual(metricsOf(plain.files));
  expect(await readBack(typed.io, typed.files)).toEqual(await readBack(plain.io, plain.files));
  return typed.files;
}

describe('typed-buffer files', () => {
  it('hold the values and metrics of the same rows as JS values, in-thread and in the encode worker', async () => {
    const make = (): TypedBatch[] => Array.from({ length: 6 }, (_, k) => typedBatch(k, 500));
    const inThread = await expectSameAsPlain(make, Infinity);
    const inWorker = await expectSameAsPlain(make, 0);
    expect(inThread.length).toBeGreaterThan(2);
    // file names number the files in order, and the files come back in that order
    expect(inWorker.map((f) => f.path.slice(-14))).toEqual(inWorker.map((_, k) => `-${String(k).padStart(5, '0')}.parquet`));
  }, 60_000);

  it('a column of NULLs only has counts and no bounds', async () => {
    const files = await expectSameAsPlain(() => [typedBatch(0, 300, true)], 0);
    expect(files[0]!.metrics[1]!.nullCount).toBe(300);
    expect(files[0]!.metrics[1]!.lowerBound()).toBeNull();
  }, 60_000);

  it('a batch with a JS-values column between typed ones: files of both kinds, every row once, in order', async () => {
    const make = (): TypedBatch[] => [typedBatch(0, 400), typedBatch(1, 400), withValuesColumn(typedBatch(2, 400)), typedBatch(3, 400)];
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', schema, { workerMinBytes: 0, relationName: 't' });
    for (const b of make()) await w.add(b);
    const files = await w.close();
    // one file per run of batches of one kind (the target size is not reached)
    expect(files.map((f) => f.recordCount)).toEqual([800, 400, 400]);
    const plain = await write(make(), true, Infinity);
    const all = await readBack(io, files);
    expect(all).toEqual(await readBack(plain.io, plain.files));
    expect(all[0]!.length).toBe(1600);
  }, 60_000);

  it('the worker moves the buffers back: the next batch reuses them', async () => {
    const b = typedBatch(0, 4096);
    const col = b.typed[0] as Extract<TypedColumn, { kind: 'int32' }>;
    const schemaIpc = tableToIPC(new Table(new ArrowSchema([new Field('i', new Int32(), false)]), []), 'stream');
    const r = await encodeTypedInWorker({ schema: schemaIpc, batches: [{ length: 4096, columns: [col] }], options: { rowGroupRows: 1024 } });
    expect(col.values.length).toBe(0); // moved to the worker: detached here
    expect(r.buffers.map((x) => x.byteLength)).toEqual([4096 * 4]);
    expect(r.bounds).toEqual([[[-50, 4045]]]);
    expect(r.bytes.byteLength).toBeGreaterThan(0);
  }, 60_000);

  it('the writer gives the buffers back to the pool once the worker has encoded them', async () => {
    const n = 4099;
    const b = typedBatch(0, n);
    const w = new ParquetDataWriter(memoryWriteIO(), 'memory://t/data', schema, { workerMinBytes: 0, relationName: 't' });
    await w.add(b);
    await w.close();
    // the int and the date column had buffers of n int32s: one of them comes back with its old contents
    const again = new Int32Array(takeBuffer(n * 4));
    const ints = Array.from({ length: n }, (_, r) => r - 50);
    const dates = Array.from({ length: n }, (_, r) => (r % 7 === 3 ? null : r - 400));
    const got = Array.from(again);
    expect(got[0] === -50 ? got : got.map((v, r) => (dates[r] === null ? null : v))).toEqual(got[0] === -50 ? ints : dates);
  }, 60_000);
});
