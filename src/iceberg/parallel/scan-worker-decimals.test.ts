/**
 * A scan worker whose rows only get packed (no partial aggregate, no row filter after the reader) converts
 * decimal columns lazily — exact doubles and placeholders, no Numeric per value (scan-worker.ts
 * packedOnlyFields) — and the main thread still gets every value the main-thread reader gives.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rowsOfBatch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { fixtureIO, openTable } from '../test/fixture-helpers.ts';
import { unpackBatch, type PackedBatch } from './column-transfer.ts';
import runScanTask from './scan-worker.ts';
import type { ScanTaskRequest, ScanTaskResult } from './scan-task.ts';
import { rowKey as key } from './testing/collect-rows.ts';

afterEach(() => { vi.restoreAllMocks(); });

describe('a scan worker packing rows', () => {
  it('makes no Numeric per decimal value, and the rows equal the main-thread reader\'s', async () => {
    const t = await openTable('lineitem_iceberg/metadata/v2.metadata.json');
    const plan = await t.planFiles();
    expect(t.schema.fields.some((f) => f.type.kind === 'primitive' && f.type.name === 'decimal')).toBe(true);
    const packed: PackedBatch[] = [];
    const made = vi.spyOn(Numeric, 'of');
    for (const [k, task] of plan.tasks.entries()) {
      const req: ScanTaskRequest = { scanId: `decimals-${k}`, io: fixtureIO.describe(), task, fields: t.schema.fields, deleteFields: [], filter: null, cancel: new SharedArrayBuffer(4) };
      const res = (await runScanTask(req)) as object;
      // Piscina's moved value: the result sits under a symbol key
      const out = ('ok' in res ? res : Object.getOwnPropertySymbols(res).map((s) => (res as Record<symbol, unknown>)[s]).find((x) => typeof x === 'object' && x !== null && 'ok' in x)) as ScanTaskResult;
      expect(out.ok).toBe(true);
      if (out.ok) packed.push(...out.batches);
    }
    const inWorker = made.mock.calls.length;
    made.mockRestore();
    const rows = packed.flatMap((b) => rowsOfBatch(unpackBatch(b)));
    expect(packed.every((b) => b.columns.some((c) => c.kind === 'decimal53'))).toBe(true);
    const main: unknown[][] = [];
    for await (const b of t.scan({ signal: new AbortController().signal, limit: Number.MAX_SAFE_INTEGER })) main.push(...rowsOfBatch(b));
    expect(rows.length).toBeGreaterThan(1000);
    expect(rows.map(key).sort()).toEqual(main.map(key).sort());
    // before: a Numeric per l_extendedprice value at least (its unscaled values are past the shared small ones)
    expect(inWorker).toBeLessThan(rows.length / 100);
  });
});
