/**
 * The statements of one simple Query message are one implicit transaction, as in PostgreSQL: a failing
 * statement undoes the writes of the earlier ones (Iceberg tables, temp tables, SETs), a message with
 * BEGIN / COMMIT manages its own transaction, and a TRUNCATE of several tables empties all or none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { connectText, rowsOf, sqlStateOf } from '../helpers/text-client.ts';

describe('one simple Query message, one implicit transaction', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-itx-'));
  let server: LakegateServer;
  let a: pg.Client;
  let b: pg.Client;
  const snapshots = async (table: string): Promise<number> => Number((await rowsOf(b, `SELECT count(*) FROM itx."${table}$snapshots"`))[0]![0]);

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    a = await connectText(server.url);
    b = await connectText(server.url);
    await a.query('CREATE SCHEMA itx');
    await a.query('CREATE TABLE itx.t1 (id int4, v text)');
    await a.query('CREATE TABLE itx.t2 (id int4)');
    await a.query(`INSERT INTO itx.t1 VALUES (0, 'committed')`);
    await a.query('INSERT INTO itx.t2 VALUES (0)');
  });
  afterAll(async () => {
    await a?.end();
    await b?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('an error in a later statement undoes the earlier writes of the message', async () => {
    const before = [await snapshots('t1'), await snapshots('t2')];
    expect(await sqlStateOf(a, `INSERT INTO itx.t1 VALUES (1, 'lost'); INSERT INTO itx.t2 VALUES (1); SELECT 1/0`)).toBe('22012');
    expect(await rowsOf(b, 'SELECT id, v FROM itx.t1 ORDER BY id')).toEqual([['0', 'committed']]);
    expect(await rowsOf(a, 'SELECT id FROM itx.t2 ORDER BY id')).toEqual([['0']]);
    expect([await snapshots('t1'), await snapshots('t2')]).toEqual(before);
    // the session is not left in a failed block
    expect(await rowsOf(a, 'SELECT 1')).toEqual([['1']]);
  });

  it('a message that succeeds publishes every table at its end', async () => {
    await a.query(`INSERT INTO itx.t1 VALUES (2, 'two'); UPDATE itx.t1 SET v = 'zero' WHERE id = 0; INSERT INTO itx.t2 SELECT id FROM itx.t1 WHERE id = 2`);
    expect(await rowsOf(b, 'SELECT id, v FROM itx.t1 ORDER BY id')).toEqual([['0', 'zero'], ['2', 'two']]);
    expect(await rowsOf(b, 'SELECT id FROM itx.t2 ORDER BY id')).toEqual([['0'], ['2']]);
  });

  it('later statements of the message read the earlier ones’ writes', async () => {
    const res = await a.query({ text: `INSERT INTO itx.t2 VALUES (3); SELECT count(*) FROM itx.t2`, rowMode: 'array' });
    const results = res as unknown as pg.QueryResult[];
    expect(results[1]!.rows).toEqual([['3']]);
    expect(await rowsOf(b, 'SELECT count(*) FROM itx.t2')).toEqual([['3']]);
  });

  it('temp tables and SETs of a failed message are rolled back too', async () => {
    expect(await sqlStateOf(a, `SET application_name = 'itx'; CREATE TEMP TABLE tt (id int4); INSERT INTO tt VALUES (1); SELECT 1/0`)).toBe('22012');
    expect(await sqlStateOf(a, 'SELECT * FROM tt')).toBe('42P01');
    expect(await rowsOf(a, 'SHOW application_name')).not.toEqual([['itx']]);
  });

  it('DDL in the message commits at once and the writes into the new table with the message', async () => {
    await a.query('CREATE TABLE itx.t3 (id int4); INSERT INTO itx.t3 VALUES (1), (2)');
    expect(await rowsOf(b, 'SELECT id FROM itx.t3 ORDER BY id')).toEqual([['1'], ['2']]);
  });

  it('a message with BEGIN / COMMIT manages its own transaction', async () => {
    await a.query('BEGIN; INSERT INTO itx.t3 VALUES (3); COMMIT; INSERT INTO itx.t3 VALUES (4)');
    expect(await rowsOf(b, 'SELECT id FROM itx.t3 ORDER BY id')).toEqual([['1'], ['2'], ['3'], ['4']]);
    expect(await sqlStateOf(a, 'BEGIN; INSERT INTO itx.t3 VALUES (5); COMMIT; SELECT 1/0')).toBe('22012');
    // what the client committed stays
    expect(await rowsOf(b, 'SELECT id FROM itx.t3 WHERE id >= 5 ORDER BY id')).toEqual([['5']]);
  });

  it('TRUNCATE of several tables is one unit', async () => {
    await a.query('INSERT INTO itx.t3 VALUES (7)');
    await a.query('TRUNCATE itx.t2, itx.t3');
    expect(await rowsOf(b, 'SELECT (SELECT count(*) FROM itx.t2), (SELECT count(*) FROM itx.t3)')).toEqual([['0', '0']]);
    expect(await rowsOf(b, 'SELECT operation FROM itx."t3$snapshots" ORDER BY committed_at DESC LIMIT 1')).toEqual([['delete']]);
  });
});
