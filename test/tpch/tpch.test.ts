/**
 * TPC-H at SF 0.01: the eight tables from bench/tpch's generator are loaded through COPY FROM STDIN into a
 * throwaway PostgreSQL (PG_TEST_URL honoured) and into lakegate as Iceberg tables (lineitem and orders
 * partitioned by month), then each of the 22 queries must answer with exactly PostgreSQL's text: the same
 * column names and the same rows in the same order, every value as PostgreSQL prints it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery, TPCH_QUERY_NUMBERS } from '../../bench/tpch/index.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { sharedPgCluster, startPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';
import { answerOf, loadTpch, textTypes } from './tpch-load.ts';

const SF = 0.01;
const SCHEMA = `tpch_${process.pid}`;

/** queries lakegate cannot answer yet, with the reason (empty when all pass) */
const SKIP: Readonly<Record<number, string>> = {};

/**
 * At SF 0.01 the validation parameters leave Q17 (NULL), Q18 and Q20 (no rows) without data to compare:
 * these variants change only a parameter so that the same plans produce rows.
 */
const VARIANTS: readonly { readonly name: string; readonly n: number; readonly replace: readonly (readonly [string, string])[] }[] = [
  { name: 'Q17 with Brand#53 / MED PACK', n: 17, replace: [["'Brand#23'", "'Brand#53'"], ["'MED BOX'", "'MED PACK'"]] },
  { name: 'Q18 with QUANTITY = 250', n: 18, replace: [['> 300', '> 250']] },
  { name: 'Q20 with NATION = GERMANY', n: 20, replace: [["'CANADA'", "'GERMANY'"]] },
];

/**
 * Edge cases of the WHERE rewrites TPC-H relies on (src/sql/binder/plan-where.ts: OR factoring, [NOT] EXISTS
 * → semi/anti join, correlated aggregate → grouped left join): NULL keys, no matching rows, count (kept
 * per row), residual non-equality conditions, nesting.
 */
const EDGE_TABLES = [
  'CREATE TABLE e1 (k integer, x integer)',
  'INSERT INTO e1 VALUES (1, 10), (2, 20), (3, 30), (NULL, 40), (2, 25), (1, NULL)',
  'CREATE TABLE e2 (k integer, y integer)',
  'INSERT INTO e2 VALUES (1, 5), (1, 15), (2, NULL), (4, 7), (NULL, 9), (2, 30)',
];
const EDGE_QUERIES = [
  'SELECT k, x FROM e1 WHERE x > (SELECT max(y) FROM e2 WHERE e2.k = e1.k) ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE coalesce((SELECT sum(y) FROM e2 WHERE e2.k = e1.k), -1) = -1 ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE (SELECT count(*) FROM e2 WHERE e2.k = e1.k) = 0 ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE exists (SELECT 1 FROM e2 WHERE e2.k = e1.k AND e2.y <> e1.x) ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE NOT exists (SELECT 1 FROM e2 WHERE e2.k = e1.k) ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE NOT exists (SELECT 1 FROM e2 WHERE e2.k = e1.k AND e2.y > e1.x) ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE (k = 2 AND x > 20) OR (k = 2 AND x < 22) OR (x IS NULL AND k = 2) ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE (k = 1) OR (k = 1 AND x > 100) ORDER BY 1, 2',
  'SELECT k, x FROM e1 WHERE (k = 1 AND x IS NULL) OR (x IS NULL AND k = 1 AND x > 0) ORDER BY 1, 2',
  `SELECT k, x, (SELECT 0.5 * avg(y) FROM e2 WHERE e2.k = e1.k) AS half
     FROM e1 WHERE x > coalesce((SELECT 0.1 * avg(y) FROM e2 WHERE e2.k = e1.k AND y > 1), 0) ORDER BY 1, 2`,
  'SELECT k FROM e1 WHERE k IN (SELECT k FROM e2 WHERE y > (SELECT min(x) FROM e1 e3 WHERE e3.k = e2.k) - 100) ORDER BY 1',
  `SELECT k, x FROM e1 WHERE NOT exists (SELECT 1 FROM e2 WHERE e2.k = e1.k AND e2.y > e1.x)
     AND x < (SELECT max(y) * 10 FROM e2 WHERE e2.k = e1.k) ORDER BY 1, 2`,
  'SELECT k, x FROM e1 WHERE x = (SELECT max(x) FROM e1 e3 WHERE e3.k = e1.k AND e3.x < 30) ORDER BY 1, 2',
];

