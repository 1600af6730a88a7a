/**
 * PRIMARY KEY / UNIQUE as constraints the way clients see them, through a real server and the `pg` driver (and the
 * psql 15 binary): pgJDBC's getPrimaryKeys / getIndexInfo and SQLAlchemy's get_pk_constraint /
 * get_unique_constraints queries and psql's `\d` footer answer as PostgreSQL 15 does for the same DDL (answers
 * taken from PostgreSQL 15); constraint names survive a rename and a restart (Iceberg table properties); a COPY
 * that violates a key names its input line (`COPY t, line N`) for text format, on Iceberg and temp tables.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { findPgBinDir } from '../helpers/pg-cluster.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

const SETUP = [
  'CREATE SCHEMA k',
  'CREATE TABLE k.p (id int PRIMARY KEY, e text UNIQUE, f int NOT NULL, g int, CONSTRAINT p_fg UNIQUE (f, g))',
  'CREATE UNIQUE INDEX p_plain ON k.p (g)',
  'ALTER TABLE k.p RENAME TO r',
];

const JDBC_PRIMARY_KEYS = `SELECT result.TABLE_CAT, result.TABLE_SCHEM, result.TABLE_NAME, result.COLUMN_NAME, result.KEY_SEQ, result.PK_NAME FROM (SELECT NULL AS TABLE_CAT, n.nspname AS TABLE_SCHEM,   ct.relname AS TABLE_NAME, a.attname AS COLUMN_NAME,   (information_schema._pg_expandarray(i.indkey)).n AS KEY_SEQ, ci.relname AS PK_NAME,   information_schema._pg_expandarray(i.indkey) AS KEYS, a.attnum AS A_ATTNUM FROM pg_catalog.pg_class ct   JOIN pg_catalog.pg_attribute a ON (ct.oid = a.attrelid)   JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)   JOIN pg_catalog.pg_index i ON ( a.attrelid = i.indrelid)   JOIN pg_catalog.pg_class ci ON (ci.oid = i.indexrelid) WHERE true  AND n.nspname = E'k' AND ct.relname = E'r' AND i.indisprimary  ) result where  result.A_ATTNUM = (result.KEYS).x  ORDER BY result.table_name, result.pk_name, result.key_seq`;

const JDBC_INDEX_INFO = `SELECT NULL AS TABLE_CAT, n.nspname AS TABLE_SCHEM, ct.relname AS TABLE_NAME, NOT i.indisunique AS NON_UNIQUE, NULL AS INDEX_QUALIFIER, ci.relname AS INDEX_NAME, CASE i.indisclustered WHEN true THEN 1 ELSE CASE am.amname WHEN 'hash' THEN 2 ELSE 3 END END AS TYPE, (information_schema._pg_expandarray(i.indkey)).n AS ORDINAL_POSITION, trim(both '"' from pg_catalog.pg_get_indexdef(ci.oid, (information_schema._pg_expandarray(i.indkey)).n, false)) AS COLUMN_NAME FROM pg_catalog.pg_class ct JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid) JOIN pg_catalog.pg_index i ON (ct.oid = i.indrelid) JOIN pg_catalog.pg_class ci ON (ci.oid = i.indexrelid) JOIN pg_catalog.pg_am am ON (ci.relam = am.oid) WHERE true AND n.nspname = E'k' AND ct.relname = E'r' ORDER BY NON_UNIQUE, TYPE, INDEX_NAME, ORDINAL_POSITION`;

/** SQLAlchemy 2.0 PGDialect's constraint query (get_pk_constraint: contype 'p', get_unique_constraints: 'u') */
const sqlalchemyConstraints = (contype: 'p' | 'u'): string => `SELECT attr.conrelid::regclass::text, array_agg(CAST(attr.attname AS TEXT) ORDER BY attr.ord) AS cols, attr.conname, min(attr.description) AS description FROM (SELECT con.conrelid AS conrelid, con.conname AS conname, con.conindid AS conindid, con.description AS description, con.ord AS ord, pg_catalog.pg_attribute.attname AS attname FROM pg_catalog.pg_attribute JOIN (SELECT pg_catalog.pg_constraint.conrelid AS conrelid, pg_catalog.pg_constraint.conname AS conname, pg_catalog.pg_constraint.conindid AS conindid, unnest(pg_catalog.pg_constraint.conkey) AS attnum, generate_subscripts(pg_catalog.pg_constraint.conkey, 1) AS ord, pg_catalog.pg_description.description AS description FROM pg_catalog.pg_constraint LEFT OUTER JOIN pg_catalog.pg_description ON pg_catalog.pg_description.objoid = pg_catalog.pg_constraint.oid WHERE pg_catalog.pg_constraint.contype = '${contype}' AND pg_catalog.pg_constraint.conrelid IN ('k.r'::regclass)) AS con ON pg_catalog.pg_attribute.attnum = con.attnum AND pg_catalog.pg_attribute.attrelid = con.conrelid WHERE con.conrelid IN ('k.r'::regclass)) AS attr GROUP BY attr.conrelid, attr.conname ORDER BY attr.conrelid, attr.conname`;

