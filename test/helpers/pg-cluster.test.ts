/** The throwaway cluster starts, answers, and is gone after stop(). */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { findPgBinDir, sharedPgCluster, startPgCluster } from './pg-cluster.ts';

describe.skipIf(!findPgBinDir() && !process.env.PG_TEST_URL)('pg-cluster', () => {
  it('starts, answers SELECT 1 and stops', async () => {
    const c = await startPgCluster();
    const client = new pg.Client({ connectionString: c.url });
    await client.connect();
    const r = await client.query('SELECT 1 AS one, current_setting($1) AS fsync', ['fsync']);
    await client.end();
    expect(r.rows[0]).toEqual({ one: 1, fsync: process.env.PG_TEST_URL ? r.rows[0].fsync : 'off' });
    await c.stop();
    if (c.socketDir) expect(existsSync(c.socketDir)).toBe(false);
  });

  it('honours PG_TEST_URL without starting anything', async () => {
    const saved = process.env.PG_TEST_URL;
    process.env.PG_TEST_URL = 'postgres://someone@db.example:6543/x';
    try {
      const c = await startPgCluster();
      expect([c.host, c.port, c.socketDir]).toEqual(['db.example', 6543, null]);
      await c.stop();
    } finally {
      if (saved === undefined) delete process.env.PG_TEST_URL;
      else process.env.PG_TEST_URL = saved;
    }
  });

  it('shares one cluster per process', async () => {
    const a = await sharedPgCluster();
    const b = await sharedPgCluster();
    expect(a.url).toBe(b.url);
  });
});
