/**
 * Shared by the tests that compare lakegate with PostgreSQL on TPC-H: loading the generator's tables through
 * COPY FROM STDIN into one schema of either server, and a query's answer as PostgreSQL's text.
 */
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { TPCH_TABLES, tpchCreateDdl, tpchCsvStream, tpchPostLoadDdl } from '../../bench/tpch/index.ts';

/** pg client `types`: every value as the server's text, untouched */
export const textTypes = { getTypeParser: () => (v: string) => v } as never;

export interface Answer {
  readonly columns: string[];
  readonly rows: (string | null)[][];
}

/** creates and fills `schema` at scale factor `sf`, adds primary keys (and PostgreSQL's foreign-key indexes), and puts the schema on the search path */
export async function loadTpch(client: pg.Client, target: 'postgres' | 'lakegate', schema: string, sf: number): Promise<void> {
  // partitioned by year, not month: the same pruning paths with 7 files per table instead of ~80 (test time)
  for (const sql of tpchCreateDdl({ target, schema, partitionTransform: 'year' })) await client.query(sql);
  for (const table of TPCH_TABLES) {
    await pipeline(tpchCsvStream(table, sf), client.query(copyStreams.from(`COPY ${schema}.${table} FROM STDIN (FORMAT csv)`)));
  }
  // PostgreSQL needs its keys and foreign-key indexes: without them its per-row subplans make Q20 take minutes;
  // lakegate gets the same primary keys, so the plans checked are the ones the benchmark runs (it declares them too)
  for (const sql of tpchPostLoadDdl({ target, schema, keys: true })) await client.query(sql);
  await client.query(`SET search_path = ${schema}`);
}

export async function answerOf(client: pg.Client, sql: string): Promise<Answer> {
  const res = await client.query({ text: sql, rowMode: 'array' });
  return { columns: res.fields.map((f) => f.name), rows: res.rows as (string | null)[][] };
}
