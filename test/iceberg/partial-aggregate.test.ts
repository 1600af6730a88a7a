/**
 * Partial aggregates in the scan workers (src/exec/partial/): the same answers with the pool on (Finalize
 * Aggregate over per-task partial states) and off (`lakegate.disabled_optimizer_rules = 'partial_aggregate'`),
 * and the same as PostgreSQL; EXPLAIN shows the split; a worker's division by zero reaches the client as
 * 22012; statement_timeout stops the worker tasks.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';
import { startPartialAggregatePair, textRows, type PartialAggregatePair } from '../helpers/partial-aggregate-pair.ts';

const rows = textRows;

const TABLE = '(id int8 NOT NULL, k int4, g text, q numeric(12,2), f float8, d date, b bool)';
/** four INSERTs: four data files, NULLs in every nullable column */
const INSERTS = [0, 1, 2, 3].map((part) => `INSERT INTO pa.t SELECT i, CASE WHEN i % 17 = 0 THEN NULL ELSE i % 7 END,
  CASE WHEN i % 23 = 0 THEN NULL ELSE 'g' || (i % 3) END, CASE WHEN i % 19 = 0 THEN NULL ELSE (i % 1000) * 1.25 END,
  i / 8.0, date '2024-01-01' + (i % 400), i % 5 = 0 FROM generate_series(${part * 5000 + 1}, ${(part + 1) * 5000}) i`);

const QUERIES: readonly (readonly [string, string, unknown[]?])[] = [
  ['Q1-like', `SELECT k, g, sum(q), sum(q * (1 - q / 1000)), sum(q * (1 - q / 1000) * (1 + q / 500)), avg(q), avg(k), count(*), count(q)
    FROM pa.t WHERE d <= date '2024-12-01' - interval '30' day GROUP BY k, g ORDER BY k, g`],
  ['no GROUP BY', `SELECT count(*), sum(id), sum(k), avg(id), min(d), max(g), min(q), max(f), stddev(q), var_pop(k),
    bool_and(b), bool_or(b), every(k > 0), bit_or(k), bit_and(k) FROM pa.t WHERE id % 3 = 0`],
  ['empty input', 'SELECT count(*), sum(q), avg(k), max(g) FROM pa.t WHERE id < 0'],
  ['empty input grouped', 'SELECT k, count(*) FROM pa.t WHERE id < 0 GROUP BY k'],
  ['NULL groups', 'SELECT k % 3 AS m, g, count(*), sum(k), min(id) FROM pa.t GROUP BY 1, 2 ORDER BY 1, 2'],
  ['FILTER', 'SELECT k, count(*) FILTER (WHERE b), sum(q) FILTER (WHERE id % 2 = 0), count(f) FROM pa.t GROUP BY k ORDER BY k'],
  ['float sums (exact eighths)', 'SELECT g, sum(f), avg(f), sum(f * 2) FROM pa.t GROUP BY g ORDER BY g'],
  ['stable functions read the session', `SELECT date_trunc('month', d::timestamptz) AS mo, count(*), sum(q) FROM pa.t GROUP BY 1 ORDER BY 1`],
  ['parameters', 'SELECT k, count(*), sum(q) FROM pa.t WHERE id > $1 AND g = $2 GROUP BY k ORDER BY k', ['1234', 'g1']],
  ['HAVING and a projection above', 'SELECT k, s * 2 FROM (SELECT k, sum(q) AS s FROM pa.t GROUP BY k HAVING count(*) > 100) x ORDER BY k'],
];

