/**
 * Row-group splits: the cutting itself, and a one-file table of three row groups read on the pool as three
 * tasks with the rows, order and metrics of a main-thread read.
 */
import { describe, expect, it } from 'vitest';
import { emptyScanMetrics } from '../../catalog/table-source.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import { chunkRowGroups, evenEnough, isContinuationSplit, splitByRows, splitForWorkers, splitTask } from './row-group-splits.ts';
import { usePooledMultiFileTable } from './testing/pooled-table.ts';
import { ScanPool } from './scan-pool.ts';
import { planParallelScan } from './parallel-scan.ts';
import { columnBytes } from '../read/column-bytes.ts';
import { readParquetFooter } from '../read/parquet-footer.ts';
import { collectRows as collect, rowKey } from './testing/collect-rows.ts';
import { DeleteLoader } from '../read/delete-loader.ts';
import { readFileScanTask, type FileScanTaskReadOptions } from '../read/file-scan-task-reader.ts';

const ROWS = 270_000; // 128 Ki + 128 Ki + the rest: three row groups with the writer's default

describe('row-group splits', () => {
  it('cuts row groups into consecutive runs and marks the continuations', () => {
    expect(chunkRowGroups([0, 1, 2, 3, 4], 2)).toEqual([[0, 1], [2, 3], [4]]);
    const task = { file: { filePath: 'f' } } as unknown as FileScanTask;
    expect(splitTask(task, [0, 1], 2)).toEqual([task]);
    const parts = splitTask(task, [1, 3, 4], 1);
    expect(parts.map((t) => t.rowGroups)).toEqual([[1], [3], [4]]);
    expect(parts.map(isContinuationSplit)).toEqual([false, true, true]);
    expect(isContinuationSplit(task)).toBe(false);
  });

  it('cuts a big row group by row range at multiples of 16,384 rows, small ones whole (SF 1 customer)', () => {
    const task = { file: { filePath: 'f' } } as unknown as FileScanTask;
    const parts = splitByRows(task, [0, 1], [131_072, 18_928], 32_768);
    expect(parts.map((t) => [t.rowGroups, t.rowRange])).toEqual([
      [[0], [0, 32_768]], [[0], [32_768, 65_536]], [[0], [65_536, 98_304]], [[0], [98_304, 131_072]], [[1], undefined],
    ]);
    expect(parts.map(isContinuationSplit)).toEqual([false, true, true, true, true]);
    // row ranges are file positions: a later row group's start past the earlier ones (pruned or not)
    expect(splitByRows(task, [1], [20_000, 65_536], 16_384).map((t) => t.rowRange)).toEqual([[20_000, 36_384], [36_384, 52_768], [52_768, 69_152], [69_152, 85_536]]);
    // uneven: whole units shared out, the row group's end where it is
    expect(splitByRows(task, [0], [100_000], 32_768).map((t) => t.rowRange)).toEqual([[0, 32_768], [32_768, 65_536], [65_536, 100_000]]);
    // small row groups run together up to a piece; one piece in all: the task unchanged
    expect(splitByRows(task, [0, 1, 2, 3], [10_000, 10_000, 10_000, 10_000], 20_000).map((t) => t.rowGroups)).toEqual([[0, 1], [2, 3]]);
    expect(splitByRows(task, [0], [40_000], 32_768)).toEqual([task]);
  });

  describe('on a one-file table of three row groups', () => {
    const pooled = usePooledMultiFileTable('lakegate-rgsplit-', 1, ROWS);

    it('splits the file into pieces of about the same rows: its two big row groups by row range', async () => {
      const plan = await pooled.source.planFiles();
      expect(plan.tasks).toHaveLength(1);
      const split = await splitForWorkers(pooled.source.io, plan.tasks, 2);
      // 270,000 rows / 8 tasks → pieces of 49,152 rows: each 131,072-row group in three
      expect(split.map((t) => [t.rowGroups, t.rowRange])).toEqual([
        [[0], [0, 32_768]], [[0], [32_768, 81_920]], [[0], [81_920, 131_072]],
        [[1], [131_072, 163_840]], [[1], [163_840, 212_992]], [[1], [212_992, 262_144]], [[2], undefined],
      ]);
      const parallel = await planParallelScan(pooled.source.io, plan.tasks);
      expect(parallel?.tasks).toHaveLength(7);
      // enough tasks already, or no pool: unchanged / main thread
      expect(await splitForWorkers(pooled.source.io, [...plan.tasks, ...plan.tasks, ...plan.tasks, ...plan.tasks], 1)).toHaveLength(4);
      expect(await planParallelScan(pooled.source.io, plan.tasks, { pool: null })).toBeNull();
      expect(await planParallelScan(pooled.source.io, plan.tasks, { pool: new ScanPool({ size: 2, minRows: 1e9, minBytes: Infinity }) })).toBeNull();
    });

    it('takes fewer rows than minRows to the pool when the columns read are wide (footer sizes: no column_sizes here)', async () => {
      const plan = await pooled.source.planFiles();
      const task = plan.tasks[0]!;
      await readParquetFooter(pooled.source.io, task.file.filePath, Number(task.file.fileSizeInBytes)); // cached: columnBytes reads it
      expect(task.file.columnSizes.size).toBe(0); // lakegate's writer records none: the footer measures
      const [id0, id1] = pooled.source.schema.fields.map((f) => f.id);
      const all = columnBytes(task, undefined);
      const one = columnBytes(task, [id0!]);
      expect(one).toBeGreaterThan(0);
      expect(all).toBeGreaterThan(one);
      expect(columnBytes(task, [id0!, id1!])).toBeGreaterThan(one);
      // the row groups a pruned task reads count, not the file's
      expect(columnBytes({ ...task, rowGroups: [2] }, [id0!])).toBeLessThan(one);
      const narrow = (minBytes: number): ScanPool => new ScanPool({ size: 2, minRows: 1e9, minBytes });
      const ids = (): number[] => [id0!];
      expect(await planParallelScan(pooled.source.io, plan.tasks, { pool: narrow(one), fieldIds: ids })).not.toBeNull();
      expect(await planParallelScan(pooled.source.io, plan.tasks, { pool: narrow(one + 1), fieldIds: ids })).toBeNull();
      // every column read: wider
      expect(await planParallelScan(pooled.source.io, plan.tasks, { pool: narrow(one + 1) })).not.toBeNull();
      // wide false (a scan without pushed filters, table source): rows alone decide
      expect(await planParallelScan(pooled.source.io, plan.tasks, { pool: narrow(1), fieldIds: ids, wide: false })).toBeNull();
      expect(await planParallelScan(pooled.source.io, plan.tasks, { pool: new ScanPool({ size: 2, minRows: 1, minBytes: Infinity }), wide: false })).not.toBeNull();
    });

    it('reads the same rows in the same order as the main thread, counting the file once', async () => {
      const metrics = emptyScanMetrics();
      const parallel = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 3, 4], metrics }));
      expect(metrics).toMatchObject({ filesScanned: 1, rowGroupsTotal: 3, rowGroupsScanned: 3, rowsDecoded: ROWS });
      const main = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 3, 4], limit: ROWS + 1 }));
      expect(parallel).toHaveLength(ROWS);
      expect(parallel.map((r) => r[0])).toEqual(main.map((r) => r[0]));
      expect(parallel.map((r) => String(r[3]))).toEqual(main.map((r) => String(r[3])));
    });

    it('reads row-range pieces with a late filter the same as the main thread', async () => {
      const filters = [{ kind: 'compare' as const, op: '<' as const, column: 1, value: 10 }];
      const metrics = emptyScanMetrics();
      const parallel = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 3, 4, 1], filters, metrics }));
      expect(metrics).toMatchObject({ filesScanned: 1, rowGroupsTotal: 3, rowGroupsScanned: 3 });
      const main = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 3, 4, 1], filters, limit: ROWS + 1 }));
      expect(parallel.length).toBeGreaterThan(2000);
      expect(parallel.map(rowKey)).toEqual(main.map(rowKey));
    });

    it('returns exactly the rows of a row range cut anywhere, filtered or not, and fetches only its pages', async () => {
      const source = pooled.source;
      const task = (await source.planFiles()).tasks[0]!;
      const deletes = new DeleteLoader(source.io, () => undefined);
      const fields = source.schema.fields;
      const filter = source.bindFilters([{ kind: 'compare', op: '<', column: 1, value: 10 }], { rows: true });
      const ids = async (rowRange: readonly [number, number] | undefined, options: FileScanTaskReadOptions = {}): Promise<bigint[]> => {
        const out: bigint[] = [];
        for await (const b of readFileScanTask(source.io, { ...task, ...(rowRange === undefined ? {} : { rowRange }) }, fields, deletes, options)) out.push(...(b.columns[0] as bigint[]));
        return out;
      };
      const range = (from: number, to: number): bigint[] => Array.from({ length: to - from }, (_, i) => BigInt(from + i));
      // within a row group, off batch bounds; across two row groups
      expect(await ids([1_000, 50_001])).toEqual(range(1_000, 50_001));
      expect(await ids([100_000, 140_000])).toEqual(range(100_000, 140_000));
      const filtered = range(100_000, 140_000).filter((i) => Number(i) % 97 !== 0 && Number(i) % 1000 < 10);
      expect(await ids([100_000, 140_000], { filter })).toEqual(filtered);
      // the pieces of a split together: the whole file once, in order
      const pieces = await splitForWorkers(source.io, [task], 2);
      const all: bigint[] = [];
      for (const p of pieces) all.push(...(await ids(p.rowRange ?? [262_144, ROWS])));
      expect(all).toEqual(range(0, ROWS));
      // a piece fetches its own pages (page-window.ts), not its row group's whole column chunk (one column: the
      // reader fetches neighbouring columns' windows in one read, gaps included)
      const name = fields.filter((f) => f.name === 'name');
      const bytesOf = async (rowRange: readonly [number, number]): Promise<number> => {
        const metrics = { ...emptyScanMetrics() };
        for await (const _b of readFileScanTask(source.io, { ...task, rowRange }, name, deletes, { metrics })) { /* drain */ }
        return metrics.bytesRead;
      };
      const whole = await bytesOf([0, 131_072]);
      // this file's pages start every 20,480 rows: the dictionary page and the first of seven (a later page's read
      // would take the bytes between it and the dictionary page along: close spans are fetched in one read)
      expect(await bytesOf([0, 16_384])).toBeLessThan(whole * 0.5);
    });

    it('splits only the row groups the planner kept', async () => {
      const filters = [{ kind: 'compare' as const, op: '>=' as const, column: 0, value: 200_000n }];
      const plan = await pooled.source.planFiles(filters);
      expect(plan.tasks[0]!.rowGroups).toEqual([1, 2]);
      const split = await splitForWorkers(pooled.source.io, plan.tasks, 2);
      expect(split.map((t) => [t.rowGroups, t.rowRange])).toEqual([
        [[1], [131_072, 163_840]], [[1], [163_840, 196_608]], [[1], [196_608, 229_376]], [[1], [229_376, 262_144]], [[2], undefined],
      ]);
      const metrics = emptyScanMetrics();
      const rows = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0], filters, metrics }));
      expect(rows.map((r) => r[0])).toEqual(Array.from({ length: ROWS - 200_000 }, (_, i) => BigInt(200_000 + i)));
      expect(metrics).toMatchObject({ filesScanned: 1, rowGroupsTotal: 3, rowGroupsScanned: 2 });
    });
  });

  it('judges whole tasks even when the busiest thread holds at most 1.5 shares', () => {
    expect(evenEnough([75_000, 75_000, 75_000], 2)).toBe(true); // 150k against 112.5k: TPC-H q15's three months
    expect(evenEnough([75_000, 75_000], 2)).toBe(true);
    expect(evenEnough([150_000], 2)).toBe(false); // SF 1 customer: one file
    expect(evenEnough([131_072, 18_928], 2)).toBe(false);
    expect(evenEnough([], 2)).toBe(false);
  });

  describe('on a table of three files of 70,000 rows', () => {
    const pooled = usePooledMultiFileTable('lakegate-rgeven-', 3, 70_000);

    it('keeps files that share out evenly whole with keepEven, cuts them without', async () => {
      const plan = await pooled.source.planFiles();
      expect(plan.tasks).toHaveLength(3);
      expect(await splitForWorkers(pooled.source.io, plan.tasks, 2, { keepEven: true })).toBe(plan.tasks);
      expect((await splitForWorkers(pooled.source.io, plan.tasks, 2)).length).toBeGreaterThan(3);
      const parallel = await planParallelScan(pooled.source.io, plan.tasks, { keepEven: true });
      expect(parallel?.tasks).toHaveLength(3);
    });
  });
});
