/**
 * Catalog queries psql 15 (\df+, \sf, \dL+, \dx+, \d on a catalog table), pgJDBC's DatabaseMetaData
 * (getFunctionColumns / getProcedureColumns, TypeInfoCache), psqlODBC (SQLProcedureColumns) and information_schema
 * readers send, verbatim,
 * answered as a scratch PostgreSQL 15 answers them after the same DDL (`psql -E` captured the psql queries; the
 * expected rows are PostgreSQL's, session user alice in database lake). Also the cost of \df+: the function registry
 * is flattened a bounded number of times per statement, not once per listed function.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activeFunctionCatalog } from '../../src/pgcatalog/function-catalog.ts';
import { engineQuery, type EngineQuery } from '../../src/pgcatalog/testing/engine-query.ts';

let db: EngineQuery;
const query = (sql: string): Promise<string[][]> => db.query(sql);

beforeAll(async () => {
  db = await engineQuery(94, [
    'create table orders (id int primary key, note text)',
    'create view v_orders as select id from orders',
    'create sequence seq1',
  ]);
});
afterAll(async () => {
  await db?.close();
});

/** psql 15's \df+ <name> */
const dfPlus = (name: string): string => `SELECT n.nspname as "Schema",
  p.proname as "Name",
  pg_catalog.pg_get_function_result(p.oid) as "Result data type",
  pg_catalog.pg_get_function_arguments(p.oid) as "Argument data types",
 CASE p.prokind
  WHEN 'a' THEN 'agg'
  WHEN 'w' THEN 'window'
  WHEN 'p' THEN 'proc'
  ELSE 'func'
 END as "Type",
 CASE
  WHEN p.provolatile = 'i' THEN 'immutable'
  WHEN p.provolatile = 's' THEN 'stable'
  WHEN p.provolatile = 'v' THEN 'volatile'
 END as "Volatility",
 CASE
  WHEN p.proparallel = 'r' THEN 'restricted'
  WHEN p.proparallel = 's' THEN 'safe'
  WHEN p.proparallel = 'u' THEN 'unsafe'
 END as "Parallel",
 pg_catalog.pg_get_userbyid(p.proowner) as "Owner",
 CASE WHEN prosecdef THEN 'definer' ELSE 'invoker' END AS "Security",
 pg_catalog.array_to_string(p.proacl, E'\\n') AS "Access privileges",
 l.lanname as "Language",
 COALESCE(pg_catalog.pg_get_function_sqlbody(p.oid), p.prosrc) as "Source code",
 pg_catalog.obj_description(p.oid, 'pg_proc') as "Description"
FROM pg_catalog.pg_proc p
     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
     LEFT JOIN pg_catalog.pg_language l ON l.oid = p.prolang
WHERE p.proname OPERATOR(pg_catalog.~) '^(${name})$' COLLATE pg_catalog.default
  AND pg_catalog.pg_function_is_visible(p.oid)
ORDER BY 1, 2, 4;`;

const MAKE_INTERVAL_ARGS = 'years integer DEFAULT 0, months integer DEFAULT 0, weeks integer DEFAULT 0, days integer DEFAULT 0, '
  + 'hours integer DEFAULT 0, mins integer DEFAULT 0, secs double precision DEFAULT 0.0';

