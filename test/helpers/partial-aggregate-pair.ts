/**
 * A lakegate server and the shared PostgreSQL holding the same table, for tests that compare partial
 * aggregates in the scan workers with the serial plan and with PostgreSQL. This process's scan pool is
 * acquired with minRows 0 (the test server runs without workers of its own), so small tables use it.
 */
import pg from 'pg';
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

/** `schema`.t created as `table` on both servers and filled by the same `inserts` */
export async function startPartialAggregatePair(schema: string, table: string, inserts: readonly string[]): Promise<PartialAggregatePair> {
  const release = acquireSharedScanPool({ size: 2, minRows: 0 });
  const cluster = await sharedPgCluster();
  const ref = new pg.Client({ connectionString: cluster.url, types: passthrough as never });
  await ref.connect();
  await ref.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await ref.query(`CREATE SCHEMA ${schema}`);
  await ref.query(`CREATE TABLE ${schema}.t ${table}`);
  const server = await startLakegate();
  const lg = new pg.Client({ connectionString: server.url, types: passthrough as never });
  await lg.connect();
  await lg.query(`CREATE SCHEMA ${schema}`);
  await lg.query(`CREATE TABLE ${schema}.t ${table}`);
  for (const sql of inserts) {
    await ref.query(sql);
    await lg.query(sql);
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
