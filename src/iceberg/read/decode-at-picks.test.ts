/**
 * Late materialization's second phase decoded at its picks only (js-row-group-decode.ts with `atRows`,
 * parquet-page-decoder.ts `rawAtPicksOnly`): the picked rows read exactly what a whole decode reads — PLAIN and
 * dictionary pages, a dictionary falling back to PLAIN mid-chunk, NULLs, int64 past 2^53 — while the other rows
 * hold placeholders; and a page-selective source fetches both phases' chunks of a row group in one read
 * (parquet-source.ts prefetch) once most row groups had matches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal, Field, Int32, Int64, RecordBatch, Schema, Struct, Table, makeData, tableToIPC, vectorFromArray, type Data, type DataType } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, WriterVersion, writeParquet } from 'parquet-wasm';
import { resetEnvSettings } from '../../common/env-settings.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergIO } from '../io.ts';
import type { IcebergType } from '../spec/schema.ts';
import { configureFileCache, DEFAULT_FILE_CACHE_BYTES } from './file-cache.ts';
import { readParquetFooter } from './parquet-footer.ts';
import { readParquetColumns } from './parquet-reader.ts';
import { chunkSpan, decodeRowGroupJs, exactDoublesInPlace, jsLeavesFor } from './js-row-group-decode.ts';
import { pagesHoldingRows } from './parquet-page-decoder.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { exactDoublesOf, hasExactDoubles } from './exact-doubles.ts';
import { decimalData } from './testing/decimal-data.ts';

const N = 12_000;
const BIG = 9_007_199_254_740_993n; // 2^53 + 1: no double holds it
const P = (name: string, extra: Partial<IcebergType> = {}): IcebergType => ({ kind: 'primitive', name, ...extra }) as IcebergType;

interface Col { readonly name: string; readonly type: DataType; readonly ice: IcebergType; readonly data: Data }


const v = (vals: unknown[], t: DataType): Data => vectorFromArray(vals, t).data[0]!;

/** `bigAt`: the row of `huge` that holds 2^53 + 1 (the others are small) */
function columns(bigAt: number): Col[] {
  return [
    { name: 'l', type: new Int64(), ice: P('long'), data: v(Array.from({ length: N }, (_, i) => BigInt(i) * 1_000_003n + 5n), new Int64()) },
    { name: 'price', type: new Decimal(2, 15, 128), ice: P('decimal', { precision: 15, scale: 2 }), data: decimalData(Array.from({ length: N }, (_, i) => BigInt((i * 104_729) % 10_000_000) - 5_000_000n), 15, 2) },
    { name: 'huge', type: new Decimal(0, 18, 128), ice: P('decimal', { precision: 18, scale: 0 }), data: decimalData(Array.from({ length: N }, (_, i) => (i === bigAt ? BIG : BigInt(i) - 7n)), 18, 0) },
    // NULLs: pages with NULLs are copied whole (only dense pages go pick by pick)
    { name: 'opt', type: new Int64(), ice: P('long'), data: v(Array.from({ length: N }, (_, i) => (i % 5 === 0 ? null : BigInt(-i))), new Int64()) },
    // few values: every page dictionary-encoded (per-row codes); entry 0 is 5, not 0
    { name: 'code', type: new Int32(), ice: P('int'), data: v(Array.from({ length: N }, (_, i) => 5 + (i % 7)), new Int32()) },
  ];
}

function writeFile(cols: readonly Col[], dictionary: boolean, rowGroupRows = N, dictPageBytes?: number): Uint8Array {
  const fields = cols.map((c, i) => new Field(c.name, c.type, true, new Map([['PARQUET:field_id', String(i + 1)]])));
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: N, nullCount: 0, children: cols.map((c) => c.data) }));
  let b = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setDictionaryEnabled(dictionary).setWriterVersion(WriterVersion.V1).setMaxRowGroupSize(rowGroupRows);
  if (dictPageBytes !== undefined) b = b.setDictionaryPageSizeLimit(dictPageBytes);
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(new Table([batch]), 'stream')), b.build());
}

/** row group 0 of `bytes` decoded whole and at `at` */
async function decodeBoth(bytes: Uint8Array, cols: readonly Col[], at: readonly number[]) {
  const footer = await readParquetFooter({ read: () => Promise.resolve(bytes), readRange: (_u, o, l) => Promise.resolve(bytes.subarray(o, o + l)) }, 'mem://picks.parquet', bytes.byteLength);
  const leaves = jsLeavesFor(footer, cols.map((c) => c.name))!;
  // ranges at odd offsets of a Buffer pool, as the local store's may be (no alignment assumed)
  const read = (o: number, l: number): Promise<Uint8Array> => {
    const pool = Buffer.alloc(l + 3);
    pool.set(bytes.subarray(o, o + l), 3);
    return Promise.resolve(pool.subarray(3, 3 + l));
  };
  const whole = (await decodeRowGroupJs(footer, 0, leaves, read))!;
  const part = (await decodeRowGroupJs(footer, 0, leaves, read, Int32Array.from(at)))!;
  expect(part.batchLengths).toEqual(whole.batchLengths);
  return { whole, part };
}