describe('psql 15', () => {
  it('\\df+ shows argument names and defaults, the C symbol as source code, and PostgreSQL volatility', async () => {
    expect(await query(dfPlus('make_interval'))).toEqual([
      ['pg_catalog', 'make_interval', 'interval', MAKE_INTERVAL_ARGS, 'func', 'immutable', 'safe', 'alice', 'invoker', 'NULL', 'internal', 'make_interval', 'construct interval'],
    ]);
    expect(await query(dfPlus('pg_get_keywords'))).toEqual([
      ['pg_catalog', 'pg_get_keywords', 'SETOF record', 'OUT word text, OUT catcode "char", OUT barelabel boolean, OUT catdesc text, OUT baredesc text', 'func', 'stable', 'safe', 'alice', 'invoker', 'NULL', 'internal', 'pg_get_keywords', 'list of SQL keywords'],
    ]);
    // ordered-set aggregates print their direct arguments before ORDER BY
    expect(await query(dfPlus('percentile_cont'))).toEqual([
      ['pg_catalog', 'percentile_cont', 'double precision', 'double precision ORDER BY double precision', 'agg', 'immutable', 'safe', 'alice', 'invoker', 'NULL', 'internal', 'aggregate_dummy', 'continuous distribution percentile'],
      ['pg_catalog', 'percentile_cont', 'interval', 'double precision ORDER BY interval', 'agg', 'immutable', 'safe', 'alice', 'invoker', 'NULL', 'internal', 'aggregate_dummy', 'continuous distribution percentile'],
      ['pg_catalog', 'percentile_cont', 'double precision[]', 'double precision[] ORDER BY double precision', 'agg', 'immutable', 'safe', 'alice', 'invoker', 'NULL', 'internal', 'aggregate_dummy', 'multiple continuous percentiles'],
      ['pg_catalog', 'percentile_cont', 'interval[]', 'double precision[] ORDER BY interval', 'agg', 'immutable', 'safe', 'alice', 'invoker', 'NULL', 'internal', 'aggregate_dummy', 'multiple continuous percentiles'],
    ]);
    // age(timestamptz, timestamptz) is immutable in PostgreSQL's catalog; age(timestamp) is a SQL function; age(xid) too
    const age = await query(dfPlus('age'));
    expect(age.map((r) => [r[3], r[5], r[10], r[11]])).toEqual([
      ['timestamp with time zone', 'stable', 'sql', 'RETURN age((CURRENT_DATE)::timestamp with time zone, $1)'],
      ['timestamp with time zone, timestamp with time zone', 'immutable', 'internal', 'timestamptz_age'],
      ['timestamp without time zone', 'stable', 'sql', 'RETURN age((CURRENT_DATE)::timestamp without time zone, $1)'],
      ['timestamp without time zone, timestamp without time zone', 'immutable', 'internal', 'timestamp_age'],
      ['xid', 'stable', 'internal', 'xid_age'],
    ]);
  });

  it('\\sf make_interval: pg_get_functiondef with defaults and options', async () => {
    expect(await query('SELECT pg_catalog.pg_get_functiondef(3464)')).toEqual([[
      `CREATE OR REPLACE FUNCTION pg_catalog.make_interval(${MAKE_INTERVAL_ARGS})\n RETURNS interval\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$make_interval$function$\n`,
    ]]);
    expect(await query('select pg_get_function_arg_default(3464, 7), pg_get_function_arg_default(3464, 8), pg_get_function_arg_default(1686, 1)'))
      .toEqual([['0.0', 'NULL', 'NULL']]);
  });

  it('\\dL+ and \\dx+ plpgsql: the handler functions exist, and the extension lists its members', async () => {
    expect(await query(`SELECT l.lanname AS "Name",
       pg_catalog.pg_get_userbyid(l.lanowner) as "Owner",
       l.lanpltrusted AS "Trusted",
       NOT l.lanispl AS "Internal language",
       l.lanplcallfoid::pg_catalog.regprocedure AS "Call handler",
       l.lanvalidator::pg_catalog.regprocedure AS "Validator",
       l.laninline::pg_catalog.regprocedure AS "Inline handler",
       pg_catalog.array_to_string(l.lanacl, E'\\n') AS "Access privileges",
       d.description AS "Description"
FROM pg_catalog.pg_language l
LEFT JOIN pg_catalog.pg_description d
  ON d.classoid = l.tableoid AND d.objoid = l.oid
  AND d.objsubid = 0
WHERE l.lanplcallfoid != 0
ORDER BY 1;`)).toEqual([
      ['plpgsql', 'alice', 't', 'f', 'plpgsql_call_handler()', 'plpgsql_validator(oid)', 'plpgsql_inline_handler(internal)', 'NULL', 'PL/pgSQL procedural language'],
    ]);
    expect(await query(`SELECT pg_catalog.pg_describe_object(classid, objid, 0) AS "Object description"
FROM pg_catalog.pg_depend
WHERE refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND refobjid = '13559' AND deptype = 'e'
ORDER BY 1;`)).toEqual([['function plpgsql_call_handler()'], ['function plpgsql_inline_handler(internal)'], ['function plpgsql_validator(oid)'], ['language plpgsql']]);
  });

  it("\\d pg_cast lists PostgreSQL's primary key and unique constraint indexes", async () => {
    expect(await query(`SELECT c2.relname, i.indisprimary, i.indisunique, i.indisclustered, i.indisvalid, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true),
  pg_catalog.pg_get_constraintdef(con.oid, true), contype, condeferrable, condeferred, i.indisreplident, c2.reltablespace
FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i
  LEFT JOIN pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p','u','x'))
WHERE c.oid = '2605' AND c.oid = i.indrelid AND i.indexrelid = c2.oid
ORDER BY i.indisprimary DESC, c2.relname;`)).toEqual([
      ['pg_cast_oid_index', 't', 't', 'f', 't', 'CREATE UNIQUE INDEX pg_cast_oid_index ON pg_cast USING btree (oid)', 'PRIMARY KEY (oid)', 'p', 'f', 'f', 'f', '0'],
      ['pg_cast_source_target_index', 'f', 't', 'f', 't', 'CREATE UNIQUE INDEX pg_cast_source_target_index ON pg_cast USING btree (castsource, casttarget)', 'UNIQUE (castsource, casttarget)', 'u', 'f', 'f', 'f', '0'],
    ]);
  });
});

