/**
 * Views in Iceberg namespaces are Iceberg views (view spec, format-version 1) in the catalog: they outlive
 * the server, every server on the warehouse sees them at its next statement, and the catalog row is the JDBC
 * catalog's (iceberg_type = 'VIEW'), so Spark, Trino and PyIceberg list them too.
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import Database from 'better-sqlite3';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

function viewMetadataFiles(warehouse: string, ...path: string[]): string[] {
  const dir = join(warehouse, ...path, 'metadata');
  return readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).sort().map((f) => join(dir, f));
}

describe('Iceberg views', () => {
  let a: LakegateServer;
  let b: LakegateServer;
  let ca: pg.Client;
  let cb: pg.Client;
  beforeAll(async () => {
    a = await startLakegate();
    b = await startLakegate({ config: { warehouse: a.warehouse } });
    ca = new pg.Client({ connectionString: a.url });
    cb = new pg.Client({ connectionString: b.url });
    await ca.connect();
    await cb.connect();
    await ca.query('create schema vs');
    await ca.query('create table vs.t (id int, amount numeric(10,2), name text)');
    await ca.query(`insert into vs.t values (1, 1.50, 'a'), (2, 2.25, 'b'), (3, 0.75, 'c')`);
  }, 60_000);
  afterAll(async () => {
    await ca?.end();
    await cb?.end();
    await b?.close();
    await a?.close();
  });

  it('CREATE VIEW writes a view metadata file and a VIEW row; the other server reads it at once', async () => {
    await ca.query('create view vs.big as select id, amount * 2 as dbl, name from vs.t where amount > 1');
    expect((await cb.query('select id, dbl, name from vs.big order by id')).rows).toEqual([
      { id: 1, dbl: '3.00', name: 'a' },
      { id: 2, dbl: '4.50', name: 'b' },
    ]);
    // numeric without a precision survives the round trip through the Iceberg schema
    const cols = await cb.query(`select column_name, data_type from information_schema.columns where table_schema = 'vs' and table_name = 'big' order by ordinal_position`);
    expect(cols.rows).toEqual([
      { column_name: 'id', data_type: 'integer' },
      { column_name: 'dbl', data_type: 'numeric' },
      { column_name: 'name', data_type: 'text' },
    ]);
    const kind = await cb.query(`select relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace where nspname = 'vs' and relname = 'big'`);
    expect(kind.rows).toEqual([{ relkind: 'v' }]);
    expect((await cb.query(`select definition from pg_views where schemaname = 'vs' and viewname = 'big'`)).rows[0].definition).toMatch(/t\.amount \* \(2\)::numeric/);

    const db = new Database(join(a.warehouse, 'lakegate_catalog.db'), { readonly: true });
    try {
      const rows = db.prepare(`select table_namespace, table_name, iceberg_type, metadata_location from iceberg_tables where table_name = 'big'`).all() as Record<string, string>[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ table_namespace: 'vs', table_name: 'big', iceberg_type: 'VIEW' });
    } finally {
      db.close();
    }
    const [file] = viewMetadataFiles(a.warehouse, 'vs', 'big');
    const doc = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, unknown>;
    expect(doc['format-version']).toBe(1);
    expect(doc['current-version-id']).toBe(1);
    const versions = doc['versions'] as { representations: { type: string; dialect: string; sql: string }[]; 'default-namespace': string[] }[];
    expect(versions[0]!.representations).toEqual([{ type: 'sql', dialect: 'postgresql', sql: expect.stringMatching(/amount \* 2 AS dbl/) }]);
    expect(versions[0]!['default-namespace']).toEqual(['vs']);
    expect(doc['version-log']).toHaveLength(1);
  });

  it('CREATE OR REPLACE VIEW adds a version; COMMENT ON VIEW and RENAME are seen by the other server', async () => {
    // PostgreSQL's rule: the columns stay (names, types, order); new ones may follow
    await expect(cb.query('create or replace view vs.big as select id, name, amount from vs.t')).rejects.toMatchObject({ code: '42P16', message: 'cannot change name of view column "dbl" to "name"' });
    await cb.query('create or replace view vs.big as select id, amount * 3 as dbl, name, amount from vs.t where amount > 2');
    expect((await ca.query('select * from vs.big')).rows).toEqual([{ id: 2, dbl: '6.75', name: 'b', amount: '2.25' }]);
    const files = viewMetadataFiles(a.warehouse, 'vs', 'big');
    expect(files).toHaveLength(2);
    const doc = JSON.parse(readFileSync(files[1]!, 'utf8')) as { versions: unknown[]; 'current-version-id': number; schemas: unknown[] };
    expect(doc['current-version-id']).toBe(2);
    expect(doc.versions).toHaveLength(2);
    expect(doc.schemas).toHaveLength(2);

    await ca.query(`comment on view vs.big is 'amounts over two'`);
    expect((await cb.query(`select obj_description('vs.big'::regclass, 'pg_class') as d`)).rows).toEqual([{ d: 'amounts over two' }]);
    await cb.query('alter view vs.big rename to big2');
    expect((await ca.query('select count(*)::int as n from vs.big2')).rows).toEqual([{ n: 1 }]);
    await expect(ca.query('select * from vs.big')).rejects.toMatchObject({ code: '42P01' });
  });

  it('names are shared with tables; DROP SCHEMA lists views; DROP VIEW removes the row', async () => {
    await expect(ca.query('create view vs.t as select 1 as one')).rejects.toMatchObject({ code: '42P07' });
    await expect(ca.query('create table vs.big2 (x int)')).rejects.toMatchObject({ code: '42P07' });
    await expect(ca.query('create or replace view vs.t as select 1 as one')).rejects.toMatchObject({ code: '42809', message: '"t" is not a view' });
    await expect(ca.query('drop schema vs')).rejects.toMatchObject({ code: '2BP01', detail: expect.stringContaining('view vs.big2 depends on schema vs') });
    await expect(ca.query('drop table vs.big2')).rejects.toMatchObject({ code: '42809' });
    await ca.query('drop view vs.big2');
    await expect(cb.query('select * from vs.big2')).rejects.toMatchObject({ code: '42P01' });
    await expect(cb.query('drop view vs.big2')).rejects.toMatchObject({ code: '42P01' });
  });

  it('a view survives a restart; a view of another engine only is listed and reading it is 0A000', async () => {
    await ca.query('create view vs.names as select name from vs.t');
    // a Spark-written view next to ours: same catalog, SQL in dialect spark only
    const location = join(a.warehouse, 'vs', 'spark_view');
    mkdirSync(join(location, 'metadata'), { recursive: true });
    const metadataLocation = join(location, 'metadata', '00000-9f1d5e9a-0000-4000-8000-000000000001.metadata.json');
    writeFileSync(metadataLocation, JSON.stringify({
      'view-uuid': '9f1d5e9a-0000-4000-8000-000000000001', 'format-version': 1, location, 'current-version-id': 1,
      versions: [{ 'version-id': 1, 'schema-id': 0, 'timestamp-ms': 1700000000000, summary: { 'engine-name': 'spark' },
        representations: [{ type: 'sql', sql: 'SELECT id FROM vs.t', dialect: 'spark' }], 'default-namespace': ['vs'] }],
      'version-log': [{ 'version-id': 1, 'timestamp-ms': 1700000000000 }],
      schemas: [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', required: false, type: 'int' }] }],
      properties: {},
    }));
    const db = new Database(join(a.warehouse, 'lakegate_catalog.db'));
    try {
      const { catalog_name: catalogName } = db.prepare(`select catalog_name from iceberg_tables where table_name = 'names'`).get() as { catalog_name: string };
      db.prepare(`insert into iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location, iceberg_type) values (?, 'vs', 'spark_view', ?, null, 'VIEW')`)
        .run(catalogName, `file://${metadataLocation}`);
    } finally {
      db.close();
    }
    cb.on('error', () => {}); // the server going away terminates the session (57P01)
    await b.close();
    b = await startLakegate({ config: { warehouse: a.warehouse } });
    await cb.end().catch(() => {});
    cb = new pg.Client({ connectionString: b.url });
    await cb.connect();
    expect((await cb.query('select name from vs.names order by name')).rows).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect((await cb.query(`select column_name from information_schema.columns where table_schema = 'vs' and table_name = 'spark_view'`)).rows).toEqual([{ column_name: 'id' }]);
    await expect(cb.query('select * from vs.spark_view')).rejects.toMatchObject({ code: '0A000', message: 'view "spark_view" has no PostgreSQL definition' });
    // as the hint says: lakegate's own version replaces it, whatever its columns were
    await cb.query('create or replace view vs.spark_view as select name from vs.t');
    expect((await cb.query('select count(*)::int as n from vs.spark_view')).rows).toEqual([{ n: 3 }]);
  });
});
