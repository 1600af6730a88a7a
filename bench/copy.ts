/**
 * COPY FROM STDIN throughput: TPC-H lineitem (deterministic, mulberry32) streamed as CSV into a throwaway
 * PostgreSQL and into lakegate (an Iceberg table) in one run.
 *
 *   npm run bench:copy -- [--sf 0.1] [--targets pg,pg-heap,lakegate] [--repeat 3] [--partitioned month|year|day] [--pg-key on|off] [--format csv|text] [--threads] [--trace] [--port N] [--cache-dir DIR] [--node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"] [--start-flags on|off] [--warmup N] [--idle S]
 *
 * The CSV (bench/tpch's generator) is generated once into a temp file (progress on stderr), then each server gets the same bytes
 * through pg-copy-streams. lakegate runs as a child `node bin/lakegate.mjs serve` so its peak RSS is the
 * kernel's VmHWM (/proc/<pid>/status), not a sample. Afterwards count(*) and sum(l_extendedprice) are checked
 * on both against the generator's own totals. Writes bench/results/copy-<date>.json and prints a markdown table.
 * `--repeat N` loads each target N times, alternating targets (a shared machine's load hits both alike), and
 * reports the run with the median rows/s per target and the median of the per-round ratios. `--partitioned`
 * makes lakegate's table partitioned by `month(l_shipdate)` (as bench/tpch loads it; `year`/`day` also taken);
 * PostgreSQL's stays one heap table, as in the TPC-H bench. lakegate's main thread (the one decoding COPY input)
 * gets its own CPU column: on 2 cores it and the encoding threads each have to stay under half of PostgreSQL's time;
 * `--threads` prints every lakegate thread's CPU seconds during the COPY on stderr, `--trace` its memory every
 * 500 ms (copy-memory-trace.mjs). `--pg-key on` (the default; issue #3's yardstick) gives
 * PostgreSQL's table its primary key (l_orderkey, l_linenumber), maintained during the COPY; `off` loads a bare heap.
 * `--warmup N` first COPYs the input's first N rows into a scratch table of the same shape on each server (then drops
 * it), outside the timed COPY: both servers are started fresh for every run, and a long-running lakegate has its
 * JIT warm and its worker threads started, which a fresh one pays for inside the timed COPY (PostgreSQL's C code has
 * no warm-up to speak of). The default 0 times the cold first COPY. `--idle S` then waits S seconds before the timed
 * COPY on each server, as a long-running server between two loads (worker threads idle past their timeout end).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { csvField, money, TPCH_COLUMNS, tpchRows } from './tpch/index.ts';
import { freePort, startPgCluster } from '../test/helpers/pg-cluster.ts';
import { parquetFooterOf } from '../src/iceberg/write/parquet-splice.ts';
import { intField, listField, type TStruct } from '../src/iceberg/write/thrift-compact-tree.ts';
import { startScriptFlags } from './lib/start-flags.ts';

const { values: args } = parseArgs({
  options: {
    sf: { type: 'string', default: '0.1' },
    targets: { type: 'string', default: 'pg,lakegate' },
    'node-args': { type: 'string', default: '' },
    'start-flags': { type: 'string', default: 'on' },
    repeat: { type: 'string', default: '1' },
    partitioned: { type: 'string' },
    'pg-key': { type: 'string', default: 'on' },
    format: { type: 'string', default: 'csv' },
    threads: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    port: { type: 'string' },
    'cache-dir': { type: 'string' },
    warmup: { type: 'string', default: '0' },
    idle: { type: 'string', default: '0' },
  },
});
const sf = Number(args.sf);
const targets = args.targets.split(',').map((s) => s.trim());
const partitioned = args.partitioned === undefined ? null : args.partitioned === '' || args.partitioned === 'true' ? 'month' : args.partitioned;
if (partitioned !== null && !['month', 'year', 'day'].includes(partitioned)) throw new Error(`--partitioned ${partitioned}: month, year or day`);
if (args['pg-key'] !== 'on' && args['pg-key'] !== 'off') throw new Error(`--pg-key ${args['pg-key']}: on or off`);
const pgKey = args['pg-key'] === 'on';
const warmupRows = Math.max(0, Math.floor(Number(args.warmup)));
if (!Number.isFinite(warmupRows)) throw new Error(`--warmup ${args.warmup}: a number of rows`);
const idleSeconds = Number(args.idle);
if (!(idleSeconds >= 0)) throw new Error(`--idle ${args.idle}: seconds`);
const format = args.format;
if (format !== 'csv' && format !== 'text') throw new Error(`--format ${format}: csv or text`);
/** text format: TPC-H values hold no tab, newline or backslash, so none needs escaping */
const line = (row: readonly string[]): string => (format === 'csv' ? row.map(csvField).join(',') : row.join('\t'));

