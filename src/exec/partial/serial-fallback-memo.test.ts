/**
 * serial-fallback-memo.ts through a real server with a worker pool: a GROUP BY whose partial states do not reduce
 * the rows falls back to the main thread on its first run and starts there on the next (EXPLAIN ANALYZE says
 * which), a new snapshot is judged afresh, a few-group aggregate keeps its partial states, and every answer is
 * PostgreSQL's.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedScanPool } from '../../iceberg/parallel/scan-pool.ts';
import { startPoolPair, type PartialAggregatePair } from '../../../test/helpers/partial-aggregate-pair.ts';
import { judgedSerialCount, MAX_JUDGED, rememberSerial, judgedSerial } from './serial-fallback-memo.ts';

const rows = async (c: pg.Client, sql: string): Promise<string[]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))).join('|'));
const explain = async (c: pg.Client, sql: string): Promise<string> => (await rows(c, `EXPLAIN ANALYZE ${sql}`)).join('\n');

const FIRST = /Final Aggregate: main thread, serial \(partial states did not reduce the rows; judged on \d+ files, \d+ rows decoded\)\n/;
const LATER = /Final Aggregate: main thread, serial \(partial states did not reduce the rows of an earlier run\)\n/;
const DDL = 'CREATE TABLE sfm (k bigint, q numeric(12,2), g int)';
const FILL = (from: number, to: number): string =>
  `INSERT INTO sfm SELECT i, (i % 50) + 0.25, i % 7 FROM generate_series(${from}, ${to}) AS s(i)`;

describe('partial aggregates judged serial are remembered per snapshot', () => {
  let pair: PartialAggregatePair | undefined;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPoolPair('sfm', async (c) => {
      await c.query(DDL);
      // four files: the pool takes two tasks or more
      for (let from = 1; from <= 20_000; from += 5000) await c.query(FILL(from, from + 4999));
    });
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  const MANY = 'SELECT k, sum(q), count(*) FROM sfm GROUP BY k HAVING sum(q) > 48 ORDER BY k';

  it('falls back on the first run, starts serial on the next, answers as PostgreSQL', async () => {
    const expected = await rows(ref, MANY);
    expect(expected.length).toBeGreaterThan(100);
    expect(await explain(lg, MANY)).toMatch(FIRST);
    expect(sharedScanPool()!.started).toBe(true);
    expect(await rows(lg, MANY)).toEqual(expected);
    const later = await explain(lg, MANY);
    expect(later).toMatch(LATER);
    expect(later).not.toMatch(FIRST);
    expect(await rows(lg, MANY)).toEqual(expected);
  });

  it('other pushed filters are another aggregate: judged on their own', async () => {
    const sql = 'SELECT k, sum(q) FROM sfm WHERE k > 5000 GROUP BY k ORDER BY k';
    expect(await explain(lg, sql)).toMatch(FIRST);
    expect(await explain(lg, sql)).toMatch(LATER);
    expect(await rows(lg, sql)).toEqual(await rows(ref, sql));
  });

  it('a new snapshot is judged afresh, and its answers include the new rows', async () => {
    expect(await explain(lg, MANY)).toMatch(LATER);
    for (const c of [lg, ref]) await c.query(FILL(20_001, 24_000));
    expect(await explain(lg, MANY)).toMatch(FIRST);
    expect(await explain(lg, MANY)).toMatch(LATER);
    expect(await rows(lg, MANY)).toEqual(await rows(ref, MANY));
  });

  it('few groups keep their partial states run after run', async () => {
    const sql = 'SELECT g, sum(q), count(*) FROM sfm GROUP BY g ORDER BY g';
    for (let run = 0; run < 2; run++) {
      const plan = await explain(lg, sql);
      expect(plan).toMatch(/Final Aggregate: main thread\n/);
      expect(plan).not.toMatch(/serial/);
    }
    expect(await rows(lg, sql)).toEqual(await rows(ref, sql));
  });

  it('remembers at most MAX_JUDGED aggregates, the oldest dropped first', () => {
    for (let i = 0; i < MAX_JUDGED + 5; i++) rememberSerial(`test-key-${i}`);
    expect(judgedSerialCount()).toBe(MAX_JUDGED);
    expect(judgedSerial('test-key-0')).toBe(false);
    expect(judgedSerial(`test-key-${MAX_JUDGED + 4}`)).toBe(true);
  });
});
