/**
 * The small-plan fast path (ReusablePlan.runNow, the operators' executeSync, IcebergTableSource.scanNow): which
 * statements come back with their rows already computed (StatementResult.ready), that those rows equal the
 * streamed path's, and that errors, LIMIT/OFFSET, volatile functions, subqueries and EXPLAIN ANALYZE behave
 * as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementResult } from '../wire/handler.ts';
import { resultRows, simpleQueryRows } from './testing/result-rows.ts';
import { createQueryEngine, type QueryEngine } from './index.ts';
import type { EngineSession } from './engine-session.ts';
import { pointIndexStats } from '../iceberg/read/point-index.ts';

let engine: QueryEngine;
let session: EngineSession;
let warehouse: string;

const run = (sql: string): Promise<unknown[][]> => simpleQueryRows(session, sql);

type Rows = Extract<StatementResult, { kind: 'rows' }>;

/** one simple-protocol statement's result (not drained) */
async function result(sql: string): Promise<Rows> {
  for await (const r of session.simpleQuery(sql)) if (r.kind === 'rows') return r;
  throw new Error(`no rows from ${sql}`);
}

/** executes a prepared statement: its result, whether it was ready, and its rows */
async function exec(p: Awaited<ReturnType<EngineSession['prepare']>>, params: unknown[]): Promise<{ ready: boolean; rows: unknown[][] }> {
  const r = await session.execute(p, params);
  const ready = r.kind === 'rows' && r.ready !== undefined;
  const rows = await resultRows(r);
  await session.sync();
  return { ready, rows };
}

beforeAll(async () => {
  warehouse = mkdtempSync(join(tmpdir(), 'lg-run-now-'));
  engine = await createQueryEngine({ databases: ['lake'], warehouse });
  session = (await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 84, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false })) as EngineSession;
  await run('CREATE SCHEMA n');
  await run('CREATE TABLE n.kv (id int, v text, d date)');
  await run(`INSERT INTO n.kv SELECT g, 'v' || g, DATE '2024-01-01' + g FROM generate_series(1, 1000) g`);
  await run(`DELETE FROM n.kv WHERE id = 500`);
  await run('CREATE TABLE n.clean (id int, v text)');
  await run(`INSERT INTO n.clean SELECT g, md5(g::text) FROM generate_series(1, 1000) g`);
});
afterAll(async () => {
  await session?.close();
  await engine?.close();
  rmSync(warehouse, { recursive: true, force: true });
});

