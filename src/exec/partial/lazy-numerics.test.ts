/**
 * Lazy numeric columns in the scan workers (pgtypes/numeric-column.ts): a partial aggregate's decimal columns
 * that only its vector kernels read come from the decoder as doubles without Numerics. Every shape that reads
 * the values another way — a group key, a Filter or Projection in the fragment, a function, a division falling
 * back to Numerics, a row-by-row error re-run, values past 2^53 — must give the serial answer and PostgreSQL's.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedScanPool } from '../../iceberg/parallel/scan-pool.ts';
import { startPartialAggregatePair, textRows, type PartialAggregatePair } from '../../../test/helpers/partial-aggregate-pair.ts';

const rows = textRows;

const TABLE = '(id int8 NOT NULL, k int4, q numeric(12,2), r numeric(10,4), big numeric(38,2))';
const INSERTS = [0, 1, 2, 3].map((part) => `INSERT INTO ln.t SELECT i, i % 7,
  CASE WHEN i % 19 = 0 THEN NULL ELSE (i % 1000) * 1.25 - 300 END, CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 97) / 1000.0 END,
  CASE WHEN i % 5 = 0 THEN 10::numeric ^ 20 + i ELSE i END
  FROM generate_series(${part * 4000 + 1}, ${(part + 1) * 4000}) i`);

const QUERIES: readonly (readonly [string, string])[] = [
  ['kernels only (Q1 shape)', `SELECT k, sum(q), sum(q * (1 - r)), sum(q * (1 - r) * (1 + r)), avg(q), avg(r), count(q), min(q), max(q * 2), count(*)
    FROM ln.t WHERE id > 100 GROUP BY k ORDER BY k`],
  ['no GROUP BY', 'SELECT sum(q), avg(r), min(r), max(q), count(r) FROM ln.t'],
  ['a numeric group key', 'SELECT r, sum(q), count(*) FROM ln.t WHERE k = 3 GROUP BY r ORDER BY r NULLS FIRST'],
  ['a pushed filter on the column', 'SELECT k, sum(q), sum(r) FROM ln.t WHERE q > 100 GROUP BY k ORDER BY k'],
  ['a fragment filter on an expression of it', 'SELECT k, sum(r), count(*) FROM ln.t WHERE q * 2 + r > 50 GROUP BY k ORDER BY k'],
  ['FILTER on it', 'SELECT k, sum(r) FILTER (WHERE q > 5), sum(q) FILTER (WHERE r < 0.05) FROM ln.t GROUP BY k ORDER BY k'],
  ['functions, casts, CASE, COALESCE', `SELECT k, sum(abs(q)), sum(round(q * r, 1)), sum(q::int4), sum(coalesce(q, r, 0)),
    sum(CASE WHEN q > 10 THEN q ELSE -r END), max(q / 3), stddev_samp(q), max((q + r)::float8 * 2) FROM ln.t GROUP BY k ORDER BY k`],
  ['a projection below the aggregate', 'SELECT sum(x), max(y) FROM (SELECT q * 2 AS x, r + 1 AS y FROM ln.t WHERE k <> 1) s'],
  ['values past 2^53', 'SELECT k, sum(big), max(big), avg(big * 2), sum(q) FROM ln.t GROUP BY k ORDER BY k'],
];

describe('lazy numeric columns in the scan workers', () => {
  let pair: PartialAggregatePair;
  let lg: pg.Client;
  let ref: pg.Client;
  let setPartial: (on: boolean) => Promise<void>;

  beforeAll(async () => {
    pair = await startPartialAggregatePair('ln', TABLE, INSERTS);
    ({ lg, ref, setPartial } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  it.each(QUERIES)('%s: same answer in the workers, serially, and as PostgreSQL', async (_name, sql) => {
    await setPartial(true);
    expect((await rows(lg, `EXPLAIN ${sql}`)).flat().join('\n')).toMatch(/Partial Aggregate \(in workers\)/);
    const on = await rows(lg, sql);
    expect(sharedScanPool()!.started).toBe(true);
    await setPartial(false);
    expect(on).toEqual(await rows(lg, sql));
    expect(on).toEqual(await rows(ref, sql));
  });

  it("another aggregate's error is still the first failing row's (the row re-run materializes)", async () => {
    await setPartial(true);
    const err = await lg.query('SELECT k, sum(q * r), sum(r / (k - k)) FROM ln.t GROUP BY k').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '22012', message: 'division by zero' });
    expect(await rows(lg, 'SELECT sum(q) FROM ln.t WHERE k = 2')).toEqual(await rows(ref, 'SELECT sum(q) FROM ln.t WHERE k = 2'));
  });
});
