/**
 * Where the time goes (issue #4): runs TPC-H queries on an existing warehouse against a lakegate started with V8's
 * CPU profiler on every thread (`node --cpu-prof --cpu-prof-dir`: the main thread and each piscina scan worker
 * write a .cpuprofile at exit), then splits each query's CPU by category (bench/profile-categories.ts) per thread
 * kind. Writes bench/results/profile-tpch-<date>.json and .md and prints the markdown.
 *
 *   npm run bench:profile -- --warehouse /tmp/sf1/wh                  # all 22, 1 warm-up + 3 profiled runs each
 *   npm run bench:profile -- --warehouse /tmp/sf1/wh --queries 1,6,9 --runs 5 --keep-profiles
 *   npm run bench:profile -- --reanalyze bench/results/profile-tpch-<date>.json   # kept profiles, classified again
 *
 * The warehouse is only read (SELECTs). Each measured run's start and end (process.hrtime, the same monotonic
 * clock as the profiles' sample times) pick its samples; the kernel's per-thread CPU time of that run gives the
 * milliseconds (bench/profile-threads.ts). The profiler itself costs CPU in threads of its own (reported apart).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { freePort } from '../test/helpers/pg-cluster.ts';
import { connectText, textRows } from './lib/pg-client.ts';
import { startScriptFlags } from './lib/start-flags.ts';
import { tpchQueries } from './lib/tpch-source.ts';
import { CATEGORY_LABELS, CATEGORY_SHORT } from './profile-categories.ts';
import { meanSampleIntervalUs, readThreadProfiles, samplesByWindow, type WindowSamples } from './profile-cpuprofile.ts';
import { mergeSamples, queryProfile, renderMarkdown, totals, type RunRecord } from './profile-report.ts';
import { readThreadTags, TAGS_ENV, threadCpu, threadCpuDelta, threadKind, writeThreadTagPreload, type ThreadKind } from './profile-threads.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    warehouse: { type: 'string' },
    checkout: { type: 'string', default: repo },
    queries: { type: 'string', default: Array.from({ length: 22 }, (_, i) => i + 1).join(',') },
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    schema: { type: 'string', default: 'tpch' },
    port: { type: 'string' },
    'interval-us': { type: 'string', default: '1000' },
    'node-args': { type: 'string', default: '' },
    'keep-profiles': { type: 'boolean', default: false },
    reanalyze: { type: 'string' },
    out: { type: 'string', default: join(repo, 'bench', 'results') },
  },
});

function log(msg: string): void {
  process.stderr.write(`[profile-tpch] ${msg}\n`);
}

if (args.warehouse === undefined && args.reanalyze === undefined) {
  log('usage: npm run bench:profile -- --warehouse DIR [--queries 1,6,9] [--runs 3] [--warmup 1] [--checkout DIR] [--keep-profiles] | --reanalyze RESULT.json');
  process.exit(2);
}
const runs = Number(args.runs);
const warmup = Number(args.warmup);
const intervalUs = Number(args['interval-us']);
const checkout = resolve(args.checkout);
const all = new Map(tpchQueries().map((q) => [q.id, q.sql]));
const ids = args.queries.split(',').map((q) => (q.startsWith('q') ? q : `q${q}`));
for (const id of ids) if (!all.has(id)) throw new Error(`unknown query ${id}`);

const port = args.port === undefined ? await freePort() : Number(args.port);

async function startServer(profDir: string, tagsFile: string): Promise<ChildProcess> {
  const preload = writeThreadTagPreload(profDir);
  const nodeArgs = [
    ...startScriptFlags(), ...args['node-args'].split(/\s+/).filter(Boolean),
    '--cpu-prof', '--cpu-prof-dir', profDir, '--cpu-prof-interval', String(intervalUs), '--require', preload,
    'bin/lakegate.mjs', 'serve',
  ];
  const child = spawn(process.execPath, nodeArgs, {
    cwd: checkout, stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, LAKEGATE_HOST: '127.0.0.1', LAKEGATE_PORT: String(port), LAKEGATE_WAREHOUSE: resolve(args.warehouse!),
      LAKEGATE_AUTH: 'trust', LAKEGATE_SAMPLE_DATA: 'false', LAKEGATE_UNIX_SOCKET_DIRECTORIES: '', [TAGS_ENV]: tagsFile,
    },
  });
  log(`lakegate pid ${child.pid} on port ${port} (${checkout}), profiles in ${profDir}`);
  return child;
}

async function connect(child: ChildProcess): Promise<pg.Client> {
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`lakegate exited with code ${child.exitCode}`);
    try {
      return await connectText(`postgres://postgres@127.0.0.1:${port}/lakegate`);
    } catch {
      if (i > 600) throw new Error('lakegate did not start within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** per measured run: its window and CPU ms per OS thread (kinds are known only once the profiles are read) */