describe('statements answered at once', () => {
  it('SELECT of constants and VALUES are ready, with the same rows and tags', async () => {
    const one = await result('SELECT 1 AS a, $$x$$ || 2 AS b');
    expect(one.ready).toBeDefined();
    expect(await resultRows(one)).toEqual([[1, 'x2']]);
    const values = await result('SELECT x * 2 FROM (VALUES (1), (2), (3)) t(x) WHERE x <> 2');
    expect(values.ready).toBeDefined();
    expect(await resultRows(values)).toEqual([[2], [6]]);
    expect(values.tag(2)).toBe('SELECT 2');
  });

  it('LIMIT and OFFSET over VALUES, and their errors', async () => {
    const r = await result('SELECT x FROM (VALUES (1), (2), (3), (4)) t(x) LIMIT 2 OFFSET 1');
    expect(r.ready).toBeDefined();
    expect(await resultRows(r)).toEqual([[2], [3]]);
    expect(await run('SELECT x FROM (VALUES (1), (2)) t(x) LIMIT 0')).toEqual([]);
    await expect(run('SELECT x FROM (VALUES (1)) t(x) LIMIT -1')).rejects.toMatchObject({ code: '2201W', message: 'LIMIT must not be negative' });
    await expect(run('SELECT x FROM (VALUES (1)) t(x) OFFSET -1')).rejects.toMatchObject({ code: '2201X', message: 'OFFSET must not be negative' });
  });

  it('an error raised on the fast path fails the transaction block', async () => {
    await run('BEGIN');
    await expect(run('SELECT 1 / 0')).rejects.toMatchObject({ code: '22012', message: 'division by zero' });
    expect(session.transactionStatus()).toBe('E');
    await expect(run('SELECT 1')).rejects.toMatchObject({ code: '25P02' });
    await run('ROLLBACK');
    expect(session.transactionStatus()).toBe('I');
    expect(await run('SELECT 2')).toEqual([[2]]);
  });

  it('volatile functions, subqueries and EXPLAIN ANALYZE keep the streamed path', async () => {
    const sleep = await result('SELECT pg_sleep(0.001) IS NULL');
    expect(sleep.ready).toBeUndefined();
    expect(await resultRows(sleep)).toEqual([[false]]);
    const sub = await result('SELECT (SELECT 41) + 1');
    expect(sub.ready).toBeUndefined();
    expect(await resultRows(sub)).toEqual([[42]]);
    const explain = (await run('EXPLAIN ANALYZE SELECT v FROM n.clean WHERE id = 7')).map((r) => r[0]).join('\n');
    expect(explain).toMatch(/actual rows=1/);
  });

  it('a point lookup on a cached Iceberg file is ready and equals the streamed answer', async () => {
    const p = await session.prepare('SELECT v, id FROM n.clean WHERE id = $1', [23]);
    await exec(p, [1]); // the first read fills the file cache
    const from = pointIndexStats.probes;
    for (const id of [7, 1000, 1001, 0, 512]) {
      const fast = await exec(p, [id]);
      expect(fast.ready, `id ${id}`).toBe(true);
      expect(fast.rows).toEqual(id >= 1 && id <= 1000 ? [[expect.any(String), id]] : []);
      await run('SET lakegate.point_index = off');
      const slow = await exec(p, [id]);
      await run('RESET lakegate.point_index');
      expect(slow.ready).toBe(false);
      expect(slow.rows).toEqual(fast.rows);
    }
    expect(pointIndexStats.probes).toBeGreaterThan(from);
  });

  it('a table with a delete file and other conjuncts: same rows either way', async () => {
    const p = await session.prepare('SELECT v, d::text FROM n.kv WHERE id = $1 AND v <> $2', [23, 25]);
    for (const [id, v] of [[499, 'x'], [500, 'x'], [501, 'v501'], [2, 'y']] as const) {
      const fast = await exec(p, [id, v]);
      await run('SET lakegate.point_index = off');
      const slow = await exec(p, [id, v]);
      await run('RESET lakegate.point_index');
      expect(fast.rows, `id ${id}`).toEqual(slow.rows);
    }
    expect((await exec(p, [499, 'x'])).rows).toEqual([['v499', '2025-05-14']]);
    expect((await exec(p, [500, 'x'])).rows).toEqual([]);
  });

  it('repeated lookup values over several files: the kept pruned plans give each value its own file', async () => {
    await run('CREATE TABLE n.parts (id int, v text)');
    for (const [lo, hi] of [[1, 100], [101, 200], [201, 300]]) await run(`INSERT INTO n.parts SELECT g, 'p' || g FROM generate_series(${lo}, ${hi}) g`);
    const p = await session.prepare('SELECT v FROM n.parts WHERE id = $1', [23]);
    for (const id of [1, 150, 299]) await exec(p, [id]); // each file's first read fills the cache
    for (let round = 0; round < 2; round++) {
      for (const id of [1, 100, 101, 150, 200, 201, 300, 0, 301, 150]) {
        const fast = await exec(p, [id]);
        expect(fast.ready, `id ${id}`).toBe(true);
        expect(fast.rows, `id ${id}`).toEqual(id >= 1 && id <= 300 ? [[`p${id}`]] : []);
      }
    }
    // a new file: the next snapshot's source prunes afresh
    await run(`INSERT INTO n.parts VALUES (301, 'new')`);
    await exec(p, [301]);
    expect((await exec(p, [301])).rows).toEqual([['new']]);
    expect((await exec(p, [150])).rows).toEqual([['p150']]);
  });

  it('a new snapshot is seen by the next ready lookup', async () => {
    const p = await session.prepare('SELECT v FROM n.clean WHERE id = $1', [23]);
    await exec(p, [5]);
    expect((await exec(p, [2000])).rows).toEqual([]);
    await run(`INSERT INTO n.clean VALUES (2000, 'new')`);
    await exec(p, [2000]);
    expect((await exec(p, [2000])).rows).toEqual([['new']]);
  });
});

