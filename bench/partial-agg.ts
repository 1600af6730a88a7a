/**
 * A short A/B of TPC-H Q1 / Q6 on lakegate trees and worker counts (partial aggregates in the scan workers,
 * issue #4). Loads lineitem once (COPY, partitioned by month as bench/run.ts does, or unpartitioned), then
 * per configuration starts `node bin/lakegate.mjs serve` from that tree on the same warehouse, checks the
 * answers agree across configurations and prints the median of `--runs` warm runs.
 *
 *   npx tsx bench/partial-agg.ts --sf 0.1 --runs 3 --roots /tmp/base,/work/main --workers 0,2
 *   npx tsx bench/partial-agg.ts --layout none          # one unpartitioned table (few big files: row-group splits)
 * A configuration `2-off` runs 2 workers with `lakegate.disabled_optimizer_rules = 'partial_aggregate'`.
 * `--modes main,partitioned` times each query under each `lakegate.final_aggregate` value on the same server,
 * alternating run by run (A/B back to back); `--tables lineitem,orders,customer,nation` loads more tables (q10, q13).
 *   npx tsx bench/partial-agg.ts --sf 0.1 --workers 2 --modes main,partitioned --queries q18i,hc,1 --port 57410
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { connectText, copyCsv, textRows } from './lib/pg-client.ts';
import { median } from './lib/tpch-report.ts';
import { tpchCreateDdl, tpchQuery, type TpchTable } from './tpch/index.ts';
import { writeTpchCsvFiles } from './tpch/csv.ts';

const { values: args } = parseArgs({
  options: {
    sf: { type: 'string', default: '0.1' },
    runs: { type: 'string', default: '3' },
    roots: { type: 'string', default: '.' },
    workers: { type: 'string', default: '0,2' },
    queries: { type: 'string', default: '1,6' },
    layout: { type: 'string', default: 'month' },
    port: { type: 'string', default: '56510' },
    modes: { type: 'string', default: '' },
    tables: { type: 'string', default: 'lineitem' },
  },
});
const sf = Number(args.sf);
const runs = Math.max(1, Number(args.runs));
const roots = args.roots.split(',').map((r) => resolve(r));
const configs = args.workers.split(',');
/** TPC-H numbers, or `hc`: a high-cardinality GROUP BY (one group per order: partial states barely reduce) */
const queries = args.queries.split(',');
const EXTRA: Record<string, string> = {
  hc: 'SELECT l_orderkey, sum(l_quantity), count(*) FROM lineitem GROUP BY l_orderkey ORDER BY sum(l_quantity) DESC, l_orderkey LIMIT 5',
  /** q18's inner aggregate (one group per order) */
  q18i: 'SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 300 ORDER BY l_orderkey',
  /** one group per part: ~30 rows per group */
  part: 'SELECT count(*), sum(s), max(n) FROM (SELECT l_partkey, sum(l_extendedprice) AS s, count(*) AS n FROM lineitem GROUP BY l_partkey) x',
};
/** `lakegate.final_aggregate` values timed alternately on one server ('' = the server's default only) */
const modes = args.modes === '' ? [''] : args.modes.split(',');
const tables = args.tables.split(',') as TpchTable[];
const sqlOf = (q: string): string => EXTRA[q] ?? tpchQuery(Number(q));
const port = Number(args.port);
const log = (m: string): void => { process.stderr.write(`${m}\n`); };

