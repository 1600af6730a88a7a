/**
 * A duplicate PRIMARY KEY inside a transaction block fails the INSERT that makes it, at once, with 23505 — as in
 * PostgreSQL (checked against a PostgreSQL 15 cluster): for a key already committed, a key an earlier
 * statement of the same block inserted, and a key twice in one multi-row INSERT. The block is then aborted
 * (25P02), ROLLBACK leaves the table as it was, and the other session never saw a row of it.
 */
import type pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { useTwoSessions } from '../helpers/two-sessions.ts';
import { rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

describe('23505 at the INSERT inside a transaction block', () => {
  const sessions = useTwoSessions('bkeys');
  let a: pg.Client;
  let b: pg.Client;
  let catalog: IcebergCatalog;
  let table = '';
  let n = 0;
  const pointer = async (): Promise<string> => (await catalog.loadTableLocation({ namespace: ['bkeys'], name: table.slice(6) })).metadataLocation;
  const dup = (id: number) => ({ code: '23505', message: `duplicate key value violates unique constraint "${table.slice(6)}_pkey"`, detail: `Key (id)=(${id}) already exists.` });

  /** after the failed INSERT: the block is aborted, ROLLBACK ends it, the table is the seed (one snapshot) */
  async function abortedAndRolledBack(before: string): Promise<void> {
    await expect(a.query('SELECT 1')).rejects.toMatchObject({ code: '25P02' });
    await a.query('ROLLBACK');
    expect(await pointer()).toBe(before);
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['1', 'seed']]);
    const t = await checkTableMetadata(before);
    expect(t.chain).toHaveLength(1);
    expect(t.liveRecords).toBe(1n);
  }

  beforeAll(() => {
    ({ a, b, catalog } = sessions);
  });
  beforeEach(async () => {
    table = `bkeys.t${++n}`;
    await a.query(`CREATE TABLE ${table} (id int4 PRIMARY KEY, v text)`);
    await a.query(`INSERT INTO ${table} VALUES (1, 'seed')`);
  });

  it('a key already committed: the INSERT fails', async () => {
    const before = await pointer();
    await a.query('BEGIN');
    await expect(a.query(`INSERT INTO ${table} VALUES (1, 'again')`)).rejects.toMatchObject(dup(1));
    await abortedAndRolledBack(before);
  });

  it('a key an earlier INSERT of the block added: the second INSERT fails', async () => {
    const before = await pointer();
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (7, 'first')`);
    await expect(a.query(`INSERT INTO ${table} VALUES (7, 'second')`)).rejects.toMatchObject(dup(7));
    await abortedAndRolledBack(before);
  });

  it('a key twice in one multi-row INSERT: that INSERT fails', async () => {
    const before = await pointer();
    await a.query('BEGIN');
    await expect(a.query(`INSERT INTO ${table} VALUES (8, 'x'), (8, 'y')`)).rejects.toMatchObject(dup(8));
    await abortedAndRolledBack(before);
  });

  it('an UPDATE of the block onto a key an earlier INSERT of it added: the UPDATE fails', async () => {
    const before = await pointer();
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (9, 'x')`);
    await expect(a.query(`UPDATE ${table} SET id = 9 WHERE id = 1`)).rejects.toMatchObject(dup(9));
    await abortedAndRolledBack(before);
  });

  it('a key the block deleted first can be inserted again, and COMMIT publishes it', async () => {
    await a.query('BEGIN');
    await a.query(`DELETE FROM ${table} WHERE id = 1`);
    await a.query(`INSERT INTO ${table} VALUES (1, 'new')`);
    await a.query('COMMIT');
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['1', 'new']]);
    await checkTableMetadata(await pointer());
  });
});
