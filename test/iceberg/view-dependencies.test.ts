/**
 * View dependencies as PostgreSQL has them: DROP TABLE / DROP VIEW / ALTER TABLE DROP COLUMN of something a
 * view reads is 2BP01 with PostgreSQL's message, DETAIL and HINT; CASCADE drops the dependent views with its
 * NOTICE; ALTER COLUMN TYPE under a view is 0A000; RENAME TO of what a view reads is followed by the view;
 * CREATE OR REPLACE VIEW keeps the columns. The same scripts run on a real PostgreSQL and on lakegate,
 * over Iceberg tables and views (a schema that is an Iceberg namespace) and over memory ones (`public`), and
 * every outcome — SQLSTATE, message, detail, hint, notices — must be the same.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { sharedPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';

interface Outcome {
  readonly sql: string;
  readonly error?: { code?: string; message: string; detail?: string; hint?: string };
  readonly notices: { message: string; detail?: string }[];
}

async function runScript(c: pg.Client, statements: readonly string[]): Promise<Outcome[]> {
  const notices: { message: string; detail?: string }[] = [];
  const onNotice = (n: { message?: string; detail?: string }): void => void notices.push({ message: n.message ?? '', ...(n.detail === undefined ? {} : { detail: n.detail }) });
  c.on('notice', onNotice);
  const out: Outcome[] = [];
  try {
    for (const sql of statements) {
      notices.length = 0;
      try {
        await c.query(sql);
        out.push({ sql, notices: [...notices] });
      } catch (e) {
        const err = e as pg.DatabaseError;
        out.push({
          sql, notices: [...notices],
          error: { code: err.code, message: err.message, ...(err.detail === undefined ? {} : { detail: err.detail }), ...(err.hint === undefined ? {} : { hint: err.hint }) },
        });
      }
    }
  } finally {
    c.off('notice', onNotice);
  }
  return out;
}

/** one direct dependent per relation where lakegate's Iceberg view OIDs (from uuids) would order siblings differently */
const icebergScript = (s: string): string[] => [
  `CREATE TABLE ${s}.t (id int, a int, b text)`,
  `CREATE VIEW ${s}.v AS SELECT id, a FROM ${s}.t`,
  `CREATE VIEW ${s}.w AS SELECT * FROM ${s}.v`,
  `DROP TABLE ${s}.t`,
  `DROP TABLE ${s}.t RESTRICT`,
  `DROP VIEW ${s}.v`,
  `ALTER TABLE ${s}.t DROP COLUMN a`,
  `ALTER TABLE ${s}.t ALTER COLUMN a TYPE bigint`,
  `ALTER TABLE ${s}.t DROP COLUMN b`,
  `SELECT * FROM ${s}.w`,
  `DROP TABLE ${s}.t CASCADE`,
  `SELECT * FROM ${s}.w`,
  `CREATE TABLE ${s}.u (x int, y int)`,
  `CREATE VIEW ${s}.n AS SELECT count(*) AS c FROM ${s}.u`,
  `ALTER TABLE ${s}.u DROP COLUMN y`,
  `CREATE TABLE ${s}.p (id int)`,
  `CREATE TABLE ${s}.q (id int)`,
  `CREATE VIEW ${s}.j AS SELECT p.id FROM ${s}.p p JOIN ${s}.q q USING (id)`,
  `DROP TABLE ${s}.p, ${s}.q`,
  `DROP TABLE ${s}.q`,
  `DROP TABLE ${s}.p, ${s}.q CASCADE`,
  `SELECT * FROM ${s}.j`,
  `DROP VIEW ${s}.n`,
  `DROP TABLE ${s}.u`,
  `CREATE TEMP TABLE tt (x int)`,
  `CREATE VIEW ${s}.vt AS SELECT x FROM tt`,
  `DROP TABLE tt`,
  `CREATE TABLE ${s}.r (id int, x int)`,
  `CREATE VIEW ${s}.rv AS SELECT r.id FROM ${s}.r WHERE x > 0`,
  `ALTER TABLE ${s}.r RENAME TO r2`,
  `SELECT * FROM ${s}.rv`,
  `DROP TABLE ${s}.r2`,
  `DROP TABLE ${s}.r2 CASCADE`,
  `CREATE SCHEMA ${s}_other`,
  `CREATE TABLE ${s}_other.t (id int)`,
  `CREATE VIEW ${s}.o AS SELECT id FROM ${s}_other.t`,
  `CREATE VIEW ${s}.o2 AS SELECT id FROM ${s}.o`,
  `DROP SCHEMA ${s}_other`,
  `DROP SCHEMA ${s}_other CASCADE`,
  `SELECT * FROM ${s}.o2`,
];

