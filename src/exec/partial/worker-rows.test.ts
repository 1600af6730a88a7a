/**
 * worker-rows.ts through a real server with a worker pool: a GROUP BY whose partial states do not reduce the rows
 * and whose fragment filters runs serially over rows the workers filtered and narrowed — on the run that judges it
 * and on later runs (EXPLAIN ANALYZE says which) — and every answer is PostgreSQL's: NULL keys, NULL arguments,
 * NULL filter inputs, int8 / text / date / float columns, a Projection in the fragment, the Q13 shape (a LEFT
 * JOIN over a per-key count). Shapes it leaves to the old serial path: a numeric column read.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedScanPool } from '../../iceberg/parallel/scan-pool.ts';
import { startPoolPair, type PartialAggregatePair } from '../../../test/helpers/partial-aggregate-pair.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));
const explain = async (c: pg.Client, sql: string): Promise<string> => (await rows(c, `EXPLAIN ANALYZE ${sql}`)).join('\n');

const ROWS_FIRST = /Final Aggregate: main thread, serial over rows filtered in the workers \(partial states did not reduce the rows; judged on \d+ files, \d+ rows decoded\)\n/;
const ROWS_LATER = /Final Aggregate: main thread, serial over rows filtered in the workers \(partial states did not reduce the rows of an earlier run\)\n/;
const OLD_FIRST = /Final Aggregate: main thread, serial \(partial states did not reduce the rows; judged on \d+ files, \d+ rows decoded\)\n/;
const OLD_LATER = /Final Aggregate: main thread, serial \(partial states did not reduce the rows of an earlier run\)\n/;

const DDL = [
  'CREATE TABLE wr (k bigint, c int, note text, d date, f double precision, q numeric(12,2), kn bigint NOT NULL)',
  'CREATE TABLE wc (ck int)',
];
// c nearly one value per row (partial states cannot reduce), NULL every 97th; k NULL every 89th; note NULL every
// 53rd and 'special … requests' every 11th
const FILL = (from: number, to: number): string =>
  `INSERT INTO wr SELECT CASE WHEN i % 89 = 0 THEN NULL ELSE i * 3 END, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 19000 END,
     CASE WHEN i % 53 = 0 THEN NULL WHEN i % 11 = 0 THEN 'a special deal for requests ' || i ELSE 'plain note ' || i END,
     DATE '2020-01-01' + (i % 400), (i % 1000) / 8.0, (i % 50) + 0.25, i * 7
   FROM generate_series(${from}, ${to}) AS s(i)`;

describe('serial aggregates over rows filtered in the scan workers', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('wrows', async (c) => {
      for (const ddl of DDL) await c.query(ddl);
      // four files: the pool takes two tasks or more
      for (let from = 1; from <= 20_000; from += 5000) await c.query(FILL(from, from + 4999));
      await c.query('INSERT INTO wc SELECT i FROM generate_series(0, 21000, 2) AS s(i)');
    });
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  const agreeOnRuns = async (sql: string, first: RegExp, later: RegExp): Promise<void> => {
    const expected = await rows(ref, sql);
    expect(expected.length).toBeGreaterThan(100);
    expect(await explain(lg, sql)).toMatch(first);
    expect(await rows(lg, sql)).toEqual(expected);
    expect(await explain(lg, sql)).toMatch(later);
    expect(await rows(lg, sql)).toEqual(expected);
  };

  it('a filtered high-cardinality GROUP BY: NULL keys, NULL arguments, NULL filter inputs', async () => {
    const sql = `SELECT c, count(k), count(*), min(d), max(f), sum(k) FROM wr WHERE note NOT LIKE '%special%requests%'
                 GROUP BY c ORDER BY c NULLS FIRST`;
    await agreeOnRuns(sql, ROWS_FIRST, ROWS_LATER);
    expect(sharedScanPool()!.started).toBe(true);
  });

  it('count(x) of a NOT NULL column counts every row (no mark read) beside count(x) of a nullable one', async () => {
    const sql = `SELECT c, count(kn), count(k), count(*), max(kn) FROM wr WHERE note NOT LIKE '%special%requests%'
                 GROUP BY c ORDER BY c NULLS FIRST`;
    await agreeOnRuns(sql, ROWS_FIRST, ROWS_LATER);
    // only counted: the workers need not convert kn at all
    await agreeOnRuns(`SELECT c % 5000, count(kn), count(k) FROM wr WHERE note LIKE 'plain%' GROUP BY c % 5000 ORDER BY 1 NULLS FIRST`, ROWS_FIRST, ROWS_LATER);
  });

  it('text group keys and a FILTER clause read columns the Filter does not', async () => {
    const sql = `SELECT note, count(*) FILTER (WHERE f > 50), max(d) FROM wr WHERE c % 3 <> 1
                 GROUP BY note ORDER BY note NULLS LAST`;
    await agreeOnRuns(sql, ROWS_FIRST, ROWS_LATER);
  });

  it('a Projection in the fragment: keys computed in the workers', async () => {
    const sql = `SELECT x, count(*), min(y) FROM (SELECT c + 1 AS x, k - 1 AS y, note FROM wr) s
                 WHERE note LIKE 'plain%' GROUP BY x ORDER BY x`;
    await agreeOnRuns(sql, ROWS_FIRST, ROWS_LATER);
  });

  it('the Q13 shape: LEFT JOIN over a per-key count of filtered rows', async () => {
    const sql = `SELECT c_count, count(*) AS custdist FROM (
                   SELECT ck, count(k) FROM wc LEFT JOIN wr ON ck = c AND note NOT LIKE '%special%requests%' GROUP BY ck
                 ) AS t (ck, c_count) GROUP BY c_count ORDER BY custdist DESC, c_count DESC`;
    const expected = await rows(ref, sql);
    for (let run = 0; run < 3; run++) expect(await rows(lg, sql)).toEqual(expected);
    // TPC-H's count(o_orderkey): a NOT NULL column, counted only on the LEFT JOIN's nullable side
    const notNull = sql.replace('count(k)', 'count(kn)');
    const expectedNotNull = await rows(ref, notNull);
    expect(expectedNotNull).not.toEqual(expected);
    for (let run = 0; run < 3; run++) expect(await rows(lg, notNull)).toEqual(expectedNotNull);
  });

  it('leaves a numeric argument to the plain serial path (decimals cross as lazy doubles there)', async () => {
    await agreeOnRuns(`SELECT c, sum(q), count(*) FROM wr WHERE note LIKE 'plain%' GROUP BY c ORDER BY c`, OLD_FIRST, OLD_LATER);
  });
});
