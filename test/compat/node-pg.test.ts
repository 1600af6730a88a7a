/**
 * node-postgres: simple and extended protocol, named prepared statements, rowMode array, multi-statement
 * simple queries, pg-cursor (Execute with maxRows → PortalSuspended), pg-copy-streams COPY TO/FROM, and cancel.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import Cursor from 'pg-cursor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCompat, skipReason, type CompatEnv } from './compat-target.ts';

const skip = skipReason('node-pg', null);
const S = 'compat_node_pg';

describe.skipIf(skip !== null)(`node-pg${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let ctx: CompatEnv;
  let client: pg.Client;
  beforeAll(async () => {
    ctx = await prepareCompat('node-pg');
    client = new pg.Client({ connectionString: ctx.target.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await ctx?.close();
  });

  it('simple query', async () => {
    const r = await client.query(`SELECT id, name, balance, active FROM ${S}.customers ORDER BY id`);
    expect(r.rows).toEqual([
      { id: 1, name: 'ann', balance: '10.50', active: true },
      { id: 2, name: 'bob', balance: '0.00', active: false },
      { id: 3, name: 'cid', balance: '1234.56', active: true },
    ]);
    expect(r.fields.map((f) => f.dataTypeID)).toEqual([23, 25, 1700, 16]);
    expect(r.command).toBe('SELECT');
    expect(r.rowCount).toBe(3);
  });

  it('multi-statement simple query', async () => {
    const r = (await client.query('SELECT 1 AS a; SELECT 2 AS b')) as unknown as pg.QueryResult[];
    expect(r.map((x) => x.rows[0])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('extended protocol with parameters', async () => {
    const r = await client.query(`SELECT o.id, o.amount, o.ordered_on::text AS d FROM ${S}.orders o WHERE o.customer_id = $1 AND o.amount > $2 ORDER BY o.id`, [1, '1.5']);
    expect(r.rows).toEqual([
      { id: '100', amount: '19.99', d: '2024-03-01' },
      { id: '101', amount: '5.00', d: '2024-03-02' },
    ]);
  });

  it('named prepared statement, reused, rowMode array', async () => {
    for (const id of [1, 3]) {
      const r = await client.query({ name: 'cust_by_id', text: `SELECT name, $1::int + 1 AS next FROM ${S}.customers WHERE id = $1`, values: [id], rowMode: 'array' });
      expect(r.rows).toEqual([[id === 1 ? 'ann' : 'cid', id + 1]]);
    }
  });

  it('NULL parameters and typed results', async () => {
    const r = await client.query('SELECT $1::text IS NULL AS n, $2::timestamptz AS t, $3::float8 AS f', [null, '2024-01-02T03:04:05Z', 1.5]);
    expect(r.rows[0].n).toBe(true);
    expect((r.rows[0].t as Date).toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(r.rows[0].f).toBe(1.5);
  });

  it('errors keep the connection usable', async () => {
    await expect(client.query('SELECT * FROM no_such_table')).rejects.toMatchObject({ code: '42P01' });
    await expect(client.query('SELECT $1::int', ['x'])).rejects.toMatchObject({ code: '22P02' });
    expect((await client.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
  });

  it('pg-cursor reads in batches', async () => {
    const cursor = client.query(new Cursor('SELECT g FROM generate_series(1, 25) g ORDER BY g'));
    const seen: number[] = [];
    for (;;) {
      const rows = (await cursor.read(10)) as { g: number }[];
      if (rows.length === 0) break;
      expect(rows.length).toBeLessThanOrEqual(10);
      seen.push(...rows.map((r) => r.g));
    }
    await cursor.close();
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('COPY FROM STDIN (csv) and COPY TO STDOUT', async () => {
    await client.query(`CREATE TEMP TABLE copy_in (id int, label text, amount numeric(8,2))`);
    const ingest = client.query(copyFrom(`COPY copy_in (id, label, amount) FROM STDIN WITH (FORMAT csv, HEADER true)`));
    await pipeline(Readable.from(['id,label,amount\n', '1,one,1.50\n2,"two, quoted",\n', '3,,3\n']), ingest);
    expect(ingest.rowCount).toBe(3);
    const chunks: Buffer[] = [];
    const out = client.query(copyTo(`COPY (SELECT id, label, amount FROM copy_in ORDER BY id) TO STDOUT WITH (FORMAT csv)`));
    for await (const c of out) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('1,one,1.50\n2,"two, quoted",\n3,,3.00\n');
    const text: Buffer[] = [];
    for await (const c of client.query(copyTo(`COPY ${S}.customers (id, name, email) TO STDOUT`))) text.push(c as Buffer);
    expect(Buffer.concat(text).toString()).toBe('1\tann\tann@example.com\n2\tbob\t\\N\n3\tcid\tcid@example.com\n');
  });

  it('cancel request stops a running query with 57014', async () => {
    const victim = new pg.Client({ connectionString: ctx.target.url });
    await victim.connect();
    try {
      const started = Date.now();
      const running = victim.query('SELECT pg_sleep(5)');
      await new Promise((r) => setTimeout(r, 300));
      // pg's (untyped) Client#cancel: opens a connection and sends CancelRequest for the active query
      const canceller = new pg.Client({ connectionString: ctx.target.url }) as unknown as { cancel(c: pg.Client, q: unknown): void };
      const active = (victim as unknown as { activeQuery: unknown }).activeQuery;
      canceller.cancel(victim, active);
      await expect(running).rejects.toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(4000);
      expect((await victim.query('SELECT 2 AS after')).rows).toEqual([{ after: 2 }]);
    } finally {
      await victim.end();
    }
  });
});

if (skip !== null) it.skip(`node-pg: ${skip}`, () => {});
