// Regenerates data/pg-other-types.json from a scratch PostgreSQL 15:
// - types: the pg_type row of every type initdb creates that is not a relation's row type (pg_catalog's base,
//   pseudo, range and multirange types and their arrays, information_schema's five domains and theirs). pg_type
//   lists the ones the type registry lacks (point, tsvector, table_am_handler …) so format_type / regtype and
//   pg_get_function_arguments print their names, as psql's \df and pgJDBC's getFunctionColumns show;
// - domainColumns: [relation OID, attnum, domain OID] of each information_schema column whose type is one of those
//   domains (pg_attribute.atttypid, information_schema.columns.domain_name);
// - domainChecks: the domains' CHECK constraints (pg_constraint, information_schema.domain_constraints).
//   PGPORT=59200 PGHOST=/tmp PGUSER=postgres node src/pgcatalog/testing/generate-pg15-other-types.mjs
import pg from 'pg';
import { writeFileSync } from 'node:fs';
const c = new pg.Client();
await c.connect();
const rows = async (text) => (await c.query({ rowMode: 'array', text })).rows;
const facts = {
  types: await rows(`select oid::int, typname::text, typnamespace::int, typlen::int, typbyval, typtype::text,
      typcategory::text, typispreferred, typdelim::text, typsubscript::oid::int, typelem::int, typarray::int,
      typinput::oid::int, typoutput::oid::int, typreceive::oid::int, typsend::oid::int, typmodin::oid::int,
      typmodout::oid::int, typanalyze::oid::int, typalign::text, typstorage::text, typnotnull, typbasetype::int,
      typtypmod::int, typndims::int, typcollation::int, typdefault
    from pg_type where oid < 16384 and typrelid = 0 order by oid`),
  domainColumns: await rows(`select a.attrelid::int, a.attnum::int, a.atttypid::int
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_type t on t.oid = a.atttypid
    where c.relnamespace = 'information_schema'::regnamespace and a.attnum > 0 and t.typtype = 'd'
    order by 1, 2`),
  domainChecks: await rows(`select oid::int, conname::text, connamespace::int, contypid::int, pg_get_constraintdef(oid),
      pg_get_constraintdef(oid, true), pg_get_expr(conbin, 0)
    from pg_constraint where contypid <> 0 and oid < 16384 order by oid`),
};
await c.end();
const body = Object.entries(facts)
  .map(([k, list]) => `  ${JSON.stringify(k)}: [\n${list.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`).join(',\n');
writeFileSync(new URL('../data/pg-other-types.json', import.meta.url), `{\n${body}\n}\n`);
console.log(Object.entries(facts).map(([k, v]) => `${v.length} ${k}`).join(', '));