/** the values of column `c` over the row group (batch by batch) */
function valuesOf(t: { batchLengths: readonly number[]; byName: ReadonlyMap<string, readonly Data[]> }, c: Col): unknown[] {
  return t.byName.get(c.name)!.flatMap((d) => arrowDataToValues(d, c.ice, 'mem://picks.parquet'));
}

/** `values` as an ArrayLike that counts its element reads */
function countingRows(values: number[]): { rows: ArrayLike<number>; reads: () => number } {
  let n = 0;
  const rows = new Proxy(values, { get: (t, k, r) => { if (typeof k === 'string' && /^\d+$/.test(k)) n++; return Reflect.get(t, k, r) as unknown; } });
  return { rows, reads: () => n };
}

const sparse = Array.from({ length: Math.floor(N / 97) }, (_, k) => k * 97 + 3); // ~1 % of the rows

afterEach(() => {
  delete process.env.LAKEGATE_PARQUET_JS_DECODE;
  resetEnvSettings();
  configureFileCache(DEFAULT_FILE_CACHE_BYTES);
});

describe('decoding at the picks only', () => {
  it('PLAIN pages: the picks read as a whole decode reads them, every other row is a placeholder 0', async () => {
    const cols = columns(1);
    const { whole, part } = await decodeBoth(writeFile(cols, false), cols, sparse);
    const picked = new Set(sparse);
    for (const c of cols.filter((x) => x.name !== 'code')) {
      const all = valuesOf(whole, c), got = valuesOf(part, c);
      for (const r of sparse) expect(got[r], `${c.name} row ${r}`).toEqual(all[r]);
      if (c.name === 'opt') continue; // pages with NULLs are copied whole
      const zero = c.ice.kind === 'primitive' && c.ice.name === 'decimal' ? Numeric.of(0n, c.ice.scale!) : 0n;
      const others = got.filter((_x, r) => !picked.has(r));
      expect(others.every((x) => String(x) === String(zero)), `${c.name}: rows outside the picks left at 0`).toBe(true);
    }
  });

  it('exact doubles are made at the picks: a value past 2^53 outside them leaves the chunk exact', async () => {
    const cols = columns(1); // row 1 is no pick
    const { part } = await decodeBoth(writeFile(cols, false), cols, sparse);
    const huge = cols.find((c) => c.name === 'huge')!;
    const data = part.byName.get('huge')!;
    expect(data.every((d) => hasExactDoubles(d))).toBe(true);
    let start = 0;
    for (const d of data) {
      const f = exactDoublesOf(d)!;
      for (const r of sparse) if (r >= start && r < start + d.length) expect(f[r - start]).toBe(r - 7);
      start += d.length;
    }
    const got = valuesOf(part, huge);
    for (const r of sparse) expect(String(got[r])).toBe(String(r - 7));
  });

  it('a value past 2^53 at a pick: no doubles for its chunk, the exact value', async () => {
    const cols = columns(sparse[3]!);
    const { whole, part } = await decodeBoth(writeFile(cols, false), cols, sparse);
    const huge = cols.find((c) => c.name === 'huge')!;
    const got = valuesOf(part, huge), all = valuesOf(whole, huge);
    expect(String(got[sparse[3]!])).toBe(BIG.toString());
    for (const r of sparse) expect(got[r]).toEqual(all[r]);
    expect(part.byName.get('huge')!.some((d) => !hasExactDoubles(d))).toBe(true);
  });

  it('dictionary pages: values gathered at the picks only (entry 0 is not 0: the other rows stay 0)', async () => {
    const cols = columns(1);
    const { whole, part } = await decodeBoth(writeFile(cols, true), cols, sparse);
    const code = cols.find((c) => c.name === 'code')!;
    const all = valuesOf(whole, code), got = valuesOf(part, code);
    for (const r of sparse) expect(got[r]).toBe(all[r]);
    const picked = new Set(sparse);
    expect(got.filter((_x, r) => !picked.has(r)).every((x) => x === 0)).toBe(true);
    for (const c of cols) {
      const a = valuesOf(whole, c), g = valuesOf(part, c);
      for (const r of sparse) expect(g[r], `${c.name} row ${r}`).toEqual(a[r]);
    }
  });

  it('a dictionary falling back to PLAIN mid-chunk, and dense picks: the picks read as a whole decode reads them', async () => {
    const cols = columns(5);
    const bytes = writeFile(cols, true, N, 2000); // l's dictionary fills up after a few hundred rows
    for (const at of [sparse, Array.from({ length: N / 2 }, (_, k) => 2 * k), [0, 1, 2, N - 1]]) {
      const { whole, part } = await decodeBoth(bytes, cols, at);
      for (const c of cols) {
        const a = valuesOf(whole, c), g = valuesOf(part, c);
        for (const r of at) expect(g[r], `${c.name} row ${r}`).toEqual(a[r]);
      }
    }
  });

  it('every row picked: decoded as a whole decode, without reading the picks one by one', async () => {
    const cols = columns(1);
    for (const dictionary of [false, true]) {
      const bytes = writeFile(cols, dictionary);
      const footer = await readParquetFooter({ read: () => Promise.resolve(bytes), readRange: (_u, o, l) => Promise.resolve(bytes.subarray(o, o + l)) }, 'mem://all.parquet', bytes.byteLength);
      const leaves = jsLeavesFor(footer, cols.map((c) => c.name))!;
      const read = (o: number, l: number): Promise<Uint8Array> => Promise.resolve(bytes.slice(o, o + l));
      const { rows, reads } = countingRows(Array.from({ length: N }, (_, r) => r));
      const whole = (await decodeRowGroupJs(footer, 0, leaves, read))!;
      const all = (await decodeRowGroupJs(footer, 0, leaves, read, rows))!;
      expect(reads(), 'picks read').toBe(0);
      for (const c of cols) expect(valuesOf(all, c), c.name).toEqual(valuesOf(whole, c));
    }
  });

  it('pagesHoldingRows searches each page\'s first pick (not every pick before it)', () => {
    const picks = Array.from({ length: 100_000 }, (_, k) => 2 * k + 1);
    const { rows, reads } = countingRows(picks);
    const wanted = pagesHoldingRows(rows);
    const got: boolean[] = [];
    for (let first = 0; first < 200_000; first += 1000) got.push(wanted(first, 1000));
    expect(got.every((w) => w)).toBe(true);
    expect(pagesHoldingRows(picks)(200_000, 1000)).toBe(false);
    const sparsePages = pagesHoldingRows([5, 2500, 2501, 9000]);
    expect([0, 1000, 2000, 3000, 9000, 10000].map((f) => sparsePages(f, 1000))).toEqual([true, false, true, false, true, false]);
    expect(reads()).toBeLessThan(200 * 40);
  });

  it('exactDoublesInPlace at rows: those rows turned, the zero rows read 0, a pick past 2^53 gives null', () => {
    const words = (vals: readonly bigint[]) => new Int32Array(BigInt64Array.from(vals).buffer);
    const f = exactDoublesInPlace(words([0n, -12345678901234n, 0n, 2n ** 52n, 0n]), [1, 3])!;
    expect([...f]).toEqual([0, -12345678901234, 0, 2 ** 52, 0]);
    expect(exactDoublesInPlace(words([0n, 2n ** 53n + 1n, 0n]), [1])).toBeNull();
    expect(exactDoublesInPlace(words([0n, -(2n ** 53n) - 5n, 7n]), [2])![2]).toBe(7);
  });
});

