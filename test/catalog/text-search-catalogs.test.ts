/**
 * The text search catalogs and pg_conversion hold initdb's rows (src/pgcatalog/tables/text-search-catalogs.ts), and
 * regconfig / regdictionary read and print names, so psql's \dF \dF+ \dFd \dFp \dFt \dcS list what PostgreSQL 15
 * lists. Expected values are a scratch PostgreSQL 15's answers to the same query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineQuery, type EngineQuery } from '../../src/pgcatalog/testing/engine-query.ts';

let db: EngineQuery;
beforeAll(async () => {
  db = await engineQuery(96);
});
afterAll(async () => {
  await db?.close();
});

describe('text search catalogs and conversions', () => {
  it('list the rows, names and comments PostgreSQL 15 lists', async () => {
    expect(await db.query(`select (select count(*) from pg_ts_parser), (select count(*) from pg_ts_template),
      (select count(*) from pg_ts_dict), (select count(*) from pg_ts_config), (select count(*) from pg_ts_config_map),
      (select count(*) from pg_conversion), 'english'::regconfig::oid, 'pg_catalog.english_stem'::regdictionary::oid,
      obj_description('english'::regconfig, 'pg_ts_config'), pg_ts_config_is_visible('english'::regconfig),
      (select string_agg(alias, ',' order by tokid) from ts_token_type('default') where tokid < 4),
      (select array(select mapdict::regdictionary from pg_ts_config_map where mapcfg = 'english'::regconfig and maptokentype = 1 order by mapseqno)::text),
      (select conname || ' ' || pg_encoding_to_char(conforencoding) || ' ' || pg_encoding_to_char(contoencoding) || ' ' || obj_description(oid, 'pg_conversion')
        from pg_conversion where conname = 'utf8_to_iso_8859_1')`)).toEqual([[
      '1', '5', '29', '29', '551', '128', '13164', '13163', 'configuration for english language', 't', 'asciiword,word,numword',
      '{english_stem}', 'utf8_to_iso_8859_1 UTF8 LATIN1 conversion for UTF8 to LATIN1',
    ]]);
  });

  it('regconfig / regdictionary: names in, names out, 42704 for an unknown name', async () => {
    expect(await db.query(`select 3748::regconfig, 3765::regdictionary, 'simple'::regconfig::oid`)).toEqual([['simple', 'simple', '3748']]);
    await expect(db.query(`select 'nope'::regconfig`)).rejects.toMatchObject({ code: '42704', message: 'text search configuration "nope" does not exist' });
  });

  it('an array of reg* values cast to text prints names', async () => {
    expect(await db.query(`select array['pg_class'::regclass, 'pg_type'::regclass]::text, array['int4'::regtype]::varchar`))
      .toEqual([['{pg_class,pg_type}', '{integer}']]);
  });
});