describe('pgJDBC and psqlODBC', () => {
  const functionColumns = (name: string): string => `SELECT n.nspname,p.proname,p.prorettype,p.proargtypes, t.typtype,t.typrelid,  p.proargnames, p.proargmodes, p.proallargtypes, p.oid  FROM pg_catalog.pg_proc p, pg_catalog.pg_namespace n, pg_catalog.pg_type t  WHERE p.pronamespace=n.oid AND p.prorettype=t.oid  AND n.nspname LIKE 'pg_catalog' AND p.proname LIKE '${name}' ORDER BY n.nspname, p.proname, p.oid::text `;

  it('getFunctionColumns / getProcedureColumns: one name per argument, modes and all argument types', async () => {
    expect(await query(functionColumns('make_interval'))).toEqual([
      ['pg_catalog', 'make_interval', '1186', '23 23 23 23 23 23 701', 'b', '0', '{years,months,weeks,days,hours,mins,secs}', 'NULL', 'NULL', '3464'],
    ]);
    expect(await query(functionColumns('pg_get_keywords'))).toEqual([
      ['pg_catalog', 'pg_get_keywords', '2249', '', 'p', '0', '{word,catcode,barelabel,catdesc,baredesc}', '{o,o,o,o,o}', '{25,18,16,25,25}', '1686'],
    ]);
  });

  it('SQLProcedureColumns (psqlODBC)', async () => {
    expect(await query(`select proname, proretset, prorettype, pronargs, proargtypes, nspname, p.oid, atttypid, attname, proargnames, proargmodes, proallargtypes from ((pg_catalog.pg_namespace n inner join pg_catalog.pg_proc p on p.pronamespace = n.oid) inner join pg_type t on t.oid = p.prorettype) left outer join pg_attribute a on a.attrelid = t.typrelid  and attnum > 0 and not attisdropped where has_function_privilege(p.oid, 'EXECUTE') and nspname like 'pg_catalog' and proname like 'make_interval' order by nspname, proname, p.oid, attnum`))
      .toEqual([['make_interval', 'f', '1186', '7', '23 23 23 23 23 23 701', 'pg_catalog', '3464', 'NULL', 'NULL', '{years,months,weeks,days,hours,mins,secs}', 'NULL', 'NULL']]);
  });

  it("a table's and a view's row types have array types ('orders[]'::regtype, TypeInfoCache); sequences and indexes have no row type", async () => {
    expect(await query(`select 'orders'::regtype, 'orders[]'::regtype, '_orders'::regtype, format_type('orders[]'::regtype, null),
      pg_type_is_visible('orders[]'::regtype), 'orders[]'::regtype::oid = (select typarray from pg_type where typname = 'orders')`))
      .toEqual([['orders', 'orders[]', 'orders[]', 'orders[]', 't', 't']]);
    expect(await query(`select t.typname, t.typtype, t.typcategory, e.typname, t.typlen, t.typalign, t.typinput::text, t.typsubscript::text
      from pg_type t join pg_type e on e.oid = t.typelem where e.typname in ('orders', 'v_orders') order by 1`)).toEqual([
      ['_orders', 'b', 'A', 'orders', '-1', 'd', 'array_in', 'array_subscript_handler'],
      ['_v_orders', 'b', 'A', 'v_orders', '-1', 'd', 'array_in', 'array_subscript_handler'],
    ]);
    expect(await query(`select c.relname, c.reltype <> 0, t.typarray <> 0 from pg_class c left join pg_type t on t.oid = c.reltype
      where c.relname in ('orders', 'v_orders', 'orders_pkey', 'seq1') order by 1`))
      .toEqual([['orders', 't', 't'], ['orders_pkey', 'f', 'NULL'], ['seq1', 'f', 'NULL'], ['v_orders', 't', 't']]);
  });
});

