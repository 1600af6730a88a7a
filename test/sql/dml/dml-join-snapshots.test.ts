/**
 * UPDATE … FROM, DELETE … USING and MERGE on Iceberg tables through a real `pg` client: one snapshot per
 * statement (operation and summary as Java's row delta writes them), nothing committed by a statement that
 * fails, staged inside BEGIN (seen by the session only) and forgotten by ROLLBACK, published by COMMIT;
 * MERGE with parameters over the extended protocol.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../../helpers/lakegate-server.ts';
import { connectText, rowsOf } from '../../helpers/text-client.ts';

describe('row changes driven by a join (Iceberg)', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-dml-join-'));
  let server: LakegateServer;
  let a: pg.Client;
  let b: pg.Client;
  const snapshots = async (table: string): Promise<number> => Number((await rowsOf(b, `SELECT count(*) FROM dj."${table}$snapshots"`))[0]![0]);
  const last = async (table: string): Promise<[string, Record<string, string>]> => {
    const r = await b.query(`SELECT operation, summary FROM dj."${table}$snapshots" ORDER BY committed_at DESC, snapshot_id LIMIT 1`);
    return [r.rows[0].operation as string, JSON.parse(r.rows[0].summary as string) as Record<string, string>];
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    a = await connectText(server.url);
    b = await connectText(server.url);
    await a.query('CREATE SCHEMA dj');
    await a.query('CREATE TABLE dj.t (id int8 NOT NULL, v text, n int4)');
    await a.query(`INSERT INTO dj.t SELECT g, 'v' || g, g::int4 FROM generate_series(1, 100) g`);
    await a.query('CREATE TABLE dj.keys (id int8, w text)');
    await a.query(`INSERT INTO dj.keys VALUES (10, 'ten'), (20, 'twenty'), (20, 'again'), (30, 'thirty')`);
  });
  afterAll(async () => {
    await a?.end();
    await b?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('DELETE … USING: one delete snapshot with position deletes, each row once', async () => {
    const before = await snapshots('t');
    const r = await a.query('DELETE FROM dj.t USING dj.keys k WHERE k.id = t.id');
    expect(r.command).toBe('DELETE');
    expect(r.rowCount).toBe(3);
    expect(await snapshots('t')).toBe(before + 1);
    const [op, summary] = await last('t');
    expect(op).toBe('delete');
    expect(summary['added-position-deletes']).toBe('3');
    expect(summary['added-position-delete-files']).toBe('1');
    expect(summary['total-records']).toBe('100');
    expect(await rowsOf(b, 'SELECT count(*), sum(id) FROM dj.t')).toEqual([['97', String(5050 - 60)]]);
  });

  it('UPDATE … FROM: one overwrite snapshot (position deletes + a data file), RETURNING a FROM column', async () => {
    await a.query(`INSERT INTO dj.keys VALUES (40, 'forty'), (41, 'forty-one')`);
    const before = await snapshots('t');
    const r = await a.query({ text: 'UPDATE dj.t SET v = k.w, n = t.n * 10 FROM dj.keys k WHERE k.id = t.id RETURNING t.id, t.v, t.n, k.w', rowMode: 'array' });
    expect(r.command).toBe('UPDATE');
    expect((r.rows as string[][]).map((x) => x.join('|')).sort()).toEqual(['40|forty|400|forty', '41|forty-one|410|forty-one']);
    expect(await snapshots('t')).toBe(before + 1);
    const [op, summary] = await last('t');
    expect(op).toBe('overwrite');
    expect(summary['added-position-deletes']).toBe('2');
    expect(summary['added-records']).toBe('2');
    expect(summary['added-data-files']).toBe('1');
  });

  it('MERGE: deletes, updates and inserts in one overwrite snapshot; a failing MERGE commits nothing', async () => {
    const before = await snapshots('t');
    const r = await a.query(`MERGE INTO dj.t USING (VALUES (1, 'del'), (2, 'upd'), (500, 'ins'), (501, 'ins')) s(id, op) ON t.id = s.id
      WHEN MATCHED AND s.op = 'del' THEN DELETE WHEN MATCHED THEN UPDATE SET v = 'merged' WHEN NOT MATCHED THEN INSERT (id, v, n) VALUES (s.id, s.op, 0)`);
    expect(r.command).toBe('MERGE');
    expect(r.rowCount).toBe(4);
    expect(await snapshots('t')).toBe(before + 1);
    const [op, summary] = await last('t');
    expect(op).toBe('overwrite');
    expect(summary['added-position-deletes']).toBe('2');
    expect(summary['added-records']).toBe('3');
    expect(await rowsOf(b, 'SELECT id, v FROM dj.t WHERE id IN (1, 2, 500, 501) ORDER BY id')).toEqual([['2', 'merged'], ['500', 'ins'], ['501', 'ins']]);
    await expect(a.query(`MERGE INTO dj.t USING (VALUES (3), (3)) s(id) ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = -1`))
      .rejects.toMatchObject({ code: '21000', message: 'MERGE command cannot affect row a second time' });
    expect(await snapshots('t')).toBe(before + 1);
    expect(await rowsOf(b, 'SELECT n FROM dj.t WHERE id = 3')).toEqual([['3']]);
  });

  it('MERGE deleting every row of the table drops its data files instead of writing deletes (operation delete)', async () => {
    await a.query('CREATE TABLE dj.small (id int8, v text)');
    await a.query(`INSERT INTO dj.small VALUES (1, 'a'), (2, 'b')`);
    const r = await a.query('MERGE INTO dj.small USING (SELECT id FROM dj.small) s ON small.id = s.id WHEN MATCHED THEN DELETE');
    expect(r.rowCount).toBe(2);
    const [op, summary] = await last('small');
    expect(op).toBe('delete');
    expect(summary['deleted-data-files']).toBe('1');
    expect(summary['added-position-deletes']).toBeUndefined();
    expect(await rowsOf(b, 'SELECT count(*) FROM dj.small')).toEqual([['0']]);
  });

  it('inside BEGIN: staged for the session only, ROLLBACK forgets, COMMIT publishes', async () => {
    const before = await snapshots('t');
    await a.query('BEGIN');
    await a.query(`DELETE FROM dj.t USING (VALUES (4), (5)) d(id) WHERE d.id = t.id`);
    await a.query(`MERGE INTO dj.t USING (VALUES (6)) s(id) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = 'in tx'`);
    expect(await rowsOf(a, 'SELECT id, v FROM dj.t WHERE id BETWEEN 4 AND 6 ORDER BY id')).toEqual([['6', 'in tx']]);
    expect(await rowsOf(b, 'SELECT id, v FROM dj.t WHERE id BETWEEN 4 AND 6 ORDER BY id')).toEqual([['4', 'v4'], ['5', 'v5'], ['6', 'v6']]);
    await a.query('ROLLBACK');
    expect(await rowsOf(a, 'SELECT id, v FROM dj.t WHERE id BETWEEN 4 AND 6 ORDER BY id')).toEqual([['4', 'v4'], ['5', 'v5'], ['6', 'v6']]);
    expect(await snapshots('t')).toBe(before);
    await a.query('BEGIN');
    await a.query(`UPDATE dj.t SET v = 'committed' FROM (VALUES (7)) u(id) WHERE u.id = t.id`);
    await a.query('COMMIT');
    expect(await rowsOf(b, 'SELECT v FROM dj.t WHERE id = 7')).toEqual([['committed']]);
    expect(await snapshots('t')).toBe(before + 1);
  });

  it('MERGE with parameters over the extended protocol', async () => {
    const r = await a.query({
      text: `MERGE INTO dj.t USING (SELECT $1::int8 AS id, $2::text AS v) s ON t.id = s.id
        WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v, n) VALUES (s.id, s.v, 1)`,
      values: ['8', 'param'],
    });
    expect(r.command).toBe('MERGE');
    expect(r.rowCount).toBe(1);
    await a.query({ text: 'MERGE INTO dj.t USING (SELECT $1::int8 AS id) s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, $2)', values: ['900', 'new'] });
    expect(await rowsOf(b, 'SELECT id, v FROM dj.t WHERE id IN (8, 900) ORDER BY id')).toEqual([['8', 'param'], ['900', 'new']]);
  });

  it('INSERT … ON CONFLICT on the primary key: upserts with parameters, one snapshot (append when it only inserts), staged in BEGIN', async () => {
    await a.query('CREATE TABLE dj.kv (id int8 PRIMARY KEY, v text, hits int4)');
    await a.query(`INSERT INTO dj.kv VALUES (1, 'one', 1), (2, 'two', 1)`);
    const upsert = 'INSERT INTO dj.kv VALUES ($1, $2, 1) ON CONFLICT (id) DO UPDATE SET v = excluded.v, hits = kv.hits + 1 RETURNING id, v, hits';
    const before = await snapshots('kv');
    const r1 = await a.query({ text: upsert, values: ['2', 'TWO'], rowMode: 'array' });
    expect(r1.command).toBe('INSERT');
    expect(r1.rows).toEqual([['2', 'TWO', '2']]);
    const r2 = await a.query({ text: upsert, values: ['3', 'three'], rowMode: 'array' });
    expect(r2.rows).toEqual([['3', 'three', '1']]);
    expect(await snapshots('kv')).toBe(before + 2);
    const [op, summary] = await last('kv');
    expect(op).toBe('append');
    expect(summary['added-records']).toBe('1');
    expect(summary['added-position-deletes']).toBeUndefined();
    const nothing = await a.query(`INSERT INTO dj.kv VALUES (1, 'x', 0), (3, 'y', 0) ON CONFLICT DO NOTHING`);
    expect(nothing.rowCount).toBe(0);
    expect(await snapshots('kv')).toBe(before + 2);
    await a.query('BEGIN');
    await a.query({ text: upsert, values: ['1', 'in tx'] });
    expect(await rowsOf(a, 'SELECT v, hits FROM dj.kv WHERE id = 1')).toEqual([['in tx', '2']]);
    expect(await rowsOf(b, 'SELECT v, hits FROM dj.kv WHERE id = 1')).toEqual([['one', '1']]);
    await a.query('ROLLBACK');
    expect(await rowsOf(b, 'SELECT id, v, hits FROM dj.kv ORDER BY id')).toEqual([['1', 'one', '1'], ['2', 'TWO', '2'], ['3', 'three', '1']]);
    expect(await snapshots('kv')).toBe(before + 2);
  });
});
