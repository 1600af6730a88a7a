/**
 * pgbench over the wire: lakegate versus a throwaway PostgreSQL in one run.
 *
 *   npm run bench:pgbench -- [--duration 10] [--clients 8] [--jobs 2] [--targets pg,lakegate] [--modes simple,extended,prepared]
 *                            [--schema public] [--cases select1,lookup] [--warmup 2] [--node-args "--trace-gc"]
 *                            [--transport tcp|unix] [--rounds 1] [--client-cpus 0]
 *
 * Targets: `pg`; `lakegate` (in this process); `lakegate-pN` (`lakegate serve --processes N` as a command,
 * on a free port the server picks: `--port 0`, the port read from its "listening on" line; started with the `start`
 * script's node flags, then `--node-args`, so a V8 flag can be A/B'd in one run). With more than one process the lookup table must be an Iceberg table: pass
 * `--schema bench` (created on every target; a plain schema on PostgreSQL, an Iceberg namespace on lakegate).
 *
 * Cases (custom scripts, -n so pgbench does not vacuum its own tables):
 *   select1  `SELECT 1`                                  protocol + session overhead
 *   lookup   `SELECT v FROM bench_kv WHERE id = :id`     a parameterised one-row lookup on a 1 000-row table
 * Each case runs with -M simple / extended / prepared, after an unmeasured `--warmup` seconds of the same script
 * on every target (steady state: a second lakegate process otherwise spends its first seconds cold — JIT, caches
 * of a table another process created). Every server is started first; then for each case and mode the targets run
 * one after the other, `--rounds` times, each round in a rotated order, so that the runs compared are seconds apart
 * (this machine's speed drifts by ±20 % over minutes). Tables show per-cell medians over the rounds; a ratio is the
 * median of the rounds' own ratios (lakegate's TPS over PostgreSQL's TPS of the same round).
 * `--client-cpus LIST` runs pgbench under `taskset -c LIST` (the servers stay free to use every CPU): pgbench on a
 * core of its own, as a client on another machine would be. Unpinned on a 2-core machine, the kernel's wake-affine
 * placement sometimes runs a pgbench thread on the single-process server's core for a whole run, and that run's
 * server CPU per transaction rises ≈ 50 % (session 30: 18 → 27 µs per prepared SELECT 1, bimodal across runs). Prints TPS per target and a markdown ratio table, the CPU µs per
 * transaction of server (and its system part) and pgbench with the machine's idle share, and for lakegate targets the server's context
 * switches per transaction (voluntary / involuntary: waiting for work vs preempted by the other tasks on a core)
 * and each server process's share of the CPU (pgbench-cpu.ts); writes bench/results/pgbench-<date>.json.
 * PG_TEST_URL points the PostgreSQL side at an existing server.
 * `--transport unix` points pgbench at every server's Unix-domain socket (`-h <socket dir>`: PostgreSQL's `-k`
 * directory, lakegate's unix_socket_directories) instead of 127.0.0.1 — the same transport for both sides; the setup
 * still goes over TCP. Loopback TCP costs the server its send path and loopback delivery per round trip.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startLakegate } from '../test/helpers/lakegate-server.ts';
import { findPgBinDir, startPgCluster } from '../test/helpers/pg-cluster.ts';
import { startScriptFlags } from './lib/start-flags.ts';
import { childProcessCpuSeconds, listeningPid, machineTicks, reapedChildrenCpuSeconds, switchesBetween, treeCpuSeconds, treeSwitches, treeSystemCpuSeconds } from './pgbench-cpu.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    clients: { type: 'string', default: '8' },
    jobs: { type: 'string', default: '2' },
    targets: { type: 'string', default: 'pg,lakegate' },
    modes: { type: 'string', default: 'simple,extended,prepared' },
    schema: { type: 'string', default: 'public' },
    cases: { type: 'string', default: 'select1,lookup' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    'client-cpus': { type: 'string', default: '' },
    'node-args': { type: 'string', default: '' },
    transport: { type: 'string', default: 'tcp' },
  },
});
if (args.transport !== 'tcp' && args.transport !== 'unix') throw new Error(`--transport must be tcp or unix, not "${args.transport}"`);
const overUnix = args.transport === 'unix';

const KV = `${args.schema}.bench_kv`;
const CASES = {
  select1: 'SELECT 1;\n',
  lookup: `\\set id random(1, 1000)\nSELECT v FROM ${KV} WHERE id = :id;\n`,
} as const;
type CaseName = keyof typeof CASES;
const caseNames = args.cases.split(',').map((c) => c.trim()).filter((c) => c !== '') as CaseName[];
for (const c of caseNames) if (!(c in CASES)) throw new Error(`unknown case "${c}" (cases: ${Object.keys(CASES).join(', ')})`);
const SETUP = `CREATE SCHEMA IF NOT EXISTS ${args.schema};
DROP TABLE IF EXISTS ${KV};
CREATE TABLE ${KV} (id int PRIMARY KEY, v text);
INSERT INTO ${KV} SELECT g, md5(g::text) FROM generate_series(1, 1000) g;`;

interface Run {
  target: string;
  round: number;
  case: CaseName;
  mode: string;
  tps: number | null;
  latencyMs: number | null;
  transactions: number | null;
  failed: number | null;
  /** CPU µs per transaction: the server's (every process and thread of it) and pgbench's; null off Linux */
  serverCpuUs?: number | null;
  pgbenchCpuUs?: number | null;
  /** the kernel's part of serverCpuUs (system time: the socket reads and writes, loopback delivery, preemption at their return) */
  serverSysUs?: number | null;
  /** share of the machine's CPU time left idle during the run (0 %: saturated, more server processes cannot help) */
  idlePct?: number | null;
  /** the server's context switches per transaction, voluntary and involuntary (lakegate only: its processes outlive the run) */
  serverVcsw?: number | null;
  serverIvcsw?: number | null;
  /** share of the server processes' CPU each took during the run, in % (lakegate-pN with N > 1) */
  processSplit?: number[];
  error?: string;
}

