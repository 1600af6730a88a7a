/**
 * The synchronous round trip over the real wire and engine: a read's messages are answered during their delivery
 * when the connection's loop was parked (connection.ts pump), and the answer goes out through the socket's libuv
 * handle (socket-writer.ts). Pins the edges of that path: several Bind/Execute before one Sync in one packet, a
 * NULL parameter, binary parameters and results, a lookup that finds nothing, an error in the middle of a
 * pipeline (skip to Sync), two whole round trips in one packet, a new snapshot between executions of a cached
 * prepared lookup, and a connection closed while parked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { LakegateServer } from '../helpers/lakegate-server.ts';
import { firstColumns, int4, startWireFixture, type WireFixture } from '../helpers/wire-fixture.ts';
import { RawClient, errorFields, types } from './raw-client.ts';
import { fe } from '../../src/wire/testing/test-buffers.ts';

let fixture: WireFixture;
let server: LakegateServer;
let client: pg.Client;

beforeAll(async () => {
  fixture = await startWireFixture('rt', ['CREATE TABLE rt.kv (id int, v text)', `INSERT INTO rt.kv SELECT g, 'v' || g FROM generate_series(1, 100) g`]);
  ({ server, client } = fixture);
}, 60_000);
afterAll(() => fixture?.close());

/** a warm prepared lookup `s` on a fresh raw connection */
async function preparedLookup(): Promise<RawClient> {
  const raw = await RawClient.ready(server.port, { user: 'postgres' });
  raw.send(fe.parse('s', 'SELECT v FROM rt.kv WHERE id = $1', [23]), fe.sync());
  expect(types(await raw.until('Z'))).toBe('1Z');
  // the first executions build and cache the plan; the later ones take the synchronous path
  for (let i = 0; i < 3; i++) {
    raw.send(fe.bind('', 's', ['5']), fe.execute(''), fe.sync());
    expect(firstColumns(await raw.until('Z'))).toEqual(['v5']);
  }
  return raw;
}

describe('synchronous round trips', () => {
  it('several Bind/Describe/Execute before one Sync: in order, NULL and missing rows, binary in and out', async () => {
    const raw = await preparedLookup();
    try {
      raw.send(
        fe.bind('', 's', ['7']), fe.describe('P', ''), fe.execute(''),
        fe.bind('', 's', [null]), fe.execute(''),
        fe.bind('', 's', ['100000']), fe.execute(''),
        fe.bind('', 's', [int4(42)], [1]), fe.execute(''),
        fe.bind('', 's', ['9'], [], [1]), fe.execute(''),
        fe.sync(),
      );
      const msgs = await raw.until('Z');
      expect(types(msgs)).toBe('2TDC2C2C2DC2DCZ');
      expect(firstColumns(msgs)).toEqual(['v7', 'v42', 'v9']);
      const tags = msgs.filter((m) => m.type === 'C').map((m) => m.body.toString('utf8'));
      expect(tags).toEqual(['SELECT 1\u0000', 'SELECT 0\u0000', 'SELECT 0\u0000', 'SELECT 1\u0000', 'SELECT 1\u0000']);
      expect(msgs.at(-1)!.body.toString('latin1')).toBe('I');
    } finally {
      raw.end();
    }
  });

  it('two whole round trips in one packet get two answers', async () => {
    const raw = await preparedLookup();
    try {
      raw.send(Buffer.concat([fe.bind('', 's', ['1']), fe.execute(''), fe.sync(), fe.bind('', 's', ['2']), fe.execute(''), fe.sync()]));
      const msgs = await raw.until('Z', 2);
      expect(types(msgs)).toBe('2DCZ2DCZ');
      expect(firstColumns(msgs)).toEqual(['v1', 'v2']);
    } finally {
      raw.end();
    }
  });

  it('an error mid-pipeline skips to Sync, and the next round trip is answered', async () => {
    const raw = await preparedLookup();
    try {
      raw.send(
        fe.bind('', 's', ['3']), fe.execute(''),
        fe.bind('', 's', ['not a number']), fe.execute(''),
        fe.bind('', 's', ['4']), fe.execute(''),
        fe.sync(),
      );
      const msgs = await raw.until('Z');
      expect(types(msgs)).toBe('2DCEZ');
      expect(errorFields(msgs.find((m) => m.type === 'E')!).C).toBe('22P02');
      expect(msgs.at(-1)!.body.toString('latin1')).toBe('I');
      raw.send(fe.bind('', 's', ['4']), fe.execute(''), fe.sync());
      expect(firstColumns(await raw.until('Z'))).toEqual(['v4']);
    } finally {
      raw.end();
    }
  });

  it('a cached prepared lookup sees the snapshot committed between its executions', async () => {
    const raw = await preparedLookup();
    try {
      await client.query(`UPDATE rt.kv SET v = 'changed' WHERE id = 8`);
      await client.query(`INSERT INTO rt.kv VALUES (101, 'new')`);
      raw.send(fe.bind('', 's', ['8']), fe.execute(''), fe.bind('', 's', ['101']), fe.execute(''), fe.sync());
      expect(firstColumns(await raw.until('Z'))).toEqual(['changed', 'new']);
      await client.query(`DELETE FROM rt.kv WHERE id = 101`);
      raw.send(fe.bind('', 's', ['101']), fe.execute(''), fe.sync());
      const msgs = await raw.until('Z');
      expect(types(msgs)).toBe('2CZ');
    } finally {
      raw.end();
    }
  });

  it('a statement whose table was dropped between executions fails with 42P01, and the loop goes on', async () => {
    await client.query('CREATE TABLE rt.gone (id int, v text)');
    await client.query(`INSERT INTO rt.gone VALUES (1, 'one')`);
    const raw = await RawClient.ready(server.port, { user: 'postgres' });
    try {
      raw.send(fe.parse('g', 'SELECT v FROM rt.gone WHERE id = $1', [23]), fe.sync());
      await raw.until('Z');
      for (let i = 0; i < 3; i++) {
        raw.send(fe.bind('', 'g', ['1']), fe.execute(''), fe.sync());
        expect(firstColumns(await raw.until('Z'))).toEqual(['one']);
      }
      await client.query('DROP TABLE rt.gone');
      raw.send(fe.bind('', 'g', ['1']), fe.execute(''), fe.sync());
      const msgs = await raw.until('Z');
      expect(types(msgs)).toMatch(/E/);
      expect(errorFields(msgs.find((m) => m.type === 'E')!).C).toBe('42P01');
      raw.send(fe.query('SELECT 1'));
      expect(firstColumns(await raw.until('Z'))).toEqual(['1']);
    } finally {
      raw.end();
    }
  });

  it('a connection closed while its loop is parked ends its session', async () => {
    const raw = await preparedLookup();
    const before = (await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity`)).rows[0].n as number;
    raw.send(fe.terminate());
    expect(await raw.waitClosed()).toBe(true);
    const deadline = Date.now() + 3000;
    let after = before;
    while (Date.now() < deadline && after >= before) {
      await new Promise((r) => setTimeout(r, 50));
      after = (await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity`)).rows[0].n as number;
    }
    expect(after).toBe(before - 1);
  });
});
