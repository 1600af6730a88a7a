/**
 * partial-aggregate-exec.ts: a GROUP BY whose keys' manifest bounds allow few groups keeps its partial states even
 * when each task's rows are few enough that its states look like no reduction (TPC-H q15: 32k-row pieces hold 9.6k
 * of the 10k suppliers); keys without such bounds are still judged serial; every answer is PostgreSQL's.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPoolPair, type PartialAggregatePair } from '../../../test/helpers/partial-aggregate-pair.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));
const explain = async (c: pg.Client, sql: string): Promise<string> => (await rows(c, `EXPLAIN ANALYZE ${sql}`)).join('\n');

// k: 1,500 values over 20,000 rows (each 5,000-row file holds all of them: 0.3 groups per row per task);
// u: a value per row
const DDL = 'CREATE TABLE fkv (k int, u bigint, q numeric(12,2))';
const FILL = (from: number, to: number): string =>
  `INSERT INTO fkv SELECT i % 1500, i, (i % 50) + 0.25 FROM generate_series(${from}, ${to}) AS s(i)`;

describe('partial aggregates over keys with few values by their bounds', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('fkv', async (c) => {
      await c.query(DDL);
      // four files: four pool tasks of 5,000 rows
      for (let from = 1; from <= 20_000; from += 5000) await c.query(FILL(from, from + 4999));
    });
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('keeps the partial states of a key whose bounds allow few groups, run after run', async () => {
    const sql = 'SELECT k, sum(q), count(*) FROM fkv GROUP BY k ORDER BY k';
    for (let run = 0; run < 2; run++) {
      const plan = await explain(lg, sql);
      expect(plan).toMatch(/Final Aggregate: main thread\n/);
      expect(plan).not.toMatch(/serial/);
    }
    const expected = await rows(ref, sql);
    expect(expected.length).toBe(1500);
    expect(await rows(lg, sql)).toEqual(expected);
  });

  it('still judges a key of many values serial', async () => {
    const sql = 'SELECT u, sum(q) FROM fkv GROUP BY u HAVING sum(q) > 49 ORDER BY u';
    expect(await explain(lg, sql)).toMatch(/Final Aggregate: main thread, serial/);
    expect(await rows(lg, sql)).toEqual(await rows(ref, sql));
  });
});
