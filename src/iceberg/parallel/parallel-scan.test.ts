/**
 * The scan worker pool against a temp warehouse table of several files: the same rows as the main-thread
 * reader, pushed filters applied in the workers, cancellation mid-scan, a worker error mapped to its
 * SQLSTATE, and shutdown (vitest exits only if no thread is left).
 */
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import { emptyScanMetrics } from '../../catalog/table-source.ts';
import { planScan } from '../scan/table-scan.ts';
import { matches } from '../../exec/testing/strict-table.ts';
import { multiFileTable, rowOf } from './testing/multi-file-table.ts';
import { usePooledMultiFileTable } from './testing/pooled-table.ts';
import { ScanPool, sharedScanPool } from './scan-pool.ts';
import { parallelScanFor, readTasksInParallel } from './parallel-scan.ts';
import { collectRows as collect, rowKey as key } from './testing/collect-rows.ts';

const FILES = 5;
const ROWS = 3000;

describe('parallel scan on a piscina pool', () => {
  const pooled = usePooledMultiFileTable('lakegate-pool-', FILES, ROWS);

  it('returns the same rows as the main-thread reader, in the same order', async () => {
    const plan = await planScan(pooled.source.io, pooled.source.metadata);
    expect(plan.tasks).toHaveLength(FILES);
    expect(parallelScanFor(pooled.source.io, plan.tasks)).not.toBeNull();
    const metrics = emptyScanMetrics();
    const parallel = await collect(pooled.source.scan({ signal: new AbortController().signal, metrics }));
    expect(sharedScanPool()!.started).toBe(true);
    expect(metrics.filesScanned).toBe(FILES);
    expect(metrics.rowsDecoded).toBe(FILES * ROWS);
    const main = await collect(pooled.source.scan({ signal: new AbortController().signal, limit: FILES * ROWS + 1 }));
    expect(parallel).toHaveLength(FILES * ROWS);
    expect(parallel.map(key)).toEqual(main.map(key));
    // values keep their JS types across threads (Numeric, bigint, null)
    const sorted = [...parallel].sort((a, b) => Number((a[0] as bigint) - (b[0] as bigint)));
    expect(sorted.slice(0, 200).map(key)).toEqual(Array.from({ length: 200 }, (_, i) => key(rowOf(i))));
    expect(Numeric.isNumeric(sorted[1]![3])).toBe(true);
  });

  it('reads only the projected columns and drops rows the pushed filters exclude', async () => {
    const filters: ScanPredicate[] = [
      { kind: 'compare', op: '>=', column: 1, value: 990 },
      { kind: 'or', args: [{ kind: 'startsWith', column: 4, prefix: 'name-1' }, { kind: 'compare', op: '=', column: 3, value: Numeric.of(999n, 2) }] },
    ];
    const rows = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 1, 3, 4], filters }));
    const expected = Array.from({ length: FILES * ROWS }, (_, i) => rowOf(i))
      .filter((r) => r[1] !== null && (r[1] as number) >= 990 && ((r[4] as string).startsWith('name-1') || (r[3] as Numeric).equals(Numeric.of(999n, 2))))
      .map((r) => [r[0], r[1], null, r[3], r[4], null, null, null]);
    expect(rows.map(key).sort()).toEqual(expected.map(key).sort());
  });

  it('late materialization in the workers: same rows as filtering after decoding, counted in the metrics', async () => {
    const cases: ScanPredicate[][] = [
      [{ kind: 'compare', op: '=', column: 0, value: 7777n }],
      [{ kind: 'in', column: 4, values: ['name-12', 'name-4000'] }, { kind: 'isNotNull', column: 7 }],
      [{ kind: 'or', args: [{ kind: 'isNull', column: 1 }, { kind: 'compare', op: '>', column: 3, value: Numeric.of(99_990n, 2) }] }],
    ];
    for (const filters of cases) {
      const run = async (lm: string) => {
        const metrics = emptyScanMetrics();
        const session = { getSetting: () => lm } as never;
        const rows = await collect(pooled.source.scan({ signal: new AbortController().signal, filters, metrics, session }));
        return { rows, metrics };
      };
      const off = await run('off');
      const on = await run('on');
      // a main-thread scan (one file left after pruning) returns every row when off: the executor filters
      const pass = (rows: unknown[][]) => rows.filter((r) => filters.every((f) => matches(f, r))).map(key);
      expect(pass(on.rows)).toEqual(pass(off.rows));
      expect(on.rows).toHaveLength(pass(on.rows).length);
      expect(off.metrics.lateRowGroups).toBe(0);
      expect(on.metrics).toMatchObject({ lateRowGroups: on.metrics.rowGroupsScanned, lateRowsTotal: on.metrics.rowsDecoded, lateRowsMaterialized: on.rows.length });
      expect(on.metrics.rowsDecoded).toBe(off.metrics.rowsDecoded);
    }
    // a key in one file: only that file's row group had matches
    const point = emptyScanMetrics();
    await collect(pooled.source.scan({ signal: new AbortController().signal, filters: [{ kind: 'in', column: 1, values: [5, 6] }, { kind: 'compare', op: '=', column: 0, value: 4005n }], metrics: point }));
    expect(point.lateRowGroupsMatched).toBe(1);
  });

  it('stops in-flight tasks when the query is canceled, leaving no thread busy', async () => {
    const ac = new AbortController();
    const plan = await planScan(pooled.source.io, pooled.source.metadata);
    const scan = parallelScanFor(pooled.source.io, plan.tasks)!;
    const fields = pooled.source.schema.fields;
    const it = readTasksInParallel(scan, plan.tasks, fields, { signal: ac.signal, fieldById: () => undefined })[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    ac.abort(new GatewayError('57014', 'canceling statement due to user request'));
    await expect(it.next()).rejects.toMatchObject({ code: '57014' });
    const pool = sharedScanPool()!;
    for (let i = 0; i < 100 && pool.busyThreads > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(pool.busyThreads).toBe(0);
    // the pool still works after a cancellation
    expect(await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0] }))).toHaveLength(FILES * ROWS);
  });

  it('maps an error in a worker to the SQLSTATE the main thread would raise', async () => {
    // a fresh table: its files were never opened, so no footer is cached in this thread or a worker
    const dir = mkdtempSync(join(tmpdir(), 'lakegate-pool-bad-'));
    const bad = await multiFileTable(dir, 3, 100);
    try {
      const t = await bad.load();
      const plan = await planScan(t.io, t.metadata);
      truncateSync(plan.tasks[1]!.file.filePath, 100); // cut short: parquet-wasm fails reading it
      const poolErr = await collect(t.scan({ signal: new AbortController().signal })).catch((e: unknown) => e);
      const mainErr = await collect((await bad.load()).scan({ signal: new AbortController().signal, limit: 1e9 })).catch((e: unknown) => e);
      expect(GatewayError.is(mainErr)).toBe(true);
      expect(GatewayError.is(poolErr)).toBe(true);
      expect((poolErr as GatewayError).code).toBe((mainErr as GatewayError).code);
      expect((poolErr as GatewayError).message).toBe((mainErr as GatewayError).message);
    } finally {
      await bad.close();
      rmSync(dir, { recursive: true, force: true });
    }
    // a missing file too, in a table never read before: this thread's store keeps read handles open (a deleted
    // file stays readable through one), so a file the main thread had opened would not be missing for it
    const dir2 = mkdtempSync(join(tmpdir(), 'lakegate-pool-missing-'));
    const gone = await multiFileTable(dir2, 3, 100);
    try {
      const t = await gone.load();
      const plan = await planScan(t.io, t.metadata);
      rmSync(plan.tasks[0]!.file.filePath);
      const missing = await collect(t.scan({ signal: new AbortController().signal })).catch((e: unknown) => e);
      const missingMain = await collect((await gone.load()).scan({ signal: new AbortController().signal, limit: 1e9 })).catch((e: unknown) => e);
      expect(GatewayError.is(missing)).toBe(true);
      expect((missing as GatewayError).code).toBe('58030');
      expect(missing).toMatchObject({ code: (missingMain as GatewayError).code, message: (missingMain as GatewayError).message });
    } finally {
      await gone.close();
      rmSync(dir2, { recursive: true, force: true });
    }
  });

  it('reads on the main thread for a single file, a LIMIT, or size 0', async () => {
    const plan = await planScan(pooled.source.io, pooled.source.metadata);
    expect(parallelScanFor(pooled.source.io, plan.tasks.slice(0, 1))).toBeNull();
    expect(parallelScanFor(pooled.source.io, plan.tasks, { limit: 10 })).toBeNull();
    expect(parallelScanFor(pooled.source.io, plan.tasks, { pool: null })).toBeNull();
    expect(parallelScanFor(pooled.source.io, plan.tasks, { pool: new ScanPool({ size: 1, minRows: 1e9 }) })).toBeNull();
  });

  it('closes its threads (a closed pool is not used again)', async () => {
    const pool = new ScanPool({ size: 1, minRows: 0 });
    const ms = await pool.warm();
    console.log(`scan worker startup: ${ms.toFixed(0)} ms`);
    expect(ms).toBeGreaterThan(0);
    expect(pool.started).toBe(true);
    await pool.close();
    expect(pool.started).toBe(false);
    const plan = await planScan(pooled.source.io, pooled.source.metadata);
    expect(parallelScanFor(pooled.source.io, plan.tasks, { pool })).toBeNull();
  });
});
