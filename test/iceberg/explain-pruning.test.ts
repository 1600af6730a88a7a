/**
 * Pushdown end to end on a partitioned Iceberg table: a selective predicate reaches the scan (push_down_filter),
 * the scan skips partitions / files (src/iceberg/scan), and EXPLAIN / EXPLAIN ANALYZE report it —
 * `files=k/n` on the TableScan line, `files scanned k / n` under it — with the same answer as with the
 * pushdown switched off (then every file is read). Projection pushdown shows as `projection=[…]`.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

describe('EXPLAIN shows Iceberg pruning of pushed filters', () => {
  let server: LakegateServer;
  let client: pg.Client;
  const lines = async (sql: string): Promise<string[]> => ((await client.query({ text: sql, rowMode: 'array' })).rows as string[][]).map((r) => r[0]!);

  beforeAll(async () => {
    server = await startLakegate();
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    // a schema of its own: tables of `public` are in-memory session tables, those of other schemas Iceberg tables
    await client.query('CREATE SCHEMA pr');
    await client.query('SET search_path TO pr');
    await client.query(`CREATE TABLE ev (id int8, d date, amount numeric(10,2), note text) WITH (partitioning = ARRAY['month(d)'])`);
    // 6 monthly partitions, one INSERT each: at least 6 data files
    for (let m = 0; m < 6; m++) {
      await client.query(`INSERT INTO ev SELECT ${m} * 100 + g, date '2024-01-01' + interval '${m} month' + (g % 28) * interval '1 day', g * 1.25, repeat('x', g % 9) FROM generate_series(1, 100) g`);
    }
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
  });

  const selective = `SELECT count(*), sum(amount) FROM ev WHERE d >= date '2024-03-01' AND d < date '2024-04-01'`;

  it('EXPLAIN plans the scan from metadata: few of the files', async () => {
    const scan = (await lines(`EXPLAIN ${selective}`)).find((l) => l.includes('TableScan'))!;
    expect(scan).toMatch(/projection=\[d, amount\] filters=\[d >= '2024-03-01'::date, d < '2024-04-01'::date\] files=\d+\/\d+/);
    const [, k, n] = /files=(\d+)\/(\d+)/.exec(scan)!.map(Number);
    expect(n).toBeGreaterThanOrEqual(6);
    expect(k).toBeGreaterThan(0);
    expect(k).toBeLessThan(n!);
  });

  it('EXPLAIN ANALYZE reads fewer files than the table has, and the answer is the unpruned one', async () => {
    const out = await lines(`EXPLAIN ANALYZE ${selective}`);
    const scanned = out.find((l) => l.includes('files scanned'))!;
    const [, k, n] = /files scanned (\d+) \/ (\d+)/.exec(scanned)!.map(Number);
    expect(k).toBeLessThan(n!);
    expect(out.find((l) => l.includes('TableScan'))).toMatch(/\(actual rows=100 batches=\d+ time=[\d.]+ ms\)/);
    expect(out.at(-1)).toMatch(/^Execution Time: [\d.]+ ms$/);

    const pruned = await lines(selective);
    await client.query(`SET lakegate.disabled_optimizer_rules = 'push_down_filter'`);
    try {
      const all = await lines(`EXPLAIN ANALYZE ${selective}`);
      const [, k2, n2] = /files scanned (\d+) \/ (\d+)/.exec(all.find((l) => l.includes('files scanned'))!)!.map(Number);
      expect(k2).toBe(n2);
      expect(await lines(selective)).toEqual(pruned);
    } finally {
      await client.query(`RESET lakegate.disabled_optimizer_rules`);
    }
    expect(pruned).toEqual(['100']);
  });

  it('FORMAT JSON carries the same counters', async () => {
    const doc = JSON.parse((await lines(`EXPLAIN (FORMAT JSON, ANALYZE) ${selective}`))[0]!) as [{ Plan: Record<string, unknown>; 'Execution Time': number }];
    const find = (p: Record<string, unknown>): Record<string, unknown> | undefined =>
      p['Node Type'] === 'TableScan' ? p : ((p.Plans as Record<string, unknown>[] | undefined) ?? []).map(find).find((x) => x !== undefined);
    const scan = find(doc[0].Plan)!;
    expect(scan['Relation Name']).toBe('ev');
    expect(scan['Pushed Filters']).toEqual([`d >= '2024-03-01'::date`, `d < '2024-04-01'::date`]);
    expect(scan['Files Scanned'] as number).toBeLessThan(scan['Files Total'] as number);
    expect(scan['Actual Rows']).toBe(100);
    expect(typeof doc[0]['Execution Time']).toBe('number');
  });

  it('a date bound on a timestamptz column prunes at the session TimeZone (as timestamptz >= date compares)', async () => {
    await client.query(`CREATE TABLE orders_tz (id int4, ts timestamptz) WITH (partitioning = ARRAY['day(ts)'])`);
    for (let d = 1; d <= 5; d++) await client.query(`INSERT INTO orders_tz VALUES (${d}, '2024-06-0${d} 10:00:00+00')`);
    // sum(id): a bare count(*) would be answered from the manifests (aggregate_from_metadata), not by this scan
    const q = `SELECT count(*), sum(id) FROM orders_tz WHERE ts >= DATE '2024-06-04'`;
    expect((await lines(`EXPLAIN ${q}`)).find((l) => l.includes('TableScan'))).toMatch(/files=2\/5/);
    expect(await lines(q)).toEqual(['2']);
    // UTC-12: midnight of June 4 there is 12:00 UTC, after the 10:00 UTC row of June 4
    await client.query(`SET TIME ZONE 'Etc/GMT+12'`);
    try {
      expect(await lines(q)).toEqual(['1']);
      // the bound moved to 12:00 UTC: the June 4 file (10:00) now goes too, on its upper bound
      expect((await lines(`EXPLAIN ${q}`)).find((l) => l.includes('TableScan'))).toMatch(/filters=\[ts >= '2024-06-04 12:00:00\+00'.* files=1\/5/);
    } finally {
      await client.query('RESET TIME ZONE');
    }
  });
});
