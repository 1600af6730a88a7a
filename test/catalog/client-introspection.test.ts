/**
 * Catalog queries pgJDBC's DatabaseMetaData / TypeInfoCache and psql send verbatim, answered as PostgreSQL 15
 * answers them (expected rows are a scratch PostgreSQL 15's, the database name aside): function comments from
 * pg_description (getFunctions / getProcedures REMARKS, \df+), PostgreSQL's OIDs in SPECIFIC_NAME, the array type of
 * a catalog row type (getPGArrayType), the array || operators' operand types and comments (\do+).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineQuery, type EngineQuery } from '../../src/pgcatalog/testing/engine-query.ts';

let db: EngineQuery;
const query = (sql: string): Promise<string[][]> => db.query(sql);

beforeAll(async () => {
  db = await engineQuery(93);
});
afterAll(async () => {
  await db?.close();
});

describe('pgJDBC DatabaseMetaData', () => {
  it('getFunctions: REMARKS and SPECIFIC_NAME carry PostgreSQL 15 comments and OIDs', async () => {
    expect(await query(`SELECT current_database() AS FUNCTION_CAT, n.nspname AS FUNCTION_SCHEM, p.proname AS FUNCTION_NAME,  d.description AS REMARKS, CASE WHEN (format_type(p.prorettype, null) = 'unknown') THEN 0 WHEN (substring(pg_get_function_result(p.oid) from 0 for 6) = 'TABLE') OR (substring(pg_get_function_result(p.oid) from 0 for 6) = 'SETOF') THEN 2 ELSE 1 END AS FUNCTION_TYPE,  p.proname || '_' || p.oid AS SPECIFIC_NAME FROM pg_catalog.pg_proc p INNER JOIN pg_catalog.pg_namespace n ON p.pronamespace=n.oid LEFT JOIN pg_catalog.pg_description d ON p.oid=d.objoid WHERE true  AND p.prokind='f' AND n.nspname LIKE 'pg_catalog' AND p.proname LIKE 'age' ORDER BY FUNCTION_SCHEM, FUNCTION_NAME, p.oid::text`)).toEqual([
      ['lake', 'pg_catalog', 'age', 'age of a transaction ID, in transactions before current transaction', '1', 'age_1181'],
      ['lake', 'pg_catalog', 'age', 'date difference preserving months and years', '1', 'age_1199'],
      ['lake', 'pg_catalog', 'age', 'date difference from today preserving months and years', '1', 'age_1386'],
      ['lake', 'pg_catalog', 'age', 'date difference preserving months and years', '1', 'age_2058'],
      ['lake', 'pg_catalog', 'age', 'date difference from today preserving months and years', '1', 'age_2059'],
    ]);
  });

  it('getProcedures: REMARKS through pg_description joined on objoid', async () => {
    expect(await query(`SELECT NULL AS PROCEDURE_CAT, n.nspname AS PROCEDURE_SCHEM, p.proname AS PROCEDURE_NAME, NULL, NULL, NULL, d.description AS REMARKS, 2 AS PROCEDURE_TYPE,  p.proname || '_' || p.oid AS SPECIFIC_NAME  FROM pg_catalog.pg_namespace n, pg_catalog.pg_proc p  LEFT JOIN pg_catalog.pg_description d ON (p.oid=d.objoid)  LEFT JOIN pg_catalog.pg_class c ON (d.classoid=c.oid AND c.relname='pg_proc')  LEFT JOIN pg_catalog.pg_namespace pn ON (c.relnamespace=pn.oid AND pn.nspname='pg_catalog')  WHERE p.pronamespace=n.oid AND n.nspname LIKE 'pg_catalog' AND p.proname LIKE 'justify%' ORDER BY PROCEDURE_SCHEM, PROCEDURE_NAME, p.oid::text`)).toEqual([
      ['NULL', 'pg_catalog', 'justify_days', 'NULL', 'NULL', 'NULL', 'promote groups of 30 days to numbers of months', '2', 'justify_days_1295'],
      ['NULL', 'pg_catalog', 'justify_hours', 'NULL', 'NULL', 'NULL', 'promote groups of 24 hours to numbers of days', '2', 'justify_hours_1175'],
      ['NULL', 'pg_catalog', 'justify_interval', 'NULL', 'NULL', 'NULL', 'promote groups of 24 hours to numbers of days and promote groups of 30 days to numbers of months', '2', 'justify_interval_2711'],
    ]);
  });

  it("TypeInfoCache.getPGArrayType: a catalog row type's array", async () => {
    expect(await query(`SELECT t.typarray, arr.typname FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON t.typnamespace = n.oid JOIN pg_catalog.pg_type arr ON arr.oid = t.typarray WHERE t.typname = 'pg_class' AND (n.nspname = NULL OR NULL IS NULL AND n.nspname = ANY (current_schemas(true))) ORDER BY t.oid DESC LIMIT 1`))
      .toEqual([['273', '_pg_class']]);
    expect(await query(`select 'pg_cast[]'::regtype, '_pg_class'::regtype::oid, 'regconfig[]'::regtype::oid, 3735::regtype, 'pg_catalog.pg_attribute[]'::regtype::oid`))
      .toEqual([['pg_cast[]', '273', '3735', 'regconfig[]', '270']]);
  });
});

describe('psql', () => {
  it('\\do+: the array || operators have PostgreSQL 15 operand types, functions and comments', async () => {
    expect(await query(`select oid, oprname, oprleft::regtype, oprright::regtype, oprcode, obj_description(oid, 'pg_operator'),
      obj_description(oprcode, 'pg_proc') from pg_operator where oid in (349, 374, 375) order by oid`)).toEqual([
      ['349', '||', 'anycompatiblearray', 'anycompatible', 'array_append', 'append element onto end of array', 'append element onto end of array'],
      ['374', '||', 'anycompatible', 'anycompatiblearray', 'array_prepend', 'prepend element onto front of array', 'prepend element onto front of array'],
      ['375', '||', 'anycompatiblearray', 'anycompatiblearray', 'array_cat', 'concatenate', 'implementation of || operator'],
    ]);
  });

  it("\\dT regconfig[]: the pattern's escaped [ and lone ] match, and the array type exists", async () => {
    expect(await query(`SELECT n.nspname, pg_catalog.format_type(t.oid, NULL), t.typname, pg_catalog.obj_description(t.oid, 'pg_type')
      FROM pg_catalog.pg_type t LEFT JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
      WHERE (t.typrelid = 0 OR (SELECT c.relkind = 'c' FROM pg_catalog.pg_class c WHERE c.oid = t.typrelid))
        AND (t.typname OPERATOR(pg_catalog.~) E'^(regconfig\\\\[])$' COLLATE pg_catalog.default
          OR pg_catalog.format_type(t.oid, NULL) OPERATOR(pg_catalog.~) E'^(regconfig\\\\[])$' COLLATE pg_catalog.default)
        AND pg_catalog.pg_type_is_visible(t.oid) ORDER BY 1, 2`)).toEqual([['pg_catalog', 'regconfig[]', '_regconfig', 'NULL']]);
  });

  it('regoper qualifies an operator name several operators share, as regoperout does', async () => {
    expect(await query('select 96::regoper, 96::regoperator, 3877::regoper, 3877::regoperator, 1209::regoper'))
      .toEqual([['pg_catalog.=', '=(integer,integer)', '^@', '^@(text,text)', 'pg_catalog.~~']]);
  });

  it('pg_description: built-in schemas, types, functions, operators and access methods', async () => {
    expect(await query(`select d.objoid, d.classoid::regclass, d.description from pg_description d
      where d.objoid in (16, 23, 96, 65, 2200, 11, 403) order by 1, 2`)).toEqual([
      ['11', 'pg_namespace', 'system catalog schema'],
      ['16', 'pg_type', "boolean, 'true'/'false'"],
      ['23', 'pg_type', '-2 billion to 2 billion integer, 4-byte storage'],
      ['65', 'pg_proc', 'implementation of = operator'],
      ['96', 'pg_operator', 'equal'],
      ['403', 'pg_am', 'b-tree index access method'],
      ['2200', 'pg_namespace', 'standard public schema'],
    ]);
  });

  it("a COMMENT ON a lakegate table is still listed, beside PostgreSQL's built-in comments", async () => {
    await query('create table commented (a int)');
    await query(`comment on table commented is 'mine'`);
    expect(await query(`select description from pg_description where objoid = 'commented'::regclass`)).toEqual([['mine']]);
    expect(await query(`select obj_description('commented'::regclass, 'pg_class')`)).toEqual([['mine']]);
  });
});
