/**
 * Late materialization in readParquetColumns: chunks hold exactly the rows the filter keeps (every column,
 * file positions for deletes), row groups without matches never fetch the other columns' chunks, columns
 * missing from the file filter as their constant, values of picked rows equal the whole-chunk conversion for
 * every type, and the setting's boolean spellings.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { parseSchema, type PrimitiveType } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { readParquetColumns, type ColumnChunk, type ParquetColumnRequest } from './parquet-reader.ts';
import { emptyScanMetrics } from '../../catalog/table-source.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { openParquetSource } from './parquet-source.ts';
import { configureFileCache, DEFAULT_FILE_CACHE_BYTES } from './file-cache.ts';
import { lateMaterializationOn, recut, valuesAtRows, type ChunkFilter, type Selected } from './late-materialization.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { resetEnvSettings } from '../../common/env-settings.ts';

const memoryIO = memoryWriteIO;

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'l', required: false, type: 'long' },
    { id: 3, name: 'd', required: false, type: 'double' },
    { id: 4, name: 'n', required: false, type: 'decimal(12, 2)' },
    { id: 5, name: 's', required: false, type: 'string' },
    { id: 6, name: 'dt', required: false, type: 'date' },
    { id: 7, name: 'tz', required: false, type: 'timestamptz' },
    { id: 8, name: 'b', required: false, type: 'boolean' },
    { id: 9, name: 'bin', required: false, type: 'binary' },
    { id: 10, name: 'c', required: false, type: 'string' },
  ],
});
const typeOf = (id: number): PrimitiveType => schema.fields[id - 1]!.type as PrimitiveType;
const row = (k: number): unknown[] => [
  k, k % 7 === 0 ? null : BigInt(k) * 1_000_000_000n, k % 11 === 0 ? null : k / 8, k % 13 === 0 ? null : Numeric.of(BigInt(k * 3 - 500), 2),
  k % 5 === 0 ? null : `s${String(k * 7919 % 100_003).padStart(6, '0')}é${'x'.repeat(k % 17)}`, 19000 + (k % 400),
  1_700_000_000_000_000n + BigInt(k) * 3_600_000_000n, k % 3 === 0 ? null : k % 2 === 0, new Uint8Array([k >> 8, k & 255]), `c${k % 4}`,
];

async function writeFile(n: number, rg: number) {
  const io = memoryIO();
  const w = new ParquetDataWriter(io, 'mem://t/data', schema, { rowGroupRows: rg });
  const columns = schema.fields.map((_f, c) => Array.from({ length: n }, (_v, k) => row(k)[c]));
  await w.add({ length: n, columns });
  const [file] = await w.close();
  return { io, path: file!.path, size: file!.fileSizeInBytes };
}

/** field 99 is not in the file (added later): its rows take the missing value 'gone' */
const requests = (ids: readonly number[]): ParquetColumnRequest[] =>
  ids.map((id) => (id === 99 ? { fieldId: id, type: typeOf(5), missingValue: 'gone' } : { fieldId: id, type: typeOf(id), missingValue: null }));

function chunkFilter(p: BoundPredicate, reqs: readonly ParquetColumnRequest[]): ChunkFilter {
  const columnOf = new Map(reqs.map((r, i) => [r.fieldId, i]));
  const test = compileRowTest(p, columnOf)!;
  return {
    columns: [...referencedFieldIds(p)].map((id) => columnOf.get(id)!),
    select: (cols, length) => Array.from({ length }, (_v, r) => r).filter((r) => test(cols as unknown[][], r)),
  };
}

async function collect(it: AsyncIterable<ColumnChunk>): Promise<{ rows: unknown[][]; positions: number[] }> {
  const rows: unknown[][] = [];
  const positions: number[] = [];
  for await (const c of it) {
    for (let r = 0; r < c.length; r++) {
      rows.push(c.columns.map((col) => col[r]));
      positions.push(c.positions?.[r] ?? c.firstRowPosition + r);
    }
  }
  return { rows, positions };
}

