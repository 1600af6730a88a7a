/**
 * Why `--processes 2` costs more per transaction than one process (issue #2): the same 8 pgbench connections on
 * `lakegate serve --processes 2`, placed three ways on its two server processes, run alternately:
 *
 *   bench    `pgbench -c 8 -j 2` (what bench/pgbench.ts runs): the primary's least-loaded placement puts each
 *            pgbench thread's 4 connections 2 / 2 on the two processes
 *   split    two `pgbench -c 4 -j 1` at once, each one's connections 2 / 2 as above (two client processes)
 *   grouped  two `pgbench -c 4 -j 1` at once, each one's 4 connections on one server process: idle connections
 *            held on the other process steer the least-loaded placement (pg_backend_pid() / 10⁷ names the process)
 *
 * The question it answers: a pgbench thread sends its clients' next queries in one burst and waits in poll() for all
 * of their answers. With its connections on one server process, one event-loop turn there could read the whole burst
 * and write every answer; split over two processes, each side would wake twice as often for half the work. If
 * `grouped` beats `bench` on a quiet machine, moving sessions between processes by which connections' messages
 * arrive together would be worth building; if not, p2's extra cost per transaction is elsewhere. (Session 25, at
 * load 20–30: inconclusive — grouped +20 % / −6 % TPS, server CPU −4 % / +9 % per transaction in two 6-round runs.
 * Session 26, load 17–24, 4 rounds of 4 s, medians bench / grouped: TCP server 23.08 / 22.91 µs per transaction,
 * pgbench 10.96 / 12.39; Unix socket server 19.82 / 22.04, pgbench 7.74 / 8.85, TPS 22.8k / 20.1k — grouping does
 * not pay; the primary's placement did not always hold either: grouped rounds split 67/33 and 73/27.)
 * Prints TPS, server and client CPU µs per transaction (/proc, pgbench-cpu.ts) per run, then medians per placement.
 *
 *   npx tsx bench/pgbench-placement.ts [--rounds 4] [--duration 4] [--transport unix|tcp] [--case lookup|select1]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { findPgBinDir } from '../test/helpers/pg-cluster.ts';
import { startScriptFlags } from './lib/start-flags.ts';
import { childProcessCpuSeconds, reapedChildrenCpuSeconds, treeCpuSeconds } from './pgbench-cpu.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '4' },
    duration: { type: 'string', default: '4' },
    transport: { type: 'string', default: 'unix' },
    case: { type: 'string', default: 'lookup' },
  },
});
const SCRIPTS: Record<string, string> = {
  select1: 'SELECT 1;\n',
  lookup: '\\set id random(1, 1000)\nSELECT v FROM bench.bench_kv WHERE id = :id;\n',
};
const scriptText = SCRIPTS[args.case];
if (scriptText === undefined) throw new Error(`--case must be one of ${Object.keys(SCRIPTS).join(', ')}`);
if (args.transport !== 'unix' && args.transport !== 'tcp') throw new Error('--transport must be unix or tcp');

const binDir = findPgBinDir();
const pgbench = binDir === null ? 'pgbench' : join(binDir, 'pgbench');
const work = mkdtempSync(join(tmpdir(), 'lg-placement-'));
const script = join(work, 'script.sql');
writeFileSync(script, scriptText);

/** `lakegate serve --processes 2` as bench/pgbench.ts starts it: trust auth, a temp warehouse, its own socket dir */
async function startP2(): Promise<{ port: number; pid: number; close(): Promise<void> }> {
  const bin = new URL('../bin/lakegate.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [...startScriptFlags(), bin, 'serve', '--processes', '2', '--port', '0', '--warehouse', join(work, 'wh'), '--no-sample', '--unix-socket-directories', work], {
    env: { ...process.env, LAKEGATE_AUTH: 'trust' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on \S*:(\d+)/.exec(out);
      if (m !== null) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`lakegate exited with ${code}: ${out}`)));
  });
  return { port, pid: child.pid!, close: () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))) };
}

const server = await startP2();
const host = args.transport === 'unix' ? work : '127.0.0.1';
const connect = async (): Promise<pg.Client & { proc: number }> => {
  const c = new pg.Client({ host, port: server.port, user: 'postgres', database: 'lakegate' });
  await c.connect();
  const r = await c.query<{ p: number }>('SELECT pg_backend_pid() AS p');
  // the cluster hands out backend pids in [i·10⁷, (i+1)·10⁷) on process i (src/server/cluster/README.md)
  return Object.assign(c, { proc: Math.floor(r.rows[0]!.p / 1e7) });
};
const setup = await connect();
await setup.query('CREATE SCHEMA IF NOT EXISTS bench');
await setup.query('CREATE TABLE IF NOT EXISTS bench.bench_kv (id int PRIMARY KEY, v text)');
await setup.query('INSERT INTO bench.bench_kv SELECT g, md5(g::text) FROM generate_series(1, 1000) g');
await setup.end();

