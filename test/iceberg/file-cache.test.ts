/**
 * Caches of immutable Iceberg files end to end (src/iceberg/read/file-cache.ts, scan/manifest-cache.ts):
 * EXPLAIN ANALYZE shows a repeated lookup served from the decoded-column and manifest caches; a new snapshot's
 * new files are read (and counted as misses) while the old ones stay cached; an UPDATE, DELETE or a dropped
 * and re-created table never serves stale rows; a second server over the same warehouse (one process, so one
 * cache) sees the first one's writes; `lakegate.file_cache_size` is a kB setting; and an int4 parameter
 * against an int8 column (the literal-normalised plan of `WHERE k = 123`) reaches the scan as a pushed filter.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { pushedPredicateOf } from '../../src/exec/optimizer/pushed-predicate-of.ts';
import { resolvePredicate } from '../../src/exec/optimizer/resolve-pushed.ts';
import { Oid } from '../../src/common/pgtypes/oids.ts';
import type { Expr } from '../../src/sql/index.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

describe('Iceberg file caches', () => {
  let a: LakegateServer;
  let b: LakegateServer;
  let ca: pg.Client;
  let cb: pg.Client;
  const scanLine = async (c: pg.Client, sql: string): Promise<string> => {
    const out = ((await c.query({ text: `EXPLAIN ANALYZE ${sql}`, rowMode: 'array' })).rows as string[][]).map((r) => r[0]!);
    return out.find((l) => l.includes('files scanned'))!;
  };
  const hits = (line: string, what: 'column chunks' | 'manifests'): [number, number] | null => {
    const m = new RegExp(`${what} (\\d+) / (\\d+)`).exec(line);
    return m === null ? null : [Number(m[1]), Number(m[2])];
  };
  const rows = async (c: pg.Client, sql: string): Promise<unknown[][]> => (await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][];

  beforeAll(async () => {
    a = await startLakegate();
    b = await startLakegate({ config: { warehouse: a.warehouse } });
    ca = new pg.Client({ connectionString: a.url, types: passthrough as never });
    cb = new pg.Client({ connectionString: b.url, types: passthrough as never });
    await ca.connect();
    await cb.connect();
    await ca.query('CREATE SCHEMA fc');
    await ca.query('CREATE TABLE fc.kv (id int, v text)');
    await ca.query(`INSERT INTO fc.kv SELECT g, md5(g::text) FROM generate_series(1, 1000) g`);
  }, 60_000);
  afterAll(async () => {
    await ca?.end();
    await cb?.end();
    await b?.close();
    await a?.close();
  });

  it('serves a repeated lookup from the caches, with the same answer', async () => {
    const first = await scanLine(ca, 'SELECT v FROM fc.kv WHERE id = 17');
    const again = await scanLine(ca, 'SELECT v FROM fc.kv WHERE id = 18');
    expect(hits(again, 'column chunks'), again).toEqual([2, 2]);
    // a new literal plans the scan again: the manifest list and manifest come parsed from the cache
    expect(hits(again, 'manifests'), again).toEqual([2, 2]);
    expect(again).toMatch(/bytes read 0\b/);
    expect(first).toMatch(/column chunks \d+ \/ 2/);
    expect(await rows(ca, 'SELECT v FROM fc.kv WHERE id = 18')).toEqual([['6f4922f45568161a8cdf4ad2299f6d23']]);
  });

  it('reads the new files of a new snapshot, the old ones still from the cache', async () => {
    const sql = 'SELECT max(length(v)), sum(id) FROM fc.kv';
    await ca.query(sql); // warm
    await ca.query(`INSERT INTO fc.kv VALUES (1001, 'new')`);
    const line = await scanLine(ca, sql);
    expect(line).toMatch(/files scanned 2 \/ 2/);
    // two columns of each file: the old file's from the cache, the new file's decoded
    expect(hits(line, 'column chunks'), line).toEqual([2, 4]);
    expect(await rows(ca, sql)).toEqual([['32', String(500500 + 1001)]]);
    expect(await rows(ca, "SELECT id FROM fc.kv WHERE v = 'new'")).toEqual([['1001']]);
    expect(await rows(cb, 'SELECT count(*), max(id) FROM fc.kv WHERE id > 990')).toEqual([['11', '1001']]);
  });

  it('never serves rows an UPDATE or DELETE replaced, on either server', async () => {
    await cb.query('SELECT v FROM fc.kv WHERE id = 5'); // cached on the shared cache
    await ca.query(`UPDATE fc.kv SET v = 'updated' WHERE id = 5`);
    expect(await rows(cb, 'SELECT v FROM fc.kv WHERE id = 5')).toEqual([['updated']]);
    await cb.query('DELETE FROM fc.kv WHERE id BETWEEN 6 AND 9');
    expect(await rows(ca, 'SELECT count(*) FROM fc.kv WHERE id BETWEEN 1 AND 10')).toEqual([['6']]);
    expect(await rows(ca, 'SELECT v FROM fc.kv WHERE id = 5')).toEqual([['updated']]);
  });

  it('reads a dropped and re-created table of the same name afresh', async () => {
    await ca.query('CREATE TABLE fc.re (id int, v text)');
    await ca.query(`INSERT INTO fc.re SELECT g, 'old' || g FROM generate_series(1, 50) g`);
    expect(await rows(ca, 'SELECT v FROM fc.re WHERE id = 7')).toEqual([['old7']]);
    await ca.query('DROP TABLE fc.re');
    await ca.query('CREATE TABLE fc.re (id int, v text)');
    await ca.query(`INSERT INTO fc.re SELECT g, 'NEW' || g FROM generate_series(1, 50) g`);
    expect(await rows(ca, 'SELECT v FROM fc.re WHERE id = 7')).toEqual([['NEW7']]);
    expect(await rows(cb, 'SELECT count(*) FROM fc.re WHERE v LIKE \'old%\'')).toEqual([['0']]);
  });

  it('has the setting, in kB, off at 0 with the same answers', async () => {
    expect(await rows(ca, 'SHOW lakegate.file_cache_size')).toEqual([['64MB']]);
    await ca.query(`SET lakegate.file_cache_size = 0`);
    try {
      const line = await scanLine(ca, 'SELECT v FROM fc.kv WHERE id = 18');
      expect(hits(line, 'column chunks')).toBeNull();
      expect(await rows(ca, 'SELECT v FROM fc.kv WHERE id = 18')).toEqual([['6f4922f45568161a8cdf4ad2299f6d23']]);
    } finally {
      await ca.query('RESET lakegate.file_cache_size');
    }
    await expect(ca.query(`SET lakegate.file_cache_size = '-1'`)).rejects.toThrow(/outside the valid range/);
  });

  it('answers int4 parameters against an int8 column (pushed into the scan) like PostgreSQL', async () => {
    await ca.query('CREATE TABLE fc.big (k int8, v text)');
    await ca.query(`INSERT INTO fc.big VALUES (-3, 'neg'), (7, 'seven'), (5000000000, 'big'), (NULL, 'null')`);
    await ca.query('PREPARE q(int4) AS SELECT v FROM fc.big WHERE k = $1');
    expect(await rows(ca, 'EXECUTE q(7)')).toEqual([['seven']]);
    expect(await rows(ca, 'EXECUTE q(-3)')).toEqual([['neg']]);
    expect(await rows(ca, 'EXECUTE q(8)')).toEqual([]);
    await ca.query('PREPARE r(int4) AS SELECT v FROM fc.big WHERE k > $1 ORDER BY k');
    expect(await rows(ca, 'EXECUTE r(0)')).toEqual([['seven'], ['big']]);
    // simple protocol: the constant is lifted into an int4 parameter of a cached plan
    for (const k of [7, -3, 8]) {
      expect(await rows(ca, `SELECT v FROM fc.big WHERE k = ${k}`)).toEqual(k === 8 ? [] : [[k === 7 ? 'seven' : 'neg']]);
    }
  });

  it('pushes an int4 parameter against an int8 column and resolves it to int8', () => {
    const col: Expr = { kind: 'ColumnRef', index: 0, levelsUp: 0, type: { oid: Oid.int8, typmod: -1 } } as unknown as Expr;
    const param = (oid: number): Expr => ({ kind: 'Param', index: 0, type: { oid, typmod: -1 } }) as Expr;
    const eq = (right: Expr): Expr => ({ kind: 'Op', name: '=', left: col, right }) as unknown as Expr;
    const pushed = pushedPredicateOf(eq(param(Oid.int4)), 1);
    expect(pushed).not.toBeNull();
    expect(resolvePredicate(pushed!, [42])).toEqual({ kind: 'compare', op: '=', column: 0, value: 42n });
    expect(resolvePredicate(pushedPredicateOf(eq(param(Oid.int2)), 1)!, [-7])).toEqual({ kind: 'compare', op: '=', column: 0, value: -7n });
    // narrowing or unrelated parameter types are still not pushed
    expect(pushedPredicateOf(eq(param(Oid.numeric)), 1)).toBeNull();
    const intCol: Expr = { ...(col as object), type: { oid: Oid.int4, typmod: -1 } } as Expr;
    expect(pushedPredicateOf({ kind: 'Op', name: '=', left: intCol, right: param(Oid.int8) } as unknown as Expr, 1)).toBeNull();
  });
});
