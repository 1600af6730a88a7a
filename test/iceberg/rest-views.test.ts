/**
 * Views on someone else's REST catalog: server A keeps the embedded SQL catalog and serves it over REST,
 * server B has no catalog of its own (`catalog_uri` = A's endpoint). CREATE [OR REPLACE] VIEW, COMMENT ON
 * VIEW, ALTER VIEW RENAME and DROP VIEW on B go through REST's CreateView / CommitView / rename / drop, so A
 * sees them and B sees them again after a restart (they are no longer kept in B's memory).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/main.ts';
import { connectText, rowsOf } from '../helpers/text-client.ts';

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 300)); // the owner re-lists its catalog

describe('views on a REST catalog', () => {
  const pair = { warehouse: mkdtempSync(join(tmpdir(), 'lakegate-rest-views-')) } as { warehouse: string; owner: RunningServer; viaRest: RunningServer };
  let a: pg.Client;
  let b: pg.Client;
  const startViaRest = (): Promise<RunningServer> =>
    startServer({ host: '127.0.0.1', port: 0, warehouse: pair.warehouse, auth: 'trust', sample_data: false, catalog_uri: `http://127.0.0.1:${pair.owner.restPort!}` });

  beforeAll(async () => {
    pair.owner = await startServer({ host: '127.0.0.1', port: 0, warehouse: pair.warehouse, auth: 'trust', sample_data: false, rest_port: 0 });
    pair.viaRest = await startViaRest();
    a = await connectText(pair.owner);
    b = await connectText(pair.viaRest);
    await b.query('CREATE SCHEMA shop');
    await b.query('CREATE TABLE shop.orders (id int8, amount numeric(10,2), region text)');
    await b.query(`INSERT INTO shop.orders VALUES (1, 10.50, 'eu'), (2, 20.00, 'us'), (3, 5.25, 'eu')`);
  });
  afterAll(async () => {
    await a?.end();
    await b?.end();
    await pair.viaRest?.close();
    await pair.owner?.close();
    rmSync(pair.warehouse, { recursive: true, force: true });
  });

  it('CREATE VIEW on the REST-backed server is a VIEW row in the owner catalog', async () => {
    await b.query(`CREATE VIEW shop.eu AS SELECT id, amount FROM shop.orders WHERE region = 'eu'`);
    expect(await rowsOf(b, 'SELECT id, amount FROM shop.eu ORDER BY id')).toEqual([['1', '10.50'], ['3', '5.25']]);
    await settle();
    expect(await rowsOf(a, 'SELECT id, amount FROM shop.eu ORDER BY id')).toEqual([['1', '10.50'], ['3', '5.25']]);
    expect(await rowsOf(a, `SELECT relkind FROM pg_class WHERE relname = 'eu'`)).toEqual([['v']]);
    const db = new Database(join(pair.warehouse, 'lakegate_catalog.db'), { readonly: true });
    try {
      const row = db.prepare(`SELECT iceberg_type, metadata_location FROM iceberg_tables WHERE table_name = 'eu'`).get() as { iceberg_type: string; metadata_location: string };
      expect(row.iceberg_type).toBe('VIEW');
      const doc = JSON.parse(readFileSync(row.metadata_location.replace(/^file:\/\//, ''), 'utf8'));
      expect(doc.versions[0].representations).toEqual([{ type: 'sql', dialect: 'postgresql', sql: expect.stringMatching(/region = 'eu'/) }]);
      expect(doc.properties['lakegate.search-path']).toBeDefined();
    } finally {
      db.close();
    }
  });

  it('CREATE OR REPLACE VIEW and COMMENT ON VIEW commit through REST; the owner sees both', async () => {
    await b.query(`CREATE OR REPLACE VIEW shop.eu AS SELECT id, amount, region FROM shop.orders WHERE region = 'eu' AND amount > 6`);
    await b.query(`COMMENT ON VIEW shop.eu IS 'big european orders'`);
    await settle();
    expect(await rowsOf(a, 'SELECT * FROM shop.eu')).toEqual([['1', '10.50', 'eu']]);
    expect(await rowsOf(a, `SELECT obj_description('shop.eu'::regclass, 'pg_class')`)).toEqual([['big european orders']]);
    expect(await rowsOf(b, `SELECT obj_description('shop.eu'::regclass, 'pg_class')`)).toEqual([['big european orders']]);
    const db = new Database(join(pair.warehouse, 'lakegate_catalog.db'), { readonly: true });
    try {
      const { metadata_location: location } = db.prepare(`SELECT metadata_location FROM iceberg_tables WHERE table_name = 'eu'`).get() as { metadata_location: string };
      const doc = JSON.parse(readFileSync(location.replace(/^file:\/\//, ''), 'utf8'));
      expect(doc['current-version-id']).toBe(2);
      expect(doc.versions).toHaveLength(2);
      expect(doc['version-log'].map((e: { 'version-id': number }) => e['version-id'])).toEqual([1, 2]);
    } finally {
      db.close();
    }
  });

  it('a view the owner creates is seen by the REST-backed server; names are shared with tables', async () => {
    await a.query('CREATE VIEW shop.total AS SELECT sum(amount) AS s FROM shop.orders');
    await settle();
    expect(await rowsOf(b, 'SELECT s FROM shop.total')).toEqual([['35.75']]);
    await expect(b.query('CREATE VIEW shop.orders AS SELECT 1')).rejects.toMatchObject({ code: '42P07' });
    await expect(b.query('CREATE VIEW shop.total AS SELECT 1')).rejects.toMatchObject({ code: '42P07' });
  });

  it('RENAME and DROP VIEW go through REST; a restarted server sees what is left', async () => {
    await b.query('ALTER VIEW shop.total RENAME TO grand_total');
    await b.query('DROP VIEW shop.eu');
    await settle();
    await expect(a.query('SELECT * FROM shop.eu')).rejects.toMatchObject({ code: '42P01' });
    expect(await rowsOf(a, 'SELECT s FROM shop.grand_total')).toEqual([['35.75']]);

    await b.end();
    await pair.viaRest.close();
    pair.viaRest = await startViaRest();
    b = await connectText(pair.viaRest);
    expect(await rowsOf(b, 'SELECT s FROM shop.grand_total')).toEqual([['35.75']]);
    expect(await rowsOf(b, `SELECT viewname FROM pg_views WHERE schemaname = 'shop' ORDER BY 1`)).toEqual([['grand_total']]);
    await expect(b.query('SELECT * FROM shop.eu')).rejects.toMatchObject({ code: '42P01' });
  });
});
