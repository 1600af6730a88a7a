/**
 * The worker fragment's partial aggregate (run-fragment.ts) with typed groups (typed-partial-groups.ts) and
 * without: the rows of a table split into tasks, each task's packs of partial groups (typed counts and sums, or
 * state objects) merged by PartialMerge as PartialAggregateExec merges them, must give the main thread's serial
 * HashAggregate answer — same groups, same order, same digits and display scales — also when every batch
 * flushes the group table.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser, type Aggregate, type LogicalPlan } from '../../sql/index.ts';
import { MemoryCatalog, MemoryTable, testSession } from '../../sql/testing/memory-catalog.ts';
import type { ExecContext } from '../context.ts';
import { bindSql, runSql } from '../testing/run-sql.ts';
import { runFragment, type PartialGroups } from './run-fragment.ts';
import { PartialMerge } from './partial-merge.ts';
import { wireEvalContext } from './worker-eval-context.ts';
import { workerFragmentOf } from './worker-fragment.ts';

const NUM = sqlType(Oid.numeric, ((12 << 16) | 2) + 4);
const ROWS = 6000;

function table(): { cat: MemoryCatalog; rows: unknown[][] } {
  const rows: unknown[][] = [];
  for (let i = 0; i < ROWS; i++) {
    rows.push([
      i % 29 === 0 ? null : `k${i % 4}`,
      i % 31 === 0 ? null : i % 7,
      i % 19 === 0 ? null : Numeric.of(BigInt((i * 37) % 100_000), 2),
      // beyond the typed sum's input limit now and then: those rows go through the state objects
      i % 997 === 0 ? Numeric.of(2n ** 60n + BigInt(i), 2) : Numeric.of(BigInt((i * 13) % 1000), 2),
      (i * 3) % 400,
      i / 8,
      // one-character keys (char-key-memo.ts); one longer value late in the table turns the memo off there
      i % 37 === 0 ? null : ['A', 'F', 'O', ' '][i % 4],
      i === 5000 ? 'long' : i % 23 === 0 ? null : ['A', 'N', 'R', '', 'é'][i % 5],
      // int8 keys past int4's range (int8-key-wire.ts: they cross as exact doubles)
      i % 41 === 0 ? null : BigInt(i % 50) * 1_000_000_007n - 3n,
    ]);
  }
  const cat = new MemoryCatalog();
  cat.addRelation({ schema: 'public', name: 't', source: new MemoryTable([
    { name: 'k', type: sqlType(Oid.text), nullable: true },
    { name: 'g', type: sqlType(Oid.int4), nullable: true },
    { name: 'q', type: NUM, nullable: true },
    { name: 'p', type: NUM, nullable: true },
    { name: 'd', type: sqlType(Oid.int4), nullable: false },
    { name: 'f', type: sqlType(Oid.float8), nullable: false },
    { name: 'b', type: sqlType(Oid.bpchar, 5), nullable: true },
    { name: 'c', type: sqlType(Oid.text), nullable: true },
    { name: 'o', type: sqlType(Oid.int8), nullable: true },
  ], rows) });
  return { cat, rows };
}

function aggregateOf(p: LogicalPlan): Aggregate {
  if (p.kind === 'Aggregate') return p;
  const input = (p as { input?: LogicalPlan }).input;
  if (input === undefined) throw new Error(`no Aggregate under ${p.kind}`);
  return aggregateOf(input);
}

function ctxOf(cat: MemoryCatalog): ExecContext {
  const session = testSession();
  const ac = new AbortController();
  return { session, catalog: cat, transactionTimestamp: 1n, statementTimestamp: 1n, signal: ac.signal, params: [], scan: { signal: ac.signal, session, catalog: cat } };
}

/** the fragment run over `tasks` slices of the table's rows (batches of 500), merged and finalised as on the main thread */
async function viaWorkers({ cat, rows: src }: { cat: MemoryCatalog; rows: unknown[][] }, sql: string, tasks: number, flushBytes?: number): Promise<{ rows: string[][]; typedPacks: number; objectPacks: number }> {
  const agg = aggregateOf(bindSql(cat, sql).plan);
  const fragment = workerFragmentOf(agg);
  if (fragment === null) throw new Error('not a worker fragment');
  const ctx = ctxOf(cat);
  const merge = new PartialMerge(fragment.keyOids, agg.aggregates, ctx);
  let typedPacks = 0, objectPacks = 0;
  const packs: PartialGroups[] = [];
  const per = Math.ceil(ROWS / tasks);
  for (let t = 0; t < tasks; t++) {
    const slice = src.slice(t * per, (t + 1) * per);
    async function* batches(): AsyncIterable<Batch> {
      for (let s = 0; s < slice.length; s += 500) {
        const part = slice.slice(s, s + 500);
        yield { length: part.length, columns: fragment!.projection.map((c) => part.map((r) => r[c])) };
      }
    }
    const last = await runFragment({ fragment, eval: wireEvalContext(ctx), ...(flushBytes === undefined ? {} : { flushBytes }) }, batches(), () => false) as PartialGroups;
    for (const part of [...(last.earlier ?? []), last]) {
      // what the worker posts is structured-cloned on its way to the main thread
      merge.add(structuredClone(part));
      packs.push(part);
      if (part.typed !== undefined) typedPacks++;
      else objectPacks++;
    }
  }
  const count = agg.groupKeys.length === 0 ? Math.max(1, merge.size) : merge.size;
  bigintKeyPacks = 0;
  for (const part of packs) if (part.keys.some((col) => col.some((v) => typeof v === 'bigint'))) bigintKeyPacks++;
  const rows: string[][] = [];
  for (let g = 0; g < count; g++) rows.push([...merge.keysOf(g), ...agg.aggregates.map((_a, k) => merge.final(k, g))].map(show));
  return { rows, typedPacks, objectPacks };
}

