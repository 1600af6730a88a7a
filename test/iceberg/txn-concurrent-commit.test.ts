/**
 * Concurrent transaction blocks on one Iceberg table, through real `pg` clients on one server, as PostgreSQL
 * users expect them: two sessions that INSERT inside BEGIN … COMMIT both commit (the later COMMIT re-applies
 * its staged snapshots onto the winner's, as Iceberg's commit retry does: iceberg/commit/rebase-staged.ts);
 * a transaction that deleted or updated rows another commit deleted or updated meanwhile fails with 40001
 * and publishes nothing, while changes to different rows of one data file both commit;
 * a DELETE and a concurrent INSERT of other rows both commit (READ COMMITTED: the DELETE did not see the new
 * rows, so they stay). Every case checks the metadata a reader relies on (txn-metadata-checks.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { icebergRead } from 'icebird';
import pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { useTwoSessions } from '../helpers/two-sessions.ts';
import { localFetch } from '../helpers/local-fetch.ts';
import { rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

describe('concurrent transaction blocks on one Iceberg table', () => {
  const sessions = useTwoSessions('txn');
  const warehouse = sessions.warehouse;
  let a: pg.Client;
  let b: pg.Client;
  let catalog: IcebergCatalog;
  let table = '';
  let n = 0;

  const ids = async (c: pg.Client = b): Promise<string[]> => (await rowsOf(c, `SELECT id FROM ${table} ORDER BY id`)).map((r) => r[0]!);
  /** the table's current metadata file, from the catalog the server commits to */
  const pointer = async (name = table.slice(4)): Promise<string> => (await catalog.loadTableLocation({ namespace: ['txn'], name })).metadataLocation;
  const checked = async () => checkTableMetadata(await pointer());

  beforeAll(() => {
    ({ a, b, catalog } = sessions);
  });
  beforeEach(async () => {
    table = `txn.t${++n}`;
    await a.query(`CREATE TABLE ${table} (id int4, v text)`);
    await a.query(`INSERT INTO ${table} VALUES (1, 'seed'), (2, 'seed'), (3, 'seed')`);
  });

  it('two sessions BEGIN, each INSERTs, both COMMIT: both rows, one snapshot chain', async () => {
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (10, 'a')`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await a.query(`INSERT INTO ${table} VALUES (11, 'a')`);
    expect(await ids(a)).toEqual(['1', '2', '3', '10', '11']); // read-your-writes
    await a.query('COMMIT');
    expect(await ids(b)).toEqual(['1', '2', '3', '20']); // b still sees its own block
    await b.query('COMMIT');
    expect(await ids()).toEqual(['1', '2', '3', '10', '11', '20']);
    expect(await rowsOf(b, `SELECT count(*) FROM ${table}`)).toEqual([['6']]);
    const t = await checked();
    // seed, a's two statements, b's one: four snapshots in one line, sequence numbers 1..4
    expect(t.chain.map((s) => s.sequenceNumber)).toEqual([1n, 2n, 3n, 4n]);
    expect(t.chain.map((s) => s.summary['operation'])).toEqual(['append', 'append', 'append', 'append']);
    expect(t.chain.map((s) => s.summary['total-records'])).toEqual(['3', '4', '5', '6']);
    expect(t.liveRecords).toBe(6n);
  });

  it('the rebased table reads the same in an independent reader (icebird)', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (10, 'a')`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`); // autocommit, wins
    await a.query('COMMIT');
    const dir = join(warehouse, 'txn', table.slice(4));
    const latest = await pointer();
    const realFetch = globalThis.fetch;
    globalThis.fetch = localFetch;
    try {
      const name = latest.slice(latest.lastIndexOf('/') + 1);
      expect(readdirSync(join(dir, 'metadata'))).toContain(name);
      const got = (await icebergRead({ tableUrl: dir, metadataFileName: name })) as { id: number }[];
      expect(got.map((r) => r.id).sort((x, y) => x - y)).toEqual([1, 2, 3, 10, 20]);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('both DELETE the same row: the later COMMIT is 40001 and nothing of it is published', async () => {
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query(`DELETE FROM ${table} WHERE id = 2`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await b.query(`DELETE FROM ${table} WHERE id = 2`);
    await a.query('COMMIT');
    await expect(b.query('COMMIT')).rejects.toMatchObject({ code: '40001', message: 'could not serialize access due to concurrent update' });
    expect(await ids()).toEqual(['1', '3']);
    expect(await rowsOf(b, 'SELECT 1')).toEqual([['1']]); // b is out of its block and usable
    await checked();
  });

  it('DELETEs of different rows of one data file: both commit (position deletes of other rows do not conflict)', async () => {
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query(`DELETE FROM ${table} WHERE id = 1`);
    await b.query(`UPDATE ${table} SET v = 'b' WHERE id = 3`);
    await a.query('COMMIT');
    await b.query('COMMIT');
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['2', 'seed'], ['3', 'b']]);
    await checked();
  });

  it('an UPDATE and a concurrent DELETE of the same row: the later COMMIT is 40001 (no resurrected row)', async () => {
    await a.query('BEGIN');
    await a.query(`UPDATE ${table} SET v = 'a' WHERE id = 2`);
    await b.query(`DELETE FROM ${table} WHERE id = 2`);
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await ids()).toEqual(['1', '3']);
  });

  // a v2 UPDATE/DELETE writes one position delete file per partition; when it covers two data files its
  // referenced_data_file is null, and the validations must still see every data file it names
  it('an UPDATE of rows in two data files and a concurrent UPDATE of one of them: 40001, no duplicated row', async () => {
    await a.query(`INSERT INTO ${table} VALUES (11, 'seed'), (12, 'seed')`); // a second data file
    await a.query('BEGIN');
    await a.query(`UPDATE ${table} SET v = 'a' WHERE id IN (1, 11)`);
    await b.query(`UPDATE ${table} SET v = 'b' WHERE id = 1`); // autocommit, wins
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['1', 'b'], ['2', 'seed'], ['3', 'seed'], ['11', 'seed'], ['12', 'seed']]);
  });

  it('a DELETE over two data files and a concurrent compaction of them: 40001, no row resurrected or lost', async () => {
    await a.query(`INSERT INTO ${table} VALUES (11, 'seed'), (12, 'seed')`);
    await a.query('BEGIN');
    await a.query(`DELETE FROM ${table} WHERE id IN (1, 11)`);
    await b.query(`CALL system.rewrite_data_files('${table}')`); // rewrites both files into one
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await ids()).toEqual(['1', '2', '3', '11', '12']);
  });

  it('an UPDATE and a concurrent UPDATE of the same row: the later COMMIT is 40001', async () => {
    await a.query('BEGIN');
    await a.query(`UPDATE ${table} SET v = 'a' WHERE id = 3`);
    await b.query(`UPDATE ${table} SET v = 'b' WHERE id = 3`); // autocommit, wins
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['1', 'seed'], ['2', 'seed'], ['3', 'b']]);
  });

  it('a DELETE and a concurrent INSERT of other rows both commit; the inserted rows stay', async () => {
    await a.query('BEGIN');
    await a.query(`DELETE FROM ${table} WHERE id >= 2`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b'), (21, 'b')`); // autocommit, first
    expect(await ids(a)).toEqual(['1']);
    await a.query('COMMIT');
    expect(await ids()).toEqual(['1', '20', '21']);
    const t = await checked();
    expect(t.chain.map((s) => s.summary['operation'])).toEqual(['append', 'append', 'delete']);
  });

  it('a transaction that inserts, updates and deletes its own rows re-applies onto a moved table', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (10, 'a'), (11, 'a')`);
    await a.query(`UPDATE ${table} SET v = 'a2' WHERE id = 10`);
    await a.query(`DELETE FROM ${table} WHERE id = 11`);
    await a.query(`INSERT INTO ${table} VALUES (12, 'a')`);
    await a.query(`DELETE FROM ${table} WHERE id = 12`); // its whole file: dropped, not position-deleted
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await b.query(`DELETE FROM ${table} WHERE id = 1`);
    await a.query('COMMIT');
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['2', 'seed'], ['3', 'seed'], ['10', 'a2'], ['20', 'b']]);
    const t = await checked();
    expect(t.chain).toHaveLength(8);
  });

  it('TRUNCATE and a concurrent INSERT: both commit, the new rows stay (TRUNCATE ran first)', async () => {
    await a.query('BEGIN');
    await a.query(`TRUNCATE ${table}`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await a.query('COMMIT');
    expect(await ids()).toEqual(['20']);
    await checked();
  });

  it('TRUNCATE and a concurrent DELETE: the later COMMIT is 40001', async () => {
    await a.query('BEGIN');
    await a.query(`TRUNCATE ${table}`);
    await b.query(`DELETE FROM ${table} WHERE id = 1`);
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await ids()).toEqual(['2', '3']);
  });

  it('a concurrent ALTER TABLE: 40001 (re-applying across a schema change is not provably safe)', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (10, 'a')`);
    await b.query(`ALTER TABLE ${table} ADD COLUMN w int4`);
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await ids()).toEqual(['1', '2', '3']);
  });

  it('two tables in one block, both moved: both re-applied, published together', async () => {
    const other = `${table}_b`;
    await a.query(`CREATE TABLE ${other} (id int4)`);
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (10, 'a')`);
    await a.query(`INSERT INTO ${other} VALUES (10)`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await b.query(`INSERT INTO ${other} VALUES (20)`);
    await a.query('COMMIT');
    expect(await ids()).toEqual(['1', '2', '3', '10', '20']);
    expect(await rowsOf(b, `SELECT id FROM ${other} ORDER BY id`)).toEqual([['10'], ['20']]);
  });

  it('a conflict on one table of the block publishes neither (the other was re-applied, not swapped)', async () => {
    const other = `${table}_b`;
    await a.query(`CREATE TABLE ${other} (id int4)`);
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${other} VALUES (10)`);
    await a.query(`DELETE FROM ${table} WHERE id = 1`);
    await b.query(`INSERT INTO ${other} VALUES (20)`);
    await b.query(`DELETE FROM ${table} WHERE id = 1`);
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await rowsOf(b, `SELECT id FROM ${other} ORDER BY id`)).toEqual([['20']]);
    expect(await ids()).toEqual(['2', '3']);
  });
});
