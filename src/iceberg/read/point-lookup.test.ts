/**
 * Point lookups through the hash index of a cached small file (point-lookup.ts, point-index.ts), end to end
 * through the engine: every answer equals the one with `lakegate.point_index = off` (the late-materialization
 * path) — for int / bigint / text / date / timestamp keys, NULLs, duplicates, IN lists, other conjuncts, type
 * coercions, char(n), deleted rows and an older snapshot — the index is really used (probe counters), and
 * EXPLAIN ANALYZE reports the same counters either way. Also pointKeyOf / probePointIndex and the memory
 * charged to the file cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultRows, simpleQueryRows } from '../../engine/testing/result-rows.ts';
import { createQueryEngine, type QueryEngine } from '../../engine/index.ts';
import type { EngineSession } from '../../engine/engine-session.ts';
import { MAX_POINT_KEYS, pointKeyOf } from './point-lookup.ts';
import { pointIndexStats, probePointIndex } from './point-index.ts';
import { fileCacheStats } from './file-cache.ts';
import { pointAnswerStats } from './point-lookup-answer.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';

let engine: QueryEngine;
let session: EngineSession;
let warehouse: string;

const run = (sql: string): Promise<unknown[][]> => simpleQueryRows(session, sql);

/** the rows with the index, after checking they equal the rows without it; `probes`: index probes expected */
async function same(sql: string, probes = true): Promise<unknown[][]> {
  await run('SET lakegate.point_index = off');
  const before = pointIndexStats.probes;
  const off = await run(sql);
  expect(pointIndexStats.probes).toBe(before);
  await run('RESET lakegate.point_index');
  await run(sql); // the first read after a miss may fill the cache: the second is the indexed one
  // the second indexed run may be answered by the rows the first kept (point-lookup-answer.ts)
  const from = pointIndexStats.probes, hits = pointAnswerStats.hits;
  const on = await run(sql);
  if (probes) expect(pointIndexStats.probes - from + pointAnswerStats.hits - hits, sql).toBeGreaterThan(0);
  else expect(pointIndexStats.probes, sql).toBe(from);
  expect(on, sql).toEqual(off);
  return on;
}

beforeAll(async () => {
  warehouse = mkdtempSync(join(tmpdir(), 'lg-point-index-'));
  engine = await createQueryEngine({ databases: ['lake'], warehouse });
  session = (await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 84, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false })) as EngineSession;
  await run('CREATE SCHEMA pi');
  await run('CREATE TABLE pi.kv (id int, big bigint, name text, d date, ts timestamp, c char(4), v text)');
  // NULL keys every 7th row, duplicates of `big` (id % 50), names repeat every 100
  await run(`INSERT INTO pi.kv SELECT g, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 50 END, 'n' || (g % 100), DATE '2024-01-01' + g,
    TIMESTAMP '2024-01-01 00:00' + g * INTERVAL '1 hour', CASE WHEN g % 3 = 0 THEN 'ab' ELSE 'abcd' END, md5(g::text) FROM generate_series(1, 1000) g`);
}, 60_000);
afterAll(async () => {
  await session?.close();
  await engine?.close();
  rmSync(warehouse, { recursive: true, force: true });
});