interface RawRun {
  readonly query: string;
  readonly run: number;
  readonly startUs: number;
  readonly endUs: number;
  readonly wallMs: number;
  readonly cpu: Map<number, { name: string; ms: number }>;
}

async function measure(child: ChildProcess): Promise<RawRun[]> {
  const client = await connect(child);
  const pid = child.pid!;
  const out: RawRun[] = [];
  try {
    await textRows(client, `SET search_path TO ${args.schema}`);
    for (const id of ids) {
      const sql = all.get(id)!;
      const walls: number[] = [];
      try {
        for (let i = 0; i < warmup; i++) await textRows(client, sql);
        for (let run = 0; run < runs; run++) {
          const before = threadCpu(pid);
          const startUs = nowUs();
          await textRows(client, sql);
          const endUs = nowUs();
          const cpu = threadCpuDelta(before, threadCpu(pid));
          out.push({ query: id, run, startUs, endUs, wallMs: (endUs - startUs) / 1000, cpu });
          walls.push((endUs - startUs) / 1000);
        }
      } catch (e) {
        // one failing query leaves the others' profiles usable; its finished runs still count
        log(`${id}: failed (${(e as Error).message})`);
        continue;
      }
      log(`${id}: wall ${walls.map((w) => w.toFixed(0)).join(' ')} ms`);
    }
  } finally {
    await client.end().catch(() => {});
  }
  return out;
}

/** SIGTERM: lakegate closes its pools and exits, and every thread writes its profile on the way out */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    log('lakegate did not exit 60 s after SIGTERM: killed (profiles may be missing)');
    child.kill('SIGKILL');
  }, 60_000);
  await once(child, 'exit');
  clearTimeout(timer);
}