describe('answers without a promise (executeNow, simpleQueryNow, syncNow)', () => {
  it('a cached prepared point lookup and SELECT 1 answer synchronously, with the rows of execute()', async () => {
    const p = await session.prepare('SELECT v, id FROM n.clean WHERE id = $1 AND v IS NOT NULL', [23]);
    await exec(p, [1]);
    await exec(p, [2]); // the session's operator tree is built by now
    for (const id of [3, 999, 5000]) {
      const now = session.executeNow(p, [id]);
      expect(now, `id ${id}`).not.toBeInstanceOf(Promise);
      session.syncNow();
      const rows = await resultRows(now as StatementResult);
      expect(rows).toEqual((await exec(p, [id])).rows);
      expect(rows).toEqual(id <= 1000 ? [[expect.any(String), id]] : []);
    }
    const one = session.simpleQueryNow('SELECT 1 AS a');
    expect(one).not.toBeInstanceOf(Promise);
    expect(await resultRows(one as StatementResult)).toEqual([[1]]);
  });

  it('several statements, none, utility statements and DML keep their paths', async () => {
    expect(session.simpleQueryNow('SELECT 1; SELECT 2')).toBeNull();
    expect(session.simpleQueryNow(';')).toBeNull();
    const show = await session.simpleQueryNow('SHOW search_path');
    expect(show?.kind).toBe('rows');
    await run('CREATE TEMP TABLE tmp_now (a int)');
    const ins = await session.simpleQueryNow('INSERT INTO tmp_now VALUES (1), (2)');
    expect(ins).toEqual({ kind: 'command', tag: 'INSERT 0 2' });
  });

  it('errors are thrown (or rejected) and fail an open transaction block', async () => {
    expect(() => session.simpleQueryNow('SELEC 1')).toThrow(/syntax error/);
    const p = await session.prepare('SELECT 10 / $1::int', [23]);
    await run('BEGIN');
    const failing = (): unknown => session.executeNow(p, [0]);
    expect(failing).toThrow(/division by zero/);
    expect(session.transactionStatus()).toBe('E');
    expect(() => session.simpleQueryNow('SELECT 1')).toThrow(/current transaction is aborted/);
    await run('ROLLBACK');
    expect(session.transactionStatus()).toBe('I');
    const ok = session.executeNow(p, [5]);
    expect(await resultRows(ok as StatementResult)).toEqual([[2]]);
  });

  it('a filter over a lookup judges few rows a row at a time: NULLs, other conjuncts and errors as before', async () => {
    await run('CREATE TABLE n.small (id int, v text, w int)');
    await run(`INSERT INTO n.small VALUES (1, 'a', 1), (2, NULL, 0), (3, 'c', NULL)`);
    const p = await session.prepare('SELECT id FROM n.small WHERE id = $1 AND v = $2', [23, 25]);
    await exec(p, [1, 'a']);
    expect((await exec(p, [1, 'a'])).rows).toEqual([[1]]);
    expect((await exec(p, [2, 'a'])).rows).toEqual([]);
    expect((await exec(p, [1, 'b'])).rows).toEqual([]);
    const q = await session.prepare('SELECT id FROM n.small WHERE id = $1 AND 10 / w > 1', [23]);
    await exec(q, [1]);
    expect((await exec(q, [1])).rows).toEqual([[1]]);
    expect((await exec(q, [3])).rows).toEqual([]);
    await expect(exec(q, [2])).rejects.toThrow(/division by zero/);
  });
});
