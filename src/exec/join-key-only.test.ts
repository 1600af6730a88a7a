/**
 * join-key-only.ts through a real server with a worker pool: a hash join whose built int8 key nothing above reads
 * hashes it from exact doubles (EXPLAIN ANALYZE says `Build Key: exact doubles`), and every answer is
 * PostgreSQL's — NULL keys, duplicate keys on both sides, an int4 probe key, outer / semi / anti joins, an empty
 * build side, a small build side whose keys become a runtime key filter (values made from the doubles), the key
 * also read above the join (then no key-only column), and a build side with keys at and beyond ±2^53 and the
 * int64 extremes in a middle file (the batches converted before it turn back into bigints). A bare scan built
 * on is told so: its workers send the key as exact doubles (`Build Key: exact doubles from the scan`), no BigInt
 * on either thread — not when a pushed filter reads the key, nor when a Filter sits between scan and join.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedScanPool } from '../iceberg/parallel/scan-pool.ts';
import { startPoolPair, type PartialAggregatePair } from '../../test/helpers/partial-aggregate-pair.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));
const explain = async (c: pg.Client, sql: string): Promise<string> => (await rows(c, `EXPLAIN ANALYZE ${sql}`)).join('\n');

const KEY_ONLY = /Build Key: exact doubles/;
const FROM_SCAN = /Build Key: exact doubles from the scan/;

const DDL = ['CREATE TABLE jf (k bigint, k4 int, v int)', 'CREATE TABLE jd (k bigint, tag text, w int)', 'CREATE TABLE je (k bigint, tag text, w int)'];
// build side: keys 3g − 900 (two rows for every fifth key), NULL every 47th row; three files
const DIM = (from: number, to: number, table: string): string =>
  `INSERT INTO ${table} SELECT CASE WHEN g % 47 = 0 THEN NULL ELSE (CASE WHEN g % 5 = 0 THEN g - 1 ELSE g END) * 3 - 900 END,
     CASE WHEN g % 3 = 0 THEN 'hot' ELSE 'cold' END, g % 200 FROM generate_series(${from}, ${to}) AS s(g)`;
// keys the exact doubles cannot hold, keys just inside ±2^53, the int64 extremes
const EDGES = `INSERT INTO je SELECT (ARRAY[9007199254740992, 9007199254740993, -9007199254740992, -9007199254740993,
    9223372036854775807, -9223372036854775808, 9007199254740991, -9007199254740991, 0, NULL])[1 + i % 10], 'edge', i
  FROM generate_series(1, 40) AS s(i)`;
// probe side: keys every 2 over the build keys' range and beyond, duplicates, NULL every 61st; the edge keys too
const FACT = (from: number, to: number): string =>
  `INSERT INTO jf SELECT CASE WHEN i % 61 = 0 THEN NULL ELSE (i / 2) * 2 - 1000 END, ((i / 2) * 2 - 1000)::int, i FROM generate_series(${from}, ${to}) AS s(i)`;
const FACT_EDGES = `INSERT INTO jf SELECT (ARRAY[9007199254740992, 9007199254740993, -9007199254740993, 9223372036854775807,
    -9223372036854775808, 9007199254740991, -9007199254740991, 0])[1 + i % 8], NULL, -i FROM generate_series(1, 16) AS s(i)`;

describe('hash joins with a key-only int8 build key', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('jkeyonly', async (c) => {
      for (const ddl of DDL) await c.query(ddl);
      for (let from = 1; from <= 3000; from += 1000) await c.query(DIM(from, from + 999, 'jd'));
      // je: the same rows with a file of edge keys in the middle
      await c.query(DIM(1, 1000, 'je'));
      await c.query(EDGES);
      await c.query(DIM(1001, 3000, 'je'));
      for (let from = 1; from <= 12_000; from += 4000) await c.query(FACT(from, from + 3999));
      await c.query(FACT_EDGES);
    });
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  const agree = async (sql: string, keyOnly: boolean | null): Promise<void> => {
    const expected = await rows(ref, sql);
    expect(expected.length).toBeGreaterThan(0);
    if (keyOnly !== null) {
      const plan = await explain(lg, sql);
      if (keyOnly) expect(plan).toMatch(KEY_ONLY);
      else expect(plan).not.toMatch(KEY_ONLY);
    }
    expect(await rows(lg, sql)).toEqual(expected);
  };

  it('an inner join: NULL keys, duplicates on both sides; an int4 probe key', async () => {
    const inner = 'SELECT d.tag, count(*), sum(f.v), sum(d.w) FROM jf f JOIN jd d ON f.k = d.k GROUP BY d.tag ORDER BY 1';
    await agree(inner, true);
    expect(sharedScanPool()!.started).toBe(true);
    // the bare scan of jd made the key-only column in the workers
    expect(await explain(lg, inner)).toMatch(FROM_SCAN);
    await agree('SELECT d.tag, count(*), sum(f.v), sum(d.w) FROM jf f JOIN jd d ON f.k4 = d.k GROUP BY d.tag ORDER BY 1', true);
  });

  it('outer, semi and anti joins', async () => {
    await agree('SELECT count(*), count(d.tag), sum(f.v), sum(d.w) FROM jf f LEFT JOIN jd d ON f.k = d.k', null);
    await agree('SELECT count(*), count(d.tag), count(f.v), sum(d.w) FROM jf f FULL JOIN jd d ON f.k = d.k', null);
    await agree('SELECT count(*), count(f.v), sum(d.w) FROM jf f RIGHT JOIN jd d ON f.k = d.k', null);
    await agree('SELECT count(*), sum(v) FROM jf WHERE k IN (SELECT k FROM jd WHERE w > 20)', null);
    await agree('SELECT count(*), sum(v) FROM jf f WHERE NOT EXISTS (SELECT 1 FROM jd d WHERE d.k = f.k)', null);
  });

  it('an empty build side, and a small one whose keys filter the probe scan', async () => {
    await agree('SELECT count(*), sum(f.v) FROM jf f JOIN (SELECT * FROM jd WHERE w < 0) d ON f.k = d.k', null);
    const small = 'SELECT d.tag, count(*), sum(f.v) FROM jf f JOIN jd d ON f.k = d.k WHERE d.w < 3 GROUP BY d.tag ORDER BY 1';
    await agree(small, true);
    expect(await explain(lg, small)).toMatch(/Runtime Filter: f\.k \(\d+ values\)/);
  });

  it('the scan makes the key-only column only where nothing else reads the key on the way', async () => {
    // a pushed filter on the key: the workers judge its values, so they convert them as usual
    const keyFiltered = 'SELECT d.tag, count(*), sum(f.v) FROM jf f JOIN jd d ON f.k = d.k WHERE d.k > 0 GROUP BY d.tag ORDER BY 1';
    await agree(keyFiltered, true);
    expect(await explain(lg, keyFiltered)).not.toMatch(FROM_SCAN);
    // a Filter between the scan and the join: the join converts its batches (the scan is not told)
    const filtered = 'SELECT d.tag, count(*), sum(f.v) FROM jf f JOIN jd d ON f.k = d.k WHERE d.w % 7 = 1 GROUP BY d.tag ORDER BY 1';
    await agree(filtered, true);
    expect(await explain(lg, filtered)).not.toMatch(FROM_SCAN);
  });

  it('the key read above the join arrives as bigints', async () => {
    await agree('SELECT d.k, count(*), sum(f.v) FROM jf f JOIN jd d ON f.k = d.k GROUP BY d.k ORDER BY d.k LIMIT 40', false);
  });

  it('keys at and beyond ±2^53 in a middle file: the converted batches turn back into bigints', async () => {
    await agree('SELECT d.tag, count(*), sum(f.v), sum(d.w) FROM jf f JOIN je d ON f.k = d.k GROUP BY d.tag ORDER BY 1', false);
    await agree('SELECT count(*), sum(v) FROM jf WHERE k IN (SELECT k FROM je WHERE w > 20)', null);
    await agree('SELECT d.tag, count(*), sum(f.v) FROM jf f JOIN je d ON f.k = d.k WHERE d.w < 3 OR d.tag = \'edge\' GROUP BY d.tag ORDER BY 1', null);
  });

  it('an int8 column through a join keeps its words: a second join built on it, a GROUP BY on it above the join', async () => {
    // the build side of the outer join is the inner join's output (d's few rows): its k arrives through join-gather's take
    await agree(`SELECT x.tag, count(*), sum(f.v) FROM jf f JOIN (SELECT d.k, d.tag FROM jd d JOIN je e ON d.w = e.w AND e.tag = 'edge' WHERE d.w < 4) x
                   ON f.k = x.k GROUP BY x.tag ORDER BY 1`, null);
    // probe-side int8 keys (edge keys beyond ±2^53 in one file of jf) grouped above a join
    await agree('SELECT f.k, count(*), sum(d.w) FROM jf f JOIN je d ON f.k = d.k GROUP BY f.k ORDER BY f.k', null);
    await agree('SELECT f.k, count(*), sum(d.w) FROM jf f JOIN jd d ON f.k4 = d.w GROUP BY f.k ORDER BY f.k LIMIT 50', null);
  });
});
