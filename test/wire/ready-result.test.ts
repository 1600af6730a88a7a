/**
 * Results the engine computes at once (StatementResult.ready: VALUES, point lookups on cached Iceberg files)
 * over the real wire: Execute row limits and PortalSuspended, binary result formats, a lookup through the pg
 * driver in every protocol, and an error raised on the fast path inside a transaction block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { LakegateServer } from '../helpers/lakegate-server.ts';
import { firstColumns, startWireFixture, type WireFixture } from '../helpers/wire-fixture.ts';
import { RawClient } from './raw-client.ts';
import { fe } from '../../src/wire/testing/test-buffers.ts';

let fixture: WireFixture;
let server: LakegateServer;
let client: pg.Client;

beforeAll(async () => {
  fixture = await startWireFixture('w', ['CREATE TABLE w.kv (id int, v text)', `INSERT INTO w.kv SELECT g, 'v' || g FROM generate_series(1, 1000) g`]);
  ({ server, client } = fixture);
}, 60_000);
afterAll(() => fixture?.close());

describe('ready results over the wire', () => {
  it('Execute row limits: DataRows, PortalSuspended, the rest and CommandComplete', async () => {
    const raw = await RawClient.ready(server.port, { user: 'postgres' });
    try {
      raw.send(fe.parse('s', 'SELECT x FROM (VALUES (1), (2), (3)) t(x)'), fe.bind('p', 's'), fe.execute('p', 2), fe.execute('p', 2), fe.sync());
      const msgs = await raw.until('Z');
      expect(msgs.map((m) => m.type).join('')).toBe('12DDsDCZ');
      expect(firstColumns(msgs)).toEqual(['1', '2', '3']);
      expect(msgs.find((m) => m.type === 'C')!.body.toString('utf8')).toBe('SELECT 1\u0000');
    } finally {
      raw.end();
    }
  });

  it('a lookup in every protocol, text and binary, equals the streamed answer', async () => {
    for (const id of [1, 77, 1000, 1001]) {
      const expected = id <= 1000 ? [{ v: `v${id}` }] : [];
      expect((await client.query(`SELECT v FROM w.kv WHERE id = ${id}`)).rows).toEqual(expected);
      expect((await client.query('SELECT v FROM w.kv WHERE id = $1', [id])).rows).toEqual(expected);
      expect((await client.query({ name: 'lk', text: 'SELECT v FROM w.kv WHERE id = $1', values: [id] })).rows).toEqual(expected);
      const bin = await client.query({ text: 'SELECT id, v FROM w.kv WHERE id = $1', values: [id], binary: true } as pg.QueryConfig);
      expect(bin.rows.length).toBe(expected.length);
    }
  });

  it('an error raised on the fast path fails the transaction block', async () => {
    await client.query('BEGIN');
    await expect(client.query('SELECT 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
    await expect(client.query('SELECT 1')).rejects.toMatchObject({ code: '25P02' });
    await client.query('ROLLBACK');
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
