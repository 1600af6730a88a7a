/**
 * RETURNING is part of the statement: in PostgreSQL an error while computing it (`RETURNING 1/(v-2)`) aborts
 * the statement and nothing it changed is committed. lakegate computes RETURNING into a buffer before the
 * Iceberg commit (exec/operators/{insert,modify-rows,overwrite}-exec.ts), so the catalog pointer does not move.
 * Each case: session `a` runs the failing statement, session `b` sees the table unchanged, the pointer is the
 * one before, and the metadata a reader relies on holds (txn-metadata-checks.ts). Then the same statement with
 * a RETURNING that does not fail commits and returns its rows (the buffer reaches the client).
 */
import type pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { useTwoSessions } from '../helpers/two-sessions.ts';
import { rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

describe('RETURNING errors commit nothing', () => {
  const sessions = useTwoSessions('tret');
  let a: pg.Client;
  let b: pg.Client;
  let catalog: IcebergCatalog;
  let table = '';
  let n = 0;
  const pointer = async (name = table): Promise<string> => (await catalog.loadTableLocation({ namespace: ['tret'], name: name.slice(5) })).metadataLocation;
  const contents = async (): Promise<string[][]> => rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`);
  const seed = [['1', '0'], ['2', '5']];

  /** the statement fails with 22012, and neither the pointer nor the rows moved */
  async function failsLeavingTable(sql: string): Promise<void> {
    const before = await pointer();
    await expect(a.query(sql)).rejects.toMatchObject({ code: '22012', message: 'division by zero' });
    expect(await pointer()).toBe(before);
    expect(await contents()).toEqual(seed);
    const t = await checkTableMetadata(before);
    expect(t.chain).toHaveLength(1);
    expect(t.liveRecords).toBe(2n);
  }

  beforeAll(() => {
    ({ a, b, catalog } = sessions);
  });
  beforeEach(async () => {
    table = `tret.t${++n}`;
    await a.query(`CREATE TABLE ${table} (id int4 PRIMARY KEY, v int4)`);
    await a.query(`INSERT INTO ${table} VALUES (1, 0), (2, 5)`);
  });

  it('UPDATE … RETURNING 1/(v-1): 22012, nothing committed; a RETURNING that works returns the new rows', async () => {
    await failsLeavingTable(`UPDATE ${table} SET v = v + 1 RETURNING 1/(v-1)`);
    expect(await rowsOf(a, `UPDATE ${table} SET v = v + 1 RETURNING id, 12/v`)).toEqual([['1', '12'], ['2', '2']]);
    expect(await contents()).toEqual([['1', '1'], ['2', '6']]);
    expect((await checkTableMetadata(await pointer())).chain).toHaveLength(2);
  });

  it('DELETE … RETURNING 1/(v-5): 22012, nothing deleted', async () => {
    await failsLeavingTable(`DELETE FROM ${table} WHERE id = 2 RETURNING 1/(v-5)`);
    expect(await rowsOf(a, `DELETE FROM ${table} WHERE id = 2 RETURNING id, v`)).toEqual([['2', '5']]);
    expect(await contents()).toEqual([['1', '0']]);
  });

  it('INSERT … RETURNING 1/(v-1): 22012, no row added', async () => {
    await failsLeavingTable(`INSERT INTO ${table} VALUES (3, 1) RETURNING 1/(v-1)`);
    expect(await rowsOf(a, `INSERT INTO ${table} VALUES (3, 2) RETURNING id, 4/v`)).toEqual([['3', '2']]);
    expect(await contents()).toEqual([...seed, ['3', '2']]);
  });

  it('UPDATE … FROM … RETURNING (row delta through a join): 22012, nothing committed', async () => {
    await failsLeavingTable(`UPDATE ${table} t SET v = t.v + s.d FROM (VALUES (1, 1), (2, 1)) s(id, d) WHERE t.id = s.id RETURNING 1/(t.v-1)`);
  });

  it('DELETE … USING … RETURNING: 22012, nothing deleted', async () => {
    await failsLeavingTable(`DELETE FROM ${table} t USING (VALUES (2)) s(id) WHERE t.id = s.id RETURNING 1/(t.v-5)`);
  });

  it('INSERT … ON CONFLICT DO UPDATE … RETURNING: 22012, nothing committed', async () => {
    await failsLeavingTable(`INSERT INTO ${table} VALUES (1, 0), (3, 1) ON CONFLICT (id) DO UPDATE SET v = ${table}.v + 1 RETURNING 1/(v-1)`);
    expect(await rowsOf(a, `INSERT INTO ${table} VALUES (1, 0), (3, 3) ON CONFLICT (id) DO UPDATE SET v = ${table}.v + 2 RETURNING id, 6/v`)).toEqual([['1', '3'], ['3', '2']]);
  });

  it('inside a block: the failed statement aborts the block, ROLLBACK leaves the table as it was', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (3, 3)`);
    await expect(a.query(`UPDATE ${table} SET v = v + 1 RETURNING 1/(v-1)`)).rejects.toMatchObject({ code: '22012' });
    await expect(a.query('SELECT 1')).rejects.toMatchObject({ code: '25P02' });
    await a.query('ROLLBACK');
    expect(await contents()).toEqual(seed);
  });

  it('a temp table: the same', async () => {
    await a.query('CREATE TEMP TABLE tr (id int4 PRIMARY KEY, v int4)');
    await a.query('INSERT INTO tr VALUES (1, 0), (2, 5)');
    await expect(a.query('UPDATE tr SET v = v + 1 RETURNING 1/(v-1)')).rejects.toMatchObject({ code: '22012' });
    await expect(a.query('DELETE FROM tr WHERE id = 2 RETURNING 1/(v-5)')).rejects.toMatchObject({ code: '22012' });
    await expect(a.query('INSERT INTO tr VALUES (3, 1) RETURNING 1/(v-1)')).rejects.toMatchObject({ code: '22012' });
    expect(await rowsOf(a, 'SELECT id, v FROM tr ORDER BY id')).toEqual(seed);
    await a.query('DROP TABLE tr');
  });
});
