/**
 * The Parquet page index: OffsetIndex / ColumnIndex read for a row group's filter columns (one ranged read,
 * or none when inside the footer's cached tail), row ranges from per-page min/max/null counts (AND across
 * columns paged differently, OR, IN, IS NULL, LIKE prefix), row groups skipped by readParquetColumns with
 * true counters and the same rows as without the index, batches outside the ranges never evaluated, a
 * corrupt index ignored, and a Spark-written fixture file whose ranges hold every matching row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { Int32, Int64, Utf8 } from 'apache-arrow';
import { emptyScanMetrics } from '../../catalog/table-source.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';
import { pagedParquet } from './testing/paged-parquet.ts';
import { readParquetFooter, type ParquetFooter } from './parquet-footer.ts';
import { clearPageIndexCache, readRowGroupPageIndex } from './page-index.ts';
import { intersectRanges, selectPageRows, unionRanges, type PageColumn } from './page-row-ranges.ts';
import { PageIndexPruner } from './page-index-pruner.ts';
import { readParquetColumns, type ParquetColumnRequest } from './parquet-reader.ts';
import type { ChunkFilter } from './late-materialization.ts';
import { FIXTURES } from '../test/fixture-helpers.ts';
import { addLateMetrics } from '../parallel/parallel-scan.ts';

const INT: PrimitiveType = { kind: 'primitive', name: 'int' };
const LONG: PrimitiveType = { kind: 'primitive', name: 'long' };
const STR: PrimitiveType = { kind: 'primitive', name: 'string' };
const TYPES: Record<number, PrimitiveType> = { 1: INT, 2: LONG, 3: STR, 4: INT };

const N = 3000;
const isNullRow = (i: number): boolean => i % 1000 >= 500 && i % 1000 < 600;
/** a ascending (pages of 100 rows), b descending (50), s sorted text with a null run, c = i % 10 (unsorted) */
function writeFile(n = N, rowGroupRows = 1000) {
  const bytes = pagedParquet([
    { name: 'a', type: new Int32(), values: Array.from({ length: n }, (_, i) => i) },
    { name: 'b', type: new Int64(), values: Array.from({ length: n }, (_, i) => BigInt(n - 1 - i)) },
    { name: 's', type: new Utf8(), values: Array.from({ length: n }, (_, i) => (isNullRow(i) ? null : `k${String(i).padStart(5, '0')}`)) },
    { name: 'c', type: new Int32(), values: Array.from({ length: n }, (_, i) => i % 10) },
  ], { rowGroupRows, pageBytes: 400 });
  const io = memoryWriteIO();
  const path = `mem://t/${Math.random()}.parquet`;
  io.files.set(path, bytes);
  return { io, path, size: bytes.byteLength };
}

const cmp = (fieldId: number, op: '=' | '<' | '<=' | '>' | '>=' | '<>', value: unknown): BoundPredicate => ({ kind: 'compare', op, fieldId, type: TYPES[fieldId]!, value });
const and = (...args: BoundPredicate[]): BoundPredicate => ({ kind: 'and', args });
const or = (...args: BoundPredicate[]): BoundPredicate => ({ kind: 'or', args });

async function pageColumns(io: ReturnType<typeof memoryWriteIO>, path: string, size: number, footer: ParquetFooter, rg: number) {
  const indexes = await readRowGroupPageIndex(io, path, size, footer, rg, [0, 1, 2, 3]);
  return (fieldId: number): PageColumn | undefined => {
    const leaf = footer.leafByFieldId.get(fieldId);
    const index = leaf === undefined ? undefined : indexes.get(leaf.index);
    return leaf === undefined || index === undefined ? undefined : { index, element: leaf.element };
  };
}

afterEach(() => {
  clearPageIndexCache();
  delete process.env.LAKEGATE_PAGE_INDEX;
});

describe('row ranges', () => {
  it('intersects and unites half-open ranges', () => {
    expect(intersectRanges([[0, 10], [20, 30]], [[5, 25]])).toEqual([[5, 10], [20, 25]]);
    expect(intersectRanges([[0, 10]], [[10, 20]])).toEqual([]);
    expect(unionRanges([[0, 10], [30, 40]], [[10, 15], [35, 50]])).toEqual([[0, 15], [30, 50]]);
    expect(unionRanges([], [[3, 4]])).toEqual([[3, 4]]);
  });
});

