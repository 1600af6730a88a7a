/**
 * A/B of Parquet page-index pruning (read/page-index-pruner.ts) over a server in this process: a table of 4
 * files × 150,000 rows (2 row groups each, pages of 20,480 rows) whose files each span the whole key range,
 * sorted inside (like TPC-H lineitem by month and l_orderkey), and 80 files of 5,000 rows (one page per column). Run it with LAKEGATE_PAGE_INDEX=off and on,
 * alternating, back to back; prints the median wall and process CPU ms per query (CPU is the query's with W=0). W: scan workers (default 2), RUNS (default 9), QUERIES=a,b (a subset),
 * EXPLAIN=1 also prints the scans' counters. Port 57301, warehouse /tmp/pages/wh (built once).
 *   LAKEGATE_PAGE_INDEX=off npx tsx src/iceberg/read/testing/bench-page-index.ts
 */
import pg from 'pg';
import { existsSync } from 'node:fs';
import { startServer } from '../../../server/main.ts';
const fresh = !existsSync('/tmp/pages/wh/built');
const server = await startServer({ host: '127.0.0.1', port: 57301, warehouse: '/tmp/pages/wh', auth: 'trust', sample_data: false, workers: Number(process.env.W ?? 2) });
const c = new pg.Client({ host: '127.0.0.1', port: 57301, user: 'postgres', database: server.config.databases[0] ?? 'lakegate' });
await c.connect();
// a schema of its own: an Iceberg namespace (the default `public` holds in-memory tables)
if (fresh) await c.query('CREATE SCHEMA pagesab');
await c.query('SET search_path TO pagesab');
if (fresh) {
  await c.query('CREATE TABLE ev (key int8 NOT NULL, a int8, rev int8, k int4, s text)');
  // 4 files of 150,000 rows; file j holds keys ≡ j (mod 4), ascending: every file spans the whole key range
  for (let j = 0; j < 4; j++) {
    await c.query(`INSERT INTO ev SELECT 4 * g + ${j}, g, 149999 - g, g % 10, 's' || (g % 1000) FROM generate_series(0, 149999) AS g`);
  }
  // 80 small files of 5,000 rows (one page per column: the page index can only cost here)
  await c.query('CREATE TABLE small (key int8 NOT NULL, k int4, s text)');
  for (let j = 0; j < 80; j++) await c.query(`INSERT INTO small SELECT 80 * g + ${j}, g % 10, 's' || (g % 1000) FROM generate_series(0, 4999) AS g`);
  (await import('node:fs')).writeFileSync('/tmp/pages/wh/built', '');
}
const queries: Record<string, string> = {
  point: 'SELECT * FROM ev WHERE key = 300001',
  in3: 'SELECT * FROM ev WHERE key IN (17, 300001, 599990)',
  disjoint: 'SELECT count(*) FROM ev WHERE a < 1000 AND rev < 20000',
  unsorted: 'SELECT count(*) FROM ev WHERE k = 3 AND s = \'s13\'',
  range: 'SELECT sum(k) FROM ev WHERE a BETWEEN 50000 AND 52000',
  smallUnsorted: 'SELECT count(*) FROM small WHERE k = 3 AND s = \'s13\'',
  smallPoint: 'SELECT * FROM small WHERE key = 200017',
};
const runs = Number(process.env.RUNS ?? 9);
const out: Record<string, number> = {};
const cpuOut: Record<string, number> = {};
const median = (xs: number[]): number => Math.round(xs.sort((x, y) => x - y)[xs.length >> 1]! * 10) / 10;
const only = process.env.QUERIES?.split(',');
for (const [name, sql] of Object.entries(queries)) {
  if (only !== undefined && !only.includes(name)) continue;
  await c.query(sql); // warm
  const t: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    const u = process.cpuUsage();
    await c.query(sql);
    const d = process.cpuUsage(u);
    t.push(performance.now() - s);
    cpu.push((d.user + d.system) / 1000);
  }
  out[name] = median(t);
  cpuOut[name] = median(cpu);
}
if (process.env.EXPLAIN) for (const sql of Object.values(queries)) console.log((await c.query(`EXPLAIN ANALYZE ${sql}`)).rows.map((r) => Object.values(r)[0]).join('\n'));
console.log(process.env.LAKEGATE_PAGE_INDEX ?? 'on', 'wall', JSON.stringify(out));
// with W=0 every scan runs in this process: its CPU time is the query's, and less sensitive to a loaded machine
console.log(process.env.LAKEGATE_PAGE_INDEX ?? 'on', 'cpu ', JSON.stringify(cpuOut));
await c.end();
await server.close();
process.exit(0);
