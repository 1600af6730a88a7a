import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { startServer } from '/work/main/src/server/main.ts';

const N = Number(process.argv[2] ?? 1_000_000);
const warehouse = mkdtempSync(join(tmpdir(), 'lg-bench-'));
const server = await startServer({ host: '127.0.0.1', port: 0, warehouse, auth: 'trust', sample_data: false });
const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${server.port}/${server.config.databases[0]}` });
await c.connect();
await c.query('CREATE SCHEMA b');
await c.query('CREATE TABLE b.t (id int8 NOT NULL, name text, amount numeric(12,2), ts timestamptz)');
let peak = 0;
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
function* gen() {
  const chunk = 10000;
  for (let i = 0; i < N; i += chunk) {
    let s = '';
    for (let j = i; j < Math.min(N, i + chunk); j++) s += `${j}\tname-${j % 1000}\t${(j % 100000) / 100}\t2024-01-01 00:00:${String(j % 60).padStart(2, '0')}+00\n`;
    yield Buffer.from(s);
  }
}
const t0 = performance.now();
await pipeline(Readable.from(gen()), c.query(copyStreams.from('COPY b.t FROM STDIN')));
const t1 = performance.now();
clearInterval(timer);
const r = await c.query('SELECT count(*), sum(id) FROM b.t');
const f = await c.query(`SELECT count(*), sum(file_size_in_bytes) FROM b."t$files"`).catch((e) => ({ rows: [String(e)] }));
console.log(JSON.stringify({ rows: N, seconds: (t1 - t0) / 1000, rowsPerSec: Math.round(N / ((t1 - t0) / 1000)), peakRssMiB: Math.round(peak / 2 ** 20), result: r.rows, files: f.rows }));
await c.end();
await server.close();
rmSync(warehouse, { recursive: true, force: true });
