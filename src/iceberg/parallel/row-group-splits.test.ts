/**
 * Row-group splits: the cutting itself, and a one-file table of three row groups read on the pool as three
 * tasks with the rows, order and metrics of a main-thread read.
 */
import { describe, expect, it } from 'vitest';
import { emptyScanMetrics } from '../../catalog/table-source.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import { chunkRowGroups, isContinuationSplit, splitForWorkers, splitTask } from './row-group-splits.ts';
import { usePooledMultiFileTable } from './testing/pooled-table.ts';
import { ScanPool } from './scan-pool.ts';
import { planParallelScan } from './parallel-scan.ts';
import { columnBytes } from '../read/column-bytes.ts';
import { readParquetFooter } from '../read/parquet-footer.ts';
import { collectRows as collect } from './testing/collect-rows.ts';

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

  describe('on a one-file table of three row groups', () => {
    const pooled = usePooledMultiFileTable('lakegate-rgsplit-', 1, ROWS);

    it('splits the file into one task per row group', async () => {
      const plan = await pooled.source.planFiles();
      expect(plan.tasks).toHaveLength(1);
      const split = await splitForWorkers(pooled.source.io, plan.tasks, 2);
      expect(split.map((t) => t.rowGroups)).toEqual([[0], [1], [2]]);
      const parallel = await planParallelScan(pooled.source.io, plan.tasks);
      expect(parallel?.tasks).toHaveLength(3);
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

    it('splits only the row groups the planner kept', async () => {
      const filters = [{ kind: 'compare' as const, op: '>=' as const, column: 0, value: 200_000n }];
      const plan = await pooled.source.planFiles(filters);
      expect(plan.tasks[0]!.rowGroups).toEqual([1, 2]);
      const split = await splitForWorkers(pooled.source.io, plan.tasks, 2);
      expect(split.map((t) => t.rowGroups)).toEqual([[1], [2]]);
      const metrics = emptyScanMetrics();
      const rows = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0], filters, metrics }));
      expect(rows.map((r) => r[0])).toEqual(Array.from({ length: ROWS - 200_000 }, (_, i) => BigInt(200_000 + i)));
      expect(metrics).toMatchObject({ filesScanned: 1, rowGroupsTotal: 3, rowGroupsScanned: 2 });
    });
  });
});
