/**
 * Prepared point lookups (read/point-lookup.ts, the kept answers of reusable plans), each statement run twice over
 * the real wire: the answers equal PostgreSQL 15's (checked on a scratch cluster, session 24) for a NULL parameter, a row that does
 * not exist, parameters of other types (an int8 one against int4 and out of int4's range, numeric with and without
 * a fraction, an int8 column, text), an IN list with a NULL, rows removed by DELETE / UPDATE (position deletes:
 * a deleted row must not come back), and an uncommitted INSERT / DELETE in the same transaction, then rolled back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { pointAnswerStats } from '../../src/iceberg/read/point-lookup-answer.ts';

let server: LakegateServer;
let a: pg.Client;

const STATEMENTS = {
  byId: 'SELECT v FROM ex.t WHERE id = $1',
  byBig: 'SELECT v FROM ex.t WHERE big = $1',
  byIdInt8: 'SELECT v FROM ex.t WHERE id = $1::int8',
  byIdNumeric: 'SELECT v FROM ex.t WHERE id = $1::numeric',
  byText: 'SELECT v FROM ex.t WHERE v = $1',
  byIdIn: 'SELECT v FROM ex.t WHERE id IN ($1, $2)',
} as const;

/** one execution of a named statement (Parse once, then Bind / Execute / Sync: pgbench -M prepared), twice: the second after the cache is warm */
async function rows(name: keyof typeof STATEMENTS, ...values: unknown[]): Promise<unknown[]> {
  const once = async (): Promise<unknown[]> => (await a.query({ name, text: STATEMENTS[name], values })).rows.map((r: { v: unknown }) => r.v);
  const first = await once();
  expect(await once(), `${name} ${JSON.stringify(values)} again`).toEqual(first);
  return first;
}

beforeAll(async () => {
  server = await startLakegate();
  a = new pg.Client({ connectionString: server.url });
  await a.connect();
  await a.query('CREATE SCHEMA ex');
  await a.query('CREATE TABLE ex.t (id int, big bigint, v text)');
  await a.query(`INSERT INTO ex.t SELECT g, g * 10, 'v' || g FROM generate_series(1, 200) g`);
}, 60_000);
afterAll(async () => {
  await a?.end();
  await server?.close();
});

describe('prepared point lookups with the proved conjunct skipped: PostgreSQL\'s answers', () => {
  it('found, missing and NULL parameters', async () => {
    const hits = pointAnswerStats.hits;
    expect(await rows('byId', 7)).toEqual(['v7']);
    expect(await rows('byId', 7)).toEqual(['v7']);
    // the synchronous path answered (scanNow's kept answer: FilterExec.executeSync over its marked batch)
    expect(pointAnswerStats.hits).toBeGreaterThan(hits);
    expect(await rows('byId', 201)).toEqual([]);
    expect(await rows('byId', null)).toEqual([]);
    expect(await rows('byText', 'v7')).toEqual(['v7']);
    expect(await rows('byText', 'v7 ')).toEqual([]);
    expect(await rows('byIdIn', 7, null)).toEqual(['v7']);
    expect(await rows('byIdIn', null, null)).toEqual([]);
  });

  it('parameters of other types: int8 against int4 and an int8 column, numeric', async () => {
    expect(await rows('byBig', 70)).toEqual(['v7']);
    expect(await rows('byBig', '5000000000')).toEqual([]);
    expect(await rows('byBig', null)).toEqual([]);
    expect(await rows('byIdInt8', 7)).toEqual(['v7']);
    expect(await rows('byIdInt8', '5000000000')).toEqual([]);
    expect(await rows('byIdNumeric', '7')).toEqual(['v7']);
    expect(await rows('byIdNumeric', '7.5')).toEqual([]);
    expect(await rows('byIdNumeric', '7.0')).toEqual(['v7']);
  });

  it('rows removed by DELETE and UPDATE do not come back', async () => {
    expect(await rows('byId', 5)).toEqual(['v5']);
    await a.query('DELETE FROM ex.t WHERE id = 5');
    await a.query(`UPDATE ex.t SET v = 'u8' WHERE id = 8`);
    expect(await rows('byId', 5)).toEqual([]);
    expect(await rows('byId', 6)).toEqual(['v6']);
    expect(await rows('byId', 8)).toEqual(['u8']);
    expect(await rows('byText', 'v8')).toEqual([]);
  });

  it('an uncommitted INSERT and DELETE in the same transaction, then rolled back', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ex.t VALUES (500, 5000, 'v500')`);
    expect(await rows('byId', 500)).toEqual(['v500']);
    await a.query('DELETE FROM ex.t WHERE id = 6');
    expect(await rows('byId', 6)).toEqual([]);
    expect(await rows('byBig', 5000)).toEqual(['v500']);
    await a.query('ROLLBACK');
    expect(await rows('byId', 500)).toEqual([]);
    expect(await rows('byId', 6)).toEqual(['v6']);
  });
});
