/**
 * Concurrent transaction blocks on a format v3 table (deletion vectors, row lineage), through real `pg`
 * clients: the re-applied block keeps `_row_id`s unique and stable (its new rows get ids after the winner's),
 * a DELETE (a DV) re-applies next to a concurrent INSERT, two DVs for one data file are 40001, and rewriting
 * rows the block itself added — their ids would move — is 40001 when the table moved.
 */
import type pg from 'pg';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { useTwoSessions } from '../helpers/two-sessions.ts';
import { rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

describe('concurrent transaction blocks on a v3 table', () => {
  const sessions = useTwoSessions('v3');
  let catalog: IcebergCatalog;
  let a: pg.Client;
  let b: pg.Client;
  let table = '';
  let n = 0;
  const check = async () => checkTableMetadata((await catalog.loadTableLocation({ namespace: ['v3'], name: table.slice(3) })).metadataLocation);
  const rows = async (): Promise<string[][]> => rowsOf(b, `SELECT id, v, _row_id FROM ${table} ORDER BY id`);

  beforeAll(() => {
    ({ a, b, catalog } = sessions);
  });
  beforeEach(async () => {
    table = `v3.t${++n}`;
    await a.query(`CREATE TABLE ${table} (id int8 NOT NULL, v text) WITH (format_version = 3)`);
    await a.query(`INSERT INTO ${table} VALUES (1, 'seed'), (2, 'seed'), (3, 'seed')`);
  });

  it('two inserting blocks: row ids unique, the later block\'s after the winner\'s', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (10, 'a'), (11, 'a')`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await a.query('COMMIT');
    expect(await rows()).toEqual([['1', 'seed', '0'], ['2', 'seed', '1'], ['3', 'seed', '2'], ['10', 'a', '4'], ['11', 'a', '5'], ['20', 'b', '3']]);
    expect((await check()).md.nextRowId).toBe(6n);
  });

  it('a DELETE (deletion vector) and a concurrent INSERT both commit', async () => {
    await a.query('BEGIN');
    await a.query(`DELETE FROM ${table} WHERE id = 2`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await a.query('COMMIT');
    expect(await rows()).toEqual([['1', 'seed', '0'], ['3', 'seed', '2'], ['20', 'b', '3']]);
    await check();
  });

  it('two DELETEs of rows of one data file: the later COMMIT is 40001 (one DV per data file)', async () => {
    await a.query('BEGIN');
    await a.query(`DELETE FROM ${table} WHERE id = 2`);
    await b.query(`DELETE FROM ${table} WHERE id = 3`);
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await rows()).toEqual([['1', 'seed', '0'], ['2', 'seed', '1']]);
  });

  it('an UPDATE of committed rows after an INSERT re-applies; an UPDATE of its own new rows is 40001', async () => {
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (10, 'a')`);
    await a.query(`UPDATE ${table} SET v = 'a' WHERE id = 1`);
    await b.query(`INSERT INTO ${table} VALUES (20, 'b')`);
    await a.query('COMMIT');
    expect(await rows()).toEqual([['1', 'a', '0'], ['2', 'seed', '1'], ['3', 'seed', '2'], ['10', 'a', '4'], ['20', 'b', '3']]);
    await check();
    await a.query('BEGIN');
    await a.query(`INSERT INTO ${table} VALUES (30, 'a')`);
    await a.query(`UPDATE ${table} SET v = 'a2' WHERE id = 30`);
    await b.query(`INSERT INTO ${table} VALUES (40, 'b')`);
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect((await rows()).map((r) => r[0])).toEqual(['1', '2', '3', '10', '20', '40']);
  });
});
