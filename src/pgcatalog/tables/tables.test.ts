import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Oid } from '../../common/pgtypes/index.ts';
import { allPgcatalogFunctions } from '../functions.ts';
import { attrDefOid, primaryKeyConstraintOid, primaryKeyIndexOid, viewRuleOid } from '../well-known-oids.ts';
import { initParser } from '../../sql/index.ts';
import { Fixture, fixtureCatalog, functionCatalogOf, MemorySession, scanContext } from '../testing/memory-catalog.ts';
import { systemScanner } from '../testing/scan-helpers.ts';

const functions = functionCatalogOf({ allRoutines: () => allPgcatalogFunctions });
const scan = systemScanner({ functions });
const ctx = scanContext(fixtureCatalog(), new MemorySession());
const pick = (row: Record<string, unknown> | undefined, keys: string[]): unknown[] => keys.map((k) => row?.[k]);
const vec = (v: unknown): unknown => (v as { values: unknown[] } | null)?.values;

describe('pg_namespace / pg_class', () => {
  it('lists system and user schemas with PostgreSQL OIDs', async () => {
    const rows = await scan('pg_namespace', ctx);
    expect(rows.map((r) => [r['oid'], r['nspname'], r['nspowner']])).toEqual([
      [11, 'pg_catalog', 10], [99, 'pg_toast', 10], [2200, 'public', 6171], [13207, 'information_schema', 10], [Fixture.sales, 'sales', 10],
    ]);
  });

  it('describes user tables, views and primary-key indexes as PostgreSQL 15 does', async () => {
    const rows = await scan('pg_class', ctx);
    const keys = ['relname', 'relnamespace', 'reltype', 'relowner', 'relam', 'relkind', 'relpersistence', 'relnatts', 'relhasindex', 'relhasrules', 'relreplident', 'relispopulated', 'relacl'];
    // values from PostgreSQL 15 for the same DDL
    expect(pick(rows.find((r) => r['oid'] === Fixture.customers), keys)).toEqual(['customers', 2200, Fixture.customersType, 10, 2, 'r', 'p', 5, true, false, 'd', true, null]);
    expect(pick(rows.find((r) => r['oid'] === Fixture.summary), keys)).toEqual(['order_summary', 2200, Fixture.summaryType, 10, 0, 'v', 'p', 2, false, true, 'n', true, null]);
    expect(pick(rows.find((r) => r['oid'] === primaryKeyIndexOid(Fixture.customers)), keys)).toEqual(['customers_pkey', 2200, 0, 10, 403, 'i', 'p', 1, false, false, 'n', true, null]);
    expect(pick(rows.find((r) => r['relname'] === 'pg_class'), ['oid', 'relnamespace', 'reltype', 'relkind', 'relnatts'])).toEqual([1259, 11, 83, 'r', 33]);
    expect(rows.find((r) => r['relname'] === 'pg_database')?.['relisshared']).toBe(true);
    expect(rows.find((r) => r['relname'] === 'tables' && r['relnamespace'] === 13207)?.['relkind']).toBe('v');
  });
});

