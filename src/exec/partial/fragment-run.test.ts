/**
 * A worker fragment's steps on their own (fragment-run.ts): widening a task's batches to the scan's width (unread
 * columns NULL, the exact mark kept), the row-at-a-time aggregate's cancel check — and that
 * runFragment stays a short driver, the reason the steps were taken out of it (V8 re-optimizes an async
 * function whole on each of its deopts).
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../common/batch.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser, type Aggregate, type LogicalPlan } from '../../sql/index.ts';
import { MemoryCatalog, MemoryTable, testSession } from '../../sql/testing/memory-catalog.ts';
import type { ExecContext } from '../context.ts';
import { bindSql } from '../testing/run-sql.ts';
import { isExact, markExact } from '../../iceberg/parallel/exact-rows.ts';
import { FragmentRun } from './fragment-run.ts';
import { runFragment } from './run-fragment.ts';
import { wireEvalContext } from './worker-eval-context.ts';
import { workerFragmentOf, type WireFragment } from './worker-fragment.ts';

const ROWS = 3000;

function catalog(): { cat: MemoryCatalog; rows: unknown[][] } {
  const rows: unknown[][] = [];
  for (let i = 0; i < ROWS; i++) rows.push([i % 7, i % 11 === 0 ? null : `s${i % 5}`, i, i % 13 === 0 ? null : i * 0.5]);
  const cat = new MemoryCatalog();
  cat.addRelation({ schema: 'public', name: 't', source: new MemoryTable([
    { name: 'g', type: sqlType(Oid.int4), nullable: false },
    { name: 's', type: sqlType(Oid.text), nullable: true },
    { name: 'd', type: sqlType(Oid.int4), nullable: false },
    { name: 'f', type: sqlType(Oid.float8), nullable: true },
  ], rows) });
  return { cat, rows };
}

function ctxOf(cat: MemoryCatalog): ExecContext {
  const session = testSession();
  const ac = new AbortController();
  return { session, catalog: cat, transactionTimestamp: 1n, statementTimestamp: 1n, signal: ac.signal, params: [], scan: { signal: ac.signal, session, catalog: cat } };
}

function aggregateOf(p: LogicalPlan): Aggregate {
  if (p.kind === 'Aggregate') return p;
  const input = (p as { input?: LogicalPlan }).input;
  if (input === undefined) throw new Error(`no Aggregate under ${p.kind}`);
  return aggregateOf(input);
}

function fragmentOf(cat: MemoryCatalog, sql: string): { agg: Aggregate; fragment: WireFragment } {
  const agg = aggregateOf(bindSql(cat, sql).plan);
  const fragment = workerFragmentOf(agg);
  if (fragment === null) throw new Error('not a worker fragment');
  return { agg, fragment };
}

async function* batchesOf(rows: unknown[][], fragment: WireFragment, size: number): AsyncIterable<Batch> {
  for (let s = 0; s < rows.length; s += size) {
    const part = rows.slice(s, s + size);
    yield { length: part.length, columns: fragment.projection.map((c) => part.map((r) => r[c])) };
  }
}

const QUERY = 'SELECT g, count(s), max(s), sum(f) FROM t WHERE d % 3 <> 0 GROUP BY g';

describe('FragmentRun', () => {
  it('runFragment stays a short driver (setup and per-batch steps live in FragmentRun)', () => {
    // session 25: the whole async function was ≈ 5,100 characters (as tsx compiles it; ≈ 550 now), 11–19 % of a steady-state server's TurboFan compile time
    expect(runFragment.toString().length).toBeLessThan(2000);
  });

  it('widen: read fields at their scan columns, unread ones NULL, the exact mark kept', async () => {
    await initParser();
    const { cat } = catalog();
    const { fragment } = fragmentOf(cat, 'SELECT g, sum(d) FROM t GROUP BY g');
    const run = new FragmentRun({ fragment, eval: wireEvalContext(ctxOf(cat)) }, batchesOf([], fragment, 10), [], undefined);
    const b: Batch = { length: 2, columns: fragment.projection.map((c) => [c * 10, c * 10 + 1]) };
    const wide = run.widen(markExact(b));
    expect(wide.columns.length).toBe(fragment.width);
    fragment.projection.forEach((c, k) => expect(wide.columns[c]).toBe(b.columns[k]));
    for (let c = 0; c < fragment.width; c++) if (!fragment.projection.includes(c)) expect(wide.columns[c]).toEqual([null, null]);
    expect(isExact(wide)).toBe(true);
    expect(isExact(run.widen({ length: 2, columns: b.columns }))).toBe(false);
  });

  it('rowBatch: the row-at-a-time aggregate stops when canceled', async () => {
    await initParser();
    const { cat, rows } = catalog();
    const { fragment } = fragmentOf(cat, QUERY);
    const run = new FragmentRun({ fragment, eval: wireEvalContext(ctxOf(cat)) }, batchesOf([], fragment, 10), [], undefined);
    const b = run.widen({ length: 2000, columns: fragment.projection.map((c) => rows.slice(0, 2000).map((r) => r[c])) });
    for (const a of run.args) await a.prepare(b);
    expect(run.rowBatch(b, () => true)).toBe(false);
    expect(run.rowBatch(b, () => false)).toBe(true);
    expect(await runFragment({ fragment, eval: wireEvalContext(ctxOf(cat)) }, batchesOf(rows, fragment, 500), () => true)).toBeNull();
  });
});