const show = (v: unknown): string => (v === null ? 'NULL' : String(v));

/** how many packs of the last viaWorkers run carried a BigInt key value (cloned one by one on their way) */
let bigintKeyPacks = 0;

const QUERIES: readonly [string, string][] = [
  ['Q1-like: count, numeric sums and avgs by two keys', `SELECT k, g, sum(q), sum(p), sum(q * (1 - p)), avg(q), avg(p), count(*), count(p)
    FROM t WHERE d < 350 GROUP BY k, g`],
  ['typed min / max next to state aggregates', 'SELECT g, min(q), max(p), min(d), max(f), max(k), stddev(q), count(q), sum(q) FROM t GROUP BY g'],
  ['no GROUP BY', 'SELECT count(*), sum(p), avg(q), min(p), max(q) FROM t WHERE d % 3 = 0'],
  ['empty input', 'SELECT count(*), sum(q), min(p) FROM t WHERE d < 0'],
  ['empty input grouped', 'SELECT k, count(*), sum(q) FROM t WHERE d < 0 GROUP BY k'],
  ['computed key and FILTER', 'SELECT d % 5, count(*) FILTER (WHERE g > 2), sum(q) FILTER (WHERE d > 100), avg(p) FROM t GROUP BY 1'],
  ['one-character keys by dense code', 'SELECT b, c, sum(q), count(*), avg(p), max(k) FROM t WHERE d < 390 GROUP BY b, c'],
  ['untyped sums (int4, float8) fall back', 'SELECT k, sum(g), sum(f), count(*) FROM t GROUP BY k'],
  ['an int8 key', 'SELECT o, sum(q), count(*), avg(p) FROM t WHERE d < 390 GROUP BY o'],
  ['an int8 key next to a text key', 'SELECT k, o, sum(q), count(o) FROM t WHERE d < 300 GROUP BY k, o'],
];

describe('TypedPartialGroups in the worker fragment', () => {
  it.each(QUERIES)('%s: merged partial groups give the serial answer', async (_name, sql) => {
    await initParser();
    const t = table();
    const serial = (await runSql(t.cat, sql)).rows.map((r) => r.map(show));
    expect(serial.length).toBe(sql.includes('d < 0 GROUP BY') ? 0 : sql.includes('GROUP BY k, g') ? 40 : serial.length || 1);
    expect((await viaWorkers(t, sql, 3)).rows).toEqual(serial);
    // every batch flushes the group table: keys repeat across packs and merge all the same
    expect((await viaWorkers(t, sql, 2, 1)).rows).toEqual(serial);
  });

  it('sends the int8 key column of typed packs as exact doubles, no BigInt per group', async () => {
    await initParser();
    const t = table();
    const sql = 'SELECT o, sum(q), count(*) FROM t GROUP BY o';
    const serial = (await runSql(t.cat, sql)).rows.map((r) => r.map(show));
    const got = await viaWorkers(t, sql, 3);
    expect(got.rows).toEqual(serial);
    expect(got.typedPacks).toBe(3);
    expect(bigintKeyPacks).toBe(0);
  });

  it('sends counts and numeric sums as typed arrays, and merges them with packs of state objects', async () => {
    await initParser();
    const t = table();
    const typedOnly = 'SELECT k, sum(q), avg(q), count(*), count(q) FROM t GROUP BY k';
    const serial = (await runSql(t.cat, typedOnly)).rows.map((r) => r.map(show));
    const typed = await viaWorkers(t, typedOnly, 3);
    expect(typed).toEqual({ rows: serial, typedPacks: 3, objectPacks: 0 });
    // p passes the typed sum's input limit every 997 rows: packs holding such a row carry state objects, the others typed arrays
    const mixed = 'SELECT g, sum(p), avg(p), count(*), sum(q) FROM t GROUP BY g';
    const serialMixed = (await runSql(t.cat, mixed)).rows.map((r) => r.map(show));
    const flushed = await viaWorkers(t, mixed, 2, 1);
    expect(flushed.rows).toEqual(serialMixed);
    expect(flushed.typedPacks).toBeGreaterThan(0);
    expect(flushed.objectPacks).toBeGreaterThan(0);
  });
});
