// Regenerates data/pg-opclasses.json from a scratch PostgreSQL 15: every operator class and operator family initdb
// creates (pg_opclass, pg_opfamily), in PostgreSQL's physical row order (psql's \dAf aggregates a family's classes
// without ORDER BY), for psql's \dAc / \dAf and clients' index dialogs.
//   PGPORT=59201 PGHOST=127.0.0.1 PGUSER=postgres node src/pgcatalog/testing/generate-pg15-opclasses.mjs
import pg from 'pg';
import { writeFileSync } from 'node:fs';
const c = new pg.Client();
await c.connect();
const rows = async (text) => (await c.query({ rowMode: 'array', text })).rows;
const facts = {
  opclasses: await rows(`select oid::int, opcmethod::int, opcname::text, opcnamespace::int, opcfamily::int, opcintype::int,
      opcdefault, opckeytype::int
    from pg_opclass where oid < 16384 order by ctid`),
  opfamilies: await rows(`select oid::int, opfmethod::int, opfname::text, opfnamespace::int
    from pg_opfamily where oid < 16384 order by ctid`),
};
await c.end();
const body = Object.entries(facts)
  .map(([k, list]) => `  ${JSON.stringify(k)}: [\n${list.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`).join(',\n');
writeFileSync(new URL('../data/pg-opclasses.json', import.meta.url), `{\n${body}\n}\n`);
console.log(Object.entries(facts).map(([k, v]) => `${v.length} ${k}`).join(', '));
