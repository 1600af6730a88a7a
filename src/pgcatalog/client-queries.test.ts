/**
 * Catalog queries real clients send (psql 15 \d, pgJDBC, SQLAlchemy, Npgsql, dbt), run through the whole engine
 * (createQueryEngine → parse → bind → execute) against pgcatalog, with PostgreSQL 15's answers for the same DDL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineQuery, type EngineQuery } from './testing/engine-query.ts';

let db: EngineQuery;
const query = (sql: string): Promise<string[][]> => db.query(sql);

beforeAll(async () => {
  db = await engineQuery(77, [
    'create table customers (id int primary key, name varchar(50) not null, balance numeric(12,2) default 0, note text)',
    "comment on column customers.name is 'full name'",
    'create schema sales',
    'create table sales.items (sku text primary key, qty smallint)',
  ]);
});

afterAll(async () => {
  await db?.close();
});

describe('client catalog queries through the engine', () => {
  it('psql \\dt', async () => {
    expect(await query(`SELECT n.nspname as "Schema", c.relname as "Name", CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' END as "Type", pg_catalog.pg_get_userbyid(c.relowner) as "Owner" FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam WHERE c.relkind IN ('r','p','') AND n.nspname <> 'pg_catalog' AND n.nspname !~ '^pg_toast' AND n.nspname <> 'information_schema' AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 1,2`))
      .toEqual([['public', 'customers', 'table', 'alice']]);
  });

  it('psql \\d columns and indexes', async () => {
    expect(await query(`SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true) FROM pg_catalog.pg_attrdef d WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef), a.attnotnull, (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) AS attcollation, a.attidentity, a.attgenerated FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'customers'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`))
      .toEqual([
        ['id', 'integer', 'NULL', 't', 'NULL', '', ''],
        ['name', 'character varying(50)', 'NULL', 't', 'NULL', '', ''],
        ['balance', 'numeric(12,2)', '0', 'f', 'NULL', '', ''],
        ['note', 'text', 'NULL', 'f', 'NULL', '', ''],
      ]);
    expect(await query(`SELECT c2.relname, i.indisprimary, i.indisunique, i.indisclustered, i.indisvalid, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true), pg_catalog.pg_get_constraintdef(con.oid, true), contype, condeferrable, condeferred, i.indisreplident, c2.reltablespace FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i LEFT JOIN pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p','u','x')) WHERE c.oid = 'customers'::regclass AND c.oid = i.indrelid AND i.indexrelid = c2.oid ORDER BY i.indisprimary DESC, c2.relname`))
      .toEqual([['customers_pkey', 't', 't', 'f', 't', 'CREATE UNIQUE INDEX customers_pkey ON customers USING btree (id)', 'PRIMARY KEY (id)', 'p', 'f', 'f', 'f', '0']]);
  });

  it('reg* casts and their text output', async () => {
    expect(await query(`select 'pg_class'::regclass, 'sales.items'::regclass, 'int4'::regtype, 'integer[]'::regtype, 'public'::regnamespace, 10::regrole, 'customers_pkey'::regclass::text`))
      .toEqual([['pg_class', 'sales.items', 'integer', 'integer[]', 'public', 'alice', 'customers_pkey']]);
  });

  it('pgJDBC getColumns with comments and defaults', async () => {
    const rows = await query(`SELECT a.attname, a.atttypid, a.attnotnull, a.atttypmod, row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity, pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc, dsc.description, t.typtype FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid) JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid) JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid) LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum) LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid) LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class') WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped AND n.nspname LIKE 'public' AND c.relname LIKE 'customers' ORDER BY attnum`);
    expect(rows).toEqual([
      ['id', '23', 't', '-1', '1', 'NULL', 'NULL', 'NULL', 'b'],
      ['name', '1043', 't', '54', '2', 'NULL', 'NULL', 'full name', 'b'],
      ['balance', '1700', 'f', '786438', '3', 'NULL', '0', 'NULL', 'b'],
      ['note', '25', 'f', '-1', '4', 'NULL', 'NULL', 'NULL', 'b'],
    ]);
  });

  it('primary key columns through attnum = ANY(indkey)', async () => {
    expect(await query(`select a.attname, ix.indkey from pg_index ix join pg_class c on c.oid = ix.indrelid join pg_attribute a on a.attrelid = c.oid and a.attnum = any(ix.indkey::int2[]) where c.relname = 'customers'`))
      .toEqual([['id', '1']]);
  });

  it('information_schema.columns as dbt reads it', async () => {
    expect(await query(`select column_name, data_type, character_maximum_length, numeric_precision, numeric_scale from information_schema.columns where table_name = 'customers' and table_schema = 'public' order by ordinal_position`))
      .toEqual([['id', 'integer', 'NULL', '32', '0'], ['name', 'character varying', '50', 'NULL', 'NULL'], ['balance', 'numeric', 'NULL', '12', '2'], ['note', 'text', 'NULL', 'NULL', 'NULL']]);
  });

  it('Npgsql type loading finds every type receive function in pg_proc', async () => {
    const rows = await query(`SELECT a.typname FROM pg_type AS a JOIN pg_namespace AS ns ON (ns.oid = a.typnamespace) JOIN pg_proc ON pg_proc.oid = a.typreceive LEFT OUTER JOIN pg_range ON (pg_range.rngtypid = a.oid) WHERE a.typtype IN ('b','r','e','d') OR (a.typtype='p' AND a.typname IN ('record','void'))`);
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['int4', 'text', '_int4', 'int4range', 'record', 'void', 'timestamptz']));
  });

  it('session information functions', async () => {
    expect(await query(`select current_schema(), current_schemas(true), current_user, current_database(), has_table_privilege('customers', 'select'), pg_get_keywords() is not null limit 1`))
      .toEqual([['public', '{pg_catalog,public}', 'alice', 'lake', 't', 't']]);
  });
});
