/**
 * The Iceberg write path over the wire: CREATE TABLE in a schema (an Iceberg namespace), INSERT (one
 * snapshot each, time travel to an earlier one), COPY FROM STDIN (all or nothing), NOT NULL, restart on
 * the same warehouse, and two servers appending to one table concurrently (no lost commit).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { fixtureStatements } from '../compat/fixture.ts';

async function copyIn(c: pg.Client, sql: string, text: string): Promise<void> {
  await pipeline(Readable.from([Buffer.from(text)]), c.query(copyStreams.from(sql)));
}

describe('Iceberg writes over the wire', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-write-'));
  let server: LakegateServer;
  let client: pg.Client;

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = await connectText(server);
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('creates an Iceberg table and appends one snapshot per INSERT', async () => {
    await client.query('CREATE SCHEMA lake');
    await client.query(`CREATE TABLE lake.items (
      id int8 NOT NULL, small int2, name text, price numeric(10,2), ok bool, d date, t time,
      ts timestamp, tz timestamptz, u uuid, b bytea, f4 float4, f8 float8, j jsonb, v varchar(5))`);
    const cols = await rowsOf(client, `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'lake' AND table_name = 'items' ORDER BY ordinal_position`);
    expect(cols.slice(0, 4)).toEqual([['id', 'bigint', 'NO'], ['small', 'smallint', 'YES'], ['name', 'text', 'YES'], ['price', 'numeric', 'YES']]);
    expect(await rowsOf(client, `SELECT data_type, character_maximum_length FROM information_schema.columns WHERE table_schema = 'lake' AND table_name = 'items' AND column_name IN ('j', 'v') ORDER BY column_name`))
      .toEqual([['jsonb', 'NULL'], ['character varying', '5']]);
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.items')).toEqual([['0']]);
    expect((await client.query(`INSERT INTO lake.items VALUES
      (1, 2, 'one', 1.50, true, '2024-01-02', '12:34:56.5', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0102', 1.5, 2.25, '{"a": 1}', 'abc'),
      (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)).rowCount).toBe(2);
    expect(await rowsOf(client, 'SELECT * FROM lake.items ORDER BY id')).toEqual([
      ['1', '2', 'one', '1.50', 't', '2024-01-02', '12:34:56.5', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0102', '1.5', '2.25', '{"a": 1}', 'abc'],
      ['2', ...Array<string>(14).fill('NULL')],
    ]);
    const [[first]] = (await rowsOf(client, `SELECT snapshot_id FROM lake."items$snapshots" ORDER BY committed_at`)) as [[string]];
    await client.query(`INSERT INTO lake.items (id, name) SELECT id + 10, name || '!' FROM lake.items`);
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.items')).toEqual([['4']]);
    expect(await rowsOf(client, `SELECT count(*) FROM lake.items FOR SYSTEM_VERSION AS OF ${first}`)).toEqual([['2']]);
    expect(await rowsOf(client, `SELECT count(*) FROM lake."items$snapshots"`)).toEqual([['2']]);
  });

  it('CREATE TABLE AS, SELECT INTO, DROP and re-create', async () => {
    expect((await client.query('CREATE TABLE lake.ctas AS SELECT id, name FROM lake.items WHERE id < 10')).rowCount).toBe(2);
    await client.query('SELECT id * 2 AS twice INTO lake.sinto FROM lake.items');
    expect(await rowsOf(client, 'SELECT (SELECT count(*) FROM lake.ctas), (SELECT sum(twice) FROM lake.sinto)')).toEqual([['2', '52']]);
    await client.query('DROP TABLE lake.ctas');
    await client.query('CREATE TABLE lake.ctas (z text)');
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.ctas')).toEqual([['0']]);
    await client.query('DROP TABLE lake.ctas, lake.sinto');
  });

  it('rejects NULL in a NOT NULL column (23502) and unsupported types (0A000)', async () => {
    await expect(client.query('INSERT INTO lake.items (id) VALUES (NULL)')).rejects.toMatchObject({ code: '23502' });
    await expect(client.query('CREATE TABLE lake.bad (x interval)')).rejects.toMatchObject({ code: '0A000', message: expect.stringContaining('interval') });
    await expect(client.query('CREATE TABLE lake.bad (x numeric)')).rejects.toMatchObject({ code: '0A000' });
    await expect(client.query('CREATE TABLE lake.bad (x int[])')).resolves.toBeDefined();
    await client.query(`INSERT INTO lake.bad VALUES ('{1,NULL,3}'), (NULL), ('{}')`);
    expect(await rowsOf(client, 'SELECT x FROM lake.bad ORDER BY x NULLS LAST')).toEqual([['{}'], ['{1,NULL,3}'], ['NULL']]);
    await expect(client.query(`INSERT INTO lake.bad VALUES ('{{1},{2}}')`)).rejects.toMatchObject({ code: '0A000' });
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.items')).toEqual([['4']]);
  });

  it('COPY FROM STDIN commits all rows at once, and nothing on a malformed row', async () => {
    await client.query('CREATE TABLE lake.c (id int4 NOT NULL, label text)');
    await copyIn(client, 'COPY lake.c FROM STDIN', '1\ta\n2\t\\N\n3\tc\n');
    expect(await rowsOf(client, 'SELECT * FROM lake.c ORDER BY id')).toEqual([['1', 'a'], ['2', 'NULL'], ['3', 'c']]);
    await expect(copyIn(client, 'COPY lake.c FROM STDIN', '4\td\nfive\te\n')).rejects.toMatchObject({ code: '22P02' });
    await expect(copyIn(client, 'COPY lake.c FROM STDIN', '4\td\n5\n')).rejects.toMatchObject({ code: '22P04' });
    await expect(copyIn(client, 'COPY lake.c FROM STDIN', '4\td\n\\N\te\n')).rejects.toMatchObject({ code: '23502' });
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.c')).toEqual([['3']]);
  });

  it('runs the compat fixture DDL: primary and foreign keys, defaults and comments as Iceberg metadata', async () => {
    for (const st of fixtureStatements('shop')) {
      if (st.optional === 'index') await client.query(st.sql).catch(() => undefined);
      else await client.query(st.sql);
    }
    expect(await rowsOf(client, 'SELECT id, created, active FROM shop.customers WHERE id = 1')).toEqual([['1', '2024-01-01 00:00:00+00', 't']]);
  });

  const checkFixtureMetadata = async (): Promise<void> => {
    expect(await rowsOf(client, `SELECT conname, contype FROM pg_constraint WHERE conrelid IN ('shop.customers'::regclass, 'shop.orders'::regclass) ORDER BY contype, conname`))
      .toEqual([['orders_customer_id_fkey', 'f'], ['customers_pkey', 'p'], ['orders_pkey', 'p']]);
    expect(await rowsOf(client, `SELECT obj_description('shop.customers'::regclass, 'pg_class'), col_description('shop.customers'::regclass, 4)`)).toEqual([['people who buy', 'in EUR']]);
    expect(await rowsOf(client, `SELECT column_default FROM information_schema.columns WHERE table_schema = 'shop' AND table_name = 'customers' AND column_name = 'active'`)).toEqual([['true']]);
    expect(await rowsOf(client, 'SELECT customer_id, n, total FROM shop.order_summary ORDER BY customer_id')).toEqual([['1', '2', '24.99'], ['3', '1', '250.00']]);
  };

  it('shows the fixture metadata through the catalogs', checkFixtureMetadata);

  it('keeps public tables in memory and serves Iceberg data after a restart', async () => {
    await client.query('CREATE TABLE public.mem (x int)');
    await client.query('INSERT INTO public.mem VALUES (1)');
    await client.end();
    await server.close();
    server = await startLakegate({ config: { warehouse } });
    client = await connectText(server);
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.items')).toEqual([['4']]);
    expect(await rowsOf(client, 'SELECT label FROM lake.c ORDER BY id')).toEqual([['a'], ['NULL'], ['c']]);
    await expect(client.query('SELECT * FROM public.mem')).rejects.toMatchObject({ code: '42P01' });
    await client.query('INSERT INTO lake.c VALUES (9, \'nine\')');
    expect(await rowsOf(client, 'SELECT count(*) FROM shop.orders')).toEqual([['3']]);
    // shop is an Iceberg namespace, so its view is an Iceberg view: it survived the restart
    await checkFixtureMetadata();
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.c')).toEqual([['4']]);
  });

  it('two servers appending to one table concurrently lose no commit', async () => {
    const other = await startLakegate({ config: { warehouse } });
    const a = await connectText(server);
    const b = await connectText(other);
    try {
      await a.query('CREATE TABLE lake.race (w text, n int4)');
      await new Promise((r) => setTimeout(r, 300)); // the other server sees the table after its (throttled) refresh
      const run = async (c: pg.Client, who: string): Promise<void> => {
        for (let i = 0; i < 8; i++) await c.query(`INSERT INTO lake.race VALUES ('${who}', ${i}), ('${who}', ${i})`);
      };
      await Promise.all([run(a, 'a'), run(b, 'b')]);
      await new Promise((r) => setTimeout(r, 300)); // each server re-reads the catalog at most every 200 ms
      expect(await rowsOf(a, 'SELECT w, count(*) FROM lake.race GROUP BY w ORDER BY w')).toEqual([['a', '16'], ['b', '16']]);
      expect(await rowsOf(b, `SELECT count(*) FROM lake."race$snapshots"`)).toEqual([['16']]);
    } finally {
      await a.end();
      await b.end();
      await other.close();
    }
  });
});
