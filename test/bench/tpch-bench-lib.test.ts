/**
 * The query bench's pure parts: answer comparison against PostgreSQL's rows, EXPLAIN ANALYZE scan counters,
 * median / geomean and the summary the markdown table ends with.
 */
import { describe, expect, test } from 'vitest';
import { compareResults } from '../../bench/lib/compare-results.ts';
import { parseScanCounts } from '../../bench/lib/lakegate-engine.ts';
import { geomean, median, summarize, type QueryReport } from '../../bench/lib/tpch-report.ts';

describe('compareResults', () => {
  test('identical text is exact', () => {
    expect(compareResults([['a', '1.50']], [['a', '1.50']])).toEqual({ ok: true, exact: true });
  });
  test('char padding, numeric tolerance and NULLs', () => {
    const r = compareResults([['AIR', '2.5', null]], [['AIR       ', '2.5000000000000000', null]]);
    expect(r).toMatchObject({ ok: true, exact: false });
    expect(compareResults([['1.0001']], [['1.0002']]).ok).toBe(false);
    expect(compareResults([[null]], [['0']]).ok).toBe(false);
  });
  test('row order: ties may differ, a different row set may not', () => {
    expect(compareResults([['b', '1'], ['a', '1']], [['a', '1'], ['b', '1']]).ok).toBe(true);
    const bad = compareResults([['a', '1']], [['a', '1'], ['b', '1']]);
    expect(bad.ok).toBe(false);
    expect(bad.detail).toContain('1 rows, expected 2');
  });
});

describe('parseScanCounts', () => {
  test('sums every scan of the plan', () => {
    const text = [
      'HashJoin (actual rows=10 batches=1 loops=1 time=3.1 ms)',
      '  TableScan lineitem: files scanned 3 / 84, row groups scanned 4 / 4, bytes read 1000',
      '  TableScan orders: files scanned 84 / 84, row groups scanned 84 / 84, bytes read 9',
    ].join('\n');
    expect(parseScanCounts(text)).toEqual({ filesScanned: 87, filesTotal: 168, rowGroupsScanned: 88, rowGroupsTotal: 88 });
  });
  test('null when the plan has no counters', () => {
    expect(parseScanCounts('Result (actual rows=1)')).toBeNull();
  });
});

describe('report', () => {
  test('median and geomean', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(geomean([1, 100])).toBeCloseTo(10, 10);
    expect(geomean([])).toBeNull();
  });
  test('summary: geomeans over the queries every engine timed, ratios over each pair', () => {
    const ok = (medianMs: number) => ({ status: 'ok' as const, timesMs: [medianMs], medianMs });
    const reports: QueryReport[] = [
      { id: 'q1', outcomes: { pg: ok(100), duckdb: ok(10), lakegate: ok(50) } },
      { id: 'q2', outcomes: { pg: ok(100), duckdb: ok(10), lakegate: { status: 'timeout', timesMs: [] } } },
      { id: 'range', outcomes: { pg: ok(1), duckdb: ok(1), lakegate: ok(1) } },
    ];
    const s = summarize(reports, ['pg', 'duckdb', 'lakegate']);
    expect(s.common).toEqual(['q1']);
    expect(s.geomeanRatioPg).toBeCloseTo(0.5, 10);
    expect(s.geomeanRatioDuckdb).toBeCloseTo(5, 10);
    expect(s.ratioPgQueries).toBe(1);
  });
});