describe('TPC-H SF 0.01: lakegate answers exactly as PostgreSQL', () => {
  let cluster: PgCluster;
  let server: LakegateServer;
  let pgClient: pg.Client;
  let lgClient: pg.Client;

  beforeAll(async () => {
    // the run's shared PostgreSQL when there is one (PG_TEST_URL, globalSetup), else one of our own
    const shared = Boolean(process.env.PG_TEST_URL || process.env.LAKEGATE_SHARED_PG_URL);
    [cluster, server] = await Promise.all([shared ? sharedPgCluster() : startPgCluster(), startLakegate()]);
    pgClient = new pg.Client({ connectionString: cluster.url, types: textTypes });
    lgClient = new pg.Client({ connectionString: server.url, types: textTypes });
    await Promise.all([pgClient.connect(), lgClient.connect()]);
    await Promise.all([loadTpch(pgClient, 'postgres', SCHEMA, SF), loadTpch(lgClient, 'lakegate', SCHEMA, SF)]);
  }, 110_000);

  afterAll(async () => {
    await pgClient?.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {});
    await pgClient?.end();
    await lgClient?.end();
    await server?.close();
    await cluster?.stop(); // a no-op for a shared cluster
  });

  for (const n of TPCH_QUERY_NUMBERS) {
    const skip = SKIP[n];
    it.skipIf(skip !== undefined)(`Q${n}${skip !== undefined ? ` (skipped: ${skip})` : ''}`, async () => {
      const sql = tpchQuery(n);
      const expected = await answerOf(pgClient, sql);
      const actual = await answerOf(lgClient, sql);
      expect(actual.columns).toEqual(expected.columns);
      expect(actual.rows.length).toBe(expected.rows.length);
      expect(actual.rows).toEqual(expected.rows);
    });
  }

  it('decorrelation and OR factoring edge cases', async () => {
    for (const sql of EDGE_TABLES) {
      await pgClient.query(sql);
      await lgClient.query(sql);
    }
    for (const sql of EDGE_QUERIES) {
      const expected = await answerOf(pgClient, sql);
      const actual = await answerOf(lgClient, sql);
      expect({ sql, ...actual }).toEqual({ sql, ...expected });
    }
  });

  for (const v of VARIANTS) {
    it(v.name, async () => {
      let sql = tpchQuery(v.n);
      for (const [from, to] of v.replace) {
        expect(sql).toContain(from);
        sql = sql.replace(from, to);
      }
      const expected = await answerOf(pgClient, sql);
      expect(expected.rows.length).toBeGreaterThan(0);
      expect(expected.rows[0]!.every((x) => x !== null)).toBe(true);
      const actual = await answerOf(lgClient, sql);
      expect(actual.columns).toEqual(expected.columns);
      expect(actual.rows).toEqual(expected.rows);
    });
  }

  it('Q17 (Brand#53 / MED PACK) with the primary keys tpchPostLoadDdl declares: the avg from the outer join (correlated_aggregate_from_join)', async () => {
    const sql = tpchQuery(17).replace("'Brand#23'", "'Brand#53'").replace("'MED BOX'", "'MED PACK'");
    const plan = (await lgClient.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    // the aggregate reads lineitem ⋈ σ(part), not a scan of its own
    expect(plan).toMatch(/Aggregate: groupBy=\[lineitem\.l_partkey\], aggr=\[avg\(lineitem\.l_quantity\)\]\n(\s+Projection:.*\n)*\s+Inner Join/);
    const expected = await answerOf(pgClient, sql);
    expect(expected.rows[0]!.every((x) => x !== null)).toBe(true);
    expect(await answerOf(lgClient, sql)).toEqual(expected);
  });

  it('Q2: the min(ps_supplycost) from the outer five-table join, not a second partsupp scan (correlated_aggregate_from_join)', async () => {
    const sql = tpchQuery(2);
    const plan = (await lgClient.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    // the aggregate is the left join's last input: part is scanned under it only when it reads the outer join
    const agg = plan.indexOf('Aggregate: groupBy=[partsupp.ps_partkey], aggr=[min(partsupp.ps_supplycost)]');
    expect(agg).toBeGreaterThan(0);
    expect(plan.slice(agg)).toMatch(/TableScan: \S+\.part\b/);
    const expected = await answerOf(pgClient, sql);
    expect(expected.rows.length).toBeGreaterThan(0);
    expect(await answerOf(lgClient, sql)).toEqual(expected);
  });

  it('Q10 with the primary keys tpchPostLoadDdl declares: one row per customer needs no grouping by its columns (aggregate_over_unique_rows)', async () => {
    const sql = tpchQuery(10);
    const plan = (await lgClient.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    // lineitem ⋈ orders summed per o_custkey; customer and nation joined by their keys: no seven-column grouping
    expect(plan).toMatch(/Aggregate: groupBy=\[orders\.o_custkey\]/);
    expect(plan).not.toMatch(/Aggregate: groupBy=\[customer\.c_custkey/);
    const expected = await answerOf(pgClient, sql);
    expect(expected.rows.length).toBe(20);
    expect(await answerOf(lgClient, sql)).toEqual(expected);
  });

  it('lakegate refuses a duplicate TPC-H key as PostgreSQL does (23505, nothing declared)', async () => {
    // lineitem's composite key is checked by sorting folded integer keys (integer-key-check.ts): a copy of
    // lineitem with one row twice must fail the same way, naming the same key
    for (const c of [pgClient, lgClient]) {
      await c.query('CREATE TABLE li_dup AS SELECT l_orderkey, l_linenumber FROM lineitem');
      await c.query('INSERT INTO li_dup SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey = 1 AND l_linenumber = 1');
    }
    const errorOf = async (c: pg.Client): Promise<unknown> => c.query('ALTER TABLE li_dup ADD PRIMARY KEY (l_orderkey, l_linenumber)').then(
      () => null, (e: { code?: string; message?: string; detail?: string }) => ({ code: e.code, message: e.message, detail: e.detail }));
    const expected = await errorOf(pgClient);
    expect(expected).toEqual({ code: '23505', message: 'could not create unique index "li_dup_pkey"', detail: 'Key (l_orderkey, l_linenumber)=(1, 1) is duplicated.' });
    expect(await errorOf(lgClient)).toEqual(expected);
    const keyOf = "SELECT count(*) FROM pg_constraint WHERE conname = 'li_dup_pkey'";
    expect((await answerOf(lgClient, keyOf)).rows).toEqual([['0']]);
  });
});
