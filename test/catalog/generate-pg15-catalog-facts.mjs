// Regenerates pg15-catalog-facts.json, PostgreSQL 15's answers that catalog-differential.test.ts compares
// lakegate's catalog with: every built-in function, operator and cast with its OID, types and comment, and the
// array type of every catalog row type; how pg_get_function_arguments / _identity_arguments / _result print every
// built-in function (identity arguments null where they equal the arguments); the catalog tables' indexes.
//   PGPORT=59200 PGHOST=/tmp PGUSER=postgres node test/catalog/generate-pg15-catalog-facts.mjs
import pg from 'pg';
import { writeFileSync } from 'node:fs';
const c = new pg.Client();
await c.connect();
const rows = async (sql) => (await c.query({ text: sql, rowMode: 'array' })).rows;
const facts = {
  procs: await rows(`select oid::int, proname::text, proargtypes::text, prorettype::int, obj_description(oid, 'pg_proc')
    from pg_proc where oid < 16384 order by oid`),
  operators: await rows(`select oid::int, oprname::text, oprleft::int, oprright::int, oprresult::int, oprcode::oid::int,
    obj_description(oid, 'pg_operator') from pg_operator where oid < 16384 order by oid`),
  casts: await rows(`select castsource::int, casttarget::int, oid::int, castfunc::int, castcontext::text, castmethod::text
    from pg_cast order by 1, 2`),
  types: await rows(`select oid::int, typname::text, typarray::int, typelem::int, typrelid::int, typarray::regtype::text,
    obj_description(oid, 'pg_type') from pg_type where oid < 16384 order by oid`),
  procTexts: await rows(`select oid::int, pg_get_function_arguments(oid),
    nullif(pg_get_function_identity_arguments(oid), pg_get_function_arguments(oid)), pg_get_function_result(oid)
    from pg_proc where oid < 16384 order by oid`),
  catalogIndexes: await rows(`select i.indexrelid::int, i.indrelid::int, pg_get_indexdef(i.indexrelid),
    con.oid::int, con.contype::text, pg_get_constraintdef(con.oid)
    from pg_index i join pg_class c on c.oid = i.indrelid
    left join pg_constraint con on con.conindid = i.indexrelid and con.contype in ('p', 'u')
    where c.relnamespace = 'pg_catalog'::regnamespace and c.relkind = 'r' order by 1`),
};
await c.end();
const body = Object.entries(facts)
  .map(([k, list]) => `  ${JSON.stringify(k)}: [\n${list.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`).join(',\n');
writeFileSync(new URL('./pg15-catalog-facts.json', import.meta.url), `{\n${body}\n}\n`);
console.log(Object.entries(facts).map(([k, v]) => `${v.length} ${k}`).join(', '));
