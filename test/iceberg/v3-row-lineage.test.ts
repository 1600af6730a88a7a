/**
 * v3 row lineage metadata columns over the wire: `_row_id` and `_last_updated_sequence_number` selectable by
 * name (qualified too, in WHERE / ORDER BY / aggregates), never in `*` nor in the catalog, computed by
 * inheritance (first_row_id + position, data sequence number) for lakegate's own appends, across DELETE
 * (positions keep their ids) and UPDATE (new versions keep their ids, get the commit's sequence number), with time
 * travel, through the scan worker pool, and taken as stored when a file holds non-null values (a file
 * registered by hand, as another engine that copies row ids writes them). v2 tables have no such columns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineageParquet, registerFiles, V3Session } from './v3-helpers.ts';

describe('Iceberg v3 row lineage columns', () => {
  const s = new V3Session('lineage');
  const warehouse = s.warehouse;
  let c = null as unknown as V3Session['c'];
  let firstSnapshot = '';
  const rows = (sql: string): Promise<string[][]> => s.rows(sql);
  const connect = async (): Promise<void> => { await s.start(); c = s.c; };

  beforeAll(async () => {
    await connect();
    await c.query('CREATE SCHEMA lake');
    await c.query('CREATE TABLE lake.t (id int, name text) WITH (format_version = 3)');
    await c.query(`INSERT INTO lake.t VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
    firstSnapshot = (await rows(`SELECT snapshot_id FROM lake."t$snapshots"`))[0]![0]!;
    await c.query(`INSERT INTO lake.t VALUES (4, 'd'), (5, 'e')`);
    await c.query('CREATE TABLE lake.v2 (id int)');
    await c.query('INSERT INTO lake.v2 VALUES (1)');
    await c.query('CREATE TABLE lake.stored (id int) WITH (format_version = 3)');
    await c.query('INSERT INTO lake.stored VALUES (1)');
    await s.stop();
    // a file that stores row ids (as a compaction by another engine copies them), with some nulls
    await registerFiles(warehouse, 'stored', [{ bytes: lineageParquet([10, 11, 12], [100n, null, 102n], [1n, null, null]), rows: 3 }]);
    await connect();
  });
  afterAll(() => s.dispose());

  it('inherits _row_id (first_row_id + position) and _last_updated_sequence_number (data sequence number)', async () => {
    expect(await rows('SELECT id, _row_id, _last_updated_sequence_number FROM lake.t ORDER BY id')).toEqual([
      ['1', '0', '1'], ['2', '1', '1'], ['3', '2', '1'], ['4', '3', '2'], ['5', '4', '2'],
    ]);
    expect(await rows('SELECT x._row_id, pg_typeof(x._row_id)::text FROM lake.t AS x WHERE x.id = 4')).toEqual([['3', 'bigint']]);
  });

  it('keeps them out of * and out of the catalog', async () => {
    const r = await c.query('SELECT * FROM lake.t WHERE _row_id = 0');
    expect(r.fields.map((f) => f.name)).toEqual(['id', 'name']);
    expect(await rows(`SELECT t.* FROM lake.t WHERE _row_id > 2 ORDER BY _row_id DESC`)).toEqual([['5', 'e'], ['4', 'd']]);
    expect(await rows(`SELECT count(*) FROM information_schema.columns WHERE table_schema = 'lake' AND table_name = 't'`)).toEqual([['2']]);
    expect(await rows(`SELECT count(*) FROM pg_attribute WHERE attrelid = 'lake.t'::regclass AND attname LIKE '\\_%'`)).toEqual([['0']]);
  });

  it('filters and aggregates on them without pruning by the (absent) statistics', async () => {
    expect(await rows('SELECT count(*), min(_row_id), max(_row_id), sum(_last_updated_sequence_number) FROM lake.t')).toEqual([['5', '0', '4', '7']]);
    expect(await rows('SELECT id FROM lake.t WHERE _row_id IN (1, 4) ORDER BY 1')).toEqual([['2'], ['5']]);
    expect(await rows('SELECT count(*) FROM lake.t WHERE _row_id IS NULL')).toEqual([['0']]);
    expect(await rows('SELECT _last_updated_sequence_number, count(*) FROM lake.t GROUP BY 1 ORDER BY 1')).toEqual([['1', '3'], ['2', '2']]);
  });

  it('follows DELETE (ids stay with their rows) and UPDATE (new versions keep their id, take the new sequence number)', async () => {
    await c.query('DELETE FROM lake.t WHERE id = 2');
    await c.query(`UPDATE lake.t SET name = 'C' WHERE id = 3`);
    expect(await rows('SELECT id, name, _row_id, _last_updated_sequence_number FROM lake.t ORDER BY id')).toEqual([
      ['1', 'a', '0', '1'], ['3', 'C', '2', '4'], ['4', 'd', '3', '2'], ['5', 'e', '4', '2'],
    ]);
  });

  it('reads them inside a transaction, its own uncommitted rows included', async () => {
    await c.query('BEGIN');
    try {
      await c.query(`INSERT INTO lake.t VALUES (6, 'f')`);
      expect(await rows('SELECT id, _row_id, _last_updated_sequence_number FROM lake.t WHERE id IN (1, 6) ORDER BY id')).toEqual([['1', '0', '1'], ['6', '6', '5']]);
    } finally {
      await c.query('ROLLBACK');
    }
  });

  it('time travels', async () => {
    expect(await rows(`SELECT id, _row_id, _last_updated_sequence_number FROM lake.t FOR SYSTEM_VERSION AS OF ${firstSnapshot} ORDER BY id`)).toEqual([
      ['1', '0', '1'], ['2', '1', '1'], ['3', '2', '1'],
    ]);
  });

  it('takes stored non-null values as they are, inheriting the nulls', async () => {
    // lakegate's row: file first_row_id 0; the registered file: first_row_id 1 (next-row-id), sequence number 2
    expect(await rows('SELECT id, _row_id, _last_updated_sequence_number FROM lake.stored ORDER BY id')).toEqual([
      ['1', '0', '1'], ['10', '100', '1'], ['11', '2', '2'], ['12', '102', '2'],
    ]);
  });

  it('works in INSERT … SELECT, subqueries and on the target of UPDATE / DELETE', async () => {
    await c.query('CREATE TABLE lake.copy (id int, rid int8) WITH (format_version = 3)');
    await c.query('INSERT INTO lake.copy SELECT id, _row_id FROM lake.t WHERE _row_id < 4 ORDER BY id');
    expect(await rows('SELECT id, rid, _row_id FROM lake.copy ORDER BY id')).toEqual([['1', '0', '0'], ['3', '2', '1'], ['4', '3', '2']]);
    await c.query('UPDATE lake.copy SET rid = rid + 100 WHERE _row_id = 1');
    await c.query('DELETE FROM lake.copy WHERE _row_id = 0');
    await c.query('DELETE FROM lake.copy WHERE id IN (SELECT id FROM lake.copy WHERE _row_id = 2)');
    expect(await rows('SELECT id, rid, _row_id FROM lake.copy ORDER BY id')).toEqual([['3', '102', '1']]);
  });

  it('does not exist on v2 tables, and a real column of that name wins', async () => {
    await expect(c.query('SELECT _row_id FROM lake.v2')).rejects.toMatchObject({ code: '42703' });
    await c.query('CREATE TABLE lake.own (id int, _row_id text) WITH (format_version = 3)');
    await c.query(`INSERT INTO lake.own VALUES (1, 'mine')`);
    expect(await rows('SELECT _row_id, _last_updated_sequence_number FROM lake.own')).toEqual([['mine', '1']]);
    expect(await rows('SELECT * FROM lake.own')).toEqual([['1', 'mine']]);
  });
});