const COLUMNS = TPCH_COLUMNS.lineitem;

/**
 * the node flags of package.json's `start` script (`node <flags> bin/lakegate.mjs serve`): lakegate runs as
 * `npm start` runs it, unless `--start-flags off`; `--node-args` come after them
 */
const startFlags: string[] = args['start-flags'] === 'off' ? [] : startScriptFlags();

interface Generated {
  readonly file: string;
  readonly rows: number;
  readonly bytes: number;
  /** sum(l_extendedprice) in cents */
  readonly sumCents: bigint;
}

/** TPC-H lineitem from bench/tpch's generator, written once to a temp CSV file (the sum is taken from the rows) */
async function generate(dir: string): Promise<Generated> {
  const cacheDir = args['cache-dir'];
  if (cacheDir !== undefined) {
    // --cache-dir: the file and its totals are kept there and reused by the next run of the same SF and format (A/B runs)
    const file = join(cacheDir, `lineitem-sf${sf}.${format}`);
    const meta = `${file}.json`;
    if (existsSync(file) && existsSync(meta)) {
      const m = JSON.parse(readFileSync(meta, 'utf8')) as { rows: number; sumCents: string };
      return { file, rows: m.rows, bytes: statSync(file).size, sumCents: BigInt(m.sumCents) };
    }
    mkdirSync(cacheDir, { recursive: true });
    const g = await generateInto(file);
    writeFileSync(meta, JSON.stringify({ rows: g.rows, sumCents: String(g.sumCents) }));
    return g;
  }
  return generateInto(join(dir, `lineitem.${format}`));
}