describe('information_schema', () => {
  it('parameters: names, OUT modes and defaults; routines: aggregates too, language, body, determinism from pg_proc', async () => {
    expect(await query(`select specific_name, ordinal_position, parameter_mode, parameter_name, data_type, parameter_default
      from information_schema.parameters where specific_name in ('make_interval_3464','pg_get_keywords_1686','percentile_cont_3974') order by 1,2`)).toEqual([
      ...['years', 'months', 'weeks', 'days', 'hours', 'mins'].map((n, i) => ['make_interval_3464', String(i + 1), 'IN', n, 'integer', '0']),
      ['make_interval_3464', '7', 'IN', 'secs', 'double precision', '0.0'],
      ['percentile_cont_3974', '1', 'IN', 'NULL', 'double precision', 'NULL'], ['percentile_cont_3974', '2', 'IN', 'NULL', 'double precision', 'NULL'],
      ['pg_get_keywords_1686', '1', 'OUT', 'word', 'text', 'NULL'], ['pg_get_keywords_1686', '2', 'OUT', 'catcode', '"char"', 'NULL'],
      ['pg_get_keywords_1686', '3', 'OUT', 'barelabel', 'boolean', 'NULL'], ['pg_get_keywords_1686', '4', 'OUT', 'catdesc', 'text', 'NULL'],
      ['pg_get_keywords_1686', '5', 'OUT', 'baredesc', 'text', 'NULL'],
    ]);
    expect(await query(`select specific_name, routine_type, data_type, routine_body, routine_definition, external_language, is_deterministic, is_null_call
      from information_schema.routines where routine_name in ('make_interval','percentile_cont','col_description') order by 1`)).toEqual([
      ['col_description_1216', 'FUNCTION', 'text', 'SQL', '', 'SQL', 'NO', 'YES'],
      ['make_interval_3464', 'FUNCTION', 'interval', 'EXTERNAL', 'make_interval', 'INTERNAL', 'YES', 'YES'],
      ['percentile_cont_3974', 'NULL', 'double precision', 'EXTERNAL', 'aggregate_dummy', 'INTERNAL', 'YES', 'NO'],
      ['percentile_cont_3976', 'NULL', 'interval', 'EXTERNAL', 'aggregate_dummy', 'INTERNAL', 'YES', 'NO'],
      ['percentile_cont_3980', 'NULL', 'ARRAY', 'EXTERNAL', 'aggregate_dummy', 'INTERNAL', 'YES', 'NO'],
      ['percentile_cont_3982', 'NULL', 'ARRAY', 'EXTERNAL', 'aggregate_dummy', 'INTERNAL', 'YES', 'NO'],
    ]);
  });
});

describe('cost', () => {
  it("\\df+ and regproc output flatten the function registry per statement, not per row", async () => {
    const registry = activeFunctionCatalog();
    expect(registry).toBeDefined();
    const flattened = vi.spyOn(registry!, 'allRoutines');
    try {
      expect((await query('select pg_get_function_arguments(oid), pg_get_function_result(oid) from pg_proc')).length).toBeGreaterThan(1500);
      expect((await query('select oprcode, oprrest from pg_operator')).length).toBeGreaterThan(400);
      expect(flattened.mock.calls.length).toBeLessThan(20);
    } finally {
      flattened.mockRestore();
    }
  });
});