/** unqualified names (the schema is on search_path); several siblings, listed oldest first */
const memoryScript = [
  'CREATE TABLE t (id int, a int)',
  'CREATE VIEW vc AS SELECT id FROM t',
  'CREATE VIEW va AS SELECT a FROM t',
  'CREATE VIEW vb AS SELECT id, a FROM t',
  'CREATE VIEW vz AS SELECT * FROM va',
  'DROP TABLE t',
  'ALTER TABLE t DROP COLUMN a',
  'DROP TABLE t CASCADE',
  'CREATE TABLE t (id int, a int)',
  'CREATE TEMP VIEW tv AS SELECT id FROM t',
  'DROP TABLE t',
  'ALTER TABLE t DROP COLUMN id',
  'ALTER TABLE t DROP COLUMN a',
  'DROP TABLE t, tv',
  'DROP VIEW tv, t',
  'DROP TABLE t CASCADE',
  'SELECT * FROM tv',
  'CREATE TABLE m1 (id int)',
  'CREATE VIEW mv1 AS SELECT m1.id FROM m1',
  'CREATE VIEW mv2 AS SELECT id FROM mv1',
  'ALTER TABLE m1 RENAME TO m2',
  'ALTER VIEW mv1 RENAME TO mv9',
  'SELECT * FROM mv2',
  'DROP TABLE m2',
  'DROP TABLE m2 CASCADE',
  'CREATE TEMP TABLE tt (x int)',
  'CREATE VIEW vt AS SELECT x FROM tt',
  'DROP TABLE tt',
  'CREATE OR REPLACE VIEW vt AS SELECT x + 1 AS x FROM tt',
  'CREATE OR REPLACE VIEW vt AS SELECT x + 1 AS y FROM tt',
  'CREATE OR REPLACE VIEW vt AS SELECT (x + 1)::text AS x FROM tt',
  'CREATE OR REPLACE VIEW vt AS SELECT 1 AS z',
  'CREATE OR REPLACE VIEW vt AS SELECT x, 2 AS extra FROM tt',
  'CREATE OR REPLACE VIEW tt AS SELECT 1 AS x',
  'DROP TABLE tt CASCADE',
];

