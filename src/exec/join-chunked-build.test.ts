/**
 * Hash joins whose build side arrives in several batches (one per file here, through a worker pool) and is hashed
 * and gathered where it arrived (join-chunked-rows.ts), against PostgreSQL: NULL keys, duplicates on both sides,
 * numeric and bigint build columns read above the join (their exact doubles gathered from the chunks), a residual
 * reading build columns, outer joins emitting unmatched built rows, semi / anti joins, two-column and text keys,
 * int4 against int8 keys, an empty build side, and runtime key filters whose lists come from the table's numbers
 * (join-key-list.ts: int4 and int8 keys).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPoolPair, type PartialAggregatePair } from '../../test/helpers/partial-aggregate-pair.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));

const DDL = ['CREATE TABLE cf (k bigint, k4 int, t text, v int)', 'CREATE TABLE cd (k bigint, k4 int, t text, w int, amt numeric(12,2))'];
// build side, four files: keys 2g (every fifth twice), NULL every 37th, text keys of 40 values, amounts with cents
const DIM = (from: number, to: number): string =>
  `INSERT INTO cd SELECT CASE WHEN g % 37 = 0 THEN NULL ELSE (CASE WHEN g % 5 = 0 THEN g - 1 ELSE g END) * 2 END,
     CASE WHEN g % 41 = 0 THEN NULL ELSE g * 2 END, 't' || (g % 40), g % 100, (g * 7 % 1000) / 100.0 - 3 FROM generate_series(${from}, ${to}) AS s(g)`;
// probe side: every key over and beyond the build keys' range, duplicates, NULL every 53rd
const FACT = (from: number, to: number): string =>
  `INSERT INTO cf SELECT CASE WHEN i % 53 = 0 THEN NULL ELSE i / 2 END, (i / 2)::int, 't' || (i % 45), i FROM generate_series(${from}, ${to}) AS s(i)`;

describe('hash joins over a build side kept as its batches', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('jchunked', async (c) => {
      for (const ddl of DDL) await c.query(ddl);
      for (let from = 1; from <= 2000; from += 500) await c.query(DIM(from, from + 499));
      for (let from = 1; from <= 9000; from += 3000) await c.query(FACT(from, from + 2999));
    });
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  const agree = async (sql: string): Promise<void> => {
    const expected = await rows(ref, sql);
    expect(expected.length).toBeGreaterThan(0);
    expect(await rows(lg, sql)).toEqual(expected);
  };

  it('inner joins: numeric and bigint build columns above the join, int4 against int8 keys', async () => {
    await agree('SELECT d.t, count(*), sum(f.v), sum(d.amt), sum(d.amt * f.v) FROM cf f JOIN cd d ON f.k = d.k GROUP BY d.t ORDER BY 1');
    await agree('SELECT d.k, count(*), sum(d.amt) FROM cf f JOIN cd d ON f.k4 = d.k GROUP BY d.k ORDER BY d.k LIMIT 60');
    await agree('SELECT count(*), sum(f.v), sum(d.w), min(d.amt), max(d.k) FROM cf f JOIN cd d ON f.k = d.k4');
  });

  it('a residual reading build columns; two-column and text keys', async () => {
    await agree('SELECT count(*), sum(f.v), sum(d.amt) FROM cf f JOIN cd d ON f.k = d.k AND d.w > f.v % 50 AND d.amt < 5');
    await agree('SELECT count(*), sum(f.v), sum(d.amt) FROM cf f JOIN cd d ON f.k = d.k AND f.k4 = d.k4');
    await agree('SELECT d.w % 7, count(*), sum(f.v) FROM cf f JOIN cd d ON f.t = d.t WHERE f.v < 400 GROUP BY 1 ORDER BY 1');
  });

  it('outer joins emit the unmatched built rows; semi and anti joins', async () => {
    await agree('SELECT count(*), count(d.t), sum(f.v), sum(d.amt) FROM cf f LEFT JOIN cd d ON f.k = d.k');
    await agree('SELECT count(*), count(f.v), sum(d.w), sum(d.amt) FROM cf f RIGHT JOIN cd d ON f.k = d.k AND f.v % 3 = 0');
    await agree('SELECT count(*), count(f.v), count(d.w), sum(d.amt) FROM cf f FULL JOIN cd d ON f.k = d.k AND d.w < 60');
    await agree('SELECT count(*), sum(w), sum(amt) FROM cd d WHERE EXISTS (SELECT 1 FROM cf f WHERE f.k = d.k AND f.v > 8000)');
    await agree('SELECT count(*), sum(w), sum(amt) FROM cd d WHERE NOT EXISTS (SELECT 1 FROM cf f WHERE f.k = d.k)');
    await agree('SELECT count(*), sum(v) FROM cf f WHERE f.k IN (SELECT k FROM cd WHERE w > 30)');
  });

  it('an empty build side; small build sides whose keys filter the probe scan (int8 and int4 keys)', async () => {
    await agree('SELECT count(*), sum(f.v) FROM cf f JOIN (SELECT * FROM cd WHERE w < 0) d ON f.k = d.k');
    const int8 = 'SELECT d.t, count(*), sum(f.v), sum(d.amt) FROM cf f JOIN cd d ON f.k = d.k WHERE d.w < 4 GROUP BY d.t ORDER BY 1';
    await agree(int8);
    expect((await rows(lg, `EXPLAIN ANALYZE ${int8}`)).join('\n')).toMatch(/Runtime Filter: f\.k \(\d+ values\)/);
    const int4 = 'SELECT d.t, count(*), sum(f.v) FROM cf f JOIN cd d ON f.k4 = d.k4 WHERE d.w < 4 GROUP BY d.t ORDER BY 1';
    await agree(int4);
    expect((await rows(lg, `EXPLAIN ANALYZE ${int4}`)).join('\n')).toMatch(/Runtime Filter: f\.k4 \(\d+ values\)/);
  });
});
