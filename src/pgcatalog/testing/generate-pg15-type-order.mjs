// Regenerates data/pg-type-order.json from a scratch PostgreSQL 15: the OIDs of initdb's pg_type rows in their
// physical order. Clients read pg_type without ORDER BY (pgJDBC's getTypeInfo lists the types in scan order), so
// pg_type lists the built-in types in this order (tables/pg-type.ts).
//   PGPORT=59201 PGHOST=127.0.0.1 PGUSER=postgres node src/pgcatalog/testing/generate-pg15-type-order.mjs
import pg from 'pg';
import { writeFileSync } from 'node:fs';
const c = new pg.Client();
await c.connect();
const oids = (await c.query({ rowMode: 'array', text: 'select oid::int from pg_type where oid < 16384 order by ctid' })).rows.map((r) => r[0]);
await c.end();
writeFileSync(new URL('../data/pg-type-order.json', import.meta.url), `${JSON.stringify(oids)}\n`);
console.log(`${oids.length} types`);
