/**
 * lakegate on a REST catalog: server A owns the warehouse (embedded SQL catalog) and serves it over the
 * Iceberg REST protocol; server B has no catalog of its own (`catalog_uri: http://…` of A). Everything B
 * does — CREATE SCHEMA/TABLE, INSERT, COPY, ALTER TABLE, COMMENT, rollback — commits through REST
 * (TableRequirements + TableUpdates computed from the metadata diff) and A sees it, and the reverse.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import type { RunningServer } from '../../src/server/main.ts';
import { startRestPair, type RestPair } from '../helpers/rest-pair.ts';

describe('the engine on an Iceberg REST catalog', () => {
  let pair: RestPair;
  let owner: RunningServer;
  let viaRest: RunningServer;
  let a: pg.Client;
  let b: pg.Client;

  beforeAll(async () => {
    pair = await startRestPair('lakegate-rest-engine-');
    ({ owner, viaRest, a, b } = pair);
  });
  afterAll(() => pair?.close());

  it('creates, writes and alters tables through REST; the catalog owner sees every commit', async () => {
    await b.query('CREATE SCHEMA shop');
    await b.query(`CREATE TABLE shop.orders (id int8 NOT NULL, amount numeric(10,2), placed date) WITH (partitioning = ARRAY['month(placed)'])`);
    await b.query(`INSERT INTO shop.orders VALUES (1, 10.50, '2024-01-03'), (2, 20.00, '2024-02-04')`);
    await b.query(`INSERT INTO shop.orders VALUES (3, 5.25, '2024-02-05')`);
    expect(await rowsOf(b, 'SELECT id, amount, placed FROM shop.orders ORDER BY id')).toEqual([
      ['1', '10.50', '2024-01-03'], ['2', '20.00', '2024-02-04'], ['3', '5.25', '2024-02-05'],
    ]);
    await b.query('ALTER TABLE shop.orders ADD COLUMN note text');
    await b.query(`INSERT INTO shop.orders VALUES (4, 1.00, '2024-03-01', 'late')`);
    await b.query(`COMMENT ON TABLE shop.orders IS 'all orders'`);

    // the owner's mirror refreshes on its own (REST commits went through its catalog)
    await new Promise((r) => setTimeout(r, 300));
    expect(await rowsOf(a, 'SELECT count(*), sum(amount) FROM shop.orders')).toEqual([['4', '36.75']]);
    expect(await rowsOf(a, 'SELECT id, note FROM shop.orders WHERE id >= 3 ORDER BY id')).toEqual([['3', 'NULL'], ['4', 'late']]);
    expect(await rowsOf(a, `SELECT obj_description('shop.orders'::regclass, 'pg_class')`)).toEqual([['all orders']]);
    const snaps = await rowsOf(a, `SELECT operation, summary['added-records'] FROM shop."orders$snapshots" ORDER BY committed_at`).catch(() => null);
    if (snaps !== null) expect(snaps.map((r) => r[0])).toEqual(['append', 'append', 'append']);
    else expect((await rowsOf(a, `SELECT count(*) FROM shop."orders$snapshots"`))[0]).toEqual(['3']);
  });

  it('sees commits the owner makes, and time travel works through REST', async () => {
    await a.query(`INSERT INTO shop.orders VALUES (5, 2.00, '2024-03-02', NULL)`);
    await new Promise((r) => setTimeout(r, 300));
    expect(await rowsOf(b, 'SELECT count(*) FROM shop.orders')).toEqual([['5']]);
    const [[first]] = await rowsOf(b, `SELECT snapshot_id FROM shop."orders$snapshots" ORDER BY committed_at LIMIT 1`) as [[string]];
    expect(await rowsOf(b, `SELECT count(*) FROM shop.orders FOR SYSTEM_VERSION AS OF ${first}`)).toEqual([['2']]);
  });

  it('concurrent appends through REST and the embedded catalog lose no commit', async () => {
    await b.query('CREATE TABLE shop.events (n int4)');
    await new Promise((r) => setTimeout(r, 300));
    const viaB = Array.from({ length: 6 }, (_, i) => b.query(`INSERT INTO shop.events VALUES (${i})`));
    const a2 = await connectText(owner);
    const viaA = Array.from({ length: 6 }, (_, i) => a2.query(`INSERT INTO shop.events VALUES (${100 + i})`));
    await Promise.all([...viaB, ...viaA]);
    await a2.end();
    await new Promise((r) => setTimeout(r, 300));
    expect(await rowsOf(b, 'SELECT count(*), sum(n) FROM shop.events')).toEqual([['12', String(15 + 615)]]);
    expect(await rowsOf(a, 'SELECT count(*) FROM shop."events$snapshots"')).toEqual([['12']]);
  });

  it('drops through REST', async () => {
    await b.query('DROP TABLE shop.events');
    await new Promise((r) => setTimeout(r, 300));
    await expect(a.query('SELECT * FROM shop.events')).rejects.toMatchObject({ code: '42P01' });
  });
});