async function generateInto(file: string): Promise<Generated> {
  const out = createWriteStream(file);
  let rows = 0;
  let sum = 0n;
  let chunk = '';
  const t0 = Date.now();
  let lastProgress = t0;
  for (const row of tpchRows('lineitem', sf)) {
    const [whole = '0', frac = '00'] = row[5]!.split('.');
    sum += BigInt(whole) * 100n + BigInt(frac);
    chunk += `${line(row)}\n`;
    rows++;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
      if (Date.now() - lastProgress > 1000) {
        lastProgress = Date.now();
        process.stderr.write(`\rgenerating lineitem SF ${sf}: ${rows} rows (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      }
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  process.stderr.write(`\rgenerated lineitem SF ${sf}: ${rows} rows, ${(statSync(file).size / 1e6).toFixed(0)} MB in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  return { file, rows, bytes: statSync(file).size, sumCents: sum };
}

interface Result {
  target: string;
  rows?: number;
  seconds?: number;
  rowsPerSec?: number;
  peakRssMb?: number;
  /** the server's CPU time during the COPY (lakegate: all its threads; PostgreSQL: the backend process): comparable on a loaded machine where seconds are not */
  cpuSeconds?: number;
  /** lakegate: the CPU seconds of its main thread (decoding COPY input) during the COPY; the rest is other threads (encoding, GC) */
  mainCpuSeconds?: number;
  countOk?: boolean;
  sumOk?: boolean;
  /** lakegate: the Parquet data files written, their row groups, and rows per row group (min / median / max) */
  files?: number;
  rowGroups?: number;
  rowGroupRows?: [number, number, number];
  /** lakegate: total bytes of its Parquet data files (Snappy) */
  fileBytes?: number;
  error?: string;
}

/** the data files under the warehouse: how many, their row groups and the rows of each (Parquet footers) */
function layoutOf(warehouse: string, r: Result): void {
  const rows: number[] = [];
  let files = 0;
  let bytes = 0;
  for (const f of readdirSync(warehouse, { recursive: true }) as string[]) {
    // the warm-up's scratch table is dropped with its files; skipped here in case any are left
    if (!f.endsWith('.parquet') || f.includes('lineitem_warm')) continue;
    files++;
    const file = readFileSync(join(warehouse, f));
    bytes += file.byteLength;
    const { meta } = parquetFooterOf(file);
    for (const rg of listField(meta, 4)) rows.push(intField((rg as { v: TStruct }).v, 3) ?? 0);
  }
  rows.sort((a, b) => a - b);
  r.files = files;
  r.fileBytes = bytes;
  r.rowGroups = rows.length;
  if (rows.length > 0) r.rowGroupRows = [rows[0]!, rows[rows.length >> 1]!, rows[rows.length - 1]!];
}

/** `backend`: PostgreSQL, whose COPY runs in the connection's backend process: its CPU seconds go to `onCpu` */
async function copyInto(url: string, table: string, gen: Generated, label: string, onCpu?: (seconds: number) => void, endByte?: number): Promise<number> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const pid = onCpu === undefined ? 0 : Number((await client.query('SELECT pg_backend_pid() AS p')).rows[0].p);
    const cpu0 = pid === 0 ? 0 : cpuSeconds(pid);
    const t0 = process.hrtime.bigint();
    const stream = client.query(copyFrom(`COPY ${table} FROM STDIN (FORMAT ${format})`));
    // endByte: the input's first lines only (a warm-up); `end` is inclusive
    const input = createReadStream(gen.file, { highWaterMark: 256 * 1024, ...(endByte === undefined ? {} : { end: endByte - 1 }) });
    const total = endByte ?? gen.bytes;
    let sent = 0;
    const timer = setInterval(() => process.stderr.write(`\r${label}: ${(sent / 1e6).toFixed(0)} / ${(total / 1e6).toFixed(0)} MB sent`), 1000);
    input.on('data', (b) => { sent += b.length; });
    try {
      await pipeline(input, stream);
    } finally {
      clearInterval(timer);
      process.stderr.write('\n');
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (pid !== 0) onCpu?.(cpuSeconds(pid) - cpu0);
    return seconds;
  } finally {
    await client.end();
  }
}

async function verify(url: string, table: string, gen: Generated, r: Result): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const res = await client.query(`SELECT count(*)::text AS n, sum(l_extendedprice)::text AS s FROM ${table}`);
    const row = res.rows[0] as { n: string; s: string };
    r.countOk = Number(row.n) === gen.rows;
    const [whole = '0', frac = ''] = row.s.split('.');
    r.sumOk = /^0*$/.test(frac.slice(2)) && BigInt(whole) * 100n + BigInt(frac.slice(0, 2).padEnd(2, '0')) === gen.sumCents;
    if (!r.countOk || !r.sumOk) process.stderr.write(`${r.target}: count ${row.n} (expected ${gen.rows}), sum ${row.s} (expected ${money(Number(gen.sumCents))})\n`);
  } finally {
    await client.end();
  }
}

/** byte offset just past the input's first `rows` lines (the whole file when it has fewer); none of the fields hold a newline */
function bytesOfRows(file: string, rows: number): number {
  const buf = readFileSync(file);
  let at = 0;
  for (let k = 0; k < rows; k++) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) return buf.length;
    at = nl + 1;
  }
  return at;
}

/**
 * --warmup: the first rows into `scratch` (created by `create`, dropped afterwards) on a server just started, so the
 * timed COPY runs on a warm one
 */
