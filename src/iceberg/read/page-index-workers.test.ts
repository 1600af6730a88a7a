/**
 * Page-index pruning inside the scan workers: a table of two files of 45,000 rows (lakegate's writer cuts
 * pages of 20,480 rows, so 3 pages per column) scanned through the piscina pool with an IN filter on the
 * sorted `id` (the point index off: with it, the lookup stays on the main thread); the workers' page counters
 * reach the scan's ScanMetrics, and the rows equal the main thread's.
 */
import { describe, expect, it } from 'vitest';
import { emptyScanMetrics, type ScanPredicate } from '../../catalog/table-source.ts';
import { usePooledMultiFileTable } from '../parallel/testing/pooled-table.ts';
import { sharedScanPool } from '../parallel/scan-pool.ts';
import type { SessionView } from '../../catalog/session-view.ts';
import { collectRows as collect } from '../parallel/testing/collect-rows.ts';

const ROWS = 45_000;

describe('page index in the scan workers', () => {
  const pooled = usePooledMultiFileTable('lakegate-pages-', 2, ROWS);

  it('counts the pages each worker ruled out and returns the rows the main thread does', async () => {
    const filters: ScanPredicate[] = [{ kind: 'in', column: 0, values: [5n, 44_999n, 50_005n] }];
    // with the point index on, an IN list over files whose key columns this thread has not cached goes to the
    // workers too (iceberg-table-source.ts pointLookupHere; one value stays here: sorted-probe.test.ts)
    const here = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 1, 4], filters }));
    expect(sharedScanPool()!.started).toBe(true);
    const metrics = emptyScanMetrics();
    const noPointIndex = { getSetting: (name: string) => (name === 'lakegate.point_index' ? 'off' : null) } as unknown as SessionView;
    const rows = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 1, 4], filters, metrics, session: noPointIndex }));
    expect(sharedScanPool()!.started).toBe(true);
    expect(here).toEqual(rows);
    expect(rows.map((r) => r[0] as bigint).sort((a, b) => (a < b ? -1 : 1))).toEqual([5n, 44_999n, 50_005n]);
    // file 1: id's pages 0 and 2 of 3; file 2: page 0 of 3
    expect(metrics).toMatchObject({ filesScanned: 2, rowGroupsScanned: 2, pageIndexRowGroups: 2, pageIndexRowGroupsPruned: 0, pagesTotal: 6, pagesScanned: 3 });
    const main = await collect(pooled.source.scan({ signal: new AbortController().signal, projection: [0, 1, 4], filters, limit: 10 }));
    expect(main).toEqual(rows);
  });
});
