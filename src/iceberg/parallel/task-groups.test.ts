/**
 * Task groups: which tasks share a pool task (the cut), and a real pool reading a table of many small files —
 * fewer pool tasks, the same rows in the same order as the main-thread reader, every file counted, pushed
 * filters and partial aggregates' fragments over a group, and a group with a broken file.
 */
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import { emptyScanMetrics, type ScanPredicate } from '../../catalog/table-source.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import { planScan } from '../scan/table-scan.ts';
import { multiFileTable, rowOf } from './testing/multi-file-table.ts';
import { usePooledMultiFileTable } from './testing/pooled-table.ts';
import { parallelScanFor, readTasksInParallel, runTasksInParallel } from './parallel-scan.ts';
import { splitTask } from './row-group-splits.ts';
import { groupScanTasks, SMALL_TASK_ROWS } from './task-groups.ts';
import { collectRows as collect, rowKey as key } from './testing/collect-rows.ts';

const task = (path: string, rows: number): FileScanTask =>
  ({ file: { filePath: path, recordCount: BigInt(rows) }, positionDeletes: [], equalityDeletes: [] }) as unknown as FileScanTask;
const paths = (groups: readonly (readonly FileScanTask[])[]): string[][] => groups.map((g) => g.map((t) => t.file.filePath));

describe('groupScanTasks', () => {
  it('leaves few tasks alone: at least 4 per thread', () => {
    const tasks = Array.from({ length: 8 }, (_, i) => task(`f${i}`, 100));
    expect(paths(groupScanTasks(tasks, 2))).toEqual(tasks.map((t) => [t.file.filePath]));
  });

  it('groups consecutive small files into about 4 groups per thread, in order', () => {
    const tasks = Array.from({ length: 80 }, (_, i) => task(`f${i}`, 3_750));
    const groups = groupScanTasks(tasks, 2);
    expect(groups).toHaveLength(8);
    expect(groups.flat()).toEqual(tasks);
    expect(groups.every((g) => g.length === 10)).toBe(true);
  });

  it('caps a group at 131,072 rows and 16 files', () => {
    const big = groupScanTasks(Array.from({ length: 80 }, (_, i) => task(`f${i}`, 18_750)), 2);
    expect(big.every((g) => g.reduce((n, t) => n + Number(t.file.recordCount), 0) <= 131_072)).toBe(true);
    expect(big.length).toBeGreaterThanOrEqual(12);
    const tiny = groupScanTasks(Array.from({ length: 200 }, (_, i) => task(`f${i}`, 10)), 2);
    expect(tiny.every((g) => g.length <= 16)).toBe(true);
    expect(tiny.flat()).toHaveLength(200);
  });

  it('keeps big files and the pieces of a split file as tasks of their own', () => {
    const whole = task('big', SMALL_TASK_ROWS + 1);
    const splitFile = task('split', 40_000);
    const pieces = splitTask(splitFile, [0, 1, 2, 3], 2);
    const tasks = [
      ...Array.from({ length: 5 }, (_, i) => task(`a${i}`, 100)), whole, ...pieces,
      ...Array.from({ length: 5 }, (_, i) => task(`b${i}`, 100)),
    ];
    const groups = groupScanTasks(tasks, 1);
    expect(groups.flat()).toEqual(tasks);
    for (const g of groups) if (g.length > 1) expect(g.every((t) => t.file.filePath.length === 2)).toBe(true);
    expect(groups.filter((g) => g[0]!.file.filePath === 'split')).toHaveLength(2);
  });
});

const FILES = 40;
const ROWS = 200;

describe('grouped tasks on a piscina pool', () => {
  const pooled = usePooledMultiFileTable('lakegate-groups-', FILES, ROWS);

  it('reads 40 small files in 8 pool tasks: the rows and order of the main-thread reader, every file counted', async () => {
    const plan = await planScan(pooled.source.io, pooled.source.metadata);
    expect(plan.tasks).toHaveLength(FILES);
    const scan = parallelScanFor(pooled.source.io, plan.tasks)!;
    let results = 0;
    for await (const _r of runTasksInParallel(scan, plan.tasks, pooled.source.schema.fields, { signal: new AbortController().signal, fieldById: () => undefined })) results++;
    expect(results).toBe(8);
    const metrics = emptyScanMetrics();
    const parallel = await collect(pooled.source.scan({ signal: new AbortController().signal, metrics }));
    expect(metrics).toMatchObject({ filesScanned: FILES, rowGroupsTotal: FILES, rowGroupsScanned: FILES, rowsDecoded: FILES * ROWS });
    const main = await collect(pooled.source.scan({ signal: new AbortController().signal, limit: FILES * ROWS + 1 }));
    expect(parallel.map(key)).toEqual(main.map(key));
    expect([...parallel].sort((a, b) => Number((a[0] as bigint) - (b[0] as bigint))).map(key)).toEqual(Array.from({ length: FILES * ROWS }, (_, i) => key(rowOf(i))));
  });

  it('applies pushed filters in every file of a group', async () => {
    // x is NULL for every 97th id: each file of 200 rows holds NULLs and values, so none is pruned and the 40 are grouped
    const FILTERS: ScanPredicate[] = [{ kind: 'isNotNull', column: 1 }];
    const metrics = emptyScanMetrics();
    const session = { getSetting: () => 'on' } as never; // late materialization on: the workers drop the rows
    const rows = await collect(pooled.source.scan({ signal: new AbortController().signal, metrics, projection: [0, 1], filters: FILTERS, session }));
    const expected = Array.from({ length: FILES * ROWS }, (_, i) => rowOf(i)).filter((r) => r[1] !== null).map((r) => r[0]);
    expect(rows.map((r) => r[0]).sort((a, b) => Number((a as bigint) - (b as bigint)))).toEqual(expected);
    const mainMetrics = emptyScanMetrics();
    await collect(pooled.source.scan({ signal: new AbortController().signal, metrics: mainMetrics, projection: [0, 1], filters: FILTERS, limit: 1e9 }));
    expect(metrics).toMatchObject({ filesScanned: FILES, lateRowGroups: FILES, lateRowsMaterialized: expected.length });
    expect(mainMetrics.filesScanned).toBe(FILES);
  });

  it('reports the error of a broken file in the middle of a group', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakegate-groups-bad-'));
    const bad = await multiFileTable(dir, 20, 50);
    try {
      const t = await bad.load();
      const plan = await planScan(t.io, t.metadata);
      truncateSync(plan.tasks[7]!.file.filePath, 100);
      const scan = parallelScanFor(t.io, plan.tasks)!;
      const err = await collect(readTasksInParallel(scan, plan.tasks, t.schema.fields, { signal: new AbortController().signal, fieldById: () => undefined })).catch((e: unknown) => e);
      const mainErr = await collect((await bad.load()).scan({ signal: new AbortController().signal, limit: 1e9 })).catch((e: unknown) => e);
      expect(GatewayError.is(err)).toBe(true);
      expect(err).toMatchObject({ code: (mainErr as GatewayError).code, message: (mainErr as GatewayError).message });
    } finally {
      await bad.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