async function warmUp(url: string, create: string, scratch: string, drop: string, gen: Generated, label: string): Promise<void> {
  if (warmupRows === 0) return;
  const c = new pg.Client(url);
  await c.connect();
  try {
    await c.query(create);
    await copyInto(url, scratch, gen, `${label} warm-up`, undefined, bytesOfRows(gen.file, warmupRows));
    if (idleSeconds > 0) await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    await c.query(drop);
  } finally {
    await c.end();
  }
}

/** `pg` has the primary key when --pg-key on; `pg-heap` is always a bare heap, so one run can give both ratios */
async function runPg(gen: Generated, target: 'pg' | 'pg-heap' = 'pg'): Promise<Result> {
  const keyed = target === 'pg' && pgKey;
  const r: Result = { target };
  const cluster = await startPgCluster();
  try {
    const c = new pg.Client(cluster.url);
    await c.connect();
    await c.query(`DROP TABLE IF EXISTS lineitem; CREATE TABLE lineitem (${COLUMNS}${keyed ? ', PRIMARY KEY (l_orderkey, l_linenumber)' : ''})`);
    await c.end();
    await warmUp(cluster.url, `CREATE TABLE lineitem_warm (${COLUMNS}${keyed ? ', PRIMARY KEY (l_orderkey, l_linenumber)' : ''})`, 'lineitem_warm', 'DROP TABLE lineitem_warm', gen, 'pg');
    r.seconds = await copyInto(cluster.url, 'lineitem', gen, 'pg', (cpu) => { r.cpuSeconds = cpu; });
    await verify(cluster.url, 'lineitem', gen, r);
  } catch (e) {
    r.error = (e as Error).message;
  } finally {
    await cluster.stop();
  }
  return r;
}

/** a loaded machine (several benchmarks at once) can take minutes to start a server: 180 s */
async function waitForPort(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`lakegate exited with code ${child.exitCode}`);
    const c = new pg.Client(url);
    try {
      await c.connect();
      await c.end();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('lakegate did not start within 180 s');
}

/** user + system CPU seconds of a process so far (/proc/<pid>/stat utime + stime, in clock ticks of 1/100 s) */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** user + system CPU seconds of a process's main thread so far (/proc/<pid>/task/<pid>/stat) */
function mainThreadCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds of every thread of a process so far, by thread id (with its name), with the system share and the
 * minor page faults: on this VM a first touch of fresh memory costs ≈ 6 ms of CPU per MB, mostly system time
 */
function threadCpu(pid: number): Map<string, { comm: string; cpu: number; sys: number; minflt: number }> {
  const m = new Map<string, { comm: string; cpu: number; sys: number; minflt: number }>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    const st = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
    const f = st.replace(/^.*\) /, '').split(' ');
    m.set(t, { comm: /\((.*)\)/.exec(st)![1]!, cpu: (Number(f[11]) + Number(f[12])) / 100, sys: Number(f[12]) / 100, minflt: Number(f[7]) });
  }
  return m;
}

function vmHwmMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function runLakegate(gen: Generated): Promise<Result> {
  const r: Result = { target: 'lakegate' };
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-copy-wh-'));
  // --port: a fixed port for lakegate (a contributor's own range on a shared machine); default: any free one
  const port = args.port === undefined ? await freePort() : Number(args.port);
  const nodeArgs = [...startFlags, ...args['node-args'].split(' ').filter(Boolean)];
  // --trace: the child writes its memory (rss, heap, external, ArrayBuffers) on stderr twice a second
  if (args.trace === true) nodeArgs.push('--import', new URL('./copy-memory-trace.mjs', import.meta.url).href);
  const child = spawn(process.execPath, [...nodeArgs, 'bin/lakegate.mjs', 'serve'], {
    // --trace: the child's stdout (where --node-args=--trace-gc writes) goes to stderr too
    stdio: ['ignore', args.trace === true ? 2 : 'ignore', 'inherit'],
    env: { ...process.env, LAKEGATE_HOST: '127.0.0.1', LAKEGATE_PORT: String(port), LAKEGATE_WAREHOUSE: warehouse, LAKEGATE_AUTH: 'trust', LAKEGATE_SAMPLE_DATA: 'false' },
  });
  const url = `postgres://postgres@127.0.0.1:${port}/lakegate`;
  try {
    await waitForPort(url, child);
    const c = new pg.Client(url);
    await c.connect();
    await c.query('CREATE SCHEMA tpch');
    const withClause = partitioned === null ? '' : ` WITH (partitioning = ARRAY['${partitioned}(l_shipdate)'])`;
    await c.query(`CREATE TABLE tpch.lineitem (${COLUMNS})${withClause}`);
    await c.end();
    await warmUp(url, `CREATE TABLE tpch.lineitem_warm (${COLUMNS})${withClause}`, 'tpch.lineitem_warm',
      "CALL system.drop_table(schema_name => 'tpch', table_name => 'lineitem_warm', purge => true)", gen, 'lakegate');
    const cpu0 = cpuSeconds(child.pid!);
    const main0 = mainThreadCpuSeconds(child.pid!);
    const threads0 = threadCpu(child.pid!);
    r.seconds = await copyInto(url, 'tpch.lineitem', gen, 'lakegate');
    r.cpuSeconds = cpuSeconds(child.pid!) - cpu0;
    r.mainCpuSeconds = mainThreadCpuSeconds(child.pid!) - main0;
    if (args.threads === true) {
      // every thread's CPU seconds during the COPY (tid = pid: the main thread; the encode worker is one of the others)
      for (const [t, c] of threadCpu(child.pid!)) {
        const t0 = threads0.get(t);
        const d = c.cpu - (t0?.cpu ?? 0);
        const sys = c.sys - (t0?.sys ?? 0);
        const faults = c.minflt - (t0?.minflt ?? 0);
        if (d > 0.02) process.stderr.write(`lakegate thread ${t}${t === String(child.pid) ? ' (main)' : ''}${t0 === undefined ? ' (started during the COPY)' : ''} ${c.comm}: ${d.toFixed(2)} CPU s (system ${sys.toFixed(2)} s, ${faults} minor faults)\n`);
      }
    }
    r.peakRssMb = vmHwmMb(child.pid!);
    await verify(url, 'tpch.lineitem', gen, r);
    layoutOf(warehouse, r);
  } catch (e) {
    r.error = (e as Error).message;
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(warehouse, { recursive: true, force: true });
  }
  return r;
}