describe('both phases of a row group in one read', () => {
  it('reads each row group once when most had matches, with the same rows', async () => {
    process.env.LAKEGATE_PARQUET_JS_DECODE = 'on';
    resetEnvSettings();
    configureFileCache(0); // no file is small: the ranged, page-selective source
    const cols = columns(1);
    const bytes = writeFile(cols, false, 4000);
    const reads: [number, number][] = [];
    const io: IcebergIO = {
      read: () => Promise.resolve(bytes),
      readRange: (_u, o, l) => { reads.push([o, l]); return Promise.resolve(bytes.slice(o, o + l)); },
    };
    const footer = await readParquetFooter(io, 'mem://once.parquet', bytes.byteLength);
    const leaves = jsLeavesFor(footer, cols.map((c) => c.name))!;
    reads.length = 0;
    const requests = cols.map((c, i) => ({ fieldId: i + 1, type: c.ice, missingValue: null }));
    // keeps rows whose l is a multiple of 3 (every row group has some); the history says most row groups matched
    const filter = {
      columns: [0],
      history: { rowGroups: 2, matched: 2 },
      select: (vals: readonly (readonly unknown[] | undefined)[], length: number) => {
        const keep: number[] = [];
        for (let r = 0; r < length; r++) if ((vals[0]![r] as bigint) % 3n === 0n) keep.push(r);
        return keep;
      },
    };
    const got: string[] = [];
    for await (const ch of readParquetColumns({ io, size: bytes.byteLength }, 'mem://once.parquet', requests, { filter })) {
      for (let r = 0; r < ch.length; r++) got.push(ch.columns.map((c) => String(c[r])).join('|'));
    }
    const want: string[] = [];
    const all = cols.map((c) => arrowDataToValues(c.data, c.ice));
    for (let r = 0; r < N; r++) if ((all[0]![r] as bigint) % 3n === 0n) want.push(all.map((c) => String(c[r])).join('|'));
    expect(got).toEqual(want);
    // per row group, the reads that touch its column chunks: one
    for (let rg = 0; rg < footer.rowGroups.length; rg++) {
      const spans = leaves.map((l) => chunkSpan(footer, rg, l)!);
      const from = Math.min(...spans.map((s) => s.offset)), to = Math.max(...spans.map((s) => s.offset + s.length));
      expect(reads.filter(([o, l]) => o < to && o + l > from).length, `row group ${rg}`).toBe(1);
    }
  });
});
