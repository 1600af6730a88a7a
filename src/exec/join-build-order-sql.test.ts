/**
 * join-build-order.ts through a server with a worker pool, against PostgreSQL: an inner join built on a big side of
 * several files whose rows each meet one probe row goes out in built order (EXPLAIN ANALYZE `Output: built order`) —
 * NULL keys, built rows no probe row meets, numeric and bigint columns from both sides read above the join — and a
 * probe side whose duplicate key shows up only in its last file is joined as usual from then on, every row once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPoolPair, type PartialAggregatePair } from '../../test/helpers/partial-aggregate-pair.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));

const DDL = ['CREATE TABLE bo_fact (k bigint, v int, amt numeric(12,2))', 'CREATE TABLE bo_dim (k bigint, d date, big bigint)', 'CREATE TABLE bo_dup (k bigint, d date, big bigint)'];
// built side: 45,000 rows over three files, every key 1…15,000 three times, NULL every 101st
const FACT = (from: number, to: number): string =>
  `INSERT INTO bo_fact SELECT CASE WHEN g % 101 = 0 THEN NULL ELSE g % 15000 + 1 END, g, (g * 7 % 10000) / 100.0 FROM generate_series(${from}, ${to}) AS s(g)`;
// probe side: keys unique over two files, every other key 1…20,000 (half the built rows meet none)
const DIM = (table: string, from: number, to: number): string =>
  `INSERT INTO ${table} SELECT 2 * g, DATE '1995-01-01' + g % 700, g::bigint * 1000003 FROM generate_series(${from}, ${to}) AS s(g)`;

describe('an inner join output in built order', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('jborder', async (c) => {
      for (const ddl of DDL) await c.query(ddl);
      for (let from = 0; from < 45_000; from += 15_000) await c.query(FACT(from, from + 14_999));
      await c.query(DIM('bo_dim', 1, 5_000));
      await c.query(DIM('bo_dim', 5_001, 10_000));
      await c.query(DIM('bo_dup', 1, 5_000));
      await c.query(DIM('bo_dup', 5_001, 10_000));
      // a key already probed, again in a last file
      await c.query(`INSERT INTO bo_dup VALUES (2, DATE '2000-01-01', 7), (4000, DATE '2000-01-02', 8)`);
    });
    ({ lg, ref } = pair);
    // the built side is the join's right input as written
    await lg.query(`SET lakegate.disabled_optimizer_rules = 'choose_build_side'`);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  const agree = async (sql: string): Promise<string> => {
    const expected = await rows(ref, sql);
    expect(expected.length).toBeGreaterThan(0);
    expect(await rows(lg, sql)).toEqual(expected);
    return (await rows(lg, `EXPLAIN ANALYZE ${sql}`)).join('\n');
  };

  it('each built row meets one probe row: built order, the same rows', async () => {
    const plan = await agree(`SELECT extract(year FROM d.d), count(*), sum(f.v), sum(f.amt), sum(d.big), sum(f.amt * f.v) FROM bo_dim d JOIN bo_fact f ON d.k = f.k GROUP BY 1 ORDER BY 1`);
    expect(plan).toMatch(/Output: built order/);
    await agree('SELECT f.k, d.d, f.v, f.amt, d.big FROM bo_dim d JOIN bo_fact f ON d.k = f.k ORDER BY f.v LIMIT 40');
  });

  it('a probe key met twice, late: the rows so far and after are joined as usual', async () => {
    const plan = await agree('SELECT count(*), sum(f.v), sum(f.amt), sum(d.big), min(d.d), max(d.d) FROM bo_dup d JOIN bo_fact f ON d.k = f.k');
    expect(plan).not.toMatch(/Output: built order/);
    await agree('SELECT f.k, d.d, f.v, d.big FROM bo_dup d JOIN bo_fact f ON d.k = f.k WHERE d.k IN (2, 4000, 4002) ORDER BY f.v, d.d');
  });
});