describe('pg_attribute', () => {
  it('gives user columns and system columns with PostgreSQL 15 values', async () => {
    const rows = (await scan('pg_attribute', ctx)).filter((r) => r['attrelid'] === Fixture.customers);
    const keys = ['attname', 'atttypid', 'attstattarget', 'attlen', 'attnum', 'atttypmod', 'attbyval', 'attalign', 'attstorage', 'attnotnull', 'atthasdef', 'attisdropped', 'attidentity', 'attgenerated', 'attcollation'];
    expect(rows.map((r) => pick(r, keys))).toEqual([
      ['tableoid', 26, 0, 4, -6, -1, true, 'i', 'p', true, false, false, '', '', 0],
      ['cmax', 29, 0, 4, -5, -1, true, 'i', 'p', true, false, false, '', '', 0],
      ['xmax', 28, 0, 4, -4, -1, true, 'i', 'p', true, false, false, '', '', 0],
      ['cmin', 29, 0, 4, -3, -1, true, 'i', 'p', true, false, false, '', '', 0],
      ['xmin', 28, 0, 4, -2, -1, true, 'i', 'p', true, false, false, '', '', 0],
      ['ctid', 27, 0, 6, -1, -1, false, 's', 'p', true, false, false, '', '', 0],
      ['id', 23, -1, 4, 1, -1, true, 'i', 'p', true, false, false, '', '', 0],
      ['name', 1043, -1, -1, 2, 54, false, 'i', 'x', true, false, false, '', '', 100],
      ['balance', 1700, -1, -1, 3, 786438, false, 'i', 'm', false, true, false, '', '', 0],
      ['created', 1184, -1, 8, 4, -1, true, 'd', 'p', false, true, false, '', '', 0],
      ['note', 25, -1, -1, 5, -1, false, 'i', 'x', false, false, false, '', '', 100],
    ]);
  });

  it('rows for system catalogs equal PostgreSQL 15\'s pg_attribute', async () => {
    const expected = JSON.parse(readFileSync(new URL('../testing/pg15-catalog-attributes.json', import.meta.url), 'utf8')) as unknown[][];
    const oids: Record<string, number> = { pg_class: 1259, pg_index: 2610, pg_roles: 12000, pg_type: 1247, pg_proc: 1255, pg_stat_activity: 12222, pg_settings: 12104 };
    const names = Object.fromEntries(Object.entries(oids).map(([k, v]) => [v, k]));
    const rows = (await scan('pg_attribute', ctx)).filter((r) => names[r['attrelid'] as number] !== undefined);
    const keys = ['attname', 'atttypid', 'attlen', 'attnum', 'atttypmod', 'attbyval', 'attalign', 'attstorage', 'attnotnull', 'attcollation', 'attndims'];
    const ours = rows.map((r) => [names[r['attrelid'] as number], ...keys.map((k) => r[k])]);
    const order = (a: unknown[], b: unknown[]): number => (oids[a[0] as string]! - oids[b[0] as string]!) || (a[4] as number) - (b[4] as number);
    expect(ours.sort(order)).toEqual(expected.sort(order));
  });

  it('views have no system columns; array columns have attndims 1; pk indexes have their key columns', async () => {
    const rows = await scan('pg_attribute', ctx);
    expect(rows.filter((r) => r['attrelid'] === Fixture.summary).map((r) => r['attname'])).toEqual(['cust', 'total']);
    expect(rows.find((r) => r['attrelid'] === Fixture.orders && r['attname'] === 'tags')?.['attndims']).toBe(1);
    expect(rows.filter((r) => r['attrelid'] === primaryKeyIndexOid(Fixture.orders)).map((r) => [r['attname'], r['attnum']])).toEqual([['id', 1], ['line', 2]]);
  });
});

