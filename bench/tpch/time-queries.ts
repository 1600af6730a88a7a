/**
 * Quick timing of the 22 TPC-H queries on one server (a sanity check, not the benchmark: bench/run.ts
 * compares engines). Loads the generated data through COPY unless --no-load, then runs each query --runs
 * times and prints the median and row count per query, slowest first at the end.
 *
 *   npx tsx bench/tpch/time-queries.ts --sf 0.01                       # in-process lakegate, temp warehouse
 *   npx tsx bench/tpch/time-queries.ts --sf 0.1 --url postgres://postgres@127.0.0.1:5433/lakegate --schema tpch
 *   npx tsx bench/tpch/time-queries.ts --url … --schema tpch --no-load --queries 1,6,18 --runs 3
 */
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { startLakegate, type LakegateServer } from '../../test/helpers/lakegate-server.ts';
import { TPCH_QUERY_NUMBERS, TPCH_TABLES, tpchCreateDdl, tpchCsvStream, tpchPostLoadDdl, tpchQuery } from './index.ts';

const { values: args } = parseArgs({
  options: {
    sf: { type: 'string', default: '0.01' },
    url: { type: 'string' },
    target: { type: 'string', default: 'lakegate' },
    schema: { type: 'string', default: 'tpch' },
    partition: { type: 'string', default: 'month' },
    'no-load': { type: 'boolean', default: false },
    queries: { type: 'string' },
    runs: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '300' },
  },
});
const sf = Number(args.sf);
const target = args.target === 'postgres' ? 'postgres' : 'lakegate';
const schema = args.schema;
const queries = args.queries ? args.queries.split(',').map(Number) : [...TPCH_QUERY_NUMBERS];
const runs = Math.max(1, Number(args.runs));

let server: LakegateServer | null = null;
const url = args.url ?? (server = await startLakegate()).url;
const client = new pg.Client({ connectionString: url, types: { getTypeParser: () => (v: string) => v } as never });
await client.connect();
try {
  if (!args['no-load']) {
    const t0 = performance.now();
    const partition = args.partition;
    const ddl = { target, schema, keys: true, partitioned: partition !== 'none', partitionTransform: partition === 'year' ? 'year' : 'month' } as const;
    for (const sql of tpchCreateDdl(ddl)) await client.query(sql);
    for (const table of TPCH_TABLES) {
      const t = performance.now();
      await pipeline(tpchCsvStream(table, sf), client.query(copyStreams.from(`COPY ${schema}.${table} FROM STDIN (FORMAT csv)`)));
      process.stderr.write(`loaded ${table} in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    }
    for (const sql of tpchPostLoadDdl(ddl)) await client.query(sql);
    console.log(`load SF ${sf} into ${target}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await client.query(`SET search_path = ${schema}`);
  await client.query(`SET statement_timeout = '${Number(args.timeout)}s'`);
  const results: { q: number; ms: number; rows: number; error?: string }[] = [];
  for (const q of queries) {
    const times: number[] = [];
    let rows = 0;
    let error: string | undefined;
    for (let r = 0; r < runs && error === undefined; r++) {
      const t = performance.now();
      try {
        rows = (await client.query({ text: tpchQuery(q), rowMode: 'array' })).rows.length;
        times.push(performance.now() - t);
      } catch (e) {
        error = (e as Error).message;
      }
    }
    times.sort((a, b) => a - b);
    const ms = times.length > 0 ? times[Math.floor(times.length / 2)]! : NaN;
    results.push({ q, ms, rows, ...(error === undefined ? {} : { error }) });
    console.log(`Q${String(q).padStart(2, '0')}  ${error === undefined ? `${ms.toFixed(0).padStart(7)} ms  ${rows} rows` : `error: ${error}`}`);
  }
  const ok = results.filter((r) => r.error === undefined);
  const geomean = Math.exp(ok.reduce((s, r) => s + Math.log(r.ms), 0) / Math.max(1, ok.length));
  console.log(`\n${target} (schema ${schema}${args['no-load'] ? '' : `, SF ${sf}`}): total ${(ok.reduce((s, r) => s + r.ms, 0) / 1000).toFixed(1)} s, geomean ${geomean.toFixed(0)} ms`);
  console.log(`slowest: ${[...ok].sort((a, b) => b.ms - a.ms).slice(0, 5).map((r) => `Q${r.q} ${(r.ms / 1000).toFixed(2)} s`).join(', ')}`);
} finally {
  await client.end();
  await server?.close();
}
