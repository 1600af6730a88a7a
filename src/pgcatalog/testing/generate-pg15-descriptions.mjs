// Regenerates data/pg-descriptions.json from a scratch PostgreSQL 15: initdb's comments on built-in functions,
// operators, types, access methods and schemas (pg_description), which psql's \df+ / \do / \dT / \dA+ / \dn+ and
// pgJDBC's getFunctions show.
//   PGPORT=59200 PGHOST=/tmp PGUSER=postgres node src/pgcatalog/testing/generate-pg15-descriptions.mjs
import pg from 'pg';
import { writeFileSync } from 'node:fs';
const c = new pg.Client();
await c.connect();
const rows = (await c.query(`
  select d.classoid::int as classoid, d.objoid::int as objoid, d.description
  from pg_description d
  where d.classoid in ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass, 'pg_am'::regclass,
                       'pg_namespace'::regclass)
    and d.objsubid = 0 and d.objoid < 16384
  order by 1, 2`)).rows;
await c.end();
// JSON read on first use (builtin-descriptions.ts): ~170 kB a server need not parse at start-up
const byClass = {};
for (const r of rows) (byClass[r.classoid] ??= []).push([r.objoid, r.description]);
const body = Object.entries(byClass)
  .map(([cls, list]) => `  ${JSON.stringify(cls)}: [\n${list.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`).join(',\n');
writeFileSync(new URL('../data/pg-descriptions.json', import.meta.url), `{\n${body}\n}\n`);
console.log(`${rows.length} descriptions`);