/** RENAME COLUMN under views: the views follow the column and keep their own column names */
const renameColumnScript = (s: string): string[] => [
  `CREATE TABLE ${s}.rc (id int, x int, s text)`,
  `INSERT INTO ${s}.rc VALUES (1, 5, 'a'), (2, 0, 'b'), (3, 7, 'c')`,
  `CREATE TABLE ${s}.other (id int, s text)`,
  `INSERT INTO ${s}.other VALUES (1, 'x'), (3, 'y')`,
  `CREATE VIEW ${s}.v1 AS SELECT rc.id FROM ${s}.rc WHERE x > 0`,
  `CREATE VIEW ${s}.v2 AS SELECT id, x * 2 AS x2 FROM ${s}.rc`,
  `CREATE VIEW ${s}.v3 AS SELECT * FROM ${s}.rc`,
  `CREATE VIEW ${s}.v4 AS SELECT q.id FROM (SELECT id FROM ${s}.rc) q`,
  `CREATE VIEW ${s}.v5 AS SELECT r.id, count(*) AS n FROM ${s}.rc r GROUP BY r.id`,
  `CREATE VIEW ${s}.v6 AS SELECT id FROM ${s}.v1`,
  `CREATE VIEW ${s}.v7 AS SELECT a.id, b.id AS bid, b.s FROM ${s}.rc a JOIN ${s}.other b ON a.id = b.id`,
  `CREATE VIEW ${s}.v8 AS SELECT id FROM ${s}.rc ORDER BY id DESC`,
  `ALTER TABLE ${s}.rc RENAME COLUMN id TO ident`,
  `SELECT * FROM ${s}.v1 ORDER BY 1`,
  `SELECT * FROM ${s}.v2 ORDER BY 1`,
  `SELECT * FROM ${s}.v3 ORDER BY 1`,
  `SELECT * FROM ${s}.v4 ORDER BY 1`,
  `SELECT * FROM ${s}.v5 ORDER BY 1`,
  `SELECT * FROM ${s}.v6 ORDER BY 1`,
  `SELECT * FROM ${s}.v7 ORDER BY 1`,
  `SELECT * FROM ${s}.v8`,
  `SELECT ident, x FROM ${s}.rc ORDER BY 1`,
  `ALTER TABLE ${s}.rc RENAME COLUMN x TO y`,
  `ALTER TABLE ${s}.rc RENAME COLUMN s TO ident`,
  `ALTER TABLE ${s}.other RENAME COLUMN s TO label`,
  `SELECT * FROM ${s}.v1 ORDER BY 1`,
  `SELECT * FROM ${s}.v2 ORDER BY 1`,
  `SELECT * FROM ${s}.v7 ORDER BY 1`,
];

/** each statement's error or rows (with the column names), for scripts whose SELECTs order their rows */
async function runRows(c: pg.Client, statements: readonly string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const sql of statements) {
    try {
      const r = await c.query({ text: sql, rowMode: 'array' });
      out.push({ sql, fields: r.fields?.map((f) => f.name), rows: r.rows });
    } catch (e) {
      const err = e as pg.DatabaseError;
      out.push({ sql, code: err.code, message: err.message, detail: err.detail });
    }
  }
  return out;
}