describe('partial aggregates in the scan workers', () => {
  let pair: PartialAggregatePair;
  let lg: pg.Client;
  let ref: pg.Client;
  let setPartial: (on: boolean) => Promise<void>;

  beforeAll(async () => {
    pair = await startPartialAggregatePair('pa', TABLE, INSERTS);
    ({ lg, ref, setPartial } = pair);
    for (const c of [ref, lg]) await c.query("SET TimeZone = 'America/New_York'");
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('shows Finalize / Partial Aggregate in EXPLAIN, and not when the rule is off', async () => {
    await setPartial(true);
    const on = (await rows(lg, 'EXPLAIN SELECT k, sum(q) FROM pa.t WHERE id > 10 GROUP BY k')).map((r) => r.join(' ')).join('\n');
    expect(on).toMatch(/Finalize Aggregate: groupBy=\[.*k\]/);
    expect(on).toMatch(/\n\s+Partial Aggregate \(in workers\)\n/);
    // DISTINCT and order-sensitive aggregates stay on the main thread
    const distinct = (await rows(lg, 'EXPLAIN SELECT count(DISTINCT k), string_agg(g, \',\') FROM pa.t')).flat().join('\n');
    expect(distinct).not.toMatch(/Partial Aggregate/);
    // ANALYZE: actual rows of the finalised groups, and the scan's counters from the workers
    const analyze = (await rows(lg, 'EXPLAIN ANALYZE SELECT k, sum(q) FROM pa.t WHERE id > 10 GROUP BY k')).flat().join('\n');
    expect(analyze).toMatch(/Finalize Aggregate: .*rows=8/);
    expect(analyze).toMatch(/files scanned 4 \/ 4/);
    await setPartial(false);
    const off = (await rows(lg, 'EXPLAIN SELECT k, sum(q) FROM pa.t WHERE id > 10 GROUP BY k')).flat().join('\n');
    expect(off).not.toMatch(/Partial Aggregate|Finalize/);
  });

  it.each(QUERIES.map(([n, q, v]): [string, string, unknown[]] => [n, q, v ?? []]))('%s: same answer with the pool on and off, and as PostgreSQL', async (_name, sql, values) => {
    await setPartial(true);
    const on = await rows(lg, sql, values);
    expect(sharedScanPool()!.started).toBe(true);
    await setPartial(false);
    const off = await rows(lg, sql, values);
    // same rows in the same order even without ORDER BY (groups in first-appearance order)
    expect(on).toEqual(off);
    const expected = await rows(ref, sql, values);
    expect(on).toEqual(expected);
  });

  it('float statistics agree up to the last digits (summation order, as PostgreSQL parallel aggregates)', async () => {
    const sql = 'SELECT stddev_samp(f * 1.1::float8), var_pop(f / 3), corr(f, id), avg(f * 0.3) FROM pa.t WHERE k <> 2';
    await setPartial(true);
    const on = (await rows(lg, sql))[0]!.map(Number);
    await setPartial(false);
    const off = (await rows(lg, sql))[0]!.map(Number);
    const expected = (await rows(ref, sql))[0]!.map(Number);
    on.forEach((v, i) => {
      expect(Math.abs(v - off[i]!)).toBeLessThanOrEqual(1e-12 * Math.abs(off[i]!));
      expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(1e-12 * Math.abs(expected[i]!));
    });
  });

  it('falls back to the main thread when partial groups barely reduce the rows', async () => {
    const sql = 'SELECT id % 9000 AS m, count(*), sum(q) FROM pa.t GROUP BY 1 ORDER BY 3 DESC NULLS LAST, 1 LIMIT 20';
    await setPartial(true);
    const on = await rows(lg, sql);
    const analyze = (await rows(lg, `EXPLAIN ANALYZE ${sql}`)).flat().join('\n');
    expect(analyze).toMatch(/Finalize Aggregate/);
    // the input ran here after all: the scan node below counted rows
    expect(analyze).toMatch(/TableScan: pa\.t .*actual rows=20000 /);
    // the stopped judging run's reads are named on the aggregate; the scan counts the run that answered
    expect(analyze).toMatch(/did not reduce the rows; judged on \d+ files, \d+ rows decoded\)/);
    const [, scanned, total] = /files scanned (\d+) \/ (\d+)/.exec(analyze) ?? [];
    expect(Number(scanned)).toBeLessThanOrEqual(Number(total));
    await setPartial(false);
    expect(on).toEqual(await rows(lg, sql));
    expect(on).toEqual(await rows(ref, sql));
  });

  it('keeps the main-thread group order without ORDER BY', async () => {
    const sql = 'SELECT g, k, count(*), sum(q) FROM pa.t GROUP BY g, k';
    await setPartial(true);
    const on = await rows(lg, sql);
    await setPartial(false);
    expect(on).toEqual(await rows(lg, sql));
  });

  it('maps a division by zero in a worker to 22012', async () => {
    await setPartial(true);
    const sql = 'SELECT k, sum(100 / (id - id)) FROM pa.t GROUP BY k';
    const err = await lg.query(sql).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '22012', message: 'division by zero' });
    const num = await lg.query('SELECT sum(q / (k - k)) FROM pa.t WHERE k = 3').catch((e: unknown) => e);
    expect(num).toMatchObject({ code: '22012', message: 'division by zero' });
    // the session and the pool still work
    expect(await rows(lg, 'SELECT count(*) FROM pa.t WHERE k = 1')).toEqual(await rows(ref, 'SELECT count(*) FROM pa.t WHERE k = 1'));
  });

  it('stops the worker tasks on statement_timeout', async () => {
    await setPartial(true);
    await lg.query('SET statement_timeout = 100');
    const t0 = performance.now();
    const slow = await lg.query("SELECT g, sum(length(repeat(g || id::text, 20000))) FROM pa.t GROUP BY g").catch((e: unknown) => e);
    const ms = performance.now() - t0;
    await lg.query('SET statement_timeout = 0');
    expect(slow).toMatchObject({ code: '57014' });
    expect(ms).toBeLessThan(5000);
    const pool = sharedScanPool()!;
    const t1 = performance.now();
    for (let i = 0; i < 500 && pool.busyThreads > 0; i++) await new Promise((r) => setTimeout(r, 20));
    console.log(`timeout after ${ms.toFixed(0)} ms; workers idle ${(performance.now() - t1).toFixed(0)} ms later`);
    expect(pool.busyThreads).toBe(0);
    expect(await rows(lg, 'SELECT count(*) FROM pa.t WHERE id > 0')).toEqual([['20000']]);
  });
});
