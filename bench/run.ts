/**
 * TPC-H on lakegate, PostgreSQL and DuckDB in one run.
 *
 *   npm run bench -- --sf 1
 *   npm run bench -- --sf 0.1 --queries 1,6,14,range,point --runs 5 --engines lakegate,pg --timeout 120
 *
 * Generates the data once (bench/tpch/), loads it into each engine (lib/*-engine.ts), then per query: one run
 * whose answer is checked against PostgreSQL's (a mismatch is reported and not timed), `--runs` warm timed runs
 * (median), and for lakegate EXPLAIN ANALYZE's scan counters and the peak RSS of that query. Engines run one
 * after the other (PostgreSQL first: its answers are the reference), so they never compete for the 2 cores.
 * Progress on stderr; the markdown table on stdout; everything in bench/results/tpch-<date>.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareResults } from './lib/compare-results.ts';
import { DuckDbEngine } from './lib/duckdb-engine.ts';
import { progress, QueryTimeout, type Engine, type EngineName, type TextRow } from './lib/engine.ts';
import { LakegateEngine } from './lib/lakegate-engine.ts';
import { PgEngine } from './lib/pg-engine.ts';
import { markdownTable, median, summarize, type EngineOutcome, type QueryReport } from './lib/tpch-report.ts';
import { orderKey } from './tpch/index.ts';
import { extraQueries, generateTpch, tpchQueries, type BenchQuery, type TpchDataset } from './lib/tpch-source.ts';

const { values: args } = parseArgs({
  options: {
    sf: { type: 'string', default: '0.1' },
    queries: { type: 'string', default: '' },
    runs: { type: 'string', default: '3' },
    engines: { type: 'string', default: 'pg,duckdb,lakegate' },
    timeout: { type: 'string', default: '60' },
    'node-args': { type: 'string', default: '' },
  },
});
const sf = Number(args.sf);
const runs = Math.max(1, Number(args.runs));
const timeoutMs = Number(args.timeout) * 1000;
const ORDER: readonly EngineName[] = ['pg', 'duckdb', 'lakegate'];
const wanted = args.engines.split(',').map((s) => s.trim());
for (const e of wanted) if (!ORDER.includes(e as EngineName)) throw new Error(`unknown engine ${e} (lakegate, pg, duckdb)`);
const engines = ORDER.filter((e) => wanted.includes(e));
if (!(sf > 0) || !(timeoutMs > 0)) throw new Error('--sf and --timeout must be positive numbers');

/** the order in the middle of the orders table (dbgen's sparse keys: orderKey(i) is the i-th order's key) */
function middleOrderKey(data: TpchDataset): number {
  return orderKey(Math.max(1, Math.floor((data.tables.get('orders')?.rows ?? 2) / 2)));
}

function selectQueries(data: TpchDataset): BenchQuery[] {
  const all = [...tpchQueries(), ...extraQueries(middleOrderKey(data))];
  if (args.queries === '') return all;
  const ids = args.queries.split(',').map((s) => s.trim()).map((s) => (/^\d+$/.test(s) ? `q${Number(s)}` : s.replace(/^Q/, 'q')));
  const picked = all.filter((q) => ids.includes(q.id));
  for (const id of ids) if (!picked.some((q) => q.id === id)) progress(`no query ${id}: skipped`);
  return picked;
}

function makeEngine(name: EngineName): Engine {
  if (name === 'pg') return new PgEngine(sf);
  if (name === 'duckdb') return new DuckDbEngine();
  return new LakegateEngine(args['node-args'].split(' ').filter(Boolean));
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);

/** check run, then the timed runs; per-query peak RSS and scan counters where the engine has them */
async function measure(engine: Engine, q: BenchQuery, reference: readonly TextRow[] | undefined): Promise<{ outcome: EngineOutcome; rows?: TextRow[] }> {
  const o: EngineOutcome = { status: 'ok', timesMs: [] };
  engine.resetPeakRss?.();
  let rows: TextRow[];
  const t0 = performance.now();
  try {
    rows = await engine.query(q.sql, timeoutMs);
    if (performance.now() - t0 > timeoutMs) throw new QueryTimeout(timeoutMs);
  } catch (e) {
    o.status = e instanceof QueryTimeout ? 'timeout' : 'error';
    o.detail = message(e);
    o.peakRssMb = engine.peakRssMb?.() ?? null;
    return { outcome: o };
  }
  o.rows = rows.length;
  if (engine.name !== 'pg') {
    if (reference === undefined) o.status = 'unchecked';
    else {
      const cmp = compareResults(rows, reference);
      o.exact = cmp.exact;
      if (!cmp.ok) {
        o.status = 'mismatch';
        o.detail = cmp.detail;
        return { outcome: o, rows };
      }
    }
  }
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    try {
      await engine.query(q.sql, timeoutMs);
    } catch (e) {
      o.status = e instanceof QueryTimeout ? 'timeout' : 'error';
      o.detail = `timed run ${i + 1}: ${message(e)}`;
      break;
    }
    const ms = performance.now() - start;
    if (ms > timeoutMs) {
      // the engine finished, but later than its own timeout should have stopped it: over the limit all the same
      o.status = 'timeout';
      o.detail = `timed run ${i + 1} took ${(ms / 1000).toFixed(1)} s`;
      break;
    }
    o.timesMs.push(ms);
  }
  if (o.timesMs.length === runs) o.medianMs = median(o.timesMs);
  o.peakRssMb = engine.peakRssMb?.() ?? null;
  if (engine.scanCounts !== undefined && (o.status === 'ok' || o.status === 'unchecked')) {
    o.scan = await engine.scanCounts(q.sql, timeoutMs).catch((e: unknown) => {
      progress(`${engine.name} ${q.id}: EXPLAIN ANALYZE failed: ${message(e)}`);
      return null;
    });
  }
  return { outcome: o, rows };
}

