/**
 * Scan + aggregate with the scan worker pool off (workers 0) and on (workers N) in one process, medians of
 * `--runs` warm runs each, alternating. The table (default 12 files × 250,000 rows) is written once into
 * /tmp/lakegate-pool-bench and reused.
 *   npx tsx src/iceberg/parallel/testing/bench-parallel-scan.ts [--workers 2] [--files 12] [--rows 250000] [--runs 3] [--only NAME]
 */
import { parseArgs } from 'node:util';
import { createQueryEngine } from '../../../engine/index.ts';
import { multiFileTable } from './multi-file-table.ts';
import { ScanPool, acquireSharedScanPool, sharedScanPool } from '../scan-pool.ts';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    files: { type: 'string', default: '12' },
    rows: { type: 'string', default: '250000' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string', default: '/tmp/lakegate-pool-bench' },
    /** run only the queries whose names contain this */
    only: { type: 'string', default: '' },
  },
});
const files = Number(values.files);
const rowsPerFile = Number(values.rows);
const warehouse = `${values.dir}-${files}x${rowsPerFile}`;

const t0 = performance.now();
const table = await multiFileTable(warehouse, files, rowsPerFile);
await table.close();
console.log(`table: ${files} files × ${rowsPerFile} rows in ${warehouse} (${((performance.now() - t0) / 1000).toFixed(1)} s to open/write)`);

const engine = await createQueryEngine({ databases: ['lakegate'], warehouse });
const session = await engine.connect({ user: 'bench', database: 'lakegate', parameters: {}, backendPid: 1, remoteAddress: '127.0.0.1', remotePort: 1, localAddress: '127.0.0.1', localPort: 1, ssl: false });

async function query(sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of session.simpleQuery(sql)) {
    if (r.kind !== 'rows') continue;
    for await (const b of r.batches) for (let i = 0; i < b.length; i++) out.push(b.columns.map((c) => c[i]));
  }
  return out;
}

const QUERIES = {
  'sum(x), count(*)': 'SELECT sum(x), count(*) FROM ns.t',
  'sum(id), sum(f), avg(price)': 'SELECT sum(id), sum(f), avg(price) FROM ns.t',
  'filtered x >= 990': 'SELECT count(*), sum(f) FROM ns.t WHERE x >= 990',
  'group by name': 'SELECT name, count(*) FROM ns.t GROUP BY name ORDER BY 2 DESC, 1 LIMIT 3',
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const workers = Number(values.workers);
const release = acquireSharedScanPool({ size: workers });
const pool = sharedScanPool() as ScanPool;
console.log(`worker startup (${workers} threads, in parallel): ${(await pool.warm()).toFixed(0)} ms`);
const release2 = (): Promise<void> => release();

for (const [name, sql] of Object.entries(QUERIES)) {
  if (!name.includes(values.only)) continue;
  const times: Record<string, number[]> = { '0': [], [String(workers)]: [] };
  let answers: Record<string, string> = {};
  // warm-up of both modes, then alternate
  for (let run = -1; run < Number(values.runs); run++) {
    for (const mode of ['0', String(workers)]) {
      // workers 0: the pool is hidden by giving scans a minRows no table reaches
      (pool as { minRows: number }).minRows = mode === '0' ? Number.MAX_SAFE_INTEGER : 0;
      const t = performance.now();
      const rows = await query(sql);
      const ms = performance.now() - t;
      answers = { ...answers, [mode]: JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)) };
      if (run >= 0) times[mode]!.push(ms);
    }
  }
  if (answers['0'] !== answers[String(workers)]) throw new Error(`different answers for ${name}: ${answers['0']} vs ${answers[String(workers)]}`);
  const m0 = median(times['0']!);
  const mN = median(times[String(workers)]!);
  console.log(`${name.padEnd(30)} workers 0: ${m0.toFixed(0).padStart(6)} ms   workers ${workers}: ${mN.toFixed(0).padStart(6)} ms   speed-up ×${(m0 / mN).toFixed(2)}   (${answers['0']})`);
}

await session.close();
await engine.close();
await release2();