function runPgbench(clients: number, jobs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const argv = ['-n', '-c', String(clients), '-j', String(jobs), '-T', args.duration, '-M', 'prepared', '-f', script, '-h', host, '-p', String(server.port), '-U', 'postgres', 'lakegate'];
    const child = spawn(pgbench, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => {
      const m = /actually processed: (\d+)/.exec(out);
      if (m === null) reject(new Error(`pgbench failed: ${out}`));
      else resolve(Number(m[1]));
    });
  });
}

/** lets the primary see closed connections / place new ones before the next step */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 150));

/**
 * Two 4-client pgbench runs at once; `grouped`: each one's connections on one server process. Returns the
 * transactions and the seconds they took: grouped, the second run starts once the first one's connections are
 * placed (`lag` later), so its TPS is counted over duration + lag — a lower bound (one run was alone for 2 × lag).
 */
async function twoRuns(grouped: boolean): Promise<{ txns: number; seconds: number }> {
  const seconds = Number(args.duration);
  if (!grouped) return { txns: (await Promise.all([runPgbench(4, 1), runPgbench(4, 1)])).reduce((a, b) => a + b, 0), seconds };
  // 8 idle connections land 4 / 4; closing one process's 4 makes the next 4 connections (the first pgbench) go there
  const held = await Promise.all(Array.from({ length: 8 }, connect));
  const procs = [...new Set(held.map((c) => c.proc))];
  if (procs.length !== 2) throw new Error(`expected 2 server processes, saw ${procs.join(', ')}`);
  const closeOn = async (p: number): Promise<void> => {
    await Promise.all(held.filter((c) => c.proc === p).map((c) => c.end()));
    await settle(); // the process reports the closed connections to the primary
  };
  await closeOn(procs[0]!);
  const started = performance.now();
  const first = runPgbench(4, 1);
  await settle(); // its 4 connections are placed
  await closeOn(procs[1]!);
  const lag = (performance.now() - started) / 1000;
  return { txns: (await Promise.all([first, runPgbench(4, 1)])).reduce((a, b) => a + b, 0), seconds: seconds + lag };
}

const placements = {
  bench: async () => ({ txns: await runPgbench(8, 2), seconds: Number(args.duration) }),
  split: () => twoRuns(false),
  grouped: () => twoRuns(true),
} as const;
type Placement = keyof typeof placements;
const results: Record<Placement, Array<{ tps: number; server: number; client: number }>> = { bench: [], split: [], grouped: [] };
try {
  await runPgbench(8, 2); // warm-up: both processes compile the prepared lookup
  for (let round = 0; round < Number(args.rounds); round++) {
    const order = Object.keys(placements) as Placement[];
    if (round % 2 === 1) order.reverse();
    for (const name of order) {
      const s0 = treeCpuSeconds(server.pid), c0 = reapedChildrenCpuSeconds(), p0 = childProcessCpuSeconds(server.pid);
      const { txns, seconds } = await placements[name]();
      const s1 = treeCpuSeconds(server.pid), c1 = reapedChildrenCpuSeconds(), p1 = childProcessCpuSeconds(server.pid);
      // each server process's share of the run's server CPU: a placement that failed shows as a lopsided split
      const used = [...p1].map(([pid, sec]) => sec - (p0.get(pid) ?? sec));
      const split = used.map((u) => Math.round((100 * u) / Math.max(1e-9, used.reduce((a, b) => a + b, 0)))).join('/');
      const perTxn = (a: number | null, b: number | null): number => (a === null || b === null ? NaN : ((b - a) * 1e6) / txns);
      const r = { tps: txns / seconds, server: perTxn(s0, s1), client: perTxn(c0, c1) };
      results[name].push(r);
      console.log(`round ${round + 1} ${name.padEnd(7)} tps ${r.tps.toFixed(0)}  server ${r.server.toFixed(2)} µs/txn  pgbench ${r.client.toFixed(2)} µs/txn  split ${split} %  (over ${seconds.toFixed(2)} s)`);
    }
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log(`\n${args.case} -M prepared over ${args.transport}, ${args.rounds} rounds of ${args.duration} s, medians:\n`);
console.log('| placement | tps | server µs/txn | pgbench µs/txn |\n|---|---:|---:|---:|');
for (const [name, rs] of Object.entries(results)) {
  console.log(`| ${name} | ${median(rs.map((r) => r.tps)).toFixed(0)} | ${median(rs.map((r) => r.server)).toFixed(2)} | ${median(rs.map((r) => r.client)).toFixed(2)} |`);
}
