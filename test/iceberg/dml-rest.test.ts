/**
 * DELETE / UPDATE / partition evolution / purge by a lakegate whose catalog is another lakegate's REST
 * catalog: the row-delta snapshot and the new partition spec go through REST as TableRequirements +
 * TableUpdates (add-snapshot, set-snapshot-ref, add-spec, set-default-spec), and the owner reads the result.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../helpers/text-client.ts';
import type { RunningServer } from '../../src/server/main.ts';
import { startRestPair, type RestPair } from '../helpers/rest-pair.ts';

describe('DML through an Iceberg REST catalog', () => {
  let pair: RestPair;
  let owner: RunningServer;
  let viaRest: RunningServer;
  let a: pg.Client;
  let b: pg.Client;

  beforeAll(async () => {
    pair = await startRestPair('lakegate-dml-rest-');
    ({ owner, viaRest, a, b } = pair);
  });
  afterAll(() => pair?.close());

  it('DELETE, UPDATE, SET (partitioning) and purge commit through REST', async () => {
    await b.query('CREATE SCHEMA shop');
    await b.query(`CREATE TABLE shop.o (id int8 NOT NULL, placed date) WITH (partitioning = ARRAY['month(placed)'])`);
    await b.query(`INSERT INTO shop.o VALUES (1, '2024-01-03'), (2, '2024-01-04'), (3, '2024-02-05')`);
    expect((await b.query('DELETE FROM shop.o WHERE id = 1')).rowCount).toBe(1);
    expect((await b.query(`UPDATE shop.o SET placed = '2024-03-01' WHERE id = 3`)).rowCount).toBe(1);
    await b.query(`ALTER TABLE shop.o SET (partitioning = 'id')`);
    await b.query(`INSERT INTO shop.o VALUES (4, '2024-04-01')`);
    await new Promise((r) => setTimeout(r, 300)); // the owner's mirror refresh is throttled
    expect(await rowsOf(a, 'SELECT id, placed FROM shop.o ORDER BY id')).toEqual([['2', '2024-01-04'], ['3', '2024-03-01'], ['4', '2024-04-01']]);
    expect(await rowsOf(a, `SELECT operation FROM shop."o$snapshots" ORDER BY committed_at`)).toEqual([['append'], ['delete'], ['overwrite'], ['append']]);
    expect(await rowsOf(a, `SELECT content, spec_id, count(*) FROM shop."o$files" GROUP BY 1, 2 ORDER BY 1, 2`)).toEqual([['0', '0', '2'], ['0', '1', '1'], ['1', '0', '1']]);
    await b.query(`CALL system.drop_table(schema_name => 'shop', table_name => 'o', purge => true)`);
    await new Promise((r) => setTimeout(r, 300));
    await expect(a.query('SELECT * FROM shop.o')).rejects.toMatchObject({ code: '42P01' });
  });
});