function machine(): { cores: number; node: string; postgres: string; duckdb: string; loadavg: string } {
  return {
    cores: availableParallelism(), node: process.version,
    postgres: versionOf(join('/usr/lib/postgresql/15/bin', 'postgres'), ['--version']),
    duckdb: (JSON.parse(readFileSync('node_modules/@duckdb/node-api/package.json', 'utf8')) as { version: string }).version,
    loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  };
}

function versionOf(cmd: string, argv: string[]): string {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'lakegate-tpch-data-'));
try {
  const t0 = performance.now();
  const data = await generateTpch(sf, dataDir, (m) => progress(m));
  progress(`generated SF ${sf} in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${[...data.tables.values()].map((t) => `${t.table} ${t.rows}`).join(', ')}`);
  const queries = selectQueries(data);
  const reports: QueryReport[] = queries.map((q) => ({ id: q.id, outcomes: {} }));
  const reference = new Map<string, TextRow[]>();
  const engineInfo: Record<string, unknown> = {};
  const startedAt = new Date().toISOString();
  mkdirSync('bench/results', { recursive: true });
  const out = join('bench/results', `tpch-${startedAt.replace(/[:.]/g, '-').slice(0, 19)}.json`);
  const lakegatePeak = (): number => Math.max(0, ...reports.map((r) => r.outcomes.lakegate?.peakRssMb ?? 0),
    Number((engineInfo.lakegate as { loadPeakRssMb?: number } | undefined)?.loadPeakRssMb ?? 0));
  // rewritten after every query, so an interrupted run still leaves its numbers
  const save = (complete: boolean): void => {
    writeFileSync(out, JSON.stringify({
      date: startedAt, complete, sf, runs, timeoutMs, engines, machine: machine(), engineInfo, summary: summarize(reports, engines),
      lakegatePeakRssMb: lakegatePeak() || null, queries: queries.map((q) => ({ ...q, ...reports.find((r) => r.id === q.id) })),
    }, null, 2));
  };

  for (const name of engines) {
    const engine = makeEngine(name);
    const info: Record<string, unknown> = {};
    engineInfo[name] = info;
    try {
      progress(`${name}: loading`);
      info.loadSeconds = await engine.load(data);
      info.loadPeakRssMb = engine.peakRssMb?.() ?? undefined;
      progress(`${name}: loaded in ${(info.loadSeconds as number).toFixed(1)} s`);
      for (const [i, q] of queries.entries()) {
        const { outcome, rows } = await measure(engine, q, reference.get(q.id));
        if (name === 'pg' && outcome.status === 'ok' && rows !== undefined) reference.set(q.id, rows);
        reports[i]!.outcomes[name] = outcome;
        const t = outcome.medianMs === undefined ? '' : ` median ${outcome.medianMs.toFixed(1)} ms`;
        progress(`${name} ${q.id}: ${outcome.status}${t}${outcome.detail ? ` (${outcome.detail})` : ''}`);
        save(false);
      }
      if (engine instanceof LakegateEngine) {
        info.restarts = engine.restarts;
        info.keySeconds = engine.keySeconds;
      }
      if (engine instanceof DuckDbEngine) info.parquetFiles = Object.fromEntries(engine.files);
    } catch (e) {
      info.error = message(e);
      progress(`${name}: ${info.error}`);
      for (const r of reports) r.outcomes[name] ??= { status: 'error', timesMs: [], detail: `engine failed: ${info.error}` };
    } finally {
      await engine.close().catch(() => {});
    }
  }

  const summary = summarize(reports, engines);
  const lgPeak = lakegatePeak();
  const m = machine();
  const table = markdownTable(reports, engines, summary);
  console.log(`\nTPC-H SF ${sf}, median of ${runs} warm runs, timeout ${timeoutMs / 1000} s (${startedAt}; ${m.cores} cores, Node ${m.node}, ${m.postgres}, DuckDB ${m.duckdb}, load ${m.loadavg})\n`);
  console.log(table);
  console.log(`\nlakegate peak RSS over the run (load and queries): ${lgPeak > 0 ? `${lgPeak.toFixed(0)} MB` : '-'}`);
  for (const [name, info] of Object.entries(engineInfo)) {
    const i = info as { loadSeconds?: number; keySeconds?: number; loadPeakRssMb?: number; error?: string; restarts?: string[] };
    // PostgreSQL's load includes its keys, foreign-key indexes, VACUUM ANALYZE and prewarm; lakegate's its primary keys
    const keys = i.keySeconds === undefined ? '' : ` (primary keys ${i.keySeconds.toFixed(1)} s, load peak RSS ${i.loadPeakRssMb?.toFixed(0) ?? '–'} MB)`;
    console.log(`${name}: load ${i.loadSeconds?.toFixed(1) ?? '–'} s${keys}${i.error ? `, failed: ${i.error}` : ''}${i.restarts?.length ? `, ${i.restarts.length} restart(s)` : ''}`);
  }
  for (const r of reports) {
    for (const [name, o] of Object.entries(r.outcomes)) {
      if (o.status !== 'ok' && o.status !== 'unchecked') console.log(`- ${r.id} ${name}: ${o.status}${o.detail ? `: ${o.detail}` : ''}`);
    }
  }
  save(true);
  console.log(`\nwrote ${out}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
