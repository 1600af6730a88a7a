/**
 * Read-your-writes across servers over one warehouse (the shape of `--processes N`): a commit made through
 * one server is seen by the very next statement on another, with no wait — the SQLite catalog's
 * data_version tells the other server's mirror to re-list — and statements that follow no commit do not
 * re-list the catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startLakegate, type LakegateServer } from '../../test/helpers/lakegate-server.ts';
import { RawClient } from '../../test/wire/raw-client.ts';
import { fe } from '../wire/testing/test-buffers.ts';

/** the int4 text of the first column of the first DataRow among `msgs` */
function firstInt(msgs: readonly { type: string; body: Buffer }[]): number {
  const row = msgs.find((m) => m.type === 'D');
  if (row === undefined) throw new Error(`no DataRow in ${msgs.map((m) => m.type).join('')}`);
  const len = row.body.readInt32BE(2);
  return Number(row.body.subarray(6, 6 + len).toString('utf8'));
}

describe('read-your-writes across servers sharing a warehouse', () => {
  let a: LakegateServer;
  let b: LakegateServer;
  let ca: pg.Client;
  let cb: pg.Client;
  beforeAll(async () => {
    a = await startLakegate();
    b = await startLakegate({ config: { warehouse: a.warehouse } });
    ca = new pg.Client({ connectionString: a.url });
    cb = new pg.Client({ connectionString: b.url });
    await ca.connect();
    await cb.connect();
  }, 30_000);
  afterAll(async () => {
    await ca?.end();
    await cb?.end();
    await b?.close();
    await a?.close();
  });

  it('sees a table created and rows committed on the other server at the next statement', async () => {
    await ca.query('create schema rw');
    await ca.query('create table rw.t (id int, v text)');
    expect((await cb.query('select count(*)::int as n from rw.t')).rows).toEqual([{ n: 0 }]);
    for (let i = 1; i <= 15; i++) {
      const [writer, reader] = i % 2 === 0 ? [ca, cb] : [cb, ca];
      await writer.query(`insert into rw.t values (${i}, 'v${i}')`);
      expect((await reader.query('select count(*)::int as n, max(id) as m from rw.t')).rows).toEqual([{ n: i, m: i }]);
    }
    await cb.query('begin');
    await cb.query(`insert into rw.t values (100, 'tx')`);
    await cb.query('commit');
    expect((await ca.query('select v from rw.t where id = 100')).rows).toEqual([{ v: 'tx' }]);
    await cb.query('drop table rw.t');
    await expect(ca.query('select * from rw.t')).rejects.toThrow('relation "rw.t" does not exist');
    // a schema dropped on one server leaves the other's pg_namespace at its next statement
    await ca.query('create schema rw_gone');
    expect((await cb.query(`select count(*)::int as n from pg_namespace where nspname = 'rw_gone'`)).rows).toEqual([{ n: 1 }]);
    await cb.query('drop schema rw_gone');
    expect((await ca.query(`select count(*)::int as n from pg_namespace where nspname = 'rw_gone'`)).rows).toEqual([{ n: 0 }]);
    await ca.query('create schema rw_gone');
  }, 60_000);

  it('an Execute sent after a Parse was answered (Flush, no Sync) re-checks the catalog', async () => {
    await ca.query('create table rw.p (id int)');
    await ca.query('insert into rw.p values (1)');
    const raw = await RawClient.ready(a.port, { user: 'postgres' });
    try {
      // pipelined with its Parse, an Execute shares the Parse's catalog check
      raw.send(fe.parse('s1', 'select count(*)::int from rw.p'), fe.bind('', 's1'), fe.execute(''), fe.sync());
      expect(firstInt(await raw.until('Z'))).toBe(1);
      // Parse + Flush, the answer read, a commit elsewhere, then Bind/Execute: the commit must be seen
      raw.send(fe.parse('s2', 'select count(*)::int from rw.p'), fe.flush());
      await raw.until('1');
      await cb.query('insert into rw.p values (2)');
      raw.send(fe.bind('', 's2'), fe.execute(''), fe.sync());
      expect(firstInt(await raw.until('Z'))).toBe(2);
      // the same for a Bind sent first and an Execute sent after a commit
      raw.send(fe.parse('s3', 'select count(*)::int from rw.p'), fe.bind('', 's3'), fe.flush());
      await raw.until('2');
      await cb.query('insert into rw.p values (3)');
      raw.send(fe.execute(''), fe.sync());
      expect(firstInt(await raw.until('Z'))).toBe(3);
    } finally {
      raw.end();
    }
  }, 30_000);

  it('a Parse that checked nothing (a cached catalog-free plan) does not spare a later Execute its check', async () => {
    await ca.query('create schema rw_parse');
    await ca.query('create table rw_parse.q (id int)');
    await ca.query('insert into rw_parse.q values (1)');
    const raw = await RawClient.ready(a.port, { user: 'postgres' });
    try {
      raw.send(fe.parse('count_q', 'select count(*)::int from rw_parse.q'), fe.parse('one', 'select 1'), fe.sync());
      await raw.until('Z');
      await cb.query('insert into rw_parse.q values (2)');
      // 'select 1' is cached and reads no catalog: its Parse skips the check, so the Execute must make it
      // in one write: the Execute arrives with the Parse (else it counts as sent after the Parse's answer)
      raw.send(Buffer.concat([fe.parse('one_again', 'select 1'), fe.bind('', 'count_q'), fe.execute(''), fe.sync()]));
      expect(firstInt(await raw.until('Z'))).toBe(2);
    } finally {
      raw.end();
    }
  }, 30_000);

  it('prepared lookups of several connections read in one event-loop turn each see a commit made before they were sent', async () => {
    await ca.query('create schema rw_turn');
    await ca.query('create table rw_turn.k (id int, v int)');
    await ca.query('insert into rw_turn.k values (1, 0)');
    const clients = await Promise.all([0, 1, 2, 3].map(async () => {
      const c = new pg.Client({ connectionString: a.url });
      await c.connect();
      return c;
    }));
    try {
      const lookup = { name: 'turn_lookup', text: 'select max(v)::int as v from rw_turn.k where id = $1' };
      for (let round = 1; round <= 4; round++) {
        await cb.query(`insert into rw_turn.k values (1, ${round})`);
        // sent together: one token check may serve them all, and it came after the commit
        const seen = await Promise.all(clients.map((c) => c.query({ ...lookup, values: [1] })));
        expect(seen.map((r) => r.rows[0]), `round ${round}`).toEqual(clients.map(() => ({ v: round })));
      }
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  }, 30_000);

  it('sees ALTER TABLE from the other server (new column) at the next statement', async () => {
    await ca.query('create table rw.u (id int)');
    await cb.query('insert into rw.u values (1)');
    await cb.query('alter table rw.u add column w text');
    expect((await ca.query('select id, w from rw.u')).rows).toEqual([{ id: 1, w: null }]);
  }, 30_000);
});