describe('point lookups on a cached small file', () => {
  it('answers equalities on int, bigint, text, date and timestamp keys as the row filter does', async () => {
    expect(await same('SELECT id, v FROM pi.kv WHERE id = 17')).toEqual([[17, '70efdf2ec9b086079795c442636b55fb']]);
    expect(await same('SELECT id FROM pi.kv WHERE id = 5000', false)).toEqual([]); // pruned by column bounds
    expect(await same('SELECT id FROM pi.kv WHERE id = 500 AND id = 501')).toEqual([]);
    expect(await same('SELECT count(*) FROM pi.kv WHERE big = 3')).toEqual([[17n]]); // 3 of the 20 are NULL (g % 7 = 0)
    expect((await same('SELECT id FROM pi.kv WHERE name = \'n42\'')).map((r) => r[0])).toEqual([42, 142, 242, 342, 442, 542, 642, 742, 842, 942]);
    expect(await same(`SELECT id FROM pi.kv WHERE d = DATE '2024-01-11'`)).toEqual([[10]]);
    expect(await same(`SELECT id FROM pi.kv WHERE ts = TIMESTAMP '2024-01-02 01:00'`)).toEqual([[25]]);
  });

  it('keeps NULL semantics, IN lists, other conjuncts and type coercions', async () => {
    expect(await same('SELECT id FROM pi.kv WHERE big = NULL', false)).toEqual([]);
    expect(await same('SELECT count(*) FROM pi.kv WHERE big IS NULL', false)).toEqual([[142n]]);
    expect(await same('SELECT id FROM pi.kv WHERE id IN (3, 1, 3, 999) ORDER BY id')).toEqual([[1], [3], [999]]);
    expect(await same('SELECT id FROM pi.kv WHERE id IN (3, NULL)', false)).toEqual([[3]]); // not pushed (OR with NULL)
    expect(await same('SELECT id FROM pi.kv WHERE big = 3 AND id > 900')).toEqual([[953]]);
    expect(await same(`SELECT id FROM pi.kv WHERE name = 'n7' AND v LIKE '8%'`)).toEqual([[7], [307]]);
    expect(await same('SELECT id FROM pi.kv WHERE id = 17::bigint')).toEqual([[17]]);
    expect(await same(`SELECT id FROM pi.kv WHERE id = '18'`)).toEqual([[18]]);
    expect(await same('SELECT id FROM pi.kv WHERE big = 2147483648', false)).toEqual([]); // pruned by column bounds
    expect(await same('SELECT id FROM pi.kv WHERE id = 17.5', false)).toEqual([]);
    // char(n): trailing blanks are insignificant (padded filters are not indexed)
    expect((await same(`SELECT count(*) FROM pi.kv WHERE c = 'ab  '`, false))).toEqual([[333n]]);
  });

  it('answers parameters of a prepared statement', async () => {
    const p = await session.prepare('SELECT v FROM pi.kv WHERE id = $1', [0]);
    const got: unknown[][] = [];
    for (const id of [1, 2, 1000, 1001]) got.push(...(await resultRows(await session.execute(p, [id]))));
    await session.sync();
    expect(got).toEqual([['c4ca4238a0b923820dcc509a6f75849b'], ['c81e728d9d4c2f636f067f89cc14862c'], ['a9b7ba70783b617e9998dc4dd82eb3c5']]);
  });

  it('reports the same EXPLAIN ANALYZE counters with and without the index', async () => {
    const scanLine = async (sql: string): Promise<string> => {
      const lines = (await run(`EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) ${sql}`)).map((r) => String(r[0]));
      return lines.filter((l) => l.includes('files scanned')).join('\n');
    };
    for (const sql of ['SELECT v FROM pi.kv WHERE id = 33', 'SELECT v FROM pi.kv WHERE big IN (1, 2) AND id < 500', 'SELECT v FROM pi.kv WHERE id = 34 AND v = \'abc\'']) {
      await run(sql);
      await run('SET lakegate.point_index = off');
      const off = await scanLine(sql);
      await run('RESET lakegate.point_index');
      const from = pointIndexStats.probes;
      const on = await scanLine(sql);
      expect(pointIndexStats.probes, sql).toBeGreaterThan(from);
      expect(on, sql).toEqual(off);
      expect(on).toMatch(/files scanned 1\b/);
    }
  });

  it('never returns deleted rows, and an older snapshot still reads its own rows', async () => {
    await run('CREATE TABLE pi.del (id int, v text)');
    await run(`INSERT INTO pi.del SELECT g, 'v' || g FROM generate_series(1, 200) g`);
    const snap = (await run(`SELECT snapshot_id FROM pi."del$snapshots" ORDER BY committed_at DESC LIMIT 1`))[0]![0];
    expect(await same('SELECT v FROM pi.del WHERE id = 5')).toEqual([['v5']]);
    await run('DELETE FROM pi.del WHERE id IN (5, 6)');
    expect(await same('SELECT v FROM pi.del WHERE id = 5')).toEqual([]);
    expect(await same('SELECT id FROM pi.del WHERE id IN (4, 5, 6, 7)')).toEqual([[4], [7]]);
    await run(`UPDATE pi.del SET v = 'new' WHERE id = 8`);
    expect(await same('SELECT v FROM pi.del WHERE id = 8')).toEqual([['new']]);
    expect(await same(`SELECT v FROM pi.del FOR SYSTEM_VERSION AS OF ${String(snap)} WHERE id = 5`)).toEqual([['v5']]);
  });

  it('indexes a promoted column per type: an old snapshot reads it as int, the current schema as bigint', async () => {
    await run('CREATE TABLE pi.promo (k int, v text)');
    await run(`INSERT INTO pi.promo SELECT g, 'p' || g FROM generate_series(1, 300) g`);
    const snap = (await run(`SELECT snapshot_id FROM pi."promo$snapshots" ORDER BY committed_at DESC LIMIT 1`))[0]![0];
    expect(await same('SELECT v FROM pi.promo WHERE k = 7')).toEqual([['p7']]);
    await run('ALTER TABLE pi.promo ALTER COLUMN k TYPE bigint');
    expect(await same('SELECT v FROM pi.promo WHERE k = 8')).toEqual([['p8']]);
    expect(await same('SELECT v FROM pi.promo WHERE k = 3000000000', false)).toEqual([]);
    expect(await same(`SELECT v FROM pi.promo FOR SYSTEM_VERSION AS OF ${String(snap)} WHERE k = 9`)).toEqual([['p9']]);
    expect(await run('SELECT v FROM pi.promo WHERE k = 10')).toEqual([['p10']]);
  });

  it('charges the index to the file cache', async () => {
    await run('CREATE TABLE pi.mem (k text, v int)');
    await run(`INSERT INTO pi.mem SELECT 'key-' || g, g FROM generate_series(1, 3000) g`);
    await run(`SELECT v FROM pi.mem WHERE k = 'key-1'`);
    const bytes = fileCacheStats().bytes;
    const builds = pointIndexStats.builds;
    expect(await run(`SELECT v FROM pi.mem WHERE k = 'key-2999'`)).toEqual([[2999]]);
    expect(pointIndexStats.builds).toBe(builds + 1);
    expect(fileCacheStats().bytes - bytes).toBeGreaterThan(3000 * 48);
    expect(await run(`SELECT v FROM pi.mem WHERE k = 'key-3'`)).toEqual([[3]]);
    expect(pointIndexStats.builds).toBe(builds + 1); // built once
  });
});