const PSQL_D = `                    Table "k.r"
 Column |  Type   | Collation | Nullable | Default 
--------+---------+-----------+----------+---------
 id     | integer |           | not null | 
 e      | text    |           |          | 
 f      | integer |           | not null | 
 g      | integer |           |          | 
Indexes:
    "p_pkey" PRIMARY KEY, btree (id)
    "p_e_key" UNIQUE CONSTRAINT, btree (e)
    "p_fg" UNIQUE CONSTRAINT, btree (f, g)
    "p_plain" UNIQUE, btree (g)
`;

describe('constraints as clients see them', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-constraints-'));
  let server: LakegateServer;
  let c: pg.Client;
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    return client;
  };
  const rows = async (sql: string): Promise<string[][]> =>
    ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  const copyIn = async (sql: string, data: string): Promise<unknown> => {
    try {
      const stream = c.query(copyFrom(sql));
      await new Promise<void>((resolve, reject) => {
        stream.on('finish', resolve);
        stream.on('error', reject);
        stream.end(data);
      });
    } catch (e) {
      return e;
    }
    throw new Error(`expected an error from: ${sql}`);
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    c = await connect();
    for (const sql of SETUP) await c.query(sql);
  });

  afterAll(async () => {
    await c?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  const expectClientAnswers = async (): Promise<void> => {
    expect(await rows(JDBC_PRIMARY_KEYS)).toEqual([['NULL', 'k', 'r', 'id', '1', 'p_pkey']]);
    expect(await rows(sqlalchemyConstraints('p'))).toEqual([['k.r', '{id}', 'p_pkey', 'NULL']]);
    expect(await rows(sqlalchemyConstraints('u'))).toEqual([['k.r', '{e}', 'p_e_key', 'NULL'], ['k.r', '{f,g}', 'p_fg', 'NULL']]);
    expect(await rows(JDBC_INDEX_INFO)).toEqual([
      ['NULL', 'k', 'r', 'f', 'NULL', 'p_e_key', '3', '1', 'e'],
      ['NULL', 'k', 'r', 'f', 'NULL', 'p_fg', '3', '1', 'f'],
      ['NULL', 'k', 'r', 'f', 'NULL', 'p_fg', '3', '2', 'g'],
      ['NULL', 'k', 'r', 'f', 'NULL', 'p_pkey', '3', '1', 'id'],
      ['NULL', 'k', 'r', 'f', 'NULL', 'p_plain', '3', '1', 'g'],
    ]);
  };

  it('pgJDBC and SQLAlchemy introspection answer as PostgreSQL 15 after a rename', async () => {
    await expectClientAnswers();
  });

  it("psql's \\d lists PRIMARY KEY, UNIQUE CONSTRAINT and UNIQUE indexes", async () => {
    const bin = findPgBinDir();
    const psql = bin === null ? 'psql' : join(bin, 'psql');
    // asynchronously: the server runs in this process
    const { stdout } = await promisify(execFile)(psql, ['-X', '-c', '\\d k.r', server.url], { encoding: 'utf8' });
    expect(stdout).toBe(PSQL_D + '\n');
  });

  it('names and kinds survive a restart (Iceberg table properties)', async () => {
    await c.end();
    await server.close();
    server = await startLakegate({ config: { warehouse } });
    c = await connect();
    await expectClientAnswers();
    const e = await copyIn('COPY k.r FROM STDIN', '1\ta\t1\t1\n1\tb\t2\t2\n');
    expect(e).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "p_pkey"', detail: 'Key (id)=(1) already exists.', where: 'COPY r, line 2' });
  });

  it('a COPY violating a key names the line in text format (HEADER counted), not in csv', async () => {
    await c.query('CREATE TABLE k.c (id int PRIMARY KEY, v text)');
    await c.query(`INSERT INTO k.c VALUES (7, 'old')`);
    expect(await copyIn('COPY k.c FROM STDIN', '1\ta\n2\tb\n7\tc\n')).toMatchObject({ code: '23505', detail: 'Key (id)=(7) already exists.', where: 'COPY c, line 3' });
    expect(await copyIn('COPY k.c FROM STDIN (HEADER)', 'id\tv\n1\ta\n1\tb\n')).toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.', where: 'COPY c, line 3' });
    const csv = await copyIn('COPY k.c FROM STDIN (FORMAT csv)', '1,"a\nb"\n1,c\n');
    expect(csv).toMatchObject({ code: '23505', detail: 'Key (id)=(1) already exists.' });
    expect((csv as { where?: string }).where).toBeUndefined();
    await c.query('CREATE TEMP TABLE tc (id int PRIMARY KEY, v text UNIQUE)');
    await c.query(`INSERT INTO tc VALUES (1, 'x')`);
    expect(await copyIn('COPY tc FROM STDIN', '2\ty\n3\tx\n')).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "tc_v_key"', detail: 'Key (v)=(x) already exists.', where: 'COPY tc, line 2' });
    expect(await rows('SELECT count(*) FROM tc')).toEqual([['1']]);
    expect(await rows('SELECT count(*) FROM k.c')).toEqual([['1']]);
  });
});