describe('view dependencies (compared with PostgreSQL)', () => {
  let lg: LakegateServer;
  let pgc: PgCluster;
  let l: pg.Client;
  let p: pg.Client;

  beforeAll(async () => {
    [lg, pgc] = await Promise.all([startLakegate(), sharedPgCluster()]);
    l = new pg.Client({ connectionString: lg.url });
    p = new pg.Client({ connectionString: pgc.url });
    await Promise.all([l.connect(), p.connect()]);
  }, 120_000);
  afterAll(async () => {
    await l?.end();
    await p?.end();
    await lg?.close();
  });

  it('Iceberg tables and views: 2BP01, DETAIL, HINT, CASCADE notices, column dependencies', async () => {
    await p.query('DROP SCHEMA IF EXISTS deps CASCADE');
    await p.query('DROP SCHEMA IF EXISTS deps_other CASCADE');
    await Promise.all([l.query('CREATE SCHEMA deps'), p.query('CREATE SCHEMA deps')]);
    const ours = await runScript(l, icebergScript('deps'));
    const theirs = await runScript(p, icebergScript('deps'));
    expect(ours).toEqual(theirs);
    // the scripts do reach the interesting answers
    expect(theirs.find((o) => o.sql === 'DROP TABLE deps.t')!.error).toEqual({
      code: '2BP01', message: 'cannot drop table deps.t because other objects depend on it',
      detail: 'view deps.v depends on table deps.t\nview deps.w depends on view deps.v', hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
    });
    expect(theirs.find((o) => o.sql === 'DROP SCHEMA deps_other CASCADE')!.notices).toEqual([
      { message: 'drop cascades to 3 other objects', detail: 'drop cascades to table deps_other.t\ndrop cascades to view deps.o\ndrop cascades to view deps.o2' },
    ]);
    expect(theirs.find((o) => o.sql === 'DROP TABLE deps.t CASCADE')!.notices).toEqual([
      { message: 'drop cascades to 2 other objects', detail: 'drop cascades to view deps.v\ndrop cascades to view deps.w' },
    ]);
    await p.query('DROP SCHEMA deps CASCADE');
  });

  it('RENAME COLUMN: the views reading the column follow it and keep their column names', async () => {
    for (const schema of ['ren', 'ren_mem']) {
      await p.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await p.query(`CREATE SCHEMA ${schema}`);
    }
    await l.query('CREATE SCHEMA ren'); // an Iceberg namespace
    const ours = await runRows(l, renameColumnScript('ren'));
    const theirs = await runRows(p, renameColumnScript('ren'));
    expect(ours).toEqual(theirs);
    expect(theirs.find((o) => (o as { sql: string }).sql === 'SELECT * FROM ren.v7 ORDER BY 1')).toMatchObject({ fields: ['id', 'bid', 's'], rows: [[1, 1, 'x'], [3, 3, 'y']] });
    // memory tables (unqualified: public here, a schema on search_path there) follow the same way; views
    // listed oldest first in the last DROP COLUMN's DETAIL (Iceberg views' OIDs come from uuids, so not above)
    const mem = [...renameColumnScript('X').map((q) => q.replaceAll('X.', '').replace(/\b(rc|other|v\d)\b/g, '$1_m')), 'ALTER TABLE rc_m DROP COLUMN ident'];
    await p.query('SET search_path TO ren_mem');
    const oursMem = await runRows(l, mem);
    const theirsMem = await runRows(p, mem);
    await p.query('RESET search_path');
    expect(oursMem).toEqual(theirsMem);
    expect(theirsMem.at(-1)).toMatchObject({ code: '2BP01' });
    await p.query('DROP SCHEMA ren CASCADE');
    await p.query('DROP SCHEMA ren_mem CASCADE');
  });

  it('memory and temp views: siblings oldest first, several objects in one DROP', async () => {
    await p.query('DROP SCHEMA IF EXISTS mem CASCADE');
    await p.query('CREATE SCHEMA mem');
    await p.query('SET search_path TO mem');
    const ours = await runScript(l, memoryScript);
    const theirs = await runScript(p, memoryScript);
    expect(ours).toEqual(theirs);
    expect(theirs.find((o) => o.sql === 'ALTER TABLE t DROP COLUMN a')!.error!.detail).toBe(
      'view va depends on column a of table t\nview vz depends on view va\nview vb depends on column a of table t');
    await p.query('RESET search_path');
    await p.query('DROP SCHEMA mem CASCADE');
  });
});

