/**
 * Extended-protocol parameters of the OID alias types (regclass, regtype, regnamespace, regproc, ... and their
 * arrays): PostgreSQL's input functions resolve names through the catalog and the search path, so a Bind value
 * 'pg_class' for a regclass parameter is relation 1259 and an unknown relation is 42P01. Through the pg driver
 * (parameter types inferred) and raw Parse/Bind with explicit type OIDs, text and binary formats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { LakegateServer } from '../helpers/lakegate-server.ts';
import { firstColumns, int4 as int32, startWireFixture, type WireFixture } from '../helpers/wire-fixture.ts';
import { errorFields, RawClient } from './raw-client.ts';
import { fe } from '../../src/wire/testing/test-buffers.ts';

let fixture: WireFixture;
let server: LakegateServer;
let client: pg.Client;

beforeAll(async () => {
  fixture = await startWireFixture('rp', ['CREATE TABLE rp.t1 (id int)']);
  ({ server, client } = fixture);
}, 60_000);
afterAll(() => fixture?.close());

describe('reg* parameters in the extended protocol', () => {
  it('resolves names through the catalog (pg driver, inferred parameter types)', async () => {
    expect((await client.query({ text: 'select $1::regclass::oid as o', values: ['pg_class'] })).rows).toEqual([{ o: 1259 }]);
    expect((await client.query({ text: 'select $1::regtype::oid as o', values: ['integer'] })).rows).toEqual([{ o: 23 }]);
    expect((await client.query({ text: 'select $1::regnamespace::oid as o', values: ['pg_catalog'] })).rows).toEqual([{ o: 11 }]);
    // a numeric text is the OID itself; output prints the name again
    expect((await client.query({ text: 'select $1::regclass::text as n', values: ['1259'] })).rows).toEqual([{ n: 'pg_class' }]);
  });

  it('resolves user tables by qualified name and through search_path', async () => {
    const { rows } = await client.query({ text: 'select $1::regclass::oid = (select oid from pg_class where relname = $2) as same', values: ['rp.t1', 't1'] });
    expect(rows).toEqual([{ same: true }]);
    await client.query('SET search_path = rp, public');
    try {
      expect((await client.query({ text: 'select $1::regclass::text as n', values: ['t1'] })).rows).toEqual([{ n: 't1' }]);
    } finally {
      await client.query('RESET search_path');
    }
    expect((await client.query({ text: 'select $1::regclass::text as n', values: ['rp.t1'] })).rows).toEqual([{ n: 'rp.t1' }]);
  });

  it('an unknown relation is 42P01, an unknown schema 3F000, as in PostgreSQL', async () => {
    await expect(client.query({ text: 'select $1::regclass::oid', values: ['no_such_table'] })).rejects.toMatchObject({ code: '42P01', message: 'relation "no_such_table" does not exist' });
    await expect(client.query({ text: 'select $1::regclass::oid', values: ['nope.t'] })).rejects.toMatchObject({ code: '3F000', message: 'schema "nope" does not exist' });
    await expect(client.query({ text: 'select $1::regtype::oid', values: ['no_such_type'] })).rejects.toMatchObject({ code: '42704' });
    // the connection is still usable
    expect((await client.query('select 1 as x')).rows).toEqual([{ x: 1 }]);
  });

  it('raw Parse with parameter type 2205 (regclass): text and binary Bind values', async () => {
    const raw = await RawClient.ready(server.port, { user: 'postgres' });
    try {
      raw.send(fe.parse('s', 'SELECT $1::oid', [2205]), fe.bind('', 's', ['pg_type']), fe.execute('', 0), fe.sync());
      expect(firstColumns(await raw.until('Z'))).toEqual(['1247']);
      // binary regclass is the OID (regclassrecv = oidrecv)
      raw.send(fe.bind('', 's', [int32(1259)], [1]), fe.execute('', 0), fe.sync());
      expect(firstColumns(await raw.until('Z'))).toEqual(['1259']);
      raw.send(fe.bind('', 's', ['missing_rel']), fe.execute('', 0), fe.sync());
      const msgs = await raw.until('Z');
      const err = msgs.find((m) => m.type === 'E');
      expect(err && errorFields(err)).toMatchObject({ C: '42P01', M: 'relation "missing_rel" does not exist' });
      expect(msgs.map((m) => m.type).join('')).toBe('EZ');
    } finally {
      raw.end();
    }
  });

  it('arrays of reg* types (regclass[] 2210) in text format', async () => {
    const raw = await RawClient.ready(server.port, { user: 'postgres' });
    try {
      raw.send(fe.parse('a', 'SELECT $1::oid[]', [2210]), fe.bind('', 'a', ['{pg_class,pg_type}']), fe.execute('', 0), fe.sync());
      expect(firstColumns(await raw.until('Z'))).toEqual(['{1259,1247}']);
    } finally {
      raw.end();
    }
  });
});