describe('Parquet page index', () => {
  it('reads each chunk\'s OffsetIndex and ColumnIndex, from the cached tail or in one ranged read', async () => {
    const { io, path, size } = writeFile();
    const footer = await readParquetFooter(io, path, size);
    const reads = io.reads;
    const idx = await readRowGroupPageIndex(io, path, size, footer, 1, [0, 1, 2]);
    expect(io.reads).toBe(reads); // a small file: the index lies in the footer's cached tail
    const a = idx.get(0)!;
    expect(a.firstRows).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
    expect(a.pages!.minValues.map((m) => view(m).getInt32(0, true))).toEqual(a.firstRows.map((r) => 1000 + r));
    expect(a.pages!.maxValues.map((m) => view(m).getInt32(0, true))).toEqual(a.firstRows.map((r) => 1099 + r));
    expect(idx.get(1)!.firstRows.length).toBe(20); // int64: pages of 50 rows
    expect(idx.get(2)!.pages!.nullCounts?.reduce((x, y) => x + y, 0)).toBe(100);
    // a footer whose cached tail holds only the footer itself: the index regions come in one read
    clearPageIndexCache();
    const footerLen = view(footer.tail).getUint32(footer.tail.byteLength - 8, true);
    const short = { ...footer, tail: footer.tail.subarray(footer.tail.byteLength - 8 - footerLen), tailOffset: size - 8 - footerLen };
    const before = io.reads;
    const again = await readRowGroupPageIndex(io, path, size, short, 1, [0, 1, 2]);
    expect(io.reads - before).toBe(1);
    expect(again.get(0)).toEqual(a);
    // and cached: no read the second time
    await readRowGroupPageIndex(io, path, size, short, 1, [0, 1, 2]);
    expect(io.reads - before).toBe(1);
  });

  it('gives the row ranges that may match: AND across differently paged columns, OR, IN, IS NULL, prefix', async () => {
    const { io, path, size } = writeFile();
    const footer = await readParquetFooter(io, path, size);
    const columnOf = await pageColumns(io, path, size, footer, 1);
    const sel = (p: BoundPredicate) => selectPageRows(p, 1000, columnOf, footer.hasColumnOrders);
    expect(sel(and(cmp(1, '>=', 1250), cmp(1, '<', 1420)))?.ranges).toEqual([[200, 500]]);
    // statistics of the row group (a and b both span 1000..1999) cannot rule this out; the pages can
    const disjoint = sel(and(cmp(1, '<', 1050), cmp(2, '<', 1900n)));
    expect(disjoint).toEqual({ ranges: [], pagesTotal: 30, pagesScanned: 0 });
    expect(sel(or(cmp(1, '<', 1050), cmp(1, '>=', 1950)))?.ranges).toEqual([[0, 100], [900, 1000]]);
    expect(sel({ kind: 'in', fieldId: 1, type: INT, values: [1005, 1777] })?.ranges).toEqual([[0, 100], [700, 800]]);
    const nulls = sel({ kind: 'isNull', fieldId: 3, type: STR })!;
    expect(nulls.ranges.length).toBeGreaterThan(0);
    for (let r = 500; r < 600; r++) expect(nulls.ranges.some(([s, e]) => s <= r && r < e)).toBe(true);
    expect(nulls.ranges.reduce((n, [s, e]) => n + e - s, 0)).toBeLessThan(1000);
    const prefix = sel({ kind: 'startsWith', fieldId: 3, type: STR, prefix: 'k013' })!;
    for (let r = 300; r < 400; r++) expect(prefix.ranges.some(([s, e]) => s <= r && r < e)).toBe(true);
    expect(prefix.ranges.reduce((n, [s, e]) => n + e - s, 0)).toBeLessThan(300);
    // an unsorted column: every page may match; pages counted, nothing ruled out
    expect(sel(cmp(4, '=', 3))).toEqual({ ranges: [[0, 1000]], pagesTotal: 10, pagesScanned: 10 });
    // char(n) padding and a field without an index say nothing
    expect(sel({ kind: 'compare', op: '=', fieldId: 3, type: STR, value: 'k01300', padded: true })).toBeNull();
    expect(sel(cmp(9, '=', 1))).toBeNull();
    // binary bounds are trusted only when the footer lists column orders
    expect(selectPageRows({ kind: 'startsWith', fieldId: 3, type: STR, prefix: 'k013' }, 1000, columnOf, false)).toBeNull();
  });

  it('never rules out a matching row: random AND/OR predicates against every row', async () => {
    const { io, path, size } = writeFile();
    const footer = await readParquetFooter(io, path, size);
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const ops = ['=', '<', '<=', '>', '>=', '<>'] as const;
    const leaf = (): BoundPredicate => {
      const v = rnd(N + 200) - 100;
      switch (rnd(6)) {
        case 0: return cmp(1, ops[rnd(6)]!, v);
        case 1: return cmp(2, ops[rnd(6)]!, BigInt(v));
        case 2: return cmp(3, ops[rnd(6)]!, `k${String(v).padStart(5, '0')}`);
        case 3: return cmp(4, ops[rnd(6)]!, rnd(12));
        case 4: return { kind: 'in', fieldId: 1, type: INT, values: [v, v + rnd(500), rnd(N)] };
        default: return rnd(2) === 0 ? { kind: 'isNull', fieldId: 3, type: STR } : { kind: 'startsWith', fieldId: 3, type: STR, prefix: `k0${rnd(30)}` };
      }
    };
    const tree = (depth: number): BoundPredicate =>
      depth === 0 || rnd(3) === 0 ? leaf() : { kind: rnd(2) === 0 ? 'and' : 'or', args: [tree(depth - 1), tree(depth - 1), ...(rnd(2) ? [tree(depth - 1)] : [])] };
    const valuesOf = (i: number): unknown[] => [i, BigInt(N - 1 - i), isNullRow(i) ? null : `k${String(i).padStart(5, '0')}`, i % 10];
    const columnsAt = new Map([[1, 0], [2, 1], [3, 2], [4, 3]]);
    let narrowed = 0;
    for (let rg = 0; rg < 3; rg++) {
      const columnOf = await pageColumns(io, path, size, footer, rg);
      for (let k = 0; k < 150; k++) {
        const p = tree(3);
        const sel = selectPageRows(p, 1000, columnOf, footer.hasColumnOrders);
        const test = compileRowTest(p, columnsAt)!;
        const cols = [0, 1, 2, 3].map((c) => Array.from({ length: 1000 }, (_v, r) => valuesOf(rg * 1000 + r)[c]));
        for (let r = 0; r < 1000; r++) {
          if (test(cols, r) && sel !== null && !sel.ranges.some(([a, z]) => a <= r && r < z)) throw new Error(`row ${rg * 1000 + r} ruled out by ${JSON.stringify(p, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`);
        }
        if (sel !== null && sel.pagesScanned < sel.pagesTotal) narrowed++;
      }
    }
    expect(narrowed).toBeGreaterThan(100); // and the index did rule pages out
  });

  const requests: ParquetColumnRequest[] = [1, 2, 3, 4].map((id) => ({ fieldId: id, type: TYPES[id]!, missingValue: null }));
  function chunkFilter(p: BoundPredicate, onSelect?: () => void): ChunkFilter {
    const columnOf = new Map(requests.map((r, i) => [r.fieldId, i]));
    const test = compileRowTest(p, columnOf)!;
    return {
      columns: [...referencedFieldIds(p)].map((id) => columnOf.get(id)!),
      predicate: p,
      select: (cols, length) => {
        onSelect?.();
        return Array.from({ length }, (_v, r) => r).filter((r) => test(cols as unknown[][], r));
      },
    };
  }
  async function scan(f: ReturnType<typeof writeFile>, p: BoundPredicate, onSelect?: () => void) {
    const metrics = emptyScanMetrics();
    const rows: unknown[][] = [];
    for await (const c of readParquetColumns({ io: f.io, size: f.size }, f.path, requests, { filter: chunkFilter(p, onSelect), metrics })) {
      for (let r = 0; r < c.length; r++) rows.push([c.positions?.[r] ?? c.firstRowPosition + r, ...c.columns.map((col) => col[r])]);
    }
    return { rows, metrics };
  }

  it('skips row groups no page can match, with true counters and the same rows as without the index', async () => {
    const f = writeFile();
    const p = or(and(cmp(1, '<', 1050), cmp(2, '<', 1900n)), { kind: 'in', fieldId: 1, type: INT, values: [5, 2400] });
    const on = await scan(f, p);
    expect(on.rows.map((r) => r[0])).toEqual([5, 2400]);
    expect(on.rows[1]).toEqual([2400, 2400, 599n, 'k02400', 0]);
    expect(on.metrics).toMatchObject({ rowGroupsTotal: 3, rowGroupsScanned: 2, pageIndexRowGroups: 3, pageIndexRowGroupsPruned: 1, lateRowGroups: 2 });
    // rg 0: a's page 0 of 10 and b's (all 20 pages: b >= 2000 fails < 1900 everywhere, none overlap) ...
    expect(on.metrics.pagesScanned).toBeLessThan(on.metrics.pagesTotal!);
    process.env.LAKEGATE_PAGE_INDEX = 'off';
    const off = await scan(f, p);
    expect(off.rows).toEqual(on.rows);
    expect(off.metrics).toMatchObject({ rowGroupsScanned: 3 });
    expect(off.metrics).toMatchObject({ pageIndexRowGroups: 0, pagesTotal: 0 });
  });

  it('evaluates the filter only on the batches that overlap the row ranges', async () => {
    const f = writeFile(20_000, 20_000); // one row group, three batches of ROWS_PER_BATCH (8192)
    let calls = 0;
    const { rows, metrics } = await scan(f, { kind: 'in', fieldId: 1, type: INT, values: [5, 8200] }, () => calls++);
    expect(rows.map((r) => r[0])).toEqual([5, 8200]);
    expect(calls).toBe(2); // batches 0 and 1; batch 2 (rows 16384..) lies outside every range
    expect(metrics).toMatchObject({ pageIndexRowGroups: 1, pageIndexRowGroupsPruned: 0, pagesScanned: 2, pagesTotal: 200 });
    process.env.LAKEGATE_PAGE_INDEX = 'off';
    calls = 0;
    expect((await scan(f, { kind: 'in', fieldId: 1, type: INT, values: [5, 8200] }, () => calls++)).rows).toEqual(rows);
    expect(calls).toBe(3);
  });

  it('ignores a corrupt index (prunes nothing) and still reads every matching row', async () => {
    const f = writeFile();
    const bytes = f.io.files.get(f.path)!;
    const footer = await readParquetFooter(f.io, f.path, f.size);
    const cc = footer.rowGroups[1]!.chunks[0]!;
    const at = Number(cc.get(4));
    bytes.fill(0xff, at, at + Number(cc.get(5))); // rg 1's OffsetIndex of `a`
    clearPageIndexCache();
    const pruner = (await PageIndexPruner.open(f.io, f.path, f.size, cmp(1, '=', 1234)))!;
    expect(await pruner.select(1, 1000)).toBeNull();
    expect(await pruner.select(2, 1000)).toEqual([]);
    expect((await scan(f, cmp(1, '=', 1234))).rows.map((r) => r[0])).toEqual([1234]);
  });
});

