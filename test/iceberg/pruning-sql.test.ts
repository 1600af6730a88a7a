/**
 * Pruning end to end through SQL: a month-partitioned table created and filled over the wire; a selective
 * WHERE answers the same as PostgreSQL would (counted here), and EXPLAIN ANALYZE reports the files skipped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

describe('pruning through SQL', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-prune-sql-'));
  let server: LakegateServer;
  let client: pg.Client;
  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('CREATE SCHEMA s');
    await client.query(`CREATE TABLE s.ev (id int8, d date, v numeric(10,2), tag text) WITH (partitioning = ARRAY['month(d)'])`);
    await client.query(`INSERT INTO s.ev SELECT g, DATE '2024-01-01' + (g % 360), g * 0.5, 't' || (g % 10) FROM generate_series(1, 3600) g`);
  }, 60_000);
  afterAll(async () => {
    await client.end();
    await server.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('a date range reads one month and answers as without pruning', async () => {
    const q = `SELECT count(*) AS n, sum(v) AS s FROM s.ev WHERE d >= DATE '2024-03-05' AND d < DATE '2024-03-09'`;
    const r = await client.query(q);
    expect(r.rows[0]).toEqual({ n: '40', s: String([...Array(3600).keys()].map((k) => k + 1).filter((g) => { const day = g % 360; return day >= 64 && day < 68; }).reduce((a, g) => a + g * 0.5, 0).toFixed(2)) });
    const plan = (await client.query(`EXPLAIN ANALYZE ${q}`)).rows.map((x) => Object.values(x)[0]).join('\n');
    expect(plan).toMatch(/files scanned 1 \/ 12/);
  });

  it('IS NULL, IN and OR on the partition source', async () => {
    expect((await client.query(`SELECT count(*) FROM s.ev WHERE d IS NULL`)).rows[0].count).toBe('0');
    expect((await client.query(`SELECT count(*) FROM s.ev WHERE d IN (DATE '2024-02-01', DATE '2024-12-25')`)).rows[0].count).toBe('20');
    expect((await client.query(`SELECT count(*) FROM s.ev WHERE d = DATE '2024-02-01' OR id < 5`)).rows[0].count).toBe('14');
  });
});
