// Regenerates data/pg-proc-details.json from a scratch PostgreSQL 15: what pg_proc says about each built-in
// function beyond its name and signature — language, source (the C symbol of an internal function, the body of a
// SQL one), volatility, strictness, cost, argument names, modes and defaults — which psql's \df+, pgJDBC's
// getFunctionColumns / getProcedureColumns and psqlODBC's SQLProcedureColumns show.
//   PGPORT=59200 PGHOST=/tmp PGUSER=postgres node src/pgcatalog/testing/generate-pg15-proc-details.mjs
import pg from 'pg';
import { writeFileSync } from 'node:fs';
const c = new pg.Client();
await c.connect();
// arrays as JSON so names keep their exact text; proargdefaults and prosqlbody as their deparsed text (pg_get_expr,
// pg_get_function_sqlbody): the form clients print, and what pg_get_function_arguments' DEFAULT clauses show
const rows = (await c.query({
  rowMode: 'array',
  text: `select oid::int, prolang::int, prosrc, provolatile::text, proisstrict, proparallel::text, procost::float8,
      prorows::float8, prosupport::oid::int, prosecdef, proleakproof, prokind::text, proretset, pronargdefaults::int,
      array_to_json(proargnames), array_to_json(proargmodes::text[]), array_to_json(proallargtypes::int[]),
      case when proargdefaults is null then null else pg_get_expr(proargdefaults, 0) end,
      (select aggnumdirectargs::int from pg_aggregate where aggfnoid = p.oid and aggkind <> 'n'),
      probin, pg_get_function_sqlbody(oid)
    from pg_proc p where oid < 16384 order by oid`,
})).rows;
await c.end();
const body = rows.map((r) => `  ${JSON.stringify(r)}`).join(',\n');
writeFileSync(new URL('../data/pg-proc-details.json', import.meta.url), `[\n${body}\n]\n`);
console.log(`${rows.length} functions`);