describe('late materialization', () => {
  it('keeps exactly the matching rows, every column, with their file positions', async () => {
    const N = 2000;
    const { io, path, size } = await writeFile(N, 600);
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const reqs = requests(ids);
    const cases: [BoundPredicate, (r: unknown[]) => boolean][] = [
      [{ kind: 'compare', op: '=', fieldId: 1, type: typeOf(1), value: 1234 }, (r) => r[0] === 1234],
      [{ kind: 'compare', op: '<', fieldId: 2, type: typeOf(2), value: 300_000_000_000n }, (r) => r[1] !== null && (r[1] as bigint) < 300_000_000_000n],
      [{ kind: 'in', fieldId: 10, type: typeOf(10), values: ['c1', 'c3'] }, (r) => r[9] === 'c1' || r[9] === 'c3'],
      [{ kind: 'and', args: [{ kind: 'isNull', fieldId: 8, type: typeOf(8) }, { kind: 'startsWith', fieldId: 5, type: typeOf(5), prefix: 's0' }] },
        (r) => r[7] === null && typeof r[4] === 'string' && r[4].startsWith('s0')],
      [{ kind: 'or', args: [{ kind: 'compare', op: '>=', fieldId: 6, type: typeOf(6), value: 19395 }, { kind: 'compare', op: '=', fieldId: 4, type: typeOf(4), value: Numeric.of(100n, 2) }] },
        (r) => (r[5] as number) >= 19395 || (r[3] !== null && (r[3] as Numeric).equals(Numeric.of(100n, 2)))],
      [{ kind: 'compare', op: '<>', fieldId: 1, type: typeOf(1), value: 5 }, (r) => r[0] !== 5],
    ];
    for (const [p, want] of cases) {
      const m = emptyScanMetrics();
      const got = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter(p, reqs), metrics: m }));
      const expected = Array.from({ length: N }, (_v, k) => k).filter((k) => want(row(k)));
      expect(got.positions).toEqual(expected);
      expect(got.rows).toEqual(expected.map((k) => row(k)));
      expect(m).toMatchObject({ rowGroupsScanned: 4, rowsDecoded: N, lateRowGroups: 4, lateRowsTotal: N, lateRowsMaterialized: expected.length });
      expect(m.lateRowGroupsMatched).toBe(new Set(expected.map((k) => Math.floor(k / 600))).size);
    }
  });

  it('row groups without matches do not fetch the other columns', async () => {
    // ranged reads of a big file: small files are read whole and cached (file-cache.ts)
    configureFileCache(0);
    onTestFinished(() => configureFileCache(DEFAULT_FILE_CACHE_BYTES));
    const N = 40_000;
    const { io, path, size } = await writeFile(N, 10_000);
    const reqs = requests([1, 2, 4, 5, 7, 9]);
    const full = emptyScanMetrics();
    const all = await collect(readParquetColumns({ io, size }, path, reqs, { metrics: full }));
    expect(all.rows).toHaveLength(N);
    const m = emptyScanMetrics();
    const one = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter({ kind: 'compare', op: '=', fieldId: 1, type: typeOf(1), value: 25_001 }, reqs), metrics: m }));
    expect(one.rows).toEqual([row(25_001).filter((_v, c) => [1, 2, 4, 5, 7, 9].includes(c + 1))]);
    expect(one.positions).toEqual([25_001]);
    expect(m).toMatchObject({ lateRowGroups: 4, lateRowGroupsMatched: 1, lateRowsTotal: N, lateRowsMaterialized: 1 });
    // three of four row groups read only column i (4 bytes a row, of far wider rows)
    expect(m.bytesRead).toBeGreaterThan(0);
    expect(m.bytesRead).toBeLessThan(full.bytesRead * 0.45);
    // once most row groups of the scan had matches, every column comes in one read: same rows, all bytes
    // (parquet-wasm); the JS decoder keeps two reads, its second decoding only the pages holding picked rows
    for (const js of [false, true]) {
      process.env.LAKEGATE_PARQUET_JS_DECODE = js ? 'on' : 'off';
      resetEnvSettings();
      onTestFinished(() => { delete process.env.LAKEGATE_PARQUET_JS_DECODE; resetEnvSettings(); });
      const history = { rowGroups: 10, matched: 9 };
      const m1 = emptyScanMetrics();
      const f1 = { ...chunkFilter({ kind: 'compare', op: '=', fieldId: 1, type: typeOf(1), value: 25_001 }, reqs), history };
      expect(await collect(readParquetColumns({ io, size }, path, reqs, { filter: f1, metrics: m1 }))).toEqual(one);
      if (js) expect(m1.bytesRead).toBeLessThan(full.bytesRead * 0.45);
      else expect(m1.bytesRead).toBeGreaterThan(full.bytesRead * 0.9);
      expect(history).toEqual({ rowGroups: 14, matched: 10 });
    }
  });

  it('the JS decoder decodes only the pages holding picked rows, with the same rows as parquet-wasm', async () => {
    configureFileCache(0);
    onTestFinished(() => { configureFileCache(DEFAULT_FILE_CACHE_BYTES); delete process.env.LAKEGATE_PARQUET_JS_DECODE; resetEnvSettings(); });
    const N = 60_000;
    const { io, path, size } = await writeFile(N, 30_000);
    const reqs = requests([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // rows over both row groups (pages of ~20k rows: the second group's second page holds none), several
    // batches; string, decimal and NULL-bearing columns in phase 2
    const expected = [3, 4, 8191, 8192, 22_222, 29_999, 30_000, 45_000];
    const p: BoundPredicate = { kind: 'in', fieldId: 1, type: typeOf(1), values: expected };
    const got: Awaited<ReturnType<typeof collect>>[] = [];
    for (const js of [false, true]) {
      process.env.LAKEGATE_PARQUET_JS_DECODE = js ? 'on' : 'off';
      resetEnvSettings();
      const m = emptyScanMetrics();
      got.push(await collect(readParquetColumns({ io, size }, path, reqs, { filter: { ...chunkFilter(p, reqs), history: { rowGroups: 10, matched: 10 } }, metrics: m })));
      expect(m).toMatchObject({ lateRowGroups: 2, lateRowGroupsMatched: 2, lateRowsMaterialized: expected.length });
    }
    expect(got[0]!.positions).toEqual(expected);
    expect(got[0]!.rows).toEqual(expected.map((k) => row(k)));
    expect(got[1]).toEqual(got[0]);
  });

  it('a filter column missing from the file filters as its constant value', async () => {
    const { io, path, size } = await writeFile(500, 200);
    const reqs = requests([1, 99]);
    const none = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter({ kind: 'compare', op: '=', fieldId: 99, type: typeOf(5), value: 'x' }, reqs) }));
    expect(none.rows).toEqual([]);
    const all = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter({ kind: 'compare', op: '=', fieldId: 99, type: typeOf(5), value: 'gone' }, reqs) }));
    expect(all.rows).toEqual(Array.from({ length: 500 }, (_v, k) => [k, 'gone']));
    expect(all.positions).toEqual(Array.from({ length: 500 }, (_v, k) => k));
  });

  it('values of picked rows equal the whole-chunk conversion, for every type', async () => {
    const N = 3000;
    const { io, path, size } = await writeFile(N, N);
    const source = await openParquetSource({ io, size }, path);
    try {
      const idByName = new Map(source.fields.map((f) => [f.name, f.fieldId!] as const));
      const { batches, colIndex } = await source.decode(0, source.fields.map((f) => f.name), idByName);
      const picks = [[], [0], [5, 6, 7, 100, 2999], Array.from({ length: 40 }, (_v, i) => i * 53 + 1), Array.from({ length: 1500 }, (_v, i) => i * 2)];
      for (const batch of batches) {
        for (const f of schema.fields) {
          const d = batch.columns[colIndex.get(f.id)!]!;
          const whole = arrowDataToValues(d, f.type, path);
          for (const rows of picks) {
            const inBatch = rows.filter((r) => r < batch.length);
            expect(valuesAtRows(d, f.type, path, inBatch, batch.length)).toEqual(inBatch.map((r) => whole[r]));
          }
        }
      }
    } finally {
      source.free();
    }
  });

  it('a runtime key filter\'s column first (staged): the other filter columns read at its rows give the same rows', async () => {
    configureFileCache(0); // ranged reads: the page-selective JS decoder
    onTestFinished(() => configureFileCache(DEFAULT_FILE_CACHE_BYTES));
    const N = 40_000;
    const { io, path, size } = await writeFile(N, 10_000);
    const ids = [1, 2, 4, 5, 10];
    const reqs = requests(ids);
    const columnOf = new Map(reqs.map((r, i) => [r.fieldId, i]));
    const keys = Array.from({ length: 1100 }, (_v, j) => j * 37 + (j % 3));
    const p: BoundPredicate = { kind: 'and', args: [
      { kind: 'in', fieldId: 1, type: typeOf(1), values: keys },
      { kind: 'in', fieldId: 10, type: typeOf(10), values: ['c1', 'c3'] },
      { kind: 'compare', op: '>=', fieldId: 4, type: typeOf(4), value: Numeric.of(0n, 2) },
      { kind: 'compare', op: '<', fieldId: 2, type: typeOf(2), value: 30_000_000_000_000n },
    ] };
    const keySet = new Set(keys);
    const expected = Array.from({ length: N }, (_v, k) => k).filter((k) => {
      const r = row(k);
      return keySet.has(k) && (r[9] === 'c1' || r[9] === 'c3') && r[3] !== null && (r[3] as Numeric).compare(Numeric.of(0n, 2)) >= 0 && r[1] !== null && (r[1] as bigint) < 30_000_000_000_000n;
    });
    expect(expected.length).toBeGreaterThan(50);
    const selectArrow = compileArrowSelect(p, columnOf)!;
    for (const lead of [undefined, [columnOf.get(1)!]]) {
      const m = emptyScanMetrics();
      const f = { ...chunkFilter(p, reqs), predicate: p, selectArrow, ...(lead === undefined ? {} : { lead }) };
      const got = await collect(readParquetColumns({ io, size }, path, reqs, { filter: f, metrics: m }));
      expect(got.positions).toEqual(expected);
      expect(got.rows).toEqual(expected.map((k) => row(k).filter((_v, c) => ids.includes(c + 1))));
      expect(m).toMatchObject({ lateRowGroups: 4, lateRowsTotal: N, lateRowsMaterialized: expected.length });
    }
  });

  it('re-cuts phase 1 selections along other batch boundaries (rows and values stay paired)', () => {
    // rows 0..24 in batches of 10, 10, 5; selected: 1, 9 | 10, 15, 19 | 24
    const sel: Selected[] = [
      { start: 0, length: 10, rows: [1, 9], vals: [['a1', 'a9'], [1, 9]] },
      { start: 10, length: 10, rows: [0, 5, 9], vals: [['a10', 'a15', 'a19'], [10, 15, 19]] },
      { start: 20, length: 5, rows: [4], vals: [['a24'], [24]] },
    ];
    const got = recut(sel, [{ start: 0, length: 8 }, { start: 8, length: 8 }, { start: 16, length: 8 }, { start: 24, length: 1 }], 2);
    expect(got.map((x) => [x.start, x.length, x.rows, x.vals])).toEqual([
      [0, 8, [1], [['a1'], [1]]],
      [8, 8, [1, 2, 7], [['a9', 'a10', 'a15'], [9, 10, 15]]],
      [16, 8, [3], [['a19'], [19]]],
      [24, 1, [0], [['a24'], [24]]],
    ]);
  });

  it('is switched off by the setting, with PostgreSQL boolean spellings', () => {
    const session = (v: string | null) => ({ getSetting: () => v });
    for (const off of ['off', 'OFF', 'false', 'f', 'no', '0', ' of ']) expect(lateMaterializationOn(session(off))).toBe(false);
    for (const on of ['on', 'true', 'yes', '1', '', null]) expect(lateMaterializationOn(session(on))).toBe(true);
    expect(lateMaterializationOn(undefined)).toBe(true);
  });
});
