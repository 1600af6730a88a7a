/**
 * The per-query memory budget over all 22 TPC-H queries (issue #4): TPC-H at a small scale factor loaded into
 * PostgreSQL and into lakegate (Iceberg, with a scan worker pool so partial aggregates really run in the
 * workers), then every query run under small `lakegate.query_memory_limit` values and each
 * `lakegate.final_aggregate` mode. Each run either answers exactly PostgreSQL's answer (in memory or spilled)
 * or fails with 53200 and PostgreSQL's `out of memory` wording; the same connection then answers the next
 * query, and the server-wide account is back to zero. A GROUP BY over one group per order must be refused (or
 * spilled) in every final-aggregate mode, including the ones that merge in the workers.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery, TPCH_QUERY_NUMBERS } from '../../bench/tpch/index.ts';
import { SERVER_MEMORY } from '../../src/exec/memory/server-memory.ts';
import { acquireSharedScanPool, sharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { sharedPgCluster, startPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';
import { answerOf, loadTpch, textTypes, type Answer } from '../tpch/tpch-load.ts';

const SF = Number(process.env['MEM_TPCH_SF'] ?? 0.01);
const SCHEMA = `mem_tpch_${process.pid}`;
/** MEM's port range (docs/TEAM-NOTES.md) */
const PORT = Number(process.env['MEM_TEST_PORT'] ?? 58450);
const MODES = ['main', 'partitioned', 'partitioned_rows'] as const;
/** a budget under which most queries fail, and one under which most answer (some spilling) */
const BUDGETS = ['1MB', '6MB'] as const;

async function attempt(client: pg.Client, sql: string): Promise<Answer | pg.DatabaseError> {
  try {
    return await answerOf(client, sql);
  } catch (e) {
    return e as pg.DatabaseError;
  }
}

/** the 53200 error as PostgreSQL words it, with our detail and hint about the budget */
function expectOutOfMemory(e: pg.DatabaseError, budget: string): void {
  expect({ code: e.code, message: e.message }).toEqual({ code: '53200', message: 'out of memory' });
  expect(e.detail).toMatch(new RegExp(`^Failed on request of size \\d+ in operator "[^"]+": the query's memory use reached lakegate\\.query_memory_limit \\(${budget}\\)\\.$`));
  expect(e.hint).toMatch(/^Raise lakegate\.query_memory_limit, e\.g\. SET lakegate\.query_memory_limit = '\d+(kB|MB|GB)'\.$/);
}

describe(`TPC-H SF ${SF} under a small per-query memory budget`, () => {
  let cluster: PgCluster;
  let server: LakegateServer;
  let pgClient: pg.Client;
  let lg: pg.Client;
  let release: () => Promise<void>;
  const expected = new Map<number, Answer>();

  beforeAll(async () => {
    // the test server runs without workers (helpers): this process's pool is ours, minRows 0 for small tables
    release = acquireSharedScanPool({ size: 2, minRows: 0 });
    const shared = Boolean(process.env['PG_TEST_URL'] || process.env['LAKEGATE_SHARED_PG_URL']);
    [cluster, server] = await Promise.all([shared ? sharedPgCluster() : startPgCluster(), startLakegate({ config: { port: PORT } })]);
    pgClient = new pg.Client({ connectionString: cluster.url, types: textTypes });
    lg = new pg.Client({ connectionString: server.url, types: textTypes });
    await Promise.all([pgClient.connect(), lg.connect()]);
    await Promise.all([loadTpch(pgClient, 'postgres', SCHEMA, SF), loadTpch(lg, 'lakegate', SCHEMA, SF)]);
    for (const n of TPCH_QUERY_NUMBERS) expected.set(n, await answerOf(pgClient, tpchQuery(n)));
  }, 180_000);

  afterAll(async () => {
    await pgClient?.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {});
    await pgClient?.end();
    await lg?.end();
    await server?.close();
    await cluster?.stop();
    await release?.();
  });

  for (const mode of MODES) {
    for (const budget of BUDGETS) {
      it(`final_aggregate = ${mode}, query_memory_limit = ${budget}: each query answers as PostgreSQL or fails with 53200`, async () => {
        await lg.query(`SET lakegate.final_aggregate = '${mode}'`);
        await lg.query(`SET lakegate.query_memory_limit = '${budget}'`);
        const outcome: string[] = [];
        for (const n of TPCH_QUERY_NUMBERS) {
          const got = await attempt(lg, tpchQuery(n));
          if (got instanceof Error) {
            expectOutOfMemory(got as pg.DatabaseError, budget);
            outcome.push(`q${n}:53200`);
          } else {
            const want = expected.get(n)!;
            expect({ q: n, columns: got.columns, rows: got.rows }).toEqual({ q: n, columns: want.columns, rows: want.rows });
            outcome.push(`q${n}:ok`);
          }
          // the connection answers the next query, and every reservation went back
          expect((await answerOf(lg, 'SELECT 1 AS one')).rows).toEqual([['1']]);
          expect(SERVER_MEMORY.used).toBe(0);
        }
        console.log(`[${mode} ${budget}] ${outcome.join(' ')}`);
        if (budget === '1MB') expect(outcome.some((o) => o.endsWith('53200'))).toBe(true);
        expect(outcome.some((o) => o.endsWith(':ok'))).toBe(true);
        expect(sharedScanPool()!.started).toBe(true);
      }, 240_000);
    }
  }

  for (const mode of MODES) {
    it(`final_aggregate = ${mode}: one group per order is refused under 1MB, answered under the default`, async () => {
      const sql = 'SELECT l_orderkey, sum(l_quantity) AS q, count(*) AS n FROM lineitem GROUP BY l_orderkey ORDER BY l_orderkey';
      await lg.query(`SET lakegate.final_aggregate = '${mode}'`);
      await lg.query(`SET lakegate.query_memory_limit = '1MB'`);
      const got = await attempt(lg, sql);
      expect(got).toBeInstanceOf(Error);
      expectOutOfMemory(got as pg.DatabaseError, '1MB');
      // refused by the aggregate itself (main thread, merge share or a worker's merge), not by a later operator
      expect((got as pg.DatabaseError).detail).toMatch(/in operator "(Finalize )?HashAggregate"/);
      expect(SERVER_MEMORY.used).toBe(0);
      await lg.query('RESET lakegate.query_memory_limit');
      expect(await answerOf(lg, sql)).toEqual(await answerOf(pgClient, sql));
      // EXPLAIN ANALYZE shows the final aggregate's memory, wherever it ran
      const plan = (await answerOf(lg, `EXPLAIN ANALYZE ${sql}`)).rows.map((r) => r[0]).join('\n');
      expect(plan).toMatch(/Final Aggregate: [^\n]*\n\s*Memory Usage: \d+kB/);
      expect(SERVER_MEMORY.used).toBe(0);
    }, 120_000);
  }

  it('after all that, every query answers under the default budget', async () => {
    await lg.query('RESET lakegate.final_aggregate');
    await lg.query('RESET lakegate.query_memory_limit');
    for (const n of [1, 9, 18, 21]) expect({ q: n, ...(await answerOf(lg, tpchQuery(n))) }).toEqual({ q: n, ...expected.get(n)! });
    expect(SERVER_MEMORY.used).toBe(0);
  }, 120_000);
});
