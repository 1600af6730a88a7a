/** The wire server driven by node-postgres (pg, pg-cursor, pg-copy-streams) and postgres.js. */
import { connect as netConnect } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fe } from '../../src/wire/testing/test-buffers.ts';
import { startWire, type WireFixture } from './start-wire.ts';

let fx: WireFixture;
beforeAll(async () => {
  fx = await startWire();
});
afterAll(async () => {
  await fx.close();
});

async function client(extra: Partial<pg.ClientConfig> = {}): Promise<pg.Client> {
  const c = new pg.Client({ host: fx.host, port: fx.port, user: 'tester', database: 'lakegate', ...extra });
  await c.connect();
  return c;
}

/** pg hands binary values to the type parser as a latin1-ish string: read int4 bytes ourselves */
const rawBinary = {
  getTypeParser: (oid: number, format?: string) => (v: string) => (format === 'binary' && oid === 23 ? Buffer.from(v, 'latin1').readInt32BE(0) : v),
};

describe('node-postgres', () => {
  it('simple query, several statements, empty query', async () => {
    const c = await client();
    try {
      const r = await c.query('select 42');
      expect(r.rows).toEqual([{ '?column?': 42 }]);
      expect(r.fields[0]).toMatchObject({ name: '?column?', dataTypeID: 23 });
      const multi = (await c.query('select 1; select 2')) as unknown as pg.QueryResult[];
      expect(multi.map((x) => x.rows[0])).toEqual([{ '?column?': 1 }, { '?column?': 2 }]);
      const empty = await c.query('');
      expect(empty.rows).toEqual([]);
    } finally {
      await c.end();
    }
  });

  it('extended query with text params, named statements, binary results', async () => {
    const c = await client();
    try {
      const r = await c.query('select $1::int4, $2::text', [7, 'seven']);
      expect(r.rows).toEqual([{ p1: 7, p2: 'seven' }]);
      const named = { name: 'echo', text: 'select $1::int4', values: [1] };
      expect((await c.query(named)).rows).toEqual([{ p1: 1 }]);
      expect((await c.query({ ...named, values: [2] })).rows).toEqual([{ p1: 2 }]);
      const bin = await c.query({ text: 'select * from series(3)', binary: true, rowMode: 'array', queryMode: 'extended', types: rawBinary } as pg.QueryConfig);
      expect(bin.fields.map((f) => f.format)).toEqual(['binary', 'binary']);
      // int4 arrived as 4 big-endian bytes
      expect(bin.rows).toEqual([
        [1, 'row 1'],
        [2, 'row 2'],
        [3, 'row 3'],
      ]);
      expect(bin.rowCount).toBe(3);
    } finally {
      await c.end();
    }
  });

  it('errors carry SQLSTATE and position; the session continues', async () => {
    const c = await client();
    try {
      await expect(c.query('select * from missing')).rejects.toMatchObject({ code: '42P01', position: '15', message: 'relation "missing" does not exist' });
      await expect(c.query('select * from missing where $1::int4 = 1', [1])).rejects.toMatchObject({ code: '42P01' });
      await expect(c.query('boom')).rejects.toMatchObject({ code: 'XX000' });
      await expect(c.query('select $1::int4', ['x'])).rejects.toMatchObject({ code: '22P02' });
      expect((await c.query('select 5')).rows).toEqual([{ '?column?': 5 }]);
      expect(fx.errors.length).toBeGreaterThan(0); // the XX000 was logged with its stack
    } finally {
      await c.end();
    }
  });

  it('PortalSuspended via pg-cursor (reads in chunks across batches)', async () => {
    const c = await client();
    try {
      const cursor = c.query(new Cursor('select * from series(250, 40)'));
      const all: number[] = [];
      for (;;) {
        const rows = (await cursor.read(33)) as Array<{ n: number }>;
        all.push(...rows.map((r) => r.n));
        if (rows.length === 0) break;
      }
      expect(all).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
      await cursor.close();
      expect((await c.query('select 9')).rows).toEqual([{ '?column?': 9 }]);
    } finally {
      await c.end();
    }
  });

  it('transaction status, ParameterStatus changes and notices', async () => {
    const c = await client();
    try {
      const notices: string[] = [];
      c.on('notice', (n) => notices.push(n.message ?? ''));
      const statuses: string[] = [];
      const conn = (c as unknown as { connection: { on(e: string, f: (m: { parameterName: string; parameterValue: string }) => void): void } }).connection;
      conn.on('parameterStatus', (m) => statuses.push(`${m.parameterName}=${m.parameterValue}`));
      await c.query('begin');
      await c.query('commit');
      await c.query('set application_name = hello');
      expect(statuses).toEqual(['application_name=hello']);
      await c.query('notice');
      expect(notices).toEqual(['hello from the handler']);
    } finally {
      await c.end();
    }
  });

  it('cancel from a second connection (CancelRequest with pid + secret) → 57014', async () => {
    const c = await client();
    try {
      const { processID, secretKey } = c as unknown as { processID: number; secretKey: number };
      const running = c.query('select pg_sleep(30)').then(() => null, (e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      await new Promise<void>((resolve) => {
        const s = netConnect(fx.port, fx.host, () => s.end(fe.cancelRequest(processID, secretKey)));
        s.on('close', () => resolve());
      });
      expect(await running).toMatchObject({ code: '57014', message: 'canceling statement due to user request' });
      expect((await c.query('select 1')).rows).toEqual([{ '?column?': 1 }]);
    } finally {
      await c.end();
    }
  });

  it('COPY TO STDOUT and COPY FROM STDIN via pg-copy-streams; CopyFail → 57014', async () => {
    const c = await client();
    try {
      const chunks: Buffer[] = [];
      const out = c.query(copyTo('copy t to stdout 5'));
      for await (const chunk of out) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('1\trow 1\n2\trow 2\n3\trow 3\n4\trow 4\n5\trow 5\n');
      expect(out.rowCount).toBe(5);

      const input = c.query(copyFrom('copy t from stdin'));
      await pipeline(Readable.from(['1\ta\n', '2\tb\n', '3\tc\n']), input);
      expect(input.rowCount).toBe(3);
      expect(fx.handler.copied.at(-1)).toBe('1\ta\n2\tb\n3\tc\n');

      const failing = c.query(copyFrom('copy t from stdin'));
      const done = new Promise((resolve) => failing.on('error', resolve));
      failing.write('1\ta\n');
      failing.destroy(new Error('client gave up'));
      expect(await done).toBeDefined();
      expect((await c.query('select 3')).rows).toEqual([{ '?column?': 3 }]);
    } finally {
      await c.end();
    }
  });

  it('connect refused by the handler (3D000) is FATAL', async () => {
    await expect(client({ database: 'nodb' })).rejects.toMatchObject({ code: '3D000' });
  });

  it('socket close mid-query closes the handler session', async () => {
    const c = await client({ application_name: 'closer' });
    c.on('error', () => undefined);
    const session = fx.handler.sessions.at(-1)!;
    c.query('select pg_sleep(30)').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await expect.poll(() => session.closed).toBe(true);
  });
});

describe('postgres.js', () => {
  it('unsafe, tagged templates with parameters, cursors', async () => {
    const sql = postgres({ host: fx.host, port: fx.port, user: 'tester', database: 'lakegate', fetch_types: false, max: 1 });
    try {
      expect(await sql.unsafe('select 3')).toEqual([{ '?column?': 3 }]);
      const r = await sql`select ${5}::int4, ${'x'}::text`;
      expect(r).toEqual([{ p1: 5, p2: 'x' }]);
      const seen: number[] = [];
      await sql.unsafe('select * from series(25, 7)').cursor(10, (rows) => {
        seen.push(...rows.map((x) => x['n'] as number));
      });
      expect(seen.length).toBe(25);
      await expect(sql.unsafe('select * from missing')).rejects.toMatchObject({ code: '42P01' });
      const slow = sql.unsafe('select pg_sleep(30)');
      const settled = slow.then(() => null, (e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      await slow.cancel();
      expect(await settled).toMatchObject({ code: '57014' });
      expect(await sql.unsafe('select 4')).toEqual([{ '?column?': 4 }]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
