/**
 * Deterministic OIDs of Iceberg objects: two independent servers over one warehouse, and a restart, report
 * the same pg_namespace / pg_class / pg_type / pg_index / pg_constraint OIDs and RowDescription table OIDs.
 * RENAME keeps the OID and DROP + CREATE of the same name gives a new one, as in PostgreSQL.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startLakegate, type LakegateServer } from '../../test/helpers/lakegate-server.ts';

const OIDS = `
  select c.relname, c.oid::int8 as oid, c.reltype::int8 as reltype, n.oid::int8 as nsp, c.relkind
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'shop' order by c.relname`;
const CONSTRAINTS = `select conname, oid::int8 as oid from pg_constraint where connamespace = 'shop'::regnamespace order by conname`;

async function query(server: LakegateServer, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function snapshotOids(server: LakegateServer): Promise<unknown> {
  const rels = await query(server, OIDS);
  const cons = await query(server, CONSTRAINTS);
  // a metadata table's OID (RowDescription's table OID) is a function of its base table's
  const files = await query(server, 'select content, file_path from shop."orders$files"');
  return { rels: rels.rows, cons: cons.rows, files: files.fields.map((f) => f.tableID) };
}

describe('stable OIDs of Iceberg objects across servers', () => {
  const servers: LakegateServer[] = [];
  afterAll(async () => {
    for (const s of servers.reverse()) await s.close();
  });

  it('agree between two servers, after a restart, and follow PostgreSQL on rename and re-create', async () => {
    const a = await startLakegate();
    servers.push(a);
    await query(a, 'create schema shop');
    await query(a, 'create table shop.customers (id int primary key, name text)');
    await query(a, 'create table shop.orders (id int primary key, customer int references shop.customers (id), total numeric(10,2))');
    await query(a, 'create index orders_customer on shop.orders (customer)');
    await query(a, `insert into shop.orders values (1, 1, 9.50)`);
    const onA = await snapshotOids(a);
    const rels = (onA as { rels: { relname: string; oid: string; relkind: string }[] }).rels;
    expect(rels.map((r) => [r.relname, r.relkind])).toEqual([['customers', 'r'], ['customers_pkey', 'i'], ['orders', 'r'], ['orders_customer', 'i'], ['orders_pkey', 'i']]);
    expect((onA as { cons: unknown[] }).cons.length).toBe(3);

    // a second, independent server over the same warehouse
    const b = await startLakegate({ config: { warehouse: a.warehouse } });
    servers.push(b);
    expect(await snapshotOids(b)).toEqual(onA);

    // RowDescription's table OID agrees with pg_class on either server
    const ordersOid = Number(rels.find((r) => r.relname === 'orders')!.oid);
    for (const s of [a, b]) {
      const r = await query(s, 'select id, total from shop.orders');
      expect(r.fields.map((f) => f.tableID)).toEqual([ordersOid, ordersOid]);
      expect(r.fields.map((f) => f.columnID)).toEqual([1, 3]);
    }

    // restart: a fresh server over the warehouse gives the same OIDs
    await b.close();
    servers.pop();
    const c = await startLakegate({ config: { warehouse: a.warehouse } });
    servers.push(c);
    expect(await snapshotOids(c)).toEqual(onA);

    // RENAME keeps the OID (as in PostgreSQL), seen alike by the server that did not rename
    await query(c, 'alter table shop.orders rename to purchases');
    for (const s of [a, c]) {
      const r = await query(s, `select 'shop.purchases'::regclass::oid::int8 as oid`);
      expect(Number(r.rows[0].oid)).toBe(ordersOid);
    }
    // DROP + CREATE of the same name: a new OID (a new table-uuid), the same on both
    const customersOid = Number(rels.find((r) => r.relname === 'customers')!.oid);
    await query(a, 'drop table shop.customers');
    await query(a, 'create table shop.customers (id int, name text)');
    const again = await Promise.all([a, c].map(async (s) => Number((await query(s, `select 'shop.customers'::regclass::oid::int8 as oid`)).rows[0].oid)));
    expect(again[0]).not.toBe(customersOid);
    expect(again[1]).toBe(again[0]);
    // the schema's OID comes from its name
    const nsp = await Promise.all([a, c].map(async (s) => (await query(s, `select oid::int8 as oid from pg_namespace where nspname = 'shop'`)).rows[0].oid));
    expect(nsp[1]).toBe(nsp[0]);
  }, 60_000);
});