const profDir = args.reanalyze === undefined ? mkdtempSync(join(tmpdir(), 'lakegate-profile-')) : '';
let pid: number;
let records: RunRecord[];
let loads: [number, number];
let dir: string;
/** on --reanalyze: the measured run's description (checkout, commit, runs, …), kept */
let measuredMeta: Record<string, unknown> = {};
if (args.reanalyze !== undefined) {
  // a kept run again (after a change of the category table): same windows and CPU, profiles re-read
  const old = JSON.parse(readFileSync(args.reanalyze, 'utf8')) as { meta: { pid: number; profileDir: string; loadavg: [number, number] }; records: RunRecord[] };
  ({ pid, profileDir: dir, loadavg: loads } = old.meta);
  measuredMeta = { ...old.meta, reanalyzedFrom: args.reanalyze };
  records = old.records;
} else {
  dir = profDir;
  const tagsFile = join(dir, 'thread-tags.jsonl');
  const child = await startServer(dir, tagsFile);
  let raw: RawRun[];
  const load0 = loadavg()[0]!;
  try {
    raw = await measure(child);
  } finally {
    await stopServer(child);
  }
  loads = [load0, loadavg()[0]!];
  pid = child.pid!;
  const tags = readThreadTags(tagsFile);
  const workerTids = new Set(readThreadProfiles(dir, pid).filter((p) => p.kind === 'workers').map((p) => tags.get(p.threadId)).filter((t): t is number => t !== undefined));
  records = raw.map((r) => {
    const cpuMs: Record<ThreadKind, number> = { main: 0, workers: 0, profiler: 0, helpers: 0 };
    for (const [tid, t] of r.cpu) cpuMs[threadKind(tid, t.name, pid, workerTids)] += t.ms;
    return { query: r.query, run: r.run, startUs: r.startUs, endUs: r.endUs, wallMs: r.wallMs, cpuMs };
  });
}
const profiles = readThreadProfiles(dir, pid);
log(`${profiles.length} profiles (${profiles.filter((p) => p.kind === 'workers').length} scan workers)`);
const windows = records.map((r) => ({ key: `${r.query}#${r.run}`, startUs: r.startUs, endUs: r.endUs }));
const perKind = { main: [] as Map<string, WindowSamples>[], workers: [] as Map<string, WindowSamples>[] };
const intervals: number[] = [];
for (const p of profiles) {
  if (p.kind === 'other') continue;
  perKind[p.kind].push(samplesByWindow(p.profile, windows));
  intervals.push(meanSampleIntervalUs(p.profile));
}
const sampleUs = intervals.length === 0 ? intervalUs : intervals.reduce((a, b) => a + b, 0) / intervals.length;
const pick = (kind: 'main' | 'workers', id: string): WindowSamples =>
  mergeSamples(perKind[kind].flatMap((m) => records.filter((r) => r.query === id).map((r) => m.get(`${r.query}#${r.run}`)).filter((s): s is WindowSamples => s !== undefined)));
const queryIds = [...new Set(records.map((r) => r.query))];
const queries = queryIds.map((id) => queryProfile(id, records.filter((r) => r.query === id), pick('main', id), pick('workers', id), sampleUs));
const total = totals(queries);

let commit = '';
try {
  commit = execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
} catch { /* not a git checkout */ }
const date = new Date().toISOString();
const meta: Record<string, unknown> = {
  checkout, commit, warehouse: resolve(args.warehouse ?? ''), queries: queryIds, runs, warmup, intervalUs, meanSampleIntervalUs: Math.round(sampleUs),
  node: process.version, cpus: cpus().length, loadavg: loads, pid, profileDir: args['keep-profiles'] || args.reanalyze !== undefined ? dir : null,
  profiles: profiles.map((p) => ({ threadId: p.threadId, kind: p.kind })), ...measuredMeta, date, categories: CATEGORY_LABELS,
};
const md = renderMarkdown(queries, total);
mkdirSync(args.out, { recursive: true });
const base = join(args.out, `profile-tpch-${date.replace(/[:.]/g, '-').slice(0, 19)}`);
writeFileSync(`${base}.json`, JSON.stringify({ meta, queries, total, records }, null, 1));
const legend = Object.entries(CATEGORY_SHORT).map(([k, s]) => `- **${s}**: ${CATEGORY_LABELS[k as keyof typeof CATEGORY_LABELS]}`).join('\n');
writeFileSync(`${base}.md`, `# TPC-H CPU profile ${date} (${String(meta.commit)}, ${String(meta.runs)} runs, load ${loads[0].toFixed(1)}–${loads[1].toFixed(1)})\n\n${md}\n\n${legend}\n`);
process.stdout.write(`${md}\n`);
log(`wrote ${base}.json and .md; V8 helper threads (GC, compiler, libuv) ${total.helpersCpuMs.toFixed(0)} ms, profiler threads ${total.profilerCpuMs.toFixed(0)} ms per run of all queries`);
if (args['keep-profiles']) log(`profiles kept in ${dir} (re-classify with --reanalyze ${base}.json)`);
else if (args.reanalyze === undefined) rmSync(dir, { recursive: true, force: true });