async function startServer(root: string, warehouse: string, workers: string): Promise<{ child: ChildProcess; client: pg.Client }> {
  const child = spawn(process.execPath, ['bin/lakegate.mjs', 'serve'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, LAKEGATE_HOST: '127.0.0.1', LAKEGATE_PORT: String(port), LAKEGATE_WAREHOUSE: warehouse,
      LAKEGATE_AUTH: 'trust', LAKEGATE_SAMPLE_DATA: 'false', LAKEGATE_WORKERS: workers,
    },
  });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`lakegate exited with code ${child.exitCode}`);
    try {
      return { child, client: await connectText(`postgres://postgres@127.0.0.1:${port}/lakegate`) };
    } catch {
      if (i > 600) throw new Error('lakegate did not start within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** user + system CPU milliseconds of a process, all threads (/proc/<pid>/stat, 100 ticks per second) */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function stop(s: { child: ChildProcess; client: pg.Client }): Promise<void> {
  await s.client.end().catch(() => undefined);
  s.child.kill('SIGTERM');
  if (s.child.exitCode === null) await once(s.child, 'exit');
}

const dataDir = mkdtempSync(join(tmpdir(), 'partial-agg-csv-'));
const warehouse = mkdtempSync(join(tmpdir(), 'partial-agg-wh-'));
try {
  log(`generating ${tables.join(', ')} at SF ${sf}`);
  const csv = await writeTpchCsvFiles(dataDir, sf, { tables });
  const loader = await startServer(roots[roots.length - 1]!, warehouse, '0');
  const ddl = tpchCreateDdl({ target: 'lakegate', schema: 'tpch', partitioned: args.layout !== 'none' })
    .filter((s) => !s.startsWith('CREATE TABLE') || tables.some((t) => s.includes(`.${t} `)));
  for (const s of ddl) await loader.client.query(s);
  for (const [k, file] of csv.entries()) {
    const t0 = performance.now();
    await copyCsv(loader.client, `tpch.${tables[k]!}`, file.file, ',', 'lakegate');
    log(`loaded ${file.rows} ${tables[k]} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const files = await textRows(loader.client, 'SELECT count(*) FROM tpch."lineitem$files"');
  log(`lineitem: ${files[0]?.[0] ?? '?'} data files`);
  await stop(loader);

  const answers = new Map<string, string>();
  const cols = queries.flatMap((q) => modes.map((m) => `Q${q}${m === '' ? '' : ` ${m}`} median ms (runs; CPU ms per run)`));
  const table: string[] = [`| tree | workers | ${cols.join(' | ')} |`, `|---|---|${cols.map(() => '---:').join('|')}|`];
  for (const root of roots) {
    for (const config of configs) {
      const off = config.endsWith('-off');
      const s = await startServer(root, warehouse, config.replace(/-off$/, ''));
      await s.client.query('SET search_path TO tpch');
      if (off && !(await s.client.query("SET lakegate.disabled_optimizer_rules = 'partial_aggregate'").then(() => true, () => false))) {
        table.push(`| ${root} | ${config} | ${queries.map(() => 'n/a (no such rule)').join(' | ')} |`);
        await stop(s);
        continue;
      }
      const cells: string[] = [];
      for (const q of queries) {
        const sql = sqlOf(q);
        const setMode = async (m: string): Promise<void> => { if (m !== '') await s.client.query(`SET lakegate.final_aggregate = '${m}'`); };
        for (const m of modes) {
          await setMode(m);
          const first = JSON.stringify(await textRows(s.client, sql)); // warm-up (worker startup) and answer check
          const known = answers.get(q);
          if (known === undefined) answers.set(q, first);
          else if (known !== first) log(`!! Q${q} answer differs for ${root} workers=${config} mode=${m}:\n${first.slice(0, 2000)}\nvs\n${known.slice(0, 2000)}`);
        }
        // the modes alternate run by run, so each pair ran back to back under the same load
        const times = modes.map((): number[] => []);
        const cpu = modes.map(() => 0);
        for (let r = 0; r < runs; r++) {
          for (const [k, m] of modes.entries()) {
            await setMode(m);
            const cpu0 = cpuMs(s.child.pid);
            const t = performance.now();
            await textRows(s.client, sql);
            times[k]!.push(performance.now() - t);
            cpu[k]! += cpuMs(s.child.pid) - cpu0;
          }
        }
        for (const [k, m] of modes.entries()) {
          // CPU time of the server process (all threads) per run: above the wall time = threads ran in parallel
          cells.push(`${median(times[k]!).toFixed(0)} (${times[k]!.map((t) => t.toFixed(0)).join(', ')}; cpu ${(cpu[k]! / runs).toFixed(0)}/run)`);
          log(`${root} workers=${config} Q${q}${m === '' ? '' : ` ${m}`}: ${cells[cells.length - 1]}`);
        }
      }
      table.push(`| ${root} | ${config} | ${cells.join(' | ')} |`);
      await stop(s);
    }
  }
  console.log(table.join('\n'));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(warehouse, { recursive: true, force: true });
}
