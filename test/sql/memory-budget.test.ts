/**
 * lakegate.query_memory_limit end to end, over the wire with `pg`: SHOW / SET / RESET as PostgreSQL prints
 * memory settings; a GROUP BY or a hash join build side past the limit fails with 53200 and the session goes
 * on; an ORDER BY past the limit spills to disk and answers exactly what PostgreSQL answers; other sessions
 * keep their own limit; spill files are gone afterwards and every reservation is given back.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { sharedPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';
import { SERVER_MEMORY } from '../../src/exec/memory/server-memory.ts';

/** every value as the server's text */
const text = { getTypeParser: () => (v: string) => v };

let lg: LakegateServer;
let pgc: PgCluster;
const clients: pg.Client[] = [];

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, types: text });
  await c.connect();
  clients.push(c);
  return c;
}

async function rows(c: pg.Client, sql: string): Promise<string[]> {
  const r = await c.query({ text: sql, rowMode: 'array' });
  return (r.rows as (string | null)[][]).map((row) => row.map((v) => (v === null ? 'NULL' : v)).join('|'));
}

async function failure(c: pg.Client, sql: string): Promise<pg.DatabaseError> {
  try {
    await c.query(sql);
  } catch (e) {
    return e as pg.DatabaseError;
  }
  throw new Error(`expected an error from: ${sql}`);
}

function spillDirs(): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith(`lakegate-spill-${process.pid}-`));
}

beforeAll(async () => {
  [lg, pgc] = await Promise.all([startLakegate(), sharedPgCluster()]);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await lg?.close();
});

