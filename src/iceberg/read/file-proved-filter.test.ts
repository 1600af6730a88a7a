/**
 * A pushed filter the file's statistics prove for every row (file-proved-filter.ts): readFileScanTask reads the
 * file without judging it — every batch marked exact, a filter column nobody reads on exact batches not even
 * read — and a file whose statistics do not prove it is filtered as before.
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { parseSchema, type PrimitiveType } from '../spec/schema.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';
import { isExact } from '../parallel/exact-rows.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { DataFile } from '../spec/manifest.ts';
import type { DeleteLoader } from './delete-loader.ts';
import type { IcebergIO } from '../io.ts';
import { readFileScanTask, type FileScanTaskReadOptions } from './file-scan-task-reader.ts';
import { withUnreadColumns } from './file-proved-filter.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'k', required: true, type: 'int' },
    { id: 2, name: 'dt', required: false, type: 'date' },
    { id: 3, name: 's', required: false, type: 'string' },
    { id: 4, name: 'x', required: false, type: 'double' },
  ],
});
const typeOf = (id: number): PrimitiveType => schema.fields[id - 1]!.type as PrimitiveType;
const N = 20_000;
// dates 19000 … 19499, doubles 0 … 99.5, never NULL
const row = (k: number): unknown[] => [k, 19000 + (k % 500), `s${k % 13}`, (k % 200) * 0.5];

/** a date's single-value serialization (4-byte little-endian days) */
const dateBytes = (d: number): Uint8Array => new Uint8Array(Int32Array.of(d).buffer);
/** a double's single-value serialization (8-byte little-endian IEEE 754) */
const doubleBytes = (x: number): Uint8Array => new Uint8Array(Float64Array.of(x).buffer);

async function fileTask(): Promise<{ io: IcebergIO; task: FileScanTask }> {
  const io = memoryWriteIO();
  const w = new ParquetDataWriter(io, 'mem://t/data', schema, { rowGroupRows: 12_000 });
  await w.add({ length: N, columns: schema.fields.map((_f, c) => Array.from({ length: N }, (_v, k) => row(k)[c])) });
  const [info] = await w.close();
  const file: DataFile = {
    content: 0, filePath: info!.path, fileFormat: 'PARQUET', partition: new Map(), specId: 0,
    recordCount: BigInt(N), fileSizeInBytes: BigInt(info!.fileSizeInBytes), columnSizes: new Map(),
    valueCounts: new Map([[2, BigInt(N)], [4, BigInt(N)]]), nullValueCounts: new Map([[2, 0n], [4, 0n]]), nanValueCounts: new Map([[4, 0n]]),
    lowerBounds: new Map([[2, dateBytes(19000)], [4, doubleBytes(0)]]), upperBounds: new Map([[2, dateBytes(19499)], [4, doubleBytes(99.5)]]),
    keyMetadata: null, splitOffsets: null, equalityIds: null, sortOrderId: null, referencedDataFile: null,
    firstRowId: null, contentOffset: null, contentSizeInBytes: null,
  };
  const task: FileScanTask = { file, spec: { specId: 0, fields: [] }, dataSequenceNumber: 1n, positionDeletes: [], equalityDeletes: [] };
  return { io: io as unknown as IcebergIO, task };
}

/** no delete files in these tasks: nothing of the loader is asked */
const noDeletes = {} as unknown as DeleteLoader;

async function read(io: IcebergIO, task: FileScanTask, filter: BoundPredicate, unread?: Set<number>) {
  const metrics: NonNullable<FileScanTaskReadOptions['metrics']> = { rowGroupsTotal: 0, rowGroupsScanned: 0, bytesRead: 0, rowsDecoded: 0 };
  const rows: unknown[][] = [];
  const exact: boolean[] = [];
  const options: FileScanTaskReadOptions = { metrics, filter, lateHistory: { rowGroups: 0, matched: 0 }, ...(unread === undefined ? {} : { unreadWhenExact: unread }) };
  for await (const b of readFileScanTask(io, task, schema.fields, noDeletes, options)) {
    exact.push(isExact(b));
    for (let r = 0; r < b.length; r++) rows.push(b.columns.map((c) => c[r]));
  }
  return { rows, exact, metrics };
}

const dtAtMost = (d: number): BoundPredicate => ({ kind: 'compare', op: '<=', fieldId: 2, type: typeOf(2), value: d });

