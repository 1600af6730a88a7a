/**
 * ReusablePlan: which plans keep their operator tree, and that a kept tree answers each execution with that
 * execution's parameters, timestamps and settings — also while an earlier run of it is still open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../common/batch.ts';
import { parseSql } from '../sql/index.ts';
import { optimizePlan } from '../exec/index.ts';
import type { StatementResult } from '../wire/handler.ts';
import { resultRows, simpleQueryRows } from './testing/result-rows.ts';
import { createQueryEngine, type QueryEngine } from './index.ts';
import type { EngineSession } from './engine-session.ts';
import { ReusablePlan, reusable } from './reusable-plan.ts';

let engine: QueryEngine;
let session: EngineSession;
let warehouse: string;

const run = (sql: string): Promise<unknown[][]> => simpleQueryRows(session, sql);

async function exec(p: Awaited<ReturnType<EngineSession['prepare']>>, params: unknown[]): Promise<unknown[][]> {
  const rows = await resultRows(await session.execute(p, params));
  await session.sync();
  return rows;
}

beforeAll(async () => {
  warehouse = mkdtempSync(join(tmpdir(), 'lg-reusable-'));
  engine = await createQueryEngine({ databases: ['lake'], warehouse });
  session = (await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 83, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false })) as EngineSession;
  await run('CREATE SCHEMA r');
  await run('CREATE TABLE r.kv (id int, v text)');
  await run(`INSERT INTO r.kv SELECT g, 'v' || g FROM generate_series(1, 50) g`);
});
afterAll(async () => {
  await session?.close();
  await engine?.close();
  rmSync(warehouse, { recursive: true, force: true });
});

const optimized = (sql: string, types: number[] = []) => optimizePlan(session.bind(parseSql(sql)[0]!.ast, types).plan, session.execContext([])).plan;

describe('reusable', () => {
  it('keeps scans, filters, projections, VALUES and LIMIT without subqueries or aggregates', () => {
    expect(reusable(optimized('SELECT 1'))).toBe(true);
    expect(reusable(optimized('SELECT v FROM r.kv WHERE id = $1', [23]))).toBe(true);
    expect(reusable(optimized('SELECT upper(v), id + 1 FROM r.kv WHERE id > 3 AND v LIKE $1 LIMIT 5', [25]))).toBe(true);
    expect(reusable(optimized('SELECT x * 2 FROM (VALUES (1), (2)) t(x)'))).toBe(true);
  });

  it('refuses subqueries, aggregates, sorts, joins and set-returning functions', () => {
    expect(reusable(optimized('SELECT (SELECT max(id) FROM r.kv)'))).toBe(false);
    expect(reusable(optimized('SELECT v FROM r.kv WHERE id IN (SELECT id FROM r.kv WHERE id < 3)'))).toBe(false);
    expect(reusable(optimized('SELECT sum(id) FROM r.kv'))).toBe(false);
    expect(reusable(optimized('SELECT v FROM r.kv ORDER BY id'))).toBe(false);
    expect(reusable(optimized('SELECT a.v FROM r.kv a JOIN r.kv b ON a.id = b.id'))).toBe(false);
    expect(reusable(optimized('SELECT generate_series(1, 3)'))).toBe(false);
    expect(reusable(optimized('SELECT * FROM generate_series(1, 3)'))).toBe(false);
  });
});

describe('ReusablePlan', () => {
  it('runs one tree at a time: null while a run is open, again once it ended', async () => {
    const bound = session.bind(parseSql('SELECT v FROM r.kv WHERE id = $1')[0]!.ast, [23]);
    const plan = ReusablePlan.build(bound.plan, session.execContext([1]), 0)!;
    expect(plan).not.toBeNull();
    const first = plan.run(session.execContext([7]))![Symbol.asyncIterator]();
    const b = (await first.next()).value as Batch;
    expect(b.columns[0]).toEqual(['v7']);
    expect(plan.run(session.execContext([8]))).toBeNull();
    expect((await first.next()).done).toBe(true);
    const again: unknown[] = [];
    for await (const x of plan.run(session.execContext([9]))!) again.push(...x.columns[0]!);
    expect(again).toEqual(['v9']);
  });

  it('answers each execution of a prepared statement with its own parameters', async () => {
    const p = await session.prepare('SELECT v, id + $2 FROM r.kv WHERE id = $1', [23, 23]);
    for (const id of [5, 17, 50, 51, 5]) expect(await exec(p, [id, 100])).toEqual(id > 50 ? [] : [[`v${id}`, id + 100]]);
    const s = await session.prepare('SELECT $1::int + 1, $2::text || $1::text', [23, 25]);
    expect(await exec(s, [1, 'a'])).toEqual([[2, 'a1']]);
    expect(await exec(s, [41, null])).toEqual([[42, null]]);
  });

  it('sees each statement’s timestamp and the current settings', async () => {
    const p = await session.prepare('SELECT statement_timestamp()', []);
    const t1 = (await exec(p, []))[0]?.[0];
    await new Promise((r) => setTimeout(r, 5));
    const t2 = (await exec(p, []))[0]?.[0];
    expect(t2).not.toEqual(t1);
    const d = await session.prepare(`SELECT $1::date::text`, [25]);
    expect(await exec(d, ['2024-03-07'])).toEqual([['2024-03-07']]);
    await run(`SET DateStyle = 'SQL, DMY'`);
    expect(await exec(d, ['2024-03-07'])).toEqual([['07/03/2024']]);
    await run('RESET DateStyle');
    expect(await exec(d, ['2024-03-07'])).toEqual([['2024-03-07']]);
  });

  it('an open run of a statement does not disturb another execution of it (that one runs afresh)', async () => {
    const p = await session.prepare('SELECT v FROM r.kv WHERE id <= $1', [23]);
    const open = (await session.execute(p, [3])) as Extract<StatementResult, { kind: 'rows' }>;
    const it1 = open.batches[Symbol.asyncIterator]();
    const firstBatch = (await it1.next()).value as Batch;
    expect(await resultRows(await session.execute(p, [2]))).toEqual([['v1'], ['v2']]);
    const rest: unknown[] = [...firstBatch.columns[0]!];
    for (let r = await it1.next(); !r.done; r = await it1.next()) rest.push(...r.value.columns[0]!);
    expect(rest).toEqual(['v1', 'v2', 'v3']);
    await session.sync();
    expect(await exec(p, [1])).toEqual([['v1']]);
  });

  it('sees a new snapshot of the table (a new bound plan)', async () => {
    const p = await session.prepare('SELECT v FROM r.kv WHERE id = $1', [23]);
    expect(await exec(p, [60])).toEqual([]);
    await run(`INSERT INTO r.kv VALUES (60, 'sixty')`);
    expect(await exec(p, [60])).toEqual([['sixty']]);
  });
});
