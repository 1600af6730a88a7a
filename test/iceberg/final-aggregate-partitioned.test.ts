/**
 * The final aggregate hash-partitioned across the scan workers (src/exec/exchange/, `lakegate.final_aggregate`):
 * test/sql/aggregate/final_aggregate_partitioned.slt (answers PostgreSQL confirms) run with a worker pool, so
 * both settings really take their paths; EXPLAIN ANALYZE names the path that ran; many groups without ORDER BY
 * give the same rows either way; a worker's error reaches the client with its SQLSTATE.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorkerPoolSlt } from '../helpers/worker-pool-slt.ts';

const SLT = 'test/sql/aggregate/final_aggregate_partitioned.slt';
const passthrough = { getTypeParser: () => (v: string) => v };
const rows = async (c: pg.Client, sql: string): Promise<string[][]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
const sorted = (r: string[][]): string[] => r.map((x) => x.join('|')).sort();

describe('final aggregate hash-partitioned across the workers', () => {
  const slt = useWorkerPoolSlt(SLT);
  const file = slt.file;
  let lg: pg.Client;

  beforeAll(async () => {
    lg = new pg.Client({ connectionString: slt.server().url, types: passthrough as never });
    await lg.connect();
    // the .slt file's table again, in a schema of our own (the runner drops the file's schema when done)
    await lg.query('CREATE SCHEMA fap');
    await lg.query('SET search_path TO fap');
    for (const r of file.records) if (r.kind === 'statement' && /^(CREATE TABLE|INSERT)/.test(r.sql)) await lg.query(r.sql);
  }, 120_000);
  // hooks after run in reverse order (vitest's 'stack'): this client ends before the helper closes the server
  afterAll(async () => {
    await lg?.end();
  });

  it(`${SLT} passes with a worker pool`, async () => {
    expect(await slt.run()).toBeGreaterThan(20);
  }, 120_000);

  it('EXPLAIN ANALYZE names the path that ran; unordered rows agree', async () => {
    const sql = 'SELECT k, g, count(*), sum(q), avg(f), min(d) FROM fa GROUP BY k, g';
    const explain = async (mode: string): Promise<string> => {
      await lg.query(`SET lakegate.final_aggregate = '${mode}'`);
      return (await rows(lg, `EXPLAIN ANALYZE ${sql}`)).flat().join('\n');
    };
    const partitioned = await explain('partitioned');
    expect(partitioned).toMatch(/Finalize Aggregate: .*actual rows=(\d+) /);
    const groups = /Finalize Aggregate: .*actual rows=(\d+) /.exec(partitioned)![1]!;
    expect(partitioned).toMatch(new RegExp(`Final Aggregate: partitioned across 2 workers  Groups: ${groups}  Largest Partition: \\d+`));
    const parts = await rows(lg, sql);
    const byRows = await explain('partitioned_rows');
    expect(byRows).toMatch(new RegExp(`Final Aggregate: rows partitioned across 2 workers  Groups: ${groups}  Largest Partition: \\d+`));
    expect(sorted(await rows(lg, sql))).toEqual(sorted(parts));
    // many groups per row: the main path gives up on partial states and aggregates serially
    expect(await explain('main')).toMatch(/Final Aggregate: main thread, serial \(partial states did not reduce the rows; judged on \d+ files, \d+ rows decoded\)\n/);
    const main = await rows(lg, sql);
    expect(parts.length).toBe(Number(groups));
    expect(sorted(parts)).toEqual(sorted(main));
    // both partitions got groups (the key hash spreads them)
    const largest = Number(/Largest Partition: (\d+)/.exec(partitioned)![1]);
    expect(largest).toBeLessThan(parts.length);
    expect(largest).toBeGreaterThan(parts.length / 2 - 1);
  });

  it('a few groups: main merges them here', async () => {
    await lg.query("SET lakegate.final_aggregate = 'main'");
    const plan = (await rows(lg, 'EXPLAIN ANALYZE SELECT g, sum(q) FROM fa GROUP BY g')).flat().join('\n');
    expect(plan).toMatch(/Final Aggregate: main thread\n/);
  });

  it.each(['partitioned', 'partitioned_rows'])('%s: a grouped LIMIT stops early and the pool stays usable', async (mode) => {
    await lg.query(`SET lakegate.final_aggregate = '${mode}'`);
    expect((await rows(lg, 'SELECT k, sum(q) FROM fa GROUP BY k LIMIT 3')).length).toBe(3);
    expect(await rows(lg, 'SELECT count(*) FROM (SELECT id / 3, sum(q) FROM fa GROUP BY id / 3) x')).toEqual([['8001']]);
  });

  it.each(['partitioned', 'partitioned_rows'])('%s: maps a division by zero in a worker to 22012', async (mode) => {
    await lg.query(`SET lakegate.final_aggregate = '${mode}'`);
    const err = await lg.query('SELECT k, sum(100 / (id - id)) FROM fa GROUP BY k').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '22012', message: 'division by zero' });
    // a group key that fails while rows are partitioned
    const key = await lg.query('SELECT 10 / (k - k), count(*) FROM fa GROUP BY 1').catch((e: unknown) => e);
    expect(key).toMatchObject({ code: '22012', message: 'division by zero' });
    expect(await rows(lg, 'SELECT count(*) FROM (SELECT k FROM fa GROUP BY k) x')).toEqual([['5004']]);
    await lg.query('RESET lakegate.final_aggregate');
  });

  it('rejects an unknown setting value', async () => {
    const err = await lg.query("SET lakegate.final_aggregate = 'sideways'").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '22023' });
  });
});
