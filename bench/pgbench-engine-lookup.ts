/**
 * pgbench's prepared lookup without the wire: the engine's CPU per execution of `SELECT v FROM kv WHERE id = $1`
 * (Execute + Sync on an EngineSession, ids drawn as pgbench's `random(1, 1000)`), in-process. The wire and the
 * kernel's loopback cost stay out, so an engine change can be A/B'd with far less noise than pgbench on a loaded
 * machine (run it alternately in two worktrees; compare medians).
 *
 *   npx tsx bench/pgbench-engine-lookup.ts [--runs 5] [--n 50000] [--case lookup|select1] [--check-catalog]
 *
 * By default each execution counts as covered by another session's catalog change check (the server's usual case
 * with several clients: one check per event-loop poll covers every session that read before it, read-clock.ts);
 * `--check-catalog` makes every execution check (one pread of SQLite's WAL index: a syscall, ~1–4 µs here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createQueryEngine } from '../src/engine/index.ts';
import type { EngineSession } from '../src/engine/engine-session.ts';
import type { StatementResult } from '../src/wire/handler.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, n: { type: 'string', default: '50000' }, case: { type: 'string', default: 'lookup' }, 'check-catalog': { type: 'boolean', default: false } },
});

const warehouse = mkdtempSync(join(tmpdir(), 'lg-engine-lookup-'));
const engine = await createQueryEngine({ databases: ['lake'], warehouse });
const session = (await engine.connect({ user: 'postgres', database: 'lake', parameters: {}, backendPid: 1, remoteAddress: '127.0.0.1', remotePort: 1, localAddress: '127.0.0.1', localPort: 2, ssl: false })) as EngineSession;
const simple = async (sql: string): Promise<void> => {
  for await (const r of session.simpleQuery(sql)) if (r.kind === 'rows') for await (const _b of r.batches) { /* drain */ }
};
await simple('CREATE SCHEMA bench');
await simple('CREATE TABLE bench.bench_kv (id int PRIMARY KEY, v text)');
await simple('INSERT INTO bench.bench_kv SELECT g, md5(g::text) FROM generate_series(1, 1000) g');
const lookup = args.case === 'lookup';
const p = await session.prepare(lookup ? 'SELECT v FROM bench.bench_kv WHERE id = $1' : 'SELECT 1', lookup ? [23] : []);

/** one execution and its Sync; the rows counted */
async function once(id: number): Promise<number> {
  // no socket reads in-process: readsSoFar() stays 0, so mark 0 is covered by the last check (iceberg-tables.ts)
  if (!args['check-catalog']) session.readMark = 0;
  let r: StatementResult | Promise<StatementResult> = session.executeNow(p, lookup ? [id] : [], true);
  if (r instanceof Promise) r = await r;
  let rows = 0;
  if (r.kind === 'rows') {
    if (r.ready !== undefined) for (const b of r.ready) rows += b.length;
    else for await (const b of r.batches) rows += b.length;
  }
  const s = session.syncNow();
  if (s instanceof Promise) await s;
  return rows;
}

const n = Number(args.n);
let seed = 12345;
const nextId = (): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return 1 + (seed % 1000);
};
for (let i = 0; i < n; i++) await once(nextId()); // warm: JIT, caches
const perRun: number[] = [];
for (let run = 0; run < Number(args.runs); run++) {
  const t0 = process.cpuUsage();
  let rows = 0;
  for (let i = 0; i < n; i++) rows += await once(nextId());
  const t = process.cpuUsage(t0);
  if (lookup && rows !== n) throw new Error(`expected ${n} rows, got ${rows}`);
  perRun.push((t.user + t.system) / n);
}
const sorted = [...perRun].sort((a, b) => a - b);
console.log(`${args.case}: CPU µs per execution ${perRun.map((v) => v.toFixed(2)).join(' ')}; median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}`);
await session.close();
await engine.close();
rmSync(warehouse, { recursive: true, force: true });
