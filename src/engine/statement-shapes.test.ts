/**
 * StatementShapes: the integer lexer, which texts are shaped and which are not, and — through a session —
 * that a statement answered from a learned shape gives the answer of its own parse: other constants in
 * lifted positions (also past int4 and int8), constants that are not lifted (LIMIT, select list, negative
 * numbers, leading zeros) never reused, and errors reported from the real text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultRows, simpleQueryRows } from './testing/result-rows.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { createQueryEngine, type QueryEngine } from './index.ts';
import type { EngineSession } from './engine-session.ts';
import { integerLiteralOid, lexIntegers } from './statement-shapes.ts';

describe('lexIntegers', () => {
  it('cuts integer tokens out of the text, outside quotes and identifiers', () => {
    const l = lexIntegers(`SELECT "c1", 'x 5', t2.v FROM s.kv WHERE id = 17 AND k<-3 LIMIT 10;`)!;
    expect(l.tokens).toEqual(['17', '3', '10']);
    expect(l.skeleton).toBe(`SELECT "c1", 'x 5', t2.v FROM s.kv WHERE id = \u0000 AND k<-\u0000 LIMIT \u0000;`);
    expect(l.starts[0]).toBe(`SELECT "c1", 'x 5', t2.v FROM s.kv WHERE id = `.length);
    expect(lexIntegers(`SELECT 'it''s 4' WHERE a = 1`)!.tokens).toEqual(['1']);
  });
  it('refuses what it does not fully understand', () => {
    for (const sql of ['SELECT $1', 'SELECT 1 -- c', 'SELECT /* 1 */ 2', `SELECT E'\\n'`, 'SELECT 1.5', 'SELECT .5', 'SELECT 1e3', 'SELECT 0x1F', 'SELECT 1_000', `SELECT 'é'`, `SELECT 'open`]) {
      expect(lexIntegers(sql), sql).toBeNull();
    }
  });
  it('types integers as PostgreSQL does', () => {
    expect(integerLiteralOid('2147483647')).toBe(Oid.int4);
    expect(integerLiteralOid('2147483648')).toBe(Oid.int8);
    expect(integerLiteralOid('9223372036854775808')).toBe(Oid.numeric);
  });
});

let engine: QueryEngine;
let session: EngineSession;
let warehouse: string;

const run = (sql: string): Promise<unknown[][]> => simpleQueryRows(session, sql);

beforeAll(async () => {
  warehouse = mkdtempSync(join(tmpdir(), 'lg-shapes-'));
  engine = await createQueryEngine({ databases: ['lake'], warehouse });
  session = (await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 86, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false })) as EngineSession;
  await run('CREATE SCHEMA sh');
  await run('CREATE TABLE sh.kv (id int, k bigint, v text)');
  await run(`INSERT INTO sh.kv SELECT g, g * 10, 'v' || g FROM generate_series(1, 100) g`);
}, 60_000);
afterAll(async () => {
  await session?.close();
  await engine?.close();
  rmSync(warehouse, { recursive: true, force: true });
});

describe('shaped statements through a session', () => {
  const shapes = () => session.server.statementShapes;

  it('answers a new integer constant from the learned shape', async () => {
    expect(await run('SELECT v FROM sh.kv WHERE id = 17;')).toEqual([['v17']]);
    expect(shapes().lookup('SELECT v FROM sh.kv WHERE id = 18;')).toBeDefined();
    for (const id of [18, 1, 100, 101, 0]) expect(await run(`SELECT v FROM sh.kv WHERE id = ${id};`)).toEqual(id >= 1 && id <= 100 ? [[`v${id}`]] : []);
    // past int4 and int8: the literal's type changes, the answer is still no row
    expect(await run('SELECT v FROM sh.kv WHERE id = 3000000000;')).toEqual([]);
    expect(await run('SELECT v FROM sh.kv WHERE id = 30000000000000000000;')).toEqual([]);
    expect(await run('SELECT v FROM sh.kv WHERE k = 3000000000;')).toEqual([]);
  });

  it('never reuses constants that are not lifted', async () => {
    expect(await run('SELECT id, 5 FROM sh.kv WHERE id > 90 ORDER BY id LIMIT 2')).toEqual([[91, 5], [92, 5]]);
    expect(shapes().lookup('SELECT id, 5 FROM sh.kv WHERE id > 80 ORDER BY id LIMIT 2')).toBeDefined();
    expect(shapes().lookup('SELECT id, 5 FROM sh.kv WHERE id > 80 ORDER BY id LIMIT 3')).toBeUndefined();
    expect(shapes().lookup('SELECT id, 6 FROM sh.kv WHERE id > 80 ORDER BY id LIMIT 2')).toBeUndefined();
    expect(await run('SELECT id, 6 FROM sh.kv WHERE id > 95 ORDER BY id LIMIT 3')).toEqual([[96, 6], [97, 6], [98, 6]]);
    expect(await run('SELECT id FROM sh.kv WHERE id = -5 OR id = 3')).toEqual([[3]]);
    expect(await run('SELECT id FROM sh.kv WHERE id = -4 OR id = 4')).toEqual([[4]]);
    expect(await run('SELECT id FROM sh.kv WHERE id = 007')).toEqual([[7]]);
    expect(await run('SELECT id FROM sh.kv WHERE id = 008')).toEqual([[8]]);
    expect(await run(`SELECT id FROM sh.kv WHERE id = 9 AND v = 'v9'`)).toEqual([[9]]);
    expect(await run(`SELECT id FROM sh.kv WHERE id = 10 AND v = 'v9'`)).toEqual([]);
    expect(await run(`SELECT id FROM sh.kv WHERE id = 9 AND v = 'v10'`)).toEqual([]);
  });

  it('keeps shaped trees to the simple protocol and to their own constants', async () => {
    expect(await run('SELECT v FROM sh.kv WHERE id = 31')).toEqual([['v31']]);
    expect(await run('SELECT v FROM sh.kv WHERE id = 32')).toEqual([['v32']]); // shaped, now in the parse cache
    const p = await session.prepare('SELECT v FROM sh.kv WHERE id = 32', []);
    expect(await resultRows(await session.execute(p, []))).toEqual([['v32']]);
    await session.sync();
    expect(await run('SELECT v FROM sh.kv WHERE id = 33')).toEqual([['v33']]);
    session.server.literalShapes.clear(); // the shaped statement keeps its own normalised constants
    session.server.parseCache.clear();
    expect(await run('SELECT v FROM sh.kv WHERE id = 34')).toEqual([['v34']]);
    expect(await run('SELECT v FROM sh.kv WHERE id = 34')).toEqual([['v34']]);
  });

  it('agrees with a model under random updates, deletes and lookups (index on and off)', async () => {
    await run('CREATE TABLE sh.rand (id int, v text)');
    await run(`INSERT INTO sh.rand SELECT g, 'v' || g FROM generate_series(1, 120) g`);
    const model = new Map<number, string>(Array.from({ length: 120 }, (_x, i) => [i + 1, `v${i + 1}`]));
    let seed = 7;
    const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let step = 0; step < 150; step++) {
      const r = rnd(16), id = 1 + rnd(130);
      if (r === 0) {
        await run(`DELETE FROM sh.rand WHERE id = ${id}`);
        model.delete(id);
      } else if (r === 1) {
        await run(`UPDATE sh.rand SET v = 'u${step}' WHERE id = ${id}`);
        if (model.has(id)) model.set(id, `u${step}`);
      } else if (r === 2) {
        await run(step % 2 === 0 ? 'SET lakegate.point_index = off' : 'RESET lakegate.point_index');
      } else {
        expect(await run(`SELECT v FROM sh.rand WHERE id = ${id}`), `step ${step}, id ${id}`).toEqual(model.has(id) ? [[model.get(id)]] : []);
      }
    }
  }, 120_000);

  it('reports errors from the statement text itself', async () => {
    await run('CREATE TABLE sh.small (s smallint)');
    await run('INSERT INTO sh.small VALUES (1)');
    expect(await run('SELECT s FROM sh.small WHERE s = 1')).toEqual([[1]]);
    expect(await run('SELECT s FROM sh.small WHERE s = 2')).toEqual([]);
    expect(await run('SELECT s FROM sh.small WHERE s = 70000')).toEqual([]);
    expect(await run('SELECT s FROM sh.small WHERE s = 1')).toEqual([[1]]);
  });
});