describe('view dependencies lakegate keeps differently from PostgreSQL', () => {
  let a: LakegateServer;
  let ca: pg.Client;
  beforeAll(async () => {
    a = await startLakegate();
    ca = new pg.Client({ connectionString: a.url });
    await ca.connect();
    await ca.query('CREATE SCHEMA lake');
  }, 60_000);
  afterAll(async () => {
    await ca?.end();
    await a?.close();
  });

  it('RENAME TO / SET SCHEMA / RENAME COLUMN: the views follow (their SQL is rewritten)', async () => {
    await ca.query('CREATE SCHEMA lake2');
    await ca.query('CREATE TABLE lake.r (id int, x int)');
    await ca.query('INSERT INTO lake.r VALUES (1, 1), (2, 0)');
    await ca.query('CREATE VIEW lake.rv AS SELECT r.id FROM lake.r WHERE x > 0');
    await ca.query('ALTER TABLE lake.r RENAME TO r2');
    expect((await ca.query('SELECT * FROM lake.rv')).rows).toEqual([{ id: 1 }]);
    expect((await ca.query(`SELECT definition FROM pg_views WHERE viewname = 'rv'`)).rows[0].definition).toMatch(/FROM lake\.r2 r\b/);
    await ca.query('ALTER TABLE lake.r2 SET SCHEMA lake2');
    expect((await ca.query('SELECT * FROM lake.rv')).rows).toEqual([{ id: 1 }]);
    // another server reads the view's new version from the catalog
    const b = await startLakegate({ config: { warehouse: a.warehouse } });
    const cb = new pg.Client({ connectionString: b.url });
    await cb.connect();
    try {
      expect((await cb.query('SELECT * FROM lake.rv')).rows).toEqual([{ id: 1 }]);
    } finally {
      await cb.end();
      await b.close();
    }
    // RENAME COLUMN: the view follows; pg_views prints it as PostgreSQL's ruleutils would (pgcatalog/ruleutils-view-def.ts)
    await ca.query('ALTER TABLE lake2.r2 RENAME COLUMN id TO id2');
    await ca.query('ALTER TABLE lake2.r2 RENAME COLUMN x TO x2');
    expect((await ca.query('SELECT * FROM lake.rv')).rows).toEqual([{ id: 1 }]);
    expect((await ca.query(`SELECT definition FROM pg_views WHERE viewname = 'rv'`)).rows[0].definition).toMatch(/SELECT r\.id2 AS id\s+FROM lake2\.r2 r\s+WHERE \(r\.x2 > 0\)/);
    // a view whose rewrite lakegate cannot prove (the column in USING) still stops the rename, naming it
    await ca.query('CREATE TABLE lake2.s (id2 int)');
    await ca.query('CREATE VIEW lake.ru AS SELECT id2 FROM lake2.r2 JOIN lake2.s USING (id2)');
    await expect(ca.query('ALTER TABLE lake2.r2 RENAME COLUMN id2 TO id3')).rejects.toMatchObject({
      code: '2BP01', message: 'cannot rename column id2 of table lake2.r2 because other objects depend on it', detail: 'view lake.ru depends on column id2 of table lake2.r2',
    });
    expect((await ca.query('SELECT * FROM lake.rv')).rows).toEqual([{ id: 1 }]); // nothing changed
    await ca.query('DROP VIEW lake.ru');
    await ca.query('ALTER TABLE lake2.r2 RENAME COLUMN id2 TO id3');
    // another server reads the views' new versions from the catalog
    const c = await startLakegate({ config: { warehouse: a.warehouse } });
    const cc = new pg.Client({ connectionString: c.url });
    await cc.connect();
    try {
      expect((await cc.query('SELECT * FROM lake.rv')).rows).toEqual([{ id: 1 }]);
    } finally {
      await cc.end();
      await c.close();
    }
    await ca.query('DROP VIEW lake.rv');
  });

  it('an Iceberg view over a memory table: another server (or a restart) gets 42P01 naming the table', async () => {
    await ca.query('CREATE TABLE public.mem (x int)');
    await ca.query('INSERT INTO public.mem VALUES (1)');
    await ca.query('CREATE VIEW lake.over_mem AS SELECT x FROM public.mem');
    expect((await ca.query('SELECT x FROM lake.over_mem')).rows).toEqual([{ x: 1 }]);
    const b = await startLakegate({ config: { warehouse: a.warehouse } });
    const cb = new pg.Client({ connectionString: b.url });
    await cb.connect();
    try {
      await expect(cb.query('SELECT x FROM lake.over_mem')).rejects.toMatchObject({ code: '42P01', message: 'relation "public.mem" does not exist' });
      // the view is still listed and can be dropped or replaced
      expect((await cb.query(`SELECT viewname FROM pg_views WHERE schemaname = 'lake'`)).rows).toEqual([{ viewname: 'over_mem' }]);
    } finally {
      await cb.end();
      await b.close();
    }
  });
});
