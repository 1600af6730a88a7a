/**
 * PRIMARY KEY / UNIQUE enforcement on Iceberg tables through a real `pg` client: 23505 with PostgreSQL's
 * message, DETAIL and fields for INSERT (VALUES, SELECT), COPY FROM STDIN, UPDATE, MERGE and ON CONFLICT DO
 * UPDATE, against live rows and within the statement; nothing of a failed statement committed; NULLs in
 * UNIQUE columns never conflict; inside BEGIN … COMMIT the check sees the transaction's own writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { connectText, rowsOf } from '../helpers/text-client.ts';

interface PgFailure { code?: string; message: string; detail?: string; constraint?: string; table?: string; schema?: string }

describe('unique keys on Iceberg tables', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-keys-'));
  let server: LakegateServer;
  let a: pg.Client;
  let b: pg.Client;
  const failure = async (c: pg.Client, sql: string): Promise<PgFailure> => {
    try {
      await c.query(sql);
    } catch (e) {
      return e as PgFailure;
    }
    throw new Error(`expected an error from: ${sql}`);
  };
  const copyIn = async (c: pg.Client, sql: string, data: string): Promise<void> => {
    const stream = c.query(copyFrom(sql));
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(data);
    });
  };
  const snapshots = async (table: string): Promise<number> => Number((await rowsOf(b, `SELECT count(*) FROM k."${table}$snapshots"`))[0]![0]);

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    a = await connectText(server.url);
    b = await connectText(server.url);
    await a.query('CREATE SCHEMA k');
  });

  afterAll(async () => {
    await a?.end();
    await b?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('INSERT of a key a live row has, or that the statement repeats, is 23505 and commits nothing', async () => {
    await a.query('CREATE TABLE k.t (id int PRIMARY KEY, v text)');
    await a.query(`INSERT INTO k.t VALUES (1, 'a'), (2, 'b')`);
    const before = await snapshots('t');
    const e = await failure(a, `INSERT INTO k.t VALUES (3, 'c'), (1, 'x')`);
    expect(e).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "t_pkey"', detail: 'Key (id)=(1) already exists.', constraint: 't_pkey', table: 't', schema: 'k' });
    const e2 = await failure(a, `INSERT INTO k.t VALUES (5, 'c'), (5, 'x')`);
    expect(e2).toMatchObject({ code: '23505', detail: 'Key (id)=(5) already exists.' });
    const e3 = await failure(a, `INSERT INTO k.t SELECT g % 3 + 10, 'v' FROM generate_series(1, 5) g`);
    expect(e3).toMatchObject({ code: '23505', detail: 'Key (id)=(11) already exists.' });
    expect(await snapshots('t')).toBe(before);
    expect(await rowsOf(a, 'SELECT id, v FROM k.t ORDER BY id')).toEqual([['1', 'a'], ['2', 'b']]);
    const e4 = await failure(a, `INSERT INTO k.t VALUES (NULL, 'n')`);
    expect(e4).toMatchObject({ code: '23502' });
    await a.query(`INSERT INTO k.t VALUES (3, 'c')`);
    expect(await rowsOf(a, 'SELECT count(*) FROM k.t')).toEqual([['3']]);
  });

  it('the first offending row in statement order is the one reported; multi-column keys print every column', async () => {
    await a.query('CREATE TABLE k.m (a int8, b text, c int, PRIMARY KEY (a, b))');
    await a.query(`INSERT INTO k.m VALUES (1, 'x', 1), (1, 'y', 2)`);
    const e = await failure(a, `INSERT INTO k.m VALUES (2, 'x', 1), (2, 'x', 2), (1, 'y', 3)`);
    expect(e).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "m_pkey"', detail: 'Key (a, b)=(2, x) already exists.' });
    const e2 = await failure(a, `INSERT INTO k.m VALUES (3, 'x', 1), (1, 'y', 2), (3, 'x', 2)`);
    expect(e2).toMatchObject({ detail: 'Key (a, b)=(1, y) already exists.' });
  });

  it('unique indexes: NULLs never conflict, values are printed as PostgreSQL prints them', async () => {
    await a.query('CREATE TABLE k.u (id int, code text, n numeric(5,2), at timestamptz)');
    await a.query('CREATE UNIQUE INDEX u_code ON k.u (code)');
    await a.query('CREATE UNIQUE INDEX u_n ON k.u (n)');
    await a.query(`INSERT INTO k.u VALUES (1, NULL, NULL, NULL), (2, NULL, NULL, NULL)`);
    await a.query(`INSERT INTO k.u VALUES (3, NULL, 1.5, NULL)`);
    const e = await failure(a, `INSERT INTO k.u VALUES (4, 'a', 2, NULL), (5, 'a', 3, NULL)`);
    expect(e).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "u_code"', detail: 'Key (code)=(a) already exists.' });
    const e2 = await failure(a, `INSERT INTO k.u VALUES (6, 'b', 1.50, NULL)`);
    expect(e2).toMatchObject({ message: 'duplicate key value violates unique constraint "u_n"', detail: 'Key (n)=(1.50) already exists.' });
    expect(await rowsOf(a, 'SELECT count(*) FROM k.u')).toEqual([['3']]);
    await a.query('CREATE TABLE k.ts (at timestamptz PRIMARY KEY)');
    const e3 = await failure(a, `INSERT INTO k.ts VALUES ('2024-01-01 10:00+00'), ('2024-01-01 10:00+00')`);
    expect(e3).toMatchObject({ detail: 'Key (at)=(2024-01-01 10:00:00+00) already exists.' });
  });

  it('COPY FROM STDIN checks keys within the data and against live rows', async () => {
    await a.query('CREATE TABLE k.c (id int8 PRIMARY KEY, v text)');
    await copyIn(a, 'COPY k.c FROM STDIN', '1\ta\n2\tb\n3\tc\n');
    await expect(copyIn(a, 'COPY k.c FROM STDIN', '10\ta\n10\tb\n')).rejects.toMatchObject({ code: '23505', detail: 'Key (id)=(10) already exists.' });
    await expect(copyIn(a, 'COPY k.c FROM STDIN (FORMAT csv)', '20,a\n2,b\n')).rejects.toMatchObject({ code: '23505', detail: 'Key (id)=(2) already exists.' });
    await expect(copyIn(a, 'COPY k.c FROM STDIN', '\\N\tb\n')).rejects.toMatchObject({ code: '23502' });
    expect(await rowsOf(a, 'SELECT id FROM k.c ORDER BY id')).toEqual([['1'], ['2'], ['3']]);
    await copyIn(a, 'COPY k.c FROM STDIN', '4\td\n');
    expect(await rowsOf(a, 'SELECT count(*) FROM k.c')).toEqual([['4']]);
  });

  it('UPDATE, MERGE and ON CONFLICT DO UPDATE may not give two rows one key', async () => {
    await a.query('CREATE TABLE k.w (id int PRIMARY KEY, v text)');
    await a.query(`INSERT INTO k.w VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
    const before = await snapshots('w');
    expect(await failure(a, 'UPDATE k.w SET id = 2 WHERE id = 1')).toMatchObject({ code: '23505', detail: 'Key (id)=(2) already exists.' });
    expect(await failure(a, `INSERT INTO k.w VALUES (1, 'z') ON CONFLICT (id) DO UPDATE SET id = 3`)).toMatchObject({ code: '23505', detail: 'Key (id)=(3) already exists.' });
    expect(await failure(a, `MERGE INTO k.w USING (VALUES (1, 'q')) s(i, v) ON w.id = s.i WHEN MATCHED THEN UPDATE SET id = 2`)).toMatchObject({ code: '23505', detail: 'Key (id)=(2) already exists.' });
    expect(await failure(a, `MERGE INTO k.w USING (VALUES (7, 'q'), (7, 'r')) s(i, v) ON w.id = s.i WHEN NOT MATCHED THEN INSERT VALUES (s.i, s.v)`)).toMatchObject({ code: '23505', detail: 'Key (id)=(7) already exists.' });
    expect(await snapshots('w')).toBe(before);
    // a row keeping its key, or moving to a free one, is fine
    await a.query(`UPDATE k.w SET v = 'A' WHERE id = 1`);
    await a.query('UPDATE k.w SET id = 10 WHERE id = 3');
    await a.query(`MERGE INTO k.w USING (VALUES (2, 'B'), (4, 'D')) s(i, v) ON w.id = s.i WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.i, s.v)`);
    expect(await rowsOf(a, 'SELECT id, v FROM k.w ORDER BY id')).toEqual([['1', 'A'], ['2', 'B'], ['4', 'D'], ['10', 'c']]);
  });

  it('inside BEGIN … COMMIT the check sees the transaction\'s own writes; a failed statement aborts the block', async () => {
    await a.query('CREATE TABLE k.x (id int PRIMARY KEY)');
    await a.query('BEGIN');
    await a.query('INSERT INTO k.x VALUES (1)');
    expect(await failure(a, 'INSERT INTO k.x VALUES (1)')).toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.' });
    await a.query('ROLLBACK');
    await a.query('BEGIN');
    await a.query('INSERT INTO k.x VALUES (1)');
    await a.query('INSERT INTO k.x VALUES (2)');
    await a.query('COMMIT');
    expect(await rowsOf(a, 'SELECT id FROM k.x ORDER BY id')).toEqual([['1'], ['2']]);
  });

  it('MERGE and ON CONFLICT into a table never written keep their rows (one append)', async () => {
    await a.query('CREATE TABLE k.e1 (id int8 PRIMARY KEY, v text)');
    await a.query(`INSERT INTO k.e1 VALUES (1, 'a'), (1, 'b') ON CONFLICT DO NOTHING`);
    expect(await rowsOf(a, 'SELECT id, v FROM k.e1')).toEqual([['1', 'a']]);
    await a.query('CREATE TABLE k.e2 (id int8 PRIMARY KEY, v text)');
    await a.query(`MERGE INTO k.e2 USING (VALUES (1::int8, 'q')) s(i, v) ON e2.id = s.i WHEN NOT MATCHED THEN INSERT VALUES (s.i, s.v)`);
    expect(await rowsOf(a, 'SELECT id, v FROM k.e2')).toEqual([['1', 'q']]);
    await a.query('CREATE TABLE k.e3 (id int8 PRIMARY KEY, v text)');
    expect(await failure(a, `MERGE INTO k.e3 USING (VALUES (1::int8, 'q'), (1::int8, 'r')) s(i, v) ON e3.id = s.i WHEN NOT MATCHED THEN INSERT VALUES (s.i, s.v)`))
      .toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.' });
    expect(await rowsOf(a, 'SELECT count(*) FROM k.e3')).toEqual([['0']]);
  });

  it('tables without keys take duplicates as before', async () => {
    await a.query('CREATE TABLE k.n (id int, v text)');
    await a.query(`INSERT INTO k.n VALUES (1, 'a'), (1, 'b')`);
    await copyIn(a, 'COPY k.n FROM STDIN', '1\tc\n');
    expect(await rowsOf(a, 'SELECT count(*) FROM k.n')).toEqual([['3']]);
  });
});