const binDir = findPgBinDir();
const pgbench = binDir && existsSync(join(binDir, 'pgbench')) ? join(binDir, 'pgbench') : 'pgbench';

/** pgbench as a child process, asynchronously: lakegate runs in this process and must keep answering. */
function spawnAsync(cmd: string, argv: string[], timeoutMs: number): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ status: null, out: `${out}${e.message}` });
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out });
    });
  });
}

/** a server under test: its TCP URL (setup, the listening pid) and the host pgbench is given (a socket dir or the TCP host) */
interface Target {
  readonly url: string;
  readonly pgbenchHost: string;
}

async function runPgbench(target: Target, script: string, mode: string, duration = args.duration): Promise<Omit<Run, 'target' | 'round' | 'case' | 'mode'>> {
  const u = new URL(target.url);
  const argv = ['-n', '-c', args.clients, '-j', args.jobs, '-T', duration, '-M', mode, '-f', script, '-h', target.pgbenchHost, '-p', u.port, '-U', decodeURIComponent(u.username) || 'postgres', u.pathname.slice(1) || 'postgres'];
  const serverPid = listeningPid(Number(u.port));
  const before = { server: serverPid === null ? null : treeCpuSeconds(serverPid), serverSys: serverPid === null ? null : treeSystemCpuSeconds(serverPid), pgbench: reapedChildrenCpuSeconds(), machine: machineTicks(), switches: serverPid === null ? null : treeSwitches(serverPid), processes: serverPid === null ? new Map<number, number>() : childProcessCpuSeconds(serverPid) };
  const pinned = args['client-cpus'] !== '';
  const r = await spawnAsync(pinned ? 'taskset' : pgbench, pinned ? ['-c', args['client-cpus'], pgbench, ...argv] : argv, (Number(duration) + 60) * 1000);
  // PostgreSQL's backends exit with pgbench's connections: their times reach the postmaster once it reaps them
  await new Promise((res) => setTimeout(res, 300));
  const after = { server: serverPid === null ? null : treeCpuSeconds(serverPid), serverSys: serverPid === null ? null : treeSystemCpuSeconds(serverPid), pgbench: reapedChildrenCpuSeconds(), machine: machineTicks(), switches: serverPid === null ? null : treeSwitches(serverPid), processes: serverPid === null ? new Map<number, number>() : childProcessCpuSeconds(serverPid) };
  const out = r.out;
  const num = (re: RegExp): number | null => {
    const m = re.exec(out);
    return m ? Number(m[1]) : null;
  };
  const tps = num(/tps = ([\d.]+) \(without initial connection time\)/);
  const transactions = num(/number of transactions actually processed: (\d+)/);
  const perTxn = (a: number | null, b: number | null): number | null => (a === null || b === null || !transactions ? null : ((b - a) * 1e6) / transactions);
  const idlePct = before.machine === null || after.machine === null || after.machine.total === before.machine.total ? null : (100 * (after.machine.idle - before.machine.idle)) / (after.machine.total - before.machine.total);
  const switches = before.switches === null || after.switches === null || !transactions ? null : switchesBetween(before.switches, after.switches);
  const used = [...after.processes].map(([pid, sec]) => sec - (before.processes.get(pid) ?? sec));
  const usedSum = used.reduce((a, b) => a + b, 0);
  const processSplit = used.length > 1 && usedSum > 0 ? used.map((u) => Math.round((100 * u) / usedSum)) : [];
  const base = { tps, latencyMs: num(/latency average = ([\d.]+) ms/), transactions, failed: num(/number of failed transactions: (\d+)/), serverCpuUs: perTxn(before.server, after.server), serverSysUs: perTxn(before.serverSys, after.serverSys), pgbenchCpuUs: perTxn(before.pgbench, after.pgbench), idlePct, serverVcsw: switches === null ? null : switches.voluntary / transactions!, serverIvcsw: switches === null ? null : switches.involuntary / transactions!, processSplit };
  if (r.status !== 0 || tps === null) return { ...base, error: out.trim().split('\n').slice(-3).join(' | ') || `exit ${r.status}` };
  return base;
}