describe('pg_type / pg_proc', () => {
  it('has built-in types with regproc OIDs and a composite type per relation', async () => {
    const rows = await scan('pg_type', ctx);
    const int4 = rows.find((r) => r['oid'] === Oid.int4);
    expect(pick(int4, ['typname', 'typnamespace', 'typlen', 'typbyval', 'typtype', 'typinput', 'typoutput', 'typreceive', 'typsend', 'typarray'])).toEqual(['int4', 11, 4, true, 'b', 42, 43, 2406, 2407, 1007]);
    expect(pick(rows.find((r) => r['oid'] === Oid._int4), ['typsubscript', 'typelem', 'typinput', 'typanalyze'])).toEqual([6179, 23, 750, 3816]);
    expect(pick(rows.find((r) => r['oid'] === Fixture.customersType), ['typname', 'typnamespace', 'typtype', 'typcategory', 'typrelid', 'typinput', 'typoutput'])).toEqual(['customers', 2200, 'c', 'C', Fixture.customers, 2290, 2291]);
    expect(rows.filter((r) => r['oid'] === Oid.pg_class)).toHaveLength(1);
  });

  it('built-in pg_type rows equal PostgreSQL 15\'s (composite row types have no array type here)', async () => {
    const pg = JSON.parse(readFileSync(new URL('../testing/pg15-pg-type.json', import.meta.url), 'utf8')) as unknown[][];
    const keys = ['oid', 'typname', 'typlen', 'typbyval', 'typtype', 'typcategory', 'typrelid', 'typsubscript', 'typelem', 'typarray', 'typinput', 'typoutput', 'typreceive', 'typsend', 'typmodin', 'typmodout', 'typanalyze', 'typalign', 'typstorage', 'typcollation'];
    const byOid = new Map(pg.map((r) => [r[0], r]));
    const diffs: string[] = [];
    let compared = 0;
    for (const row of await scan('pg_type', ctx)) {
      const theirs = byOid.get(row['oid']);
      if (theirs === undefined) continue;
      compared++;
      keys.forEach((k, i) => {
        if (k === 'typarray' && row['typtype'] === 'c') return;
        if (row[k] !== theirs[i]) diffs.push(`${String(row['typname'])}.${k}: ${String(row[k])} vs ${String(theirs[i])}`);
      });
    }
    expect(diffs).toEqual([]);
    expect(compared).toBeGreaterThan(250);
  });

  it('pg_proc holds every function pg_type refers to (Npgsql joins pg_proc ON oid = typreceive)', async () => {
    const procs = new Set((await scan('pg_proc', ctx)).map((r) => r['oid']));
    const missing: string[] = [];
    for (const t of await scan('pg_type', ctx)) {
      for (const k of ['typinput', 'typoutput', 'typreceive', 'typsend', 'typmodin', 'typmodout', 'typsubscript', 'typanalyze']) {
        if (t[k] !== 0 && !procs.has(t[k])) missing.push(`${t['typname']}.${k}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('pg_proc rows for registry routines carry PostgreSQL OIDs and signatures', async () => {
    const rows = await scan('pg_proc', ctx);
    expect(pick(rows.find((r) => r['proname'] === 'version'), ['oid', 'pronamespace', 'prokind', 'pronargs', 'prorettype', 'proretset'])).toEqual([89, 11, 'f', 0, 25, false]);
    const fmt = rows.find((r) => r['proname'] === 'format_type');
    expect([fmt?.['oid'], vec(fmt?.['proargtypes']), fmt?.['proisstrict']]).toEqual([1081, [26, 23], false]);
    const kw = rows.find((r) => r['proname'] === 'pg_get_keywords');
    expect([kw?.['proretset'], kw?.['prorettype'], vec(kw?.['proargnames'])]).toEqual([true, 2249, ['word', 'catcode', 'barelabel', 'catdesc', 'baredesc']]);
    expect(rows.filter((r) => r['proname'] === 'has_table_privilege')).toHaveLength(6);
  });
});

describe('pg_index / pg_constraint / pg_attrdef / pg_description', () => {
  it('primary keys become an index and a constraint', async () => {
    const idx = (await scan('pg_index', ctx)).find((r) => r['indrelid'] === Fixture.orders);
    expect(pick(idx, ['indexrelid', 'indnatts', 'indnkeyatts', 'indisunique', 'indisprimary', 'indisvalid'])).toEqual([primaryKeyIndexOid(Fixture.orders), 2, 2, true, true, true]);
    expect([vec(idx?.['indkey']), vec(idx?.['indclass']), vec(idx?.['indcollation']), (idx?.['indkey'] as { lowerBounds: number[] }).lowerBounds]).toEqual([[1, 2], [3124, 1978], [0, 0], [0]]);
    const con = (await scan('pg_constraint', ctx)).find((r) => r['conrelid'] === Fixture.orders);
    expect(pick(con, ['oid', 'conname', 'connamespace', 'contype', 'conindid', 'confrelid', 'confupdtype', 'convalidated'])).toEqual([primaryKeyConstraintOid(Fixture.orders), 'orders_pkey', 2200, 'p', primaryKeyIndexOid(Fixture.orders), 0, ' ', true]);
    expect(vec(con?.['conkey'])).toEqual([1, 2]);
  });

  it('defaults and comments', async () => {
    expect((await scan('pg_attrdef', ctx)).map((r) => [r['adrelid'], r['adnum'], r['adbin']])).toEqual([[Fixture.customers, 3, '0'], [Fixture.customers, 4, 'now()']]);
    const d = (await scan('pg_description', ctx)).filter((r) => r['objoid'] === Fixture.customers);
    expect(d.map((r) => [r['classoid'], r['objsubid'], r['description']])).toEqual([[1259, 0, 'the customers'], [1259, 2, 'full name']]);
  });
});

describe('pg_depend', () => {
  it('records defaults, primary keys and view → table edges as PostgreSQL does', async () => {
    await initParser();
    const rows = (await scan('pg_depend', ctx)).map((r) => [r['classid'], r['objid'], r['refclassid'], r['refobjid'], r['refobjsubid'], r['deptype']]);
    const rule = viewRuleOid(Fixture.summary);
    expect(rows).toEqual(expect.arrayContaining([
      [2618, rule, 1259, Fixture.summary, 0, 'i'], [2618, rule, 1259, Fixture.summary, 0, 'n'], [2618, rule, 1259, Fixture.orders, 0, 'n'],
      [1259, Fixture.customers, 2615, 2200, 0, 'n'], [2604, attrDefOid(Fixture.customers, 3), 1259, Fixture.customers, 3, 'a'],
      [2606, primaryKeyConstraintOid(Fixture.orders), 1259, Fixture.orders, 2, 'a'], [1259, primaryKeyIndexOid(Fixture.orders), 2606, primaryKeyConstraintOid(Fixture.orders), 0, 'i'],
    ]));
    expect(rows.filter((r) => r[0] === 2618)).toHaveLength(3);
  });
});

describe('server catalogs', () => {
  it('pg_database, roles, settings, activity', async () => {
    const dbs = await scan('pg_database', ctx);
    expect(dbs.map((r) => pick(r, ['oid', 'datname', 'datdba', 'encoding', 'datcollate', 'datallowconn', 'datistemplate']))).toEqual([
      [5, 'lake', 10, 6, 'C.UTF-8', true, false], [16001, 'other', 10, 6, 'C.UTF-8', true, false],
    ]);
    const roles = await scan('pg_roles', ctx);
    expect(roles.map((r) => [r['oid'], r['rolname'], r['rolsuper'], r['rolpassword']])).toEqual([[10, 'alice', true, '********'], [9999, 'lakegate', true, '********']]);
    expect((await scan('pg_user', ctx))[0]?.['usesysid']).toBe(10);
    const settings = await scan('pg_settings', ctx);
    expect(settings.find((r) => r['name'] === 'server_version')?.['setting']).toBe('16.4 (lakegate 0.1.0)');
    const act = await scan('pg_stat_activity', ctx);
    expect(pick(act[0], ['datid', 'datname', 'pid', 'usesysid', 'usename', 'state', 'backend_type'])).toEqual([5, 'lake', 4242, 10, 'alice', 'active', 'client backend']);
  });

  it('pg_tables / pg_views / pg_indexes / pg_stat_user_tables', async () => {
    const tables = (await scan('pg_tables', ctx)).filter((r) => r['schemaname'] !== 'pg_catalog' && r['schemaname'] !== 'information_schema');
    expect(tables.map((r) => [r['schemaname'], r['tablename'], r['tableowner'], r['hasindexes']])).toEqual([
      ['public', 'customers', 'alice', true], ['public', 'orders', 'alice', true], ['sales', 'items', 'alice', true],
    ]);
    expect((await scan('pg_tables', ctx)).some((r) => r['tablename'] === 'pg_class')).toBe(true);
    const views = (await scan('pg_views', ctx)).filter((r) => r['schemaname'] === 'public');
    expect(views).toEqual([{ schemaname: 'public', viewname: 'order_summary', viewowner: 'alice', definition: ' SELECT orders.cust,\n    sum(orders.amount) AS total\n   FROM orders\n  GROUP BY orders.cust;' }]);
    const indexes = await scan('pg_indexes', ctx);
    expect(indexes.filter((r) => r['schemaname'] !== 'pg_catalog').map((r) => r['indexdef'])).toEqual([
      'CREATE UNIQUE INDEX customers_pkey ON public.customers USING btree (id)',
      'CREATE UNIQUE INDEX orders_pkey ON public.orders USING btree (id, line)',
      'CREATE UNIQUE INDEX items_pkey ON sales.items USING btree (sku)',
    ]);
    // and PostgreSQL 15's own indexes on its catalogs, as its pg_indexes lists them
    expect(indexes.find((r) => r['indexname'] === 'pg_class_oid_index')?.['indexdef']).toBe('CREATE UNIQUE INDEX pg_class_oid_index ON pg_catalog.pg_class USING btree (oid)');
    const stat = await scan('pg_stat_user_tables', ctx);
    expect(stat.map((r) => [r['relname'], r['n_live_tup']])).toEqual([['customers', 10n], ['orders', 10n], ['items', 10n]]);
  });

  it('static catalogs match PostgreSQL 15', async () => {
    expect((await scan('pg_am', ctx)).map((r) => [r['oid'], r['amname'], r['amtype']])).toEqual([[2, 'heap', 't'], [403, 'btree', 'i'], [405, 'hash', 'i'], [783, 'gist', 'i'], [2742, 'gin', 'i'], [4000, 'spgist', 'i'], [3580, 'brin', 'i']]);
    expect((await scan('pg_collation', ctx)).map((r) => [r['oid'], r['collname']])).toEqual([[100, 'default'], [950, 'C'], [951, 'POSIX']]);
    expect((await scan('pg_language', ctx)).map((r) => r['lanname'])).toEqual(['internal', 'c', 'sql', 'plpgsql']);
    expect((await scan('pg_tablespace', ctx)).map((r) => r['spcname'])).toEqual(['pg_default', 'pg_global']);
    expect((await scan('pg_range', ctx)).map((r) => r['rngtypid'])).toEqual([3904, 3906, 3908, 3910, 3912, 3926]);
    expect((await scan('pg_extension', ctx)).map((r) => r['extname'])).toEqual(['plpgsql']);
    for (const empty of ['pg_enum', 'pg_trigger', 'pg_policy', 'pg_inherits', 'pg_sequence', 'pg_locks', 'pg_prepared_xacts', 'pg_foreign_table', 'pg_partitioned_table']) {
      expect(await scan(empty, ctx), empty).toEqual([]);
    }
  });
});
