/**
 * Transaction blocks on a PRIMARY KEY / UNIQUE table whose new keys' file bounds overlap keys another session
 * committed meanwhile (interleaved ids): COMMIT reads the keys (iceberg/keys/staged-keys.ts) instead of giving
 * up — distinct keys both commit, as in PostgreSQL; a key both added is 23505 with PostgreSQL's message and
 * DETAIL, not 40001; a key the other session added and deleted again does not count. Every case checks the
 * metadata a reader relies on (txn-metadata-checks.ts).
 */
import type pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { useTwoSessions } from '../helpers/two-sessions.ts';
import { rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

describe('transaction blocks adding keys next to concurrently added keys', () => {
  const sessions = useTwoSessions('tkeys');
  let a: pg.Client;
  let b: pg.Client;
  let catalog: IcebergCatalog;
  let table = '';
  let n = 0;
  const checked = async (name = table) => checkTableMetadata((await catalog.loadTableLocation({ namespace: ['tkeys'], name: name.slice(6) })).metadataLocation);
  const values = (ids: readonly number[], tag: string): string => ids.map((i) => `(${i}, '${tag}')`).join(', ');

  beforeAll(() => {
    ({ a, b, catalog } = sessions);
  });
  beforeEach(async () => {
    table = `tkeys.t${++n}`;
    await a.query(`CREATE TABLE ${table} (id int4 PRIMARY KEY, v text)`);
    await a.query(`INSERT INTO ${table} VALUES (0, 'seed')`);
  });

  it('two blocks inserting interleaved distinct ids 1..100: both COMMIT, 100 new rows', async () => {
    await a.query('BEGIN');
    await b.query('BEGIN');
    for (let step = 0; step < 5; step++) {
      const ids = Array.from({ length: 20 }, (_, i) => step * 20 + i + 1);
      await a.query(`INSERT INTO ${table} VALUES ${values(ids.filter((i) => i % 2 === 1), 'a')}`);
      await b.query(`INSERT INTO ${table} VALUES ${values(ids.filter((i) => i % 2 === 0), 'b')}`);
    }
    await a.query('COMMIT');
    await b.query('COMMIT');
    expect(await rowsOf(b, `SELECT count(*), count(DISTINCT id), min(id), max(id), sum(id) FROM ${table}`)).toEqual([['101', '101', '0', '100', '5050']]);
    expect(await rowsOf(b, `SELECT v, count(*) FROM ${table} WHERE id > 0 GROUP BY v ORDER BY v`)).toEqual([['a', '50'], ['b', '50']]);
    const t = await checked();
    expect(t.chain.map((s) => s.sequenceNumber)).toEqual(Array.from({ length: 11 }, (_, i) => BigInt(i + 1)));
    expect(t.chain.map((s) => s.summary['total-records'])).toEqual(Array.from({ length: 11 }, (_, i) => String(1 + 10 * i)));
    expect(t.liveRecords).toBe(101n);
  });

  it('a key both added: the later COMMIT is 23505 with PostgreSQL\'s DETAIL, and nothing of it is published', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES ${values([1, 5, 9], 'a')}`);
    await b.query(`INSERT INTO ${table} VALUES ${values([3, 5], 'b')}`); // autocommit, first
    await expect(a.query('COMMIT')).rejects.toMatchObject({
      code: '23505', message: `duplicate key value violates unique constraint "${table.slice(6)}_pkey"`, detail: 'Key (id)=(5) already exists.',
    });
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['0', 'seed'], ['3', 'b'], ['5', 'b']]);
    expect(await rowsOf(a, 'SELECT 1')).toEqual([['1']]); // a's block is over
    const t = await checked();
    expect(t.chain).toHaveLength(2);
  });

  it('a key the other session added and deleted again does not conflict', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES ${values([4, 5, 6], 'a')}`);
    await b.query(`INSERT INTO ${table} VALUES ${values([5, 7], 'b')}`);
    await b.query(`DELETE FROM ${table} WHERE id = 5`);
    await a.query('COMMIT');
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['0', 'seed'], ['4', 'a'], ['5', 'a'], ['6', 'a'], ['7', 'b']]);
    const t = await checked();
    expect(t.chain.map((s) => s.summary['operation'])).toEqual(['append', 'append', 'delete', 'append']);
  });

  it('a UNIQUE constraint on a second column is read too: a shared value is 23505 naming that constraint', async () => {
    const other = `${table}_u`;
    await a.query(`CREATE TABLE ${other} (id int4 PRIMARY KEY, code text UNIQUE)`);
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${other} VALUES (1, 'k1'), (3, 'k3')`);
    await b.query(`INSERT INTO ${other} VALUES (2, 'k2')`); // ids and codes interleave, all distinct
    await a.query(`INSERT INTO ${other} VALUES (5, 'k5')`);
    await b.query(`INSERT INTO ${other} VALUES (4, 'k5')`); // the same code
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '23505', detail: 'Key (code)=(k5) already exists.' });
    expect(await rowsOf(b, `SELECT id, code FROM ${other} ORDER BY id`)).toEqual([['2', 'k2'], ['4', 'k5']]);
    await checked(other);
  });

  it('an autocommit INSERT with interleaved ids next to an open block: both commit', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES ${values([1, 3, 5, 7], 'a')}`);
    await b.query(`INSERT INTO ${table} VALUES ${values([2, 4, 6, 8], 'b')}`);
    await a.query(`UPDATE ${table} SET v = 'a2' WHERE id = 3`);
    await a.query('COMMIT');
    expect(await rowsOf(b, `SELECT string_agg(id || v, ',' ORDER BY id) FROM ${table}`)).toEqual([['0seed,1a,2b,3a2,4b,5a,6b,7a,8b']]);
    await checked();
  });
});
