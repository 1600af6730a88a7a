// Regenerates data/pg-text-search.json from a scratch PostgreSQL 15: the rows initdb puts in the text search
// catalogs (pg_ts_parser, pg_ts_template, pg_ts_dict, pg_ts_config, pg_ts_config_map) and pg_conversion, each with
// its initdb comment last (obj_description: psql's \dF \dFd \dFp \dFt \dcS+ show them). regproc columns as OIDs.
//   PGPORT=59201 PGHOST=127.0.0.1 PGUSER=postgres node src/pgcatalog/testing/generate-pg15-text-search.mjs
import pg from 'pg';
import { writeFileSync } from 'node:fs';
const c = new pg.Client();
await c.connect();
const rows = async (text) => (await c.query({ rowMode: 'array', text })).rows;
const facts = {
  parsers: await rows(`select oid::int, prsname::text, prsnamespace::int, prsstart::oid::int, prstoken::oid::int,
      prsend::oid::int, prsheadline::oid::int, prslextype::oid::int, obj_description(oid, 'pg_ts_parser')
    from pg_ts_parser where oid < 16384 order by oid`),
  templates: await rows(`select oid::int, tmplname::text, tmplnamespace::int, tmplinit::oid::int, tmpllexize::oid::int,
      obj_description(oid, 'pg_ts_template')
    from pg_ts_template where oid < 16384 order by oid`),
  dicts: await rows(`select oid::int, dictname::text, dictnamespace::int, dicttemplate::int, dictinitoption,
      obj_description(oid, 'pg_ts_dict')
    from pg_ts_dict where oid < 16384 order by oid`),
  configs: await rows(`select oid::int, cfgname::text, cfgnamespace::int, cfgparser::int, obj_description(oid, 'pg_ts_config')
    from pg_ts_config where oid < 16384 order by oid`),
  configMap: await rows(`select mapcfg::int, maptokentype, mapseqno, mapdict::int
    from pg_ts_config_map where mapcfg < 16384 order by 1, 2, 3`),
  conversions: await rows(`select oid::int, conname::text, connamespace::int, conforencoding, contoencoding,
      conproc::oid::int, condefault, obj_description(oid, 'pg_conversion')
    from pg_conversion where oid < 16384 order by oid`),
};
await c.end();
const body = Object.entries(facts)
  .map(([k, list]) => `  ${JSON.stringify(k)}: [\n${list.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`).join(',\n');
writeFileSync(new URL('../data/pg-text-search.json', import.meta.url), `{\n${body}\n}\n`);
console.log(Object.entries(facts).map(([k, v]) => `${v.length} ${k}`).join(', '));
