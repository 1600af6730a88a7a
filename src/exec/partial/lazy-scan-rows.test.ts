/**
 * lazy-scan-rows.ts through a real server with a worker pool: a GROUP BY over the bare scan whose partial states
 * do not reduce the rows runs serially with its int8 key key-only and its decimals lazy — on the run that judges
 * it and on later runs — and every answer is PostgreSQL's: NULL keys, duplicates, keys at and beyond ±2^53 and
 * the int64 extremes (those batches arrive as bigints), the key also read by an aggregate, an int4 key with lazy
 * decimals, the Q18 shape (HAVING over a per-order sum, then IN).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedScanPool } from '../../iceberg/parallel/scan-pool.ts';
import { startPoolPair, type PartialAggregatePair } from '../../../test/helpers/partial-aggregate-pair.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));
const explain = async (c: pg.Client, sql: string): Promise<string> => (await rows(c, `EXPLAIN ANALYZE ${sql}`)).join('\n');

const FIRST = /Final Aggregate: main thread, serial \(partial states did not reduce the rows; judged on \d+ files, \d+ rows decoded\)\n/;
const LATER = /Final Aggregate: main thread, serial \(partial states did not reduce the rows of an earlier run\)\n/;

const DDL = ['CREATE TABLE lz (k bigint, c int, q numeric(12,2), f double precision)', 'CREATE TABLE lo (ok bigint, v int)'];
// k: two rows per key (partial states cannot reduce), NULL every 89th; q NULL every 31st
const FILL = (from: number, to: number): string =>
  `INSERT INTO lz SELECT CASE WHEN i % 89 = 0 THEN NULL ELSE (i / 2) * 7 - 30000 END, i % 19000,
     CASE WHEN i % 31 = 0 THEN NULL ELSE (i % 50) + 0.25 END, (i % 1000) / 8.0
   FROM generate_series(${from}, ${to}) AS s(i)`;
// a file of keys the exact doubles cannot hold (its batches arrive as bigints) and keys just inside ±2^53
const EDGES = `INSERT INTO lz SELECT (ARRAY[9007199254740992, 9007199254740993, -9007199254740992, -9007199254740993,
    9223372036854775807, -9223372036854775808, 9007199254740991, -9007199254740991, 0, NULL])[1 + i % 10], i, i % 7 + 0.5, i
  FROM generate_series(1, 40) AS s(i)`;

describe('serial aggregates over the bare scan with key-only int8 keys and lazy decimals', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('lzrows', async (c) => {
      for (const ddl of DDL) await c.query(ddl);
      // four files and one of edge keys: the pool takes several tasks
      for (let from = 1; from <= 20_000; from += 5000) await c.query(FILL(from, from + 4999));
      await c.query(EDGES);
      await c.query('INSERT INTO lo SELECT (i / 2) * 7 - 30000, i FROM generate_series(1, 20000, 3) AS s(i)');
    });
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  const agreeOnRuns = async (sql: string): Promise<void> => {
    const expected = await rows(ref, sql);
    expect(expected.length).toBeGreaterThan(5);
    expect(await explain(lg, sql)).toMatch(FIRST);
    expect(await rows(lg, sql)).toEqual(expected);
    expect(await explain(lg, sql)).toMatch(LATER);
    expect(await rows(lg, sql)).toEqual(expected);
  };

  it('an int8 key: NULL group, duplicates, keys at and beyond ±2^53 and the int64 extremes; numeric sums and avgs', async () => {
    await agreeOnRuns('SELECT k, sum(q), count(*), avg(q), max(f) FROM lz GROUP BY k ORDER BY k NULLS FIRST');
    expect(sharedScanPool()!.started).toBe(true);
  });

  it('the key also read by aggregates (then it arrives as bigints)', async () => {
    await agreeOnRuns('SELECT k, count(k), min(k), sum(q) FROM lz GROUP BY k ORDER BY k NULLS LAST');
  });

  it('an int4 key with lazy decimal arguments and a FILTER', async () => {
    await agreeOnRuns('SELECT c, sum(q), count(q) FILTER (WHERE f > 50), avg(q) FROM lz GROUP BY c ORDER BY c');
  });

  it('the Q18 shape: HAVING over a per-key sum, the keys then joined by IN', async () => {
    const sql = `SELECT ok, v FROM lo WHERE ok IN (SELECT k FROM lz GROUP BY k HAVING sum(q) > 70) ORDER BY ok, v`;
    const expected = await rows(ref, sql);
    expect(expected.length).toBeGreaterThan(5);
    for (let run = 0; run < 3; run++) expect(await rows(lg, sql)).toEqual(expected);
    const having = 'SELECT k, sum(q) FROM lz GROUP BY k HAVING sum(q) > 70 OR k > 9007199254740990 ORDER BY k';
    await agreeOnRuns(having);
  });
});