describe('lakegate.query_memory_limit', () => {
  it('SHOW, SET, RESET print memory like PostgreSQL', async () => {
    const c = await connect(lg.url);
    const [def] = await rows(c, 'SHOW lakegate.query_memory_limit');
    expect(def).toMatch(/^\d+(MB|GB)$/);
    await c.query(`SET lakegate.query_memory_limit = '1MB'`);
    expect(await rows(c, 'SHOW lakegate.query_memory_limit')).toEqual(['1MB']);
    await c.query('SET lakegate.query_memory_limit = 2048');
    expect(await rows(c, 'SHOW lakegate.query_memory_limit')).toEqual(['2MB']);
    await c.query(`SET lakegate.query_memory_limit = '1.5MB'`);
    expect(await rows(c, 'SHOW lakegate.query_memory_limit')).toEqual(['1536kB']);
    await c.query(`SET lakegate.query_memory_limit = '4GB'`);
    expect(await rows(c, `SELECT setting, unit FROM pg_settings WHERE name = 'lakegate.query_memory_limit'`)).toEqual(['4194304|kB']);
    const bad = await failure(c, `SET lakegate.query_memory_limit = '10XB'`);
    expect([bad.code, bad.message, bad.hint]).toEqual(['22023', 'invalid value for parameter "lakegate.query_memory_limit": "10XB"',
      'Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".']);
    const small = await failure(c, 'SET lakegate.query_memory_limit = 10');
    expect([small.code, small.message]).toEqual(['22023', '10 kB is outside the valid range for parameter "lakegate.query_memory_limit" (64 .. 2147483647)']);
    await c.query('RESET lakegate.query_memory_limit');
    expect(await rows(c, 'SHOW lakegate.query_memory_limit')).toEqual([def]);
  });

  it('a GROUP BY past the limit fails with 53200; the session and other sessions go on', async () => {
    const c = await connect(lg.url);
    const other = await connect(lg.url);
    await c.query(`SET lakegate.query_memory_limit = '1MB'`);
    const e = await failure(c, 'SELECT g, count(*) FROM generate_series(1, 200000) AS g GROUP BY g');
    expect(e.code).toBe('53200');
    expect(e.message).toBe('out of memory');
    expect(e.detail).toMatch(/^Failed on request of size \d+ in operator "HashAggregate": the query's memory use reached lakegate\.query_memory_limit \(1MB\)\.$/);
    expect(e.hint).toBe(`Raise lakegate.query_memory_limit, e.g. SET lakegate.query_memory_limit = '2MB'.`);
    expect(SERVER_MEMORY.used).toBe(0);
    // the same session answers the next query; a small GROUP BY fits
    expect(await rows(c, 'SELECT count(*) FROM (SELECT g % 10 AS k, count(*) FROM generate_series(1, 200000) AS g GROUP BY 1) s')).toEqual(['10']);
    // another session keeps its own (default) limit
    expect(await rows(other, 'SELECT count(*) FROM (SELECT g, count(*) FROM generate_series(1, 200000) AS g GROUP BY g) s')).toEqual(['200000']);
    // inside a transaction block the error aborts the block, as any error does
    await c.query('BEGIN');
    expect((await failure(c, 'SELECT g, count(*) FROM generate_series(1, 200000) AS g GROUP BY g')).code).toBe('53200');
    await c.query('ROLLBACK');
    expect(await rows(c, 'SELECT 1')).toEqual(['1']);
  });

  it('a hash join whose build side exceeds the limit fails with 53200', async () => {
    const c = await connect(lg.url);
    await c.query(`SET lakegate.query_memory_limit = '1MB'`);
    const e = await failure(c, 'SELECT count(*) FROM generate_series(1, 10) AS a(x) JOIN (SELECT g AS y, md5(g::text) AS h FROM generate_series(1, 100000) AS g) b ON a.x = b.y');
    expect(e.code).toBe('53200');
    expect(e.detail).toMatch(/in operator "Hash Join"/);
    expect(SERVER_MEMORY.used).toBe(0);
    await c.query('RESET lakegate.query_memory_limit');
    expect(await rows(c, 'SELECT count(*) FROM generate_series(1, 10) AS a(x) JOIN (SELECT g AS y, md5(g::text) AS h FROM generate_series(1, 100000) AS g) b ON a.x = b.y')).toEqual(['10']);
  });

  it('DISTINCT, window functions and EXCEPT past the limit fail with 53200 naming the operator', async () => {
    const c = await connect(lg.url);
    await c.query(`SET lakegate.query_memory_limit = '1MB'`);
    const cases: [string, string][] = [
      ['SELECT DISTINCT md5(g::text) FROM generate_series(1, 100000) AS g', 'Distinct'],
      ['SELECT g, sum(g) OVER (PARTITION BY g % 3) FROM generate_series(1, 100000) AS g', 'WindowAgg'],
      ['SELECT g FROM generate_series(1, 100000) AS g EXCEPT SELECT g FROM generate_series(1, 10) AS g', 'HashSetOp'],
    ];
    for (const [sql, op] of cases) {
      const e = await failure(c, sql);
      expect([e.code, e.detail]).toEqual(['53200', expect.stringContaining(`in operator "${op}"`)]);
      expect(SERVER_MEMORY.used).toBe(0);
    }
    await c.query('RESET lakegate.query_memory_limit');
    expect((await rows(c, 'EXPLAIN ANALYZE SELECT g % 10, count(*) FROM generate_series(1, 1000) AS g GROUP BY 1')).join('\n')).toMatch(/Memory Usage: \d+kB/);
  });

  it('an ORDER BY past the limit spills and answers what PostgreSQL answers', async () => {
    const c = await connect(lg.url);
    const p = await connect(pgc.url);
    const sql = `SELECT g, CASE WHEN g % 11 = 0 THEN NULL ELSE 'k' || (g % 997) END AS s, (g % 13)::numeric / 4 AS n,
        CASE WHEN g % 5 = 0 THEN NULL ELSE g * 1.5::float8 END AS f, md5(g::text) AS h
      FROM generate_series(1, 20000) AS g ORDER BY s NULLS FIRST, n DESC NULLS LAST, f DESC, g`;
    await c.query(`SET lakegate.query_memory_limit = '1MB'`);
    const plan = (await rows(c, `EXPLAIN ANALYZE ${sql}`)).join('\n');
    expect(plan).toMatch(/Sort Method: external merge {2}Disk: \d+kB/);
    const spilled = await rows(c, sql);
    expect(spilled).toEqual(await rows(p, sql));
    // ties keep the input order, as the in-memory sort does
    const ties = 'SELECT g, g % 7 AS k FROM generate_series(1, 30000) AS g ORDER BY k DESC';
    const tiesSpilled = await rows(c, ties);
    await c.query('RESET lakegate.query_memory_limit');
    expect((await rows(c, `EXPLAIN ANALYZE ${ties}`)).join('\n')).toMatch(/Sort Method: quicksort {2}Memory: \d+kB/);
    expect(tiesSpilled).toEqual(await rows(c, ties));
    expect(spillDirs()).toEqual([]);
    expect(SERVER_MEMORY.used).toBe(0);
  });

  it('a cursor over a spilled sort keeps its files while open and removes them at CLOSE', async () => {
    const c = await connect(lg.url);
    await c.query(`SET lakegate.query_memory_limit = '1MB'`);
    await c.query('BEGIN');
    await c.query('DECLARE cur CURSOR FOR SELECT g, md5(g::text) AS h FROM generate_series(1, 20000) AS g ORDER BY h');
    expect(await rows(c, 'FETCH 2 FROM cur')).toEqual(await rows(c, 'SELECT g, md5(g::text) AS h FROM generate_series(1, 20000) AS g ORDER BY h LIMIT 2'));
    expect(spillDirs().length).toBe(1);
    await c.query('CLOSE cur');
    await c.query('COMMIT');
    expect(spillDirs()).toEqual([]);
    expect(SERVER_MEMORY.used).toBe(0);
  });

  it('a cancelled spilling sort leaves no spill files', async () => {
    const c = await connect(lg.url);
    await c.query(`SET lakegate.query_memory_limit = '1MB'`);
    await c.query('SET statement_timeout = 300');
    const e = await failure(c, `SELECT g, md5(g::text) FROM generate_series(1, 2000000) AS g ORDER BY md5(g::text)`);
    expect(e.code).toBe('57014');
    await c.query('RESET statement_timeout');
    expect(await rows(c, 'SELECT 1')).toEqual(['1']);
    expect(spillDirs()).toEqual([]);
    expect(SERVER_MEMORY.used).toBe(0);
  });
});