describe('pointKeyOf and probePointIndex', () => {
  const t = { kind: 'primitive', name: 'int' } as const;
  it('picks the first indexable equality conjunct', () => {
    const eq: BoundPredicate = { kind: 'compare', op: '=', fieldId: 1, type: t, value: 5 };
    expect(pointKeyOf(eq)).toEqual({ fieldId: 1, type: t, values: [5], only: true });
    expect(pointKeyOf({ kind: 'and', args: [{ kind: 'compare', op: '<', fieldId: 2, type: t, value: 1 }, { kind: 'in', fieldId: 3, type: t, values: [1, 2] }] }))
      .toEqual({ fieldId: 3, type: t, values: [1, 2], only: false });
    expect(pointKeyOf({ kind: 'or', args: [eq, eq] })).toBeNull();
    expect(pointKeyOf({ kind: 'compare', op: '=', fieldId: 1, type: { kind: 'primitive', name: 'double' }, value: 5 })).toBeNull();
    expect(pointKeyOf({ kind: 'compare', op: '=', fieldId: 1, type: { kind: 'primitive', name: 'string' }, value: 'a', padded: true })).toBeNull();
    // a join's runtime key filter (thousands of keys) is no lookup: the scan workers judge it
    const keys = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
    expect(pointKeyOf({ kind: 'in', fieldId: 3, type: t, values: keys(MAX_POINT_KEYS) })?.values).toHaveLength(MAX_POINT_KEYS);
    expect(pointKeyOf({ kind: 'in', fieldId: 3, type: t, values: keys(MAX_POINT_KEYS + 1) })).toBeNull();
  });
  it('answers ascending distinct offsets', () => {
    const index = new Map<unknown, number | number[]>([[1, 4], [2, [0, 9]], [3n, 2]]);
    expect(probePointIndex(index, [2, 1, 2, 7])).toEqual([0, 4, 9]);
    expect(probePointIndex(index, [3n])).toEqual([2]);
    expect(probePointIndex(index, [3])).toEqual([]);
  });
});
