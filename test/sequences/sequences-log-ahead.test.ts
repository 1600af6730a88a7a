/**
 * nextval on a sequence of an Iceberg namespace logs 32 values ahead in the catalog database, as
 * PostgreSQL does (SEQ_LOG_VALS), and hands them out from memory while nobody else changed the sequence:
 * `SELECT * FROM s` shows PostgreSQL's last_value / log_cnt, ALTER SEQUENCE and setval continue from the
 * last value handed out, two servers on one warehouse still never hand out a value twice, and a killed
 * server skips at most 32 values (PostgreSQL's gap after a crash).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { startLakegateProcess } from '../helpers/lakegate-process.ts';
import { connectText as client, rowsOf as rows } from '../helpers/text-client.ts';

describe('sequence values logged ahead', () => {
  let a: LakegateServer;
  let b: LakegateServer;
  beforeAll(async () => {
    a = await startLakegate();
    b = await startLakegate({ config: { warehouse: a.warehouse } });
    const c = await client(a.url);
    await c.query('CREATE SCHEMA seql');
    await c.end();
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('shows and continues as PostgreSQL 15 does', async () => {
    const c = await client(a.url);
    await c.query('CREATE SEQUENCE seql.s');
    // PostgreSQL 15's answers to the same statements
    expect(await rows(c, "SELECT nextval('seql.s')")).toEqual([['1']]);
    expect(await rows(c, 'SELECT * FROM seql.s')).toEqual([['1', '32', 't']]);
    expect(await rows(c, "SELECT nextval('seql.s')")).toEqual([['2']]);
    expect(await rows(c, 'SELECT * FROM seql.s')).toEqual([['2', '31', 't']]);
    await c.query('ALTER SEQUENCE seql.s INCREMENT 5');
    expect(await rows(c, 'SELECT * FROM seql.s')).toEqual([['2', '0', 't']]);
    expect(await rows(c, "SELECT nextval('seql.s')")).toEqual([['7']]);
    expect(await rows(c, "SELECT setval('seql.s', 100)")).toEqual([['100']]);
    expect(await rows(c, 'SELECT * FROM seql.s')).toEqual([['100', '0', 't']]);
    expect(await rows(c, "SELECT nextval('seql.s')")).toEqual([['105']]);
    expect(await rows(c, 'SELECT * FROM seql.s')).toEqual([['105', '32', 't']]);
    await c.end();
  });

  it('sessions of one server get increasing values; another server never a value twice, and sees its setval', async () => {
    const c1 = await client(a.url);
    const c2 = await client(a.url);
    const other = await client(b.url);
    await c1.query('CREATE SEQUENCE seql.u');
    const taken: number[] = [];
    for (let i = 0; i < 40; i++) {
      taken.push(Number((await rows(i % 2 === 0 ? c1 : c2, "SELECT nextval('seql.u')"))[0]![0]));
      if (i % 7 === 3) taken.push(Number((await rows(other, "SELECT nextval('seql.u')"))[0]![0]));
    }
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.length).toBeGreaterThan(40);
    // in call order, values increase (no session hands out an older reserved value after a newer one)
    for (let i = 1; i < taken.length; i++) expect(taken[i]!).toBeGreaterThan(taken[i - 1]!);
    // a setval on the other server: this one's logged values are not used any more
    await other.query("SELECT setval('seql.u', 1000)");
    expect(await rows(c1, "SELECT nextval('seql.u')")).toEqual([['1001']]);
    await Promise.all([c1.end(), c2.end(), other.end()]);
  });

  it('a killed server skips at most 32 values and never repeats one', async () => {
    const c = await client(a.url);
    await c.query('CREATE SEQUENCE seql.k');
    await c.end();
    const { child, url: childUrl } = await startLakegateProcess(a.warehouse);
    let last = 0;
    try {
      const k = await client(childUrl);
      for (let i = 0; i < 5; i++) last = Number((await rows(k, "SELECT nextval('seql.k')"))[0]![0]);
      await k.end().catch(() => undefined);
    } finally {
      child.kill('SIGKILL');
    }
    expect(last).toBe(5);
    const d = await client(a.url);
    const next = Number((await rows(d, "SELECT nextval('seql.k')"))[0]![0]);
    expect(next).toBeGreaterThan(last);
    expect(next).toBeLessThanOrEqual(last + 33);
    await d.end();
  }, 60_000);
});
