/**
 * What enforcing a PRIMARY KEY costs a COPY (not a test: `npx tsx test/keys/bench-copy-keys.ts [rows] [rounds] [variants]`).
 * An in-process lakegate; per round, COPY FROM STDIN of `rows` rows (id int8, v text, n int4) into:
 *   nokey     a table without keys (no key work at all)
 *   pk-empty  an empty table with PRIMARY KEY (id): only the within-statement duplicate check
 *   pk-apart  a PRIMARY KEY table holding `rows` other keys below the new ones (the probe prunes every file)
 *   pk-mixed  a PRIMARY KEY table holding the even keys of the new range (the new odd keys: every file is read)
 * Prints wall and process CPU milliseconds per COPY (the client's generation is in both, the same for all).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { startLakegate } from '../helpers/lakegate-server.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 3);
const variants = (process.argv[4] ?? 'nokey,pk-empty,pk-apart,pk-mixed').split(',');

function data(from: number, n: number, step: number): string[] {
  const chunks: string[] = [];
  let s = '';
  for (let i = 0; i < n; i++) {
    const id = from + i * step;
    s += `${id}\tvalue ${id}\t${i % 1000}\n`;
    if (s.length > 1 << 16) { chunks.push(s); s = ''; }
  }
  if (s.length > 0) chunks.push(s);
  return chunks;
}

async function copy(c: pg.Client, table: string, chunks: readonly string[]): Promise<void> {
  const stream = c.query(copyFrom(`COPY ${table} FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
    (async () => {
      for (const ch of chunks) if (!stream.write(ch)) await new Promise((r) => stream.once('drain', r));
      stream.end();
    })().catch(reject);
  });
}

const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-keys-bench-'));
const server = await startLakegate({ config: { warehouse } });
const c = new pg.Client({ connectionString: server.url });
await c.connect();
await c.query('CREATE SCHEMA b');
const fresh = data(10_000_000, rows, 1);
const results: Record<string, { wall: number[]; cpu: number[] }> = {};
for (let r = 0; r < rounds; r++) {
  for (const variant of variants) {
    const t = `b.${variant.replace('-', '_')}_${r}`;
    await c.query(`CREATE TABLE ${t} (id int8${variant === 'nokey' ? '' : ' PRIMARY KEY'}, v text, n int4)`);
    let load = fresh;
    if (variant === 'pk-apart') await copy(c, t, data(1, rows, 1));
    if (variant === 'pk-mixed') {
      await copy(c, t, data(10_000_000, rows / 2, 2));
      load = data(10_000_001, rows / 2, 2);
    }
    global.gc?.();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await copy(c, t, load);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    (results[variant] ??= { wall: [], cpu: [] }).wall.push(wall);
    results[variant].cpu.push((cpu.user + cpu.system) / 1000);
    console.error(`${variant} round ${r}: ${load === fresh ? rows : rows / 2} rows, wall ${wall.toFixed(0)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`);
  }
}
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
for (const [k, v] of Object.entries(results)) console.log(`${k}\twall ${median(v.wall).toFixed(0)} ms\tcpu ${median(v.cpu).toFixed(0)} ms`);
await c.end();
await server.close();
rmSync(warehouse, { recursive: true, force: true });