const dir = mkdtempSync(join(tmpdir(), 'lakegate-copy-bench-'));
try {
  const gen = await generate(dir);
  const rounds: Result[][] = [];
  for (let k = 0; k < Math.max(1, Number(args.repeat)); k++) {
    const round: Result[] = [];
    for (const t of targets) {
      const r = t === 'pg' || t === 'pg-heap' ? await runPg(gen, t) : t === 'lakegate' ? await runLakegate(gen) : { target: t, error: 'unknown target' };
      if (r.seconds !== undefined) {
        r.rows = gen.rows;
        r.rowsPerSec = Math.round(gen.rows / r.seconds);
      }
      round.push(r);
    }
    rounds.push(round);
  }
  const median = (xs: number[]): number | null => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length === 0 ? null : s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  /** per target, the run with the median rows/s (the first error when every run failed) */
  const results: Result[] = targets.map((t, i) => {
    const runs = rounds.map((round) => round[i]!);
    const ok = runs.filter((r) => r.rowsPerSec !== undefined).sort((a, b) => a.rowsPerSec! - b.rowsPerSec!);
    return ok.length === 0 ? runs[0]! : ok[(ok.length - 1) >> 1]!;
  });
  const ratios = rounds.flatMap((round) => {
    const p = round.find((r) => r.target === 'pg')?.rowsPerSec;
    const l = round.find((r) => r.target === 'lakegate')?.rowsPerSec;
    return p !== undefined && l !== undefined ? [l / p] : [];
  });
  const ratio = median(ratios);
  const heapRatios = rounds.flatMap((round) => {
    const p = round.find((r) => r.target === 'pg-heap')?.rowsPerSec;
    const l = round.find((r) => r.target === 'lakegate')?.rowsPerSec;
    return p !== undefined && l !== undefined ? [l / p] : [];
  });
  const heapRatio = median(heapRatios);
  const date = new Date().toISOString();
  const cell = (r: Result | undefined, f: (r: Result) => string): string => (r === undefined ? '–' : r.error !== undefined ? 'n/a' : f(r));
  console.log(`\nCOPY lineitem FROM STDIN (FORMAT ${format}), SF ${sf}${pgKey ? ', pg with its primary key' : ', pg without keys'}${partitioned === null ? '' : `, lakegate partitioned by ${partitioned}(l_shipdate)`}: ${gen.rows} rows, ${(gen.bytes / 1e6).toFixed(0)} MB (${date})${rounds.length > 1 ? `, median of ${rounds.length} runs` : ''}${warmupRows > 0 ? `, after a warm-up COPY of ${warmupRows} rows on each server${idleSeconds > 0 ? ` and ${idleSeconds} s idle` : ''}` : ', cold servers'}${startFlags.length > 0 ? `, lakegate started with ${startFlags.join(' ')}` : ''}\n`);
  console.log('| target | seconds | rows/s | server CPU s | main thread CPU s | peak RSS | count ok | sum ok |');
  console.log('|---|---:|---:|---:|---:|---:|---|---|');
  for (const r of results) {
    console.log(`| ${r.target} | ${cell(r, (x) => x.seconds!.toFixed(2))} | ${cell(r, (x) => String(x.rowsPerSec))} | ${cell(r, (x) => (x.cpuSeconds === undefined ? '–' : x.cpuSeconds.toFixed(2)))} | ${cell(r, (x) => (x.mainCpuSeconds === undefined ? '–' : x.mainCpuSeconds.toFixed(2)))} | ${cell(r, (x) => (x.peakRssMb === undefined ? '–' : `${x.peakRssMb.toFixed(0)} MB`))} | ${cell(r, (x) => String(x.countOk))} | ${cell(r, (x) => String(x.sumOk))} |`);
  }
  if (ratio !== null) console.log(`\nlakegate / pg: ${ratio.toFixed(2)}×${ratios.length > 1 ? ` (runs: ${ratios.map((x) => x.toFixed(2)).join(', ')})` : ''}`);
  if (heapRatio !== null) console.log(`lakegate / pg-heap (PostgreSQL without keys): ${heapRatio.toFixed(2)}×${heapRatios.length > 1 ? ` (runs: ${heapRatios.map((x) => x.toFixed(2)).join(', ')})` : ''}`);
  const pgCpu = results.find((r) => r.target === 'pg')?.cpuSeconds;
  const lgCpu = results.find((r) => r.target === 'lakegate')?.cpuSeconds;
  if (pgCpu !== undefined && lgCpu !== undefined) console.log(`server CPU seconds per row, pg / lakegate: ${(pgCpu / lgCpu).toFixed(2)}× (lakegate's work can spread over cores; PostgreSQL's COPY is one process)`);
  for (const r of results) {
    if (r.files === undefined) continue;
    const [lo, mid, hi] = r.rowGroupRows ?? [0, 0, 0];
    console.log(`${r.target} data files: ${r.files}, row groups: ${r.rowGroups} (${(r.rowGroups! / Math.max(1, r.files)).toFixed(1)} per file), rows per row group: min ${lo}, median ${mid}, max ${hi}, ${((r.fileBytes ?? 0) / 1e6).toFixed(1)} MB`);
  }
  for (const r of results) if (r.error !== undefined) console.log(`${r.target}: ${r.error}`);
  mkdirSync('bench/results', { recursive: true });
  const out = join('bench/results', `copy-${date.replace(/[:.]/g, '-').slice(0, 19)}.json`);
  writeFileSync(out, JSON.stringify({ date, sf, format, partitioned, pgKey, warmupRows, rows: gen.rows, bytes: gen.bytes, ratio, ratios, heapRatio, heapRatios, results, rounds }, null, 2));
  console.log(`\nwrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
