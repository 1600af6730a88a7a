/**
 * A lakegate server and the shared PostgreSQL holding the same table, for tests that compare partial
 * aggregates in the scan workers with the serial plan and with PostgreSQL. This process's scan pool is
 * acquired with minRows 0 (the test server runs without workers of its own), so small tables use it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireSharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';
import { startLakegate, type LakegateServer } from './lakegate-server.ts';
import { sharedPgCluster } from './pg-cluster.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

/** a query's rows as text ('NULL' for NULL), as both servers send them */
export const textRows = async (c: pg.Client, sql: string, values: unknown[] = []): Promise<string[][]> =>
  ((await c.query({ text: sql, values, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

export interface PartialAggregatePair {
  readonly server: LakegateServer;
  /** lakegate */
  readonly lg: pg.Client;
  /** PostgreSQL */
  readonly ref: pg.Client;
  /** the partial_aggregate rule on or off in lakegate's session */
  setPartial(on: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * lakegate and PostgreSQL, each with `schema` created (dropped first on PostgreSQL, which outlives the test) and
 * its search path set to it, then `fill` run on each: the same statements make the same tables on both
 */
export async function startPoolPair(schema: string, fill: (c: pg.Client) => Promise<void>): Promise<PartialAggregatePair> {
  const release = acquireSharedScanPool({ size: 2, minRows: 0 });
  const cluster = await sharedPgCluster();
  const ref = new pg.Client({ connectionString: cluster.url, types: passthrough as never });
  await ref.connect();
  await ref.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const server = await startLakegate();
  const lg = new pg.Client({ connectionString: server.url, types: passthrough as never });
  await lg.connect();
  for (const c of [lg, ref]) {
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.query(`SET search_path TO ${schema}`);
    await fill(c);
  }
  return {
    server, lg, ref,
    setPartial: async (on) => { await lg.query(`SET lakegate.disabled_optimizer_rules = '${on ? '' : 'partial_aggregate'}'`); },
    close: async () => {
      await ref.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await ref.end();
      await lg.end();
      await server.close();
      await release();
    },
  };
}

/** `schema`.t created as `table` on both servers and filled by the same `inserts` */
export async function startPartialAggregatePair(schema: string, table: string, inserts: readonly string[]): Promise<PartialAggregatePair> {
  return startPoolPair(schema, async (c) => {
    await c.query(`CREATE TABLE ${schema}.t ${table}`);
    for (const sql of inserts) await c.query(sql);
  });
}

/**
 * A describe block: `schema`.t made and filled on both servers (startPartialAggregatePair), a check that the first
 * query's plan runs a partial aggregate in the workers, then each named query answered as PostgreSQL does, with
 * partial aggregates on and off.
 */
export function describePartialAggregatesAgainstPg(
  title: string, schema: string, table: string, inserts: readonly string[], queries: readonly (readonly [string, string])[],
): void {
  describe(title, () => {
    let pair: PartialAggregatePair;

    beforeAll(async () => {
      pair = await startPartialAggregatePair(schema, table, inserts);
    }, 120_000);
    afterAll(async () => {
      await pair?.close();
    });

    it('runs the partial aggregate in the workers', async () => {
      await pair.setPartial(true);
      const plan = (await textRows(pair.lg, `EXPLAIN ${queries[0]![1]}`)).flat().join('\n');
      expect(plan).toMatch(/Partial Aggregate \(in workers\)/);
    });

    for (const [name, sql] of queries) {
      it(`${name}: as PostgreSQL, with and without partial aggregates`, async () => {
        const want = await textRows(pair.ref, sql);
        await pair.setPartial(true);
        expect(await textRows(pair.lg, sql)).toEqual(want);
        await pair.setPartial(false);
        expect(await textRows(pair.lg, sql)).toEqual(want);
      });
    }
  });
}
