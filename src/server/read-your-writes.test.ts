/**
 * Read-your-writes across servers over one warehouse (the shape of `--processes N`): a commit made through
 * one server is seen by the very next statement on another, with no wait — the SQLite catalog's
 * data_version tells the other server's mirror to re-list — and statements that follow no commit do not
 * re-list the catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startLakegate, type LakegateServer } from '../../test/helpers/lakegate-server.ts';

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

  it('sees ALTER TABLE from the other server (new column) at the next statement', async () => {
    await ca.query('create table rw.u (id int)');
    await cb.query('insert into rw.u values (1)');
    await cb.query('alter table rw.u add column w text');
    expect((await ca.query('select id, w from rw.u')).rows).toEqual([{ id: 1, w: null }]);
  }, 30_000);
});
