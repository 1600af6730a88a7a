/**
 * Iceberg writes inside BEGIN … COMMIT are one unit: staged until COMMIT (only the writing session sees
 * them), ROLLBACK and ROLLBACK TO SAVEPOINT forget them, COMMIT publishes every table at once (one SQL
 * catalog transaction), and a conflicting concurrent commit to a staged table makes COMMIT fail with 40001
 * with nothing of the transaction visible.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { connectText, rowsOf } from '../helpers/text-client.ts';

describe('Iceberg writes in transaction blocks', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-tx-'));
  let server: LakegateServer;
  let a: pg.Client;
  let b: pg.Client;
  const snapshots = async (table: string): Promise<number> => Number((await rowsOf(b, `SELECT count(*) FROM tx."${table}$snapshots"`))[0]![0]);

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    a = await connectText(server.url);
    b = await connectText(server.url);
    await a.query('CREATE SCHEMA tx');
    await a.query('CREATE TABLE tx.t1 (id int4, v text)');
    await a.query('CREATE TABLE tx.t2 (id int4)');
    await a.query(`INSERT INTO tx.t1 VALUES (0, 'committed')`);
  });
  afterAll(async () => {
    await a?.end();
    await b?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('stages writes: the session sees them, others do not, ROLLBACK forgets them', async () => {
    const before = await snapshots('t1');
    await a.query('BEGIN');
    await a.query(`INSERT INTO tx.t1 VALUES (1, 'staged')`);
    await a.query(`UPDATE tx.t1 SET v = 'changed' WHERE id = 0`);
    expect(await rowsOf(a, 'SELECT id, v FROM tx.t1 ORDER BY id')).toEqual([['0', 'changed'], ['1', 'staged']]);
    expect(await rowsOf(b, 'SELECT id, v FROM tx.t1 ORDER BY id')).toEqual([['0', 'committed']]);
    await a.query('ROLLBACK');
    expect(await rowsOf(a, 'SELECT id, v FROM tx.t1 ORDER BY id')).toEqual([['0', 'committed']]);
    expect(await snapshots('t1')).toBe(before);
  });

  it('COMMIT publishes every table of the transaction', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO tx.t1 VALUES (2, 'two')`);
    await a.query('INSERT INTO tx.t2 SELECT id FROM tx.t1');
    expect(await rowsOf(b, 'SELECT count(*) FROM tx.t2')).toEqual([['0']]);
    await a.query('COMMIT');
    expect(await rowsOf(b, 'SELECT id FROM tx.t2 ORDER BY id')).toEqual([['0'], ['2']]);
    expect(await rowsOf(b, 'SELECT id, v FROM tx.t1 ORDER BY id')).toEqual([['0', 'committed'], ['2', 'two']]);
  });

  it('ROLLBACK TO SAVEPOINT undoes only the writes after it', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO tx.t2 VALUES (10)`);
    await a.query('SAVEPOINT s1');
    await a.query(`INSERT INTO tx.t2 VALUES (11)`);
    await a.query('DELETE FROM tx.t2 WHERE id = 0');
    await a.query('ROLLBACK TO SAVEPOINT s1');
    await a.query(`INSERT INTO tx.t2 VALUES (12)`);
    expect(await rowsOf(a, 'SELECT id FROM tx.t2 ORDER BY id')).toEqual([['0'], ['2'], ['10'], ['12']]);
    await a.query('COMMIT');
    expect(await rowsOf(b, 'SELECT id FROM tx.t2 ORDER BY id')).toEqual([['0'], ['2'], ['10'], ['12']]);
  });

  it('an error in the block: COMMIT rolls back, nothing is published', async () => {
    const before = await snapshots('t2');
    await a.query('BEGIN');
    await a.query('INSERT INTO tx.t2 VALUES (20)');
    await expect(a.query('SELECT 1/0')).rejects.toMatchObject({ code: '22012' });
    const res = await a.query('COMMIT');
    expect(res.command).toBe('ROLLBACK');
    expect(await snapshots('t2')).toBe(before);
    expect(await rowsOf(b, 'SELECT count(*) FROM tx.t2 WHERE id = 20')).toEqual([['0']]);
  });

  it('a conflicting concurrent commit to a staged table: COMMIT fails with 40001 and no table of the transaction changes', async () => {
    // (a concurrent commit that does not conflict — an INSERT — is re-applied onto: test/iceberg/txn-concurrent-commit.test.ts)
    const t1Before = await rowsOf(b, 'SELECT count(*) FROM tx.t1');
    await a.query('BEGIN');
    await a.query(`INSERT INTO tx.t1 VALUES (30, 'lost')`);
    await a.query('DELETE FROM tx.t2 WHERE id = 0');
    await b.query('DELETE FROM tx.t2 WHERE id = 0'); // autocommit, wins
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001', message: 'could not serialize access due to concurrent update' });
    expect(await rowsOf(a, 'SELECT 1')).toEqual([['1']]); // the session is usable again, outside a block
    expect(await rowsOf(b, 'SELECT count(*) FROM tx.t1')).toEqual(t1Before);
    expect(await rowsOf(b, 'SELECT id FROM tx.t2 ORDER BY id')).toEqual([['2'], ['10'], ['12']]);
  });

  it('prepared statements bound before BEGIN write into the transaction, not around it', async () => {
    const insert = { name: 'ins_t2', text: 'INSERT INTO tx.t2 VALUES ($1)' };
    await a.query({ ...insert, values: [40] });
    await a.query('BEGIN');
    await a.query({ ...insert, values: [41] });
    expect(await rowsOf(b, 'SELECT count(*) FROM tx.t2 WHERE id = 41')).toEqual([['0']]);
    await a.query('ROLLBACK');
    expect(await rowsOf(a, 'SELECT id FROM tx.t2 WHERE id >= 40 ORDER BY id')).toEqual([['40']]);
  });
});