describe('a pushed filter the file proves', () => {
  it('is not judged: every batch exact, the unread filter column all NULL', async () => {
    const { io, task } = await fileTask();
    const proved = await read(io, task, dtAtMost(19600), new Set([2]));
    expect(proved.exact.length).toBeGreaterThan(0);
    expect(proved.exact.every((e) => e)).toBe(true);
    expect(proved.rows).toEqual(Array.from({ length: N }, (_v, k) => [k, null, row(k)[2], row(k)[3]]));
    // late materialization never ran on the file (it would count its row groups)
    expect(proved.metrics.lateRowGroups ?? 0).toBe(0);
  });

  it('keeps every column when nobody listed it unread', async () => {
    const { io, task } = await fileTask();
    const got = await read(io, task, dtAtMost(19600));
    expect(got.exact.every((e) => e)).toBe(true);
    expect(got.rows).toEqual(Array.from({ length: N }, (_v, k) => row(k)));
  });

  it('a filter the bounds do not prove is judged per row as before', async () => {
    const { io, task } = await fileTask();
    const got = await read(io, task, dtAtMost(19100));
    const want = Array.from({ length: N }, (_v, k) => k).filter((k) => (row(k)[1] as number) <= 19100);
    expect(got.rows).toEqual(want.map((k) => row(k)));
    expect(got.metrics.lateRowGroups).toBeGreaterThan(0);
  });
});

const kBelow = (k: number): BoundPredicate => ({ kind: 'compare', op: '<', fieldId: 1, type: typeOf(1), value: k });
const xBelow = (x: number): BoundPredicate => ({ kind: 'compare', op: '<', fieldId: 4, type: typeOf(4), value: x });
const both = (...args: BoundPredicate[]): BoundPredicate => ({ kind: 'and', args });
const rowsBelow = (k: number): unknown[][] => Array.from({ length: k }, (_v, i) => row(i));

describe('conjuncts the file proves, next to others it does not', () => {
  // x < 1000 holds for every row by x's bounds (0 … 99.5, no NULL or NaN); the Arrow pass cannot judge doubles, so
  // judging it would leave every batch inexact
  it('are dropped: the rest is judged alone, so its batches are exact', async () => {
    const { io, task } = await fileTask();
    const got = await read(io, task, both(xBelow(1000), kBelow(5000)));
    expect(got.rows).toEqual(rowsBelow(5000));
    expect(got.exact.length).toBeGreaterThan(0);
    expect(got.exact.every((e) => e)).toBe(true);
  });

  it('leave their column undecoded when nobody reads it on exact batches', async () => {
    const { io, task } = await fileTask();
    const got = await read(io, task, both(xBelow(1000), kBelow(5000)), new Set([4]));
    expect(got.rows).toEqual(rowsBelow(5000).map((r) => [r[0], r[1], r[2], null]));
    expect(got.exact.every((e) => e)).toBe(true);
  });

  it('a conjunct the bounds do not prove is still judged, and every column read', async () => {
    const { io, task } = await fileTask();
    const got = await read(io, task, both(xBelow(50), kBelow(5000)), new Set([4]));
    expect(got.rows).toEqual(rowsBelow(5000).filter((r) => (r[3] as number) < 50));
    expect(got.exact.some((e) => e)).toBe(false);
  });
});

describe('a phase-2 column nobody reads on exact batches', () => {
  it('is all NULL when every batch was judged exactly', async () => {
    const { io, task } = await fileTask();
    const got = await read(io, task, kBelow(5000), new Set([2]));
    expect(got.rows).toEqual(rowsBelow(5000).map((r) => [r[0], null, r[2], r[3]]));
    expect(got.exact.every((e) => e)).toBe(true);
  });

  it('is read when a batch was not judged exactly', async () => {
    const { io, task } = await fileTask();
    const got = await read(io, task, both(xBelow(50), kBelow(5000)), new Set([2]));
    expect(got.rows).toEqual(rowsBelow(5000).filter((r) => (r[3] as number) < 50));
  });
});

describe('withUnreadColumns', () => {
  it('puts all-NULL columns back at their indexes, the read ones in order', () => {
    const chunk = withUnreadColumns({ firstRowPosition: 4, length: 2, columns: [[1, 2], ['a', 'b']], positions: [4, 6] }, [0, 2]);
    expect(chunk.columns.map((c) => [c[0], c[1]])).toEqual([[null, null], [1, 2], [null, null], ['a', 'b']]);
    expect(chunk.positions).toEqual([4, 6]);
  });
});