describe('page index counters from the scan workers', () => {
  it('add up on the main thread', () => {
    const to = emptyScanMetrics();
    addLateMetrics(to, { rowGroupsTotal: 2, rowGroupsScanned: 1, bytesRead: 0, rowsDecoded: 0, pageIndexRowGroups: 2, pageIndexRowGroupsPruned: 1, pagesTotal: 10, pagesScanned: 3 });
    addLateMetrics(to, { rowGroupsTotal: 1, rowGroupsScanned: 1, bytesRead: 0, rowsDecoded: 0 });
    addLateMetrics(to, { rowGroupsTotal: 1, rowGroupsScanned: 1, bytesRead: 0, rowsDecoded: 0, pageIndexRowGroups: 1, pageIndexRowGroupsPruned: 0, pagesTotal: 5, pagesScanned: 5 });
    expect(to).toMatchObject({ pageIndexRowGroups: 3, pageIndexRowGroupsPruned: 1, pagesTotal: 15, pagesScanned: 8 });
  });
});

describe('page index of a Spark-written file (duckdb-lineitem_iceberg)', () => {
  it('holds every row that matches inside the ranges it selects', async () => {
    const dir = `${FIXTURES}/duckdb-lineitem_iceberg/data`;
    const name = readdirSync(dir).find((n) => n.endsWith('.parquet'))!;
    const bytes = new Uint8Array(readFileSync(`${dir}/${name}`));
    const io = memoryWriteIO();
    io.files.set(name, bytes);
    const footer = await readParquetFooter(io, name, bytes.byteLength);
    const rows = footer.rowGroups[0]!.numRows;
    const key = footer.leafByFieldId.get(1)!; // l_orderkey
    const idx = await readRowGroupPageIndex(io, name, bytes.byteLength, footer, 0, [key.index]);
    expect(idx.get(key.index)!.firstRows.length).toBeGreaterThan(1);
    const keys: unknown[] = [];
    for await (const c of readParquetColumns(bytes, name, [{ fieldId: 1, type: LONG, missingValue: null }])) keys.push(...c.columns[0]!);
    expect(keys.length).toBe(rows);
    const columnOf = (id: number): PageColumn | undefined => (id === 1 ? { index: idx.get(key.index)!, element: key.element } : undefined);
    let narrowed = 0;
    for (const k of [1n, 7n, 12_000n, 30_000n, 59_999n, 60_000n]) {
      const sel = selectPageRows({ kind: 'compare', op: '=', fieldId: 1, type: LONG, value: k }, rows, columnOf, footer.hasColumnOrders)!;
      keys.forEach((v, r) => {
        if (v === k) expect(sel.ranges.some(([s, e]) => s <= r && r < e)).toBe(true);
      });
      if (sel.pagesScanned < sel.pagesTotal) narrowed++;
    }
    expect(narrowed).toBeGreaterThan(0);
  });
});
