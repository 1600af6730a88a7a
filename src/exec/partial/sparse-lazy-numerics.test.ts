/**
 * Sparse lazy numeric columns (pgtypes/numeric-column.ts sparseLazyNumerics): a scan worker's decimal chunk
 * without NULLs that only the aggregate's vector kernels read arrives as an array with no element at all. Every
 * path that copies or reads its rows — a Filter's row pick on batches the scan did not judge exactly (made dense
 * first, run-fragment.ts), a Projection, functions and row closures (materialized), position deletes (picked
 * sparse, file-scan-task-reader.ts pickRows), rows packed for the main thread (column-transfer.ts), a
 * dictionary-coded chunk (coded-product-sums.ts) — must give PostgreSQL's answer: a forgotten one throws.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPartialAggregatePair, textRows, type PartialAggregatePair } from '../../../test/helpers/partial-aggregate-pair.ts';

const rows = textRows;

// every decimal NOT NULL (no validity bitmap: sparse); d has 11 values (dictionary-coded, as TPC-H's l_discount)
const TABLE = '(id int8 NOT NULL, k int4 NOT NULL, q numeric(12,2) NOT NULL, r numeric(10,4) NOT NULL, d numeric(4,2) NOT NULL)';
const INSERTS = [0, 1, 2, 3].map((part) => `INSERT INTO sp.t SELECT i, i % 7, (i % 1000) * 1.25 - 300, (i % 97) / 1000.0, (i % 11) / 100.0
  FROM generate_series(${part * 4000 + 1}, ${(part + 1) * 4000}) i`);

const QUERIES: readonly (readonly [string, string])[] = [
  ['kernels only (Q1 shape)', `SELECT k, sum(q), sum(q * (1 - d)), sum(q * (1 - d) * (1 + r)), avg(q), avg(d), count(q), min(q), max(d), count(*)
    FROM sp.t WHERE id > 100 GROUP BY k ORDER BY k`],
  ['no GROUP BY', 'SELECT sum(q), avg(r), min(r), max(q), count(d) FROM sp.t'],
  ['a fragment Filter on other columns (row picks of the lazy ones)', `SELECT k, sum(q), sum(q * (1 - d)), count(r)
    FROM sp.t WHERE k * 3 + id % 5 > 7 GROUP BY k ORDER BY k`],
  ['a fragment Filter on it', 'SELECT k, sum(r), count(*) FROM sp.t WHERE q * 2 + r > 50 GROUP BY k ORDER BY k'],
  ['FILTER on it', 'SELECT k, sum(r) FILTER (WHERE q > 5), sum(q) FILTER (WHERE d < 0.05) FROM sp.t GROUP BY k ORDER BY k'],
  ['functions and fallbacks', `SELECT k, sum(abs(q)), sum(round(q * r, 1)), sum(q::int4), max(q / 3), stddev_samp(q), max((q + d)::float8 * 2)
    FROM sp.t GROUP BY k ORDER BY k`],
  ['a projection below the aggregate', 'SELECT sum(x), max(y) FROM (SELECT q * 2 AS x, r + d AS y FROM sp.t WHERE k <> 1) s'],
  ['one group per row', 'SELECT id, sum(q), sum(q * (1 - d)) FROM sp.t GROUP BY id ORDER BY id LIMIT 20'],
  ['rows, not groups, from the workers', 'SELECT id, q, r, d FROM sp.t WHERE k = 3 AND id % 50 = 1 ORDER BY id'],
  ['rows judged in the workers, glued before packing', `SELECT k, sum(q), sum(q * (1 - d)), avg(r) FROM sp.t
    WHERE k IN (2, 3) AND id > 100 GROUP BY k ORDER BY k`],
];

describe('sparse lazy numeric columns in the scan workers', () => {
  let pair: PartialAggregatePair;
  let lg: pg.Client;
  let ref: pg.Client;
  let setPartial: (on: boolean) => Promise<void>;

  beforeAll(async () => {
    pair = await startPartialAggregatePair('sp', TABLE, INSERTS);
    ({ lg, ref, setPartial } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('runs the Q1 shape in the workers', async () => {
    await setPartial(true);
    expect((await rows(lg, `EXPLAIN ${QUERIES[0]![1]}`)).flat().join('\n')).toMatch(/Partial Aggregate \(in workers\)/);
  });

  it.each(QUERIES)('%s: same answer in the workers, serially, and as PostgreSQL', async (_name, sql) => {
    await setPartial(true);
    const on = await rows(lg, sql);
    await setPartial(false);
    expect(on).toEqual(await rows(lg, sql));
    expect(on).toEqual(await rows(ref, sql));
  });

  it("another aggregate's error is still the first failing row's (the row re-run materializes)", async () => {
    await setPartial(true);
    const err = await lg.query('SELECT k, sum(q * d), sum(r / (k - k)) FROM sp.t GROUP BY k').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '22012', message: 'division by zero' });
  });

  it('a serial aggregate over the bare scan, once judged so (lazy-scan-rows.ts: sparse from packed rows)', async () => {
    const sql = QUERIES.find(([name]) => name === 'one group per row')![1];
    await setPartial(true);
    const want = await rows(ref, sql);
    for (let run = 0; run < 3; run++) expect(await rows(lg, sql)).toEqual(want);
  });

  it('after position deletes (picked rows stay sparse)', async () => {
    for (const c of [lg, ref]) await c.query('DELETE FROM sp.t WHERE id % 13 = 0');
    await setPartial(true);
    for (const [, sql] of QUERIES.slice(0, 3)) expect(await rows(lg, sql)).toEqual(await rows(ref, sql));
  });
});