async function setup(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
    await c.query(SETUP);
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await c.end().catch(() => {});
  }
}

const targets = args.targets.split(',').map((t) => t.trim());
const modes = args.modes.split(',').map((m) => m.trim());
const scriptDir = mkdtempSync(join(tmpdir(), 'lg-pgbench-'));
const scripts = Object.fromEntries(Object.entries(CASES).map(([name, text]) => {
  const p = join(scriptDir, `${name}.sql`);
  writeFileSync(p, text);
  return [name, p];
})) as Record<CaseName, string>;

/** `lakegate serve --processes N` as its own command (the way it is deployed), trust auth, a temp warehouse */
async function spawnLakegate(processes: number, socketDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const warehouse = mkdtempSync(join(tmpdir(), 'lg-pgbench-wh-'));
  const bin = new URL('../bin/lakegate.mjs', import.meta.url).pathname;
  const nodeArgs = [...startScriptFlags(), ...args['node-args'].split(' ').filter(Boolean)];
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve', '--processes', String(processes), '--port', '0', '--warehouse', warehouse, '--no-sample', '--unix-socket-directories', socketDir], {
    env: { ...process.env, LAKEGATE_AUTH: 'trust' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  // a fixed port clashes with other servers on the machine: port 0, and the port the server reports
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      // a server still starting must not outlive the run (it would keep this process waiting on its pipes)
      child.kill('SIGKILL');
      rmSync(warehouse, { recursive: true, force: true });
      reject(new Error(`lakegate did not start in 60 s: ${out}`));
    }, 60_000);
    child.stdout.on('data', () => {
      const listening = /listening on \S*:(\d+)/.exec(out);
      if (listening !== null) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`lakegate exited with ${code}: ${out}`)));
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/lakegate`,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(warehouse, { recursive: true, force: true });
    },
  };
}

const runs: Run[] = [];
const servers: Array<{ close(): Promise<void> }> = [];
// lakegate's socket files go here (one directory per run; each server's file is named after its own port)
const lakegateSocketDir = mkdtempSync(join(tmpdir(), 'lg-pgbench-sock-'));
const rounds = Math.max(1, Number(args.rounds));
const failedRun = (target: string, name: CaseName, mode: string, error: string): Run => ({ target, round: 0, case: name, mode, tps: null, latencyMs: null, transactions: null, failed: null, error });

/** starts one target's server and creates the lookup table on it */
async function startTarget(target: string): Promise<{ server: Target; setupError: string | null }> {
  const processes = /^lakegate-p(\d+)$/.exec(target);
  const tcpHost = (url: string): string => new URL(url).hostname;
  let server: Target;
  if (target === 'pg') {
    const c = await startPgCluster();
    servers.push({ close: () => c.stop() });
    if (overUnix && c.socketDir === null) throw new Error('--transport unix needs the throwaway PostgreSQL (PG_TEST_URL has no socket dir)');
    server = { url: c.url, pgbenchHost: overUnix ? c.socketDir! : tcpHost(c.url) };
  } else if (processes !== null) {
    const lg = await spawnLakegate(Number(processes[1]), lakegateSocketDir);
    servers.push(lg);
    server = { url: lg.url, pgbenchHost: overUnix ? lakegateSocketDir : tcpHost(lg.url) };
  } else {
    const lg = await startLakegate({ config: { unix_socket_directories: lakegateSocketDir } });
    servers.push(lg);
    server = { url: lg.url, pgbenchHost: overUnix ? lakegateSocketDir : tcpHost(lg.url) };
  }
  // the lookup table only when a lookup case runs
  return { server, setupError: caseNames.includes('lookup') ? await setup(server.url) : null };
}

try {
  const started = new Map<string, { server: Target; setupError: string | null }>();
  for (const target of targets) {
    try {
      started.set(target, await startTarget(target));
    } catch (e) {
      for (const name of caseNames) for (const mode of modes) runs.push(failedRun(target, name, mode, `server did not start: ${(e as Error).message.split('\n')[0]}`));
    }
  }
  for (const name of caseNames) {
    for (const mode of modes) {
      const ready = targets.filter((t) => {
        const s = started.get(t);
        if (s === undefined) return false;
        if (name === 'lookup' && s.setupError !== null) {
          runs.push(failedRun(t, name, mode, `setup failed: ${s.setupError}`));
          return false;
        }
        return true;
      });
      if (Number(args.warmup) > 0) for (const t of ready) await runPgbench(started.get(t)!.server, scripts[name], mode, args.warmup);
      for (let round = 0; round < rounds; round++) {
        // rotate the order each round: no target always runs first, or right after a given other one
        const order = ready.map((_, i) => ready[(i + round) % ready.length]!);
        for (const t of order) {
          process.stderr.write(`pgbench ${t} ${name} -M ${mode} -T ${args.duration} over ${args.transport}, round ${round + 1}/${rounds} …\n`);
          runs.push({ target: t, round, case: name, mode, ...(await runPgbench(started.get(t)!.server, scripts[name], mode)) });
        }
      }
    }
  }
} finally {
  for (const s of servers) await s.close().catch(() => {});
  rmSync(scriptDir, { recursive: true, force: true });
  rmSync(lakegateSocketDir, { recursive: true, force: true });
}

/** the median of the numbers present, or null */
function median(values: ReadonlyArray<number | null | undefined>): number | null {
  const v = values.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = v.length >> 1;
  return v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const fmt = (n: number | null | undefined): string => (n === null || n === undefined ? 'n/a' : n.toFixed(0));
const cellRuns = (t: string, c: string, m: string): Run[] => runs.filter((r) => r.target === t && r.case === c && r.mode === m && r.error === undefined);
/** a cell's medians over its rounds (undefined when no round of it succeeded) */
const find = (t: string, c: string, m: string): Omit<Run, 'round' | 'error'> | undefined => {
  const rs = cellRuns(t, c, m);
  if (rs.length === 0) return undefined;
  const med = (k: keyof Run): number | null => median(rs.map((r) => r[k] as number | null | undefined));
  const splits = rs.map((r) => r.processSplit ?? []).filter((p) => p.length > 1);
  return { target: t, case: c as CaseName, mode: m, tps: med('tps'), latencyMs: med('latencyMs'), transactions: med('transactions'), failed: med('failed'), serverCpuUs: med('serverCpuUs'), serverSysUs: med('serverSysUs'), pgbenchCpuUs: med('pgbenchCpuUs'), idlePct: med('idlePct'), serverVcsw: med('serverVcsw'), serverIvcsw: med('serverIvcsw'), processSplit: splits[0]?.map((_, i) => Math.round(median(splits.map((p) => p[i]))!)) ?? [] };
};
/** the median over rounds of lakegate's TPS / PostgreSQL's TPS in the same round, and the lowest round's ratio */
const roundRatios = (t: string, c: string, m: string): number[] => {
  const pgByRound = new Map(cellRuns('pg', c, m).map((r) => [r.round, r.tps]));
  return cellRuns(t, c, m).flatMap((r) => {
    const pgTps = pgByRound.get(r.round);
    return pgTps && r.tps ? [r.tps / pgTps] : [];
  });
};
const lakegates = targets.includes('pg') ? targets.filter((t) => t.startsWith('lakegate')) : [];
const lines = [`| case | mode | ${targets.map((t) => `${t} tps`).join(' | ')} |${lakegates.map((t) => ` ${t} / pg |`).join('')}`];
lines.push(`|---|---|${targets.map(() => '---:').join('|')}|${lakegates.map(() => '---:|').join('')}`);
for (const c of caseNames) {
  for (const m of modes) {
    const cells = targets.map((t) => fmt(find(t, c, m)?.tps));
    const ratio = lakegates.map((t) => {
      const rs = roundRatios(t, c, m);
      const med = median(rs);
      return ` ${med === null ? 'n/a' : med.toFixed(2)}${rs.length > 1 ? ` (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})` : ''} |`;
    }).join('');
    lines.push(`| ${c} | ${m} | ${cells.join(' | ')} |${ratio}`);
  }
}
console.log(`\npgbench -c ${args.clients} -j ${args.jobs} -T ${args.duration} -n over ${overUnix ? 'Unix-domain sockets' : 'loopback TCP'} (custom scripts, ${args.warmup} s warm-up each${args['client-cpus'] === '' ? '' : `; pgbench on CPUs ${args['client-cpus']}`}${rounds > 1 ? `; medians of ${rounds} rounds, ratios with their range` : ''})\n`);
console.log(lines.join('\n'));
// where the CPU went: a run whose machine had nothing idle is bound by server + pgbench CPU per transaction
const fmtUs = (n: number | null | undefined): string => (n === null || n === undefined ? 'n/a' : n.toFixed(1));
console.log(`\nCPU µs per transaction, server (its system part) / pgbench, and the machine's idle share during the run (/proc):\n`);
console.log(`| case | mode | ${targets.map((t) => `${t} server (sys) / pgbench µs, idle`).join(' | ')} |`);
console.log(`|---|---|${targets.map(() => '---:').join('|')}|`);
for (const c of caseNames) {
  for (const m of modes) {
    const cells = targets.map((t) => {
      const r = find(t, c, m);
      return r === undefined ? 'n/a' : `${fmtUs(r.serverCpuUs)} (${fmtUs(r.serverSysUs)}) / ${fmtUs(r.pgbenchCpuUs)}, ${r.idlePct === null || r.idlePct === undefined ? 'n/a' : `${r.idlePct.toFixed(0)} %`}`;
    });
    console.log(`| ${c} | ${m} | ${cells.join(' | ')} |`);
  }
}
// preempted or waiting: a server whose CPU µs per transaction rose with few idle cycles left and many involuntary
// switches paid for the other tasks on its core (cache refills), not for more work of its own
const lgTargets = targets.filter((t) => t.startsWith('lakegate'));
if (lgTargets.length > 0) {
  const fmtCs = (n: number | null | undefined): string => (n === null || n === undefined ? 'n/a' : n.toFixed(2));
  console.log(`\nServer context switches per transaction, voluntary / involuntary (/proc; pgbench's are not counted), and each server process's share of the server CPU:\n`);
  console.log(`| case | mode | ${lgTargets.map((t) => `${t} vol / invol, split`).join(' | ')} |`);
  console.log(`|---|---|${lgTargets.map(() => '---:').join('|')}|`);
  for (const c of caseNames) {
    for (const m of modes) {
      const cells = lgTargets.map((t) => {
        const r = find(t, c, m);
        return r === undefined ? 'n/a' : `${fmtCs(r.serverVcsw)} / ${fmtCs(r.serverIvcsw)}${r.processSplit !== undefined && r.processSplit.length > 1 ? `, ${r.processSplit.join('/')} %` : ''}`;
      });
      console.log(`| ${c} | ${m} | ${cells.join(' | ')} |`);
    }
  }
}
const shown = new Set<string>();
for (const r of runs.filter((x) => x.error)) {
  const key = r.error?.startsWith('server did not start') ? `${r.target} (all cases)` : `${r.target} ${r.case} ${r.mode}`;
  if (!shown.has(key)) console.log(`\n${key}: ${r.error}`);
  shown.add(key);
}

const resultsDir = new URL('./results/', import.meta.url);
mkdirSync(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*$/, '');
const file = new URL(`pgbench-${stamp}.json`, resultsDir);
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), transport: args.transport, schema: args.schema, cases: caseNames, clients: Number(args.clients), jobs: Number(args.jobs), durationSec: Number(args.duration), warmupSec: Number(args.warmup), rounds, clientCpus: args['client-cpus'] || null, pgbench, runs }, null, 2)}\n`);
console.log(`\nwrote ${file.pathname}`);
