/**
 * Where lakegate's memory goes over a TPC-H run (issue #4: "peak RSS 1.7 GB although each query's budget
 * should bound it"). Runs lakegate in this process (so the numbers are the server's own), loads TPC-H at
 * `--sf` (lineitem and orders partitioned by month, as bench/run.ts), then after every query prints the
 * process's RSS, the main thread's heap (used, and used after a full GC: what is retained rather than garbage),
 * external / ArrayBuffer memory, the server-wide query-state account, and the caches (decoded small files,
 * parsed manifests) and the same for every scan worker thread (asked as a merge task: exchange/thread-memory.ts),
 * parquet-wasm linear memories included. `other` is RSS minus every thread's heap and external memory: code,
 * native allocations, freed pages not yet returned.
 *
 *   node --expose-gc --import tsx test/memory/tpch-rss-profile.ts --sf 0.2 [--workers 2] [--queries 1,9,21]
 *        [--snapshot 21]   (writes a main-thread heap snapshot after that query)
 *        [--warehouse DIR] (keeps the loaded warehouse there; a second run with it skips the load)
 *        [--load-only]     (loads and exits: the next run's numbers carry no residue of the load)
 *
 * Not a test: a measurement script (MEM's port 58452 by default, MEM_PROFILE_PORT to change).
 */
import { pipeline } from 'node:stream/promises';
import { writeHeapSnapshot } from 'node:v8';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { TPCH_TABLES, tpchCreateDdl, tpchCsvStream, tpchQuery, TPCH_QUERY_NUMBERS } from '../../bench/tpch/index.ts';
import { SERVER_MEMORY } from '../../src/exec/memory/server-memory.ts';
import { fileCacheStats } from '../../src/iceberg/read/file-cache.ts';
import { manifestCacheStats } from '../../src/iceberg/scan/manifest-cache.ts';
import { startLakegate } from '../helpers/lakegate-server.ts';
import { sharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';
import { threadMemory, type ThreadMemory } from '../../src/exec/exchange/thread-memory.ts';
import type { MergedPartition } from '../../src/exec/exchange/merge-partition.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const SF = Number(arg('sf', '0.2'));
const WORKERS = Number(arg('workers', '2'));
const QUERIES = arg('queries', TPCH_QUERY_NUMBERS.join(',')).split(',').map(Number);
const SNAPSHOT = Number(arg('snapshot', '0'));
const MB = (b: number): string => (b / 1048576).toFixed(0).padStart(6);
const gc = (globalThis as { gc?: () => void }).gc;

/** every scan worker's ThreadMemory (asked as merge tasks, one per thread while all are busy answering) */
async function workerMemory(): Promise<ThreadMemory[]> {
  const pool = sharedScanPool();
  if (pool === null || !pool.started) return [];
  const seen = new Map<number, ThreadMemory>();
  for (let attempt = 0; attempt < 4 && seen.size < pool.size; attempt++) {
    const asks = Array.from({ length: pool.size }, () => pool.runMerge(
      { kind: 'merge-partition', payload: { threadMemory: true }, cancel: new SharedArrayBuffer(4) }, [], new AbortController().signal));
    for (const r of await Promise.all(asks)) {
      const t = r.ok ? (r.merged as MergedPartition).thread : undefined;
      if (t !== undefined) seen.set(t.threadId, t);
    }
  }
  return [...seen.values()];
}

async function line(label: string, ms: number): Promise<string> {
  const rss = process.memoryUsage.rss();
  const main = threadMemory();
  const workers = await workerMemory();
  const sum = (f: (t: ThreadMemory) => number): number => workers.reduce((a, t) => a + f(t), 0);
  const fc = fileCacheStats();
  const mc = manifestCacheStats();
  const cols = [rss, main.heapUsed, main.heapUsedAfterGc, main.heapTotal, main.external, main.arrayBuffers, main.wasm,
    sum((t) => t.heapUsed), sum((t) => t.heapUsedAfterGc), sum((t) => t.heapTotal), sum((t) => t.external), sum((t) => t.arrayBuffers), sum((t) => t.wasm),
    rss - main.heapTotal - main.external - sum((t) => t.heapTotal + t.external), SERVER_MEMORY.used, fc.bytes, mc.bytes];
  return `${label.padEnd(8)} ${ms.toFixed(0).padStart(7)} ${cols.map(MB).join(' ')}`;
}

const WAREHOUSE = arg('warehouse', '');
const server = await startLakegate({ config: { port: Number(process.env['MEM_PROFILE_PORT'] ?? 58452), workers: WORKERS, ...(WAREHOUSE === '' ? {} : { warehouse: WAREHOUSE }) } });
const client = new pg.Client({ connectionString: server.url });
await client.connect();
const schema = 'tpch';
const t0 = performance.now();
const loaded = WAREHOUSE !== '' && await client.query(`SELECT 1 FROM ${schema}.lineitem LIMIT 1`).then(() => true, () => false);
if (!loaded) {
  for (const sql of tpchCreateDdl({ target: 'lakegate', schema, partitionTransform: 'month' })) await client.query(sql);
  for (const table of TPCH_TABLES) {
    await pipeline(tpchCsvStream(table, SF), client.query(copyStreams.from(`COPY ${schema}.${table} FROM STDIN (FORMAT csv)`)));
  }
}
await client.query(`SET search_path = ${schema}`);
if (process.argv.includes('--load-only')) {
  console.log(`loaded SF ${SF} into ${WAREHOUSE} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await client.end();
  await server.close();
  process.exit(0);
}
console.log(`SF ${SF}, ${WORKERS} workers, gc ${gc === undefined ? 'unavailable (run with --expose-gc)' : 'after each query'}`);
const HEAD = ['rss', 'm.heap', 'm.hpGC', 'm.hpT', 'm.ext', 'm.arrB', 'm.wasm', 'w.heap', 'w.hpGC', 'w.hpT', 'w.ext', 'w.arrB', 'w.wasm', 'other', 'qstate', 'fcache', 'mcache'];
console.log(`${'query'.padEnd(8)} ${'ms'.padStart(7)} ${HEAD.map((h) => h.padStart(6)).join(' ')}  (MB; m. main thread, w. all scan workers)`);
console.log(await line('load', performance.now() - t0));
let peak = 0;
for (const n of QUERIES) {
  const start = performance.now();
  // RSS sampled while the query runs (every 50 ms): the peak, not only what is left afterwards
  let high = 0;
  const sampler = setInterval(() => { high = Math.max(high, process.memoryUsage.rss()); }, 50);
  try {
    await client.query(tpchQuery(n));
  } catch (e) {
    console.log(`q${n} failed: ${(e as Error).message}`);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, high);
  console.log(`${await line(`q${n}`, performance.now() - start)}  peak ${MB(high)}`);
  if (n === SNAPSHOT) console.log(`heap snapshot: ${writeHeapSnapshot()}`);
}
console.log(`peak RSS over the queries ${MB(peak)} MB`);
await client.end();
await server.close();
