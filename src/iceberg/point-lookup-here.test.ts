/**
 * Where a point lookup reads (iceberg-table-source.ts pointLookupHere), with a scan worker pool in this process
 * (minRows 0): one value stays on this thread and leaves its key columns cached here; several values (an IN list,
 * a join's runtime key filter: TPC-H q18's order keys) stay only while every file's key column is cached here, and
 * otherwise go to the workers — before, they read uncached files one by one on this thread. The rows are the same
 * either way.
 */
import { describe, expect, it } from 'vitest';
import type { ScanPredicate } from '../catalog/table-source.ts';
import { usePooledMultiFileTable } from './parallel/testing/pooled-table.ts';
import { sharedScanPool } from './parallel/scan-pool.ts';
import { collectRows } from './parallel/testing/collect-rows.ts';

const ROWS = 5_000;

describe('pointLookupHere', () => {
  const pooled = usePooledMultiFileTable('lakegate-lookup-here-', 2, ROWS);

  const ids = async (filters: ScanPredicate[]): Promise<bigint[]> => {
    const rows = await collectRows(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 1], filters }));
    return rows.map((r) => r[0] as bigint).sort((a, b) => (a < b ? -1 : 1));
  };

  it('keeps one value here, several values only over key columns cached here, else sends them to the workers', async () => {
    // one value: this thread, reading file 1 (ids 0..4999) and caching its key column
    expect(await ids([{ kind: 'compare', op: '=', column: 0, value: 5n }])).toEqual([5n]);
    expect(sharedScanPool()!.started).toBe(false);
    // two values pruned to file 1, whose key column is cached here: still this thread
    expect(await ids([{ kind: 'in', column: 0, values: [7n, 5n] }])).toEqual([5n, 7n]);
    expect(sharedScanPool()!.started).toBe(false);
    // file 2 (ids 5000..9999) was never read here: the list goes to the workers
    expect(await ids([{ kind: 'in', column: 0, values: [7n, 9_998n, 5_001n, 20_000n] }])).toEqual([7n, 5_001n, 9_998n]);
    expect(sharedScanPool()!.started).toBe(true);
  });
});
