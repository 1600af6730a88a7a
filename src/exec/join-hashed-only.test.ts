/**
 * join-hashed-only.ts through a real server with a worker pool: a hash join passes on the input columns only its
 * equi keys read as NULLs (EXPLAIN ANALYZE: `Keys Not Carried: …`) — not a key read above the join, nor one its
 * residual reads — and every answer is PostgreSQL's: int8, int4-against-int8, two-column and text keys, NULL
 * keys, duplicates, outer joins (unmatched rows of either side), semi / anti joins, a join built on its left
 * input, a chain of joins where a lower join's key is the upper join's key.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPoolPair, type PartialAggregatePair } from '../../test/helpers/partial-aggregate-pair.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));

const DDL = [
  'CREATE TABLE hf (fk bigint, fk4 int, ft text, v int)',
  'CREATE TABLE hd (dk bigint, dk4 int, dt text, w int, amt numeric(12,2))',
  'CREATE TABLE hn (nk bigint, name text)',
];
// build side, three files: keys 2g (every fifth twice), NULL every 37th, text keys of 40 values, amounts with cents
const DIM = (from: number, to: number): string =>
  `INSERT INTO hd SELECT CASE WHEN g % 37 = 0 THEN NULL ELSE (CASE WHEN g % 5 = 0 THEN g - 1 ELSE g END) * 2 END,
     CASE WHEN g % 41 = 0 THEN NULL ELSE g * 2 END, 't' || (g % 40), g % 100, (g * 7 % 1000) / 100.0 - 3 FROM generate_series(${from}, ${to}) AS s(g)`;
// probe side: every key over and beyond the build keys' range, duplicates, NULL every 53rd
const FACT = (from: number, to: number): string =>
  `INSERT INTO hf SELECT CASE WHEN i % 53 = 0 THEN NULL ELSE i / 2 END, (i / 2)::int, 't' || (i % 45), i FROM generate_series(${from}, ${to}) AS s(i)`;
const NAMES = "INSERT INTO hn SELECT g, 'n' || (g % 7) FROM generate_series(0, 99) AS s(g)";

/** the `Keys Not Carried` lists of a plan, one per hash join that has one */
const notCarried = (plan: string): string[] => [...plan.matchAll(/Keys Not Carried: ([^\n]*)/g)].map((m) => m[1]!.trim());

describe('hash joins pass on the columns only their keys read as NULLs', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('jhashedonly', async (c) => {
      for (const ddl of DDL) await c.query(ddl);
      for (let from = 1; from <= 1500; from += 500) await c.query(DIM(from, from + 499));
      for (let from = 1; from <= 6000; from += 2000) await c.query(FACT(from, from + 1999));
      await c.query(NAMES);
    });
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  /** PostgreSQL's rows, and the Keys Not Carried lists of lakegate's plan */
  const agree = async (sql: string): Promise<string[]> => {
    const expected = await rows(ref, sql);
    expect(expected.length).toBeGreaterThan(0);
    expect(await rows(lg, sql)).toEqual(expected);
    return notCarried((await rows(lg, `EXPLAIN ANALYZE ${sql}`)).join('\n'));
  };

  it('an inner join: both keys go on as NULLs; a key read above the join, or by the residual, is carried', async () => {
    expect(await agree('SELECT d.dt, count(*), sum(f.v), sum(d.amt) FROM hf f JOIN hd d ON f.fk = d.dk GROUP BY d.dt ORDER BY 1')).toEqual(['fk, dk']);
    expect(await agree('SELECT d.dk, count(*), sum(f.v) FROM hf f JOIN hd d ON f.fk = d.dk GROUP BY d.dk ORDER BY d.dk LIMIT 50')).toEqual(['fk']);
    expect(await agree('SELECT count(*), sum(f.v), sum(d.amt) FROM hf f JOIN hd d ON f.fk = d.dk AND d.dk > f.v % 50')).toEqual(['fk']);
    expect(await agree('SELECT count(*), sum(f.v), sum(d.w) FROM hf f JOIN hd d ON f.fk4 = d.dk')).toEqual(['fk4, dk']);
  });

  it('two-column and text keys', async () => {
    expect(await agree('SELECT count(*), sum(f.v), sum(d.amt) FROM hf f JOIN hd d ON f.fk = d.dk AND f.fk4 = d.dk4')).toEqual(['fk, fk4, dk, dk4']);
    expect(await agree('SELECT d.w % 7, count(*), sum(f.v) FROM hf f JOIN hd d ON f.ft = d.dt WHERE f.v < 300 GROUP BY 1 ORDER BY 1')).toEqual(['ft, dt']);
  });

  it('outer joins emit unmatched rows of either side; semi and anti joins', async () => {
    await agree('SELECT count(*), count(d.dt), sum(f.v), sum(d.amt) FROM hf f LEFT JOIN hd d ON f.fk = d.dk');
    await agree('SELECT count(*), count(f.v), sum(d.w), sum(d.amt) FROM hf f RIGHT JOIN hd d ON f.fk = d.dk AND f.v % 3 = 0');
    await agree('SELECT count(*), count(f.v), count(d.w), sum(d.amt) FROM hf f FULL JOIN hd d ON f.fk = d.dk AND d.w < 60');
    await agree('SELECT count(*), sum(w), sum(amt) FROM hd d WHERE EXISTS (SELECT 1 FROM hf f WHERE f.fk = d.dk AND f.v > 5000)');
    await agree('SELECT count(*), sum(w), sum(amt) FROM hd d WHERE NOT EXISTS (SELECT 1 FROM hf f WHERE f.fk = d.dk)');
    await agree('SELECT count(*), sum(v) FROM hf f WHERE f.fk IN (SELECT dk FROM hd WHERE w > 30)');
  });

  it('a chain of joins: a lower join key the upper join reads is carried up to it; a small side built on the left', async () => {
    const chain = `SELECT n.name, count(*), sum(f.v), sum(d.amt) FROM hf f JOIN hd d ON f.fk = d.dk JOIN hn n ON n.nk = d.w
                   GROUP BY n.name ORDER BY 1`;
    const lists = await agree(chain);
    // d.w is the upper join's key: never in the lower join's list
    expect(lists.some((l) => l.split(', ').includes('w'))).toBe(true);
    expect(lists.filter((l) => l.split(', ').includes('w'))).toHaveLength(1);
    await agree(`SELECT n.name, count(*), sum(f.v) FROM hn n JOIN hf f ON f.fk = n.nk WHERE n.nk < 20 GROUP BY n.name ORDER BY 1`);
    await agree(`SELECT n.name, count(*), sum(f.v) FROM hn n LEFT JOIN hf f ON f.fk = n.nk AND f.v > 100 GROUP BY n.name ORDER BY 1`);
  });
});
