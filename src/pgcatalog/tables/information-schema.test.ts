import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { allPgcatalogFunctions } from '../functions.ts';
import { fixtureCatalog, functionCatalogOf, MemorySession, scanContext } from '../testing/memory-catalog.ts';
import { systemScanner } from '../testing/scan-helpers.ts';

const scan = systemScanner({ functions: functionCatalogOf({ allRoutines: () => allPgcatalogFunctions }) });
const ctx = scanContext(fixtureCatalog(), new MemorySession());
const user = (r: Record<string, unknown>): boolean => r['table_schema'] !== 'pg_catalog' && r['table_schema'] !== 'information_schema';

const pgCatalogColumns = JSON.parse(readFileSync(new URL('../testing/pg15-catalog-columns-info.json', import.meta.url), 'utf8')) as unknown[][];

describe('information_schema', () => {
  it('columns of pg_catalog relations equal PostgreSQL 15\'s rows', async () => {
    const names = new Set(pgCatalogColumns.map((r) => r[0]));
    const keys = ['table_name', 'column_name', 'ordinal_position', 'is_nullable', 'data_type', 'character_maximum_length', 'character_octet_length', 'numeric_precision', 'numeric_precision_radix', 'numeric_scale', 'datetime_precision', 'udt_name'];
    const ours = (await scan('information_schema.columns', ctx))
      .filter((r) => r['table_schema'] === 'pg_catalog' && names.has(r['table_name']))
      .sort((a, b) => String(a['table_name']).localeCompare(String(b['table_name'])) || (a['ordinal_position'] as number) - (b['ordinal_position'] as number))
      .map((r) => keys.map((k) => r[k]));
    expect(ours).toEqual(pgCatalogColumns);
  });

  it('columns: standard type names, lengths, precision and nullability as PostgreSQL 15 reports them', async () => {
    const rows = (await scan('information_schema.columns', ctx)).filter((r) => ['customers', 'items', 'order_summary'].includes(r['table_name'] as string));
    const keys = ['table_catalog', 'table_name', 'column_name', 'ordinal_position', 'column_default', 'is_nullable', 'data_type', 'character_maximum_length', 'character_octet_length', 'numeric_precision', 'numeric_precision_radix', 'numeric_scale', 'datetime_precision', 'udt_name', 'dtd_identifier', 'is_updatable'];
    // the rows PostgreSQL 15 returned for the same tables
    expect(rows.map((r) => keys.map((k) => r[k]))).toEqual([
      ['lake', 'customers', 'id', 1, null, 'NO', 'integer', null, null, 32, 2, 0, null, 'int4', '1', 'YES'],
      ['lake', 'customers', 'name', 2, null, 'NO', 'character varying', 50, 200, null, null, null, null, 'varchar', '2', 'YES'],
      ['lake', 'customers', 'balance', 3, '0', 'YES', 'numeric', null, null, 12, 10, 2, null, 'numeric', '3', 'YES'],
      ['lake', 'customers', 'created', 4, 'now()', 'YES', 'timestamp with time zone', null, null, null, null, null, 6, 'timestamptz', '4', 'YES'],
      ['lake', 'customers', 'note', 5, null, 'YES', 'text', null, 1073741824, null, null, null, null, 'text', '5', 'YES'],
      ['lake', 'order_summary', 'cust', 1, null, 'YES', 'integer', null, null, 32, 2, 0, null, 'int4', '1', 'NO'],
      ['lake', 'order_summary', 'total', 2, null, 'YES', 'double precision', null, null, 53, 2, null, null, 'float8', '2', 'NO'],
      ['lake', 'items', 'sku', 1, null, 'NO', 'text', null, 1073741824, null, null, null, null, 'text', '1', 'YES'],
      ['lake', 'items', 'qty', 2, null, 'YES', 'smallint', null, null, 16, 2, 0, null, 'int2', '2', 'YES'],
      ['lake', 'items', 'flag', 3, null, 'YES', 'boolean', null, null, null, null, null, null, 'bool', '3', 'YES'],
      ['lake', 'items', 'c', 4, null, 'YES', 'character', 3, 12, null, null, null, null, 'bpchar', '4', 'YES'],
    ]);
    const tags = (await scan('information_schema.columns', ctx)).find((r) => r['column_name'] === 'tags');
    expect([tags?.['data_type'], tags?.['udt_name']]).toEqual(['ARRAY', '_text']);
  });

  it('tables, views, schemata', async () => {
    const tables = (await scan('information_schema.tables', ctx)).filter(user);
    expect(tables.map((r) => [r['table_catalog'], r['table_schema'], r['table_name'], r['table_type'], r['is_insertable_into'], r['is_typed']])).toEqual([
      ['lake', 'public', 'customers', 'BASE TABLE', 'YES', 'NO'], ['lake', 'public', 'orders', 'BASE TABLE', 'YES', 'NO'],
      ['lake', 'public', 'order_summary', 'VIEW', 'NO', 'NO'], ['lake', 'sales', 'items', 'BASE TABLE', 'YES', 'NO'],
    ]);
    expect((await scan('information_schema.tables', ctx)).find((r) => r['table_name'] === 'pg_class')?.['table_type']).toBe('BASE TABLE');
    const views = (await scan('information_schema.views', ctx)).filter(user);
    expect(views.map((r) => [r['table_name'], r['view_definition'], r['check_option'], r['is_updatable']])).toEqual([
      ['order_summary', ' SELECT orders.cust,\n    sum(orders.amount) AS total\n   FROM orders\n  GROUP BY orders.cust;', 'NONE', 'NO'],
    ]);
    expect((await scan('information_schema.schemata', ctx)).map((r) => r['schema_name'])).toEqual(['pg_catalog', 'pg_toast', 'public', 'information_schema', 'sales']);
  });

  it('constraints: primary keys plus the NOT NULL checks PostgreSQL 15 lists', async () => {
    const tc = (await scan('information_schema.table_constraints', ctx)).filter(user);
    expect(tc.map((r) => [r['constraint_schema'], r['constraint_name'], r['table_name'], r['constraint_type'], r['is_deferrable'], r['enforced']])).toEqual([
      ['public', 'customers_pkey', 'customers', 'PRIMARY KEY', 'NO', 'YES'],
      ['public', 'orders_pkey', 'orders', 'PRIMARY KEY', 'NO', 'YES'],
      ['sales', 'items_pkey', 'items', 'PRIMARY KEY', 'NO', 'YES'],
      ['public', '2200_16384_1_not_null', 'customers', 'CHECK', 'NO', 'YES'],
      ['public', '2200_16384_2_not_null', 'customers', 'CHECK', 'NO', 'YES'],
      ['public', '2200_16393_1_not_null', 'orders', 'CHECK', 'NO', 'YES'],
      ['public', '2200_16393_2_not_null', 'orders', 'CHECK', 'NO', 'YES'],
      ['sales', '16408_16409_1_not_null', 'items', 'CHECK', 'NO', 'YES'],
    ]);
    const cc = (await scan('information_schema.check_constraints', ctx)).filter((r) => r['constraint_schema'] === 'public');
    expect(cc.map((r) => r['check_clause'])).toEqual(['id IS NOT NULL', 'name IS NOT NULL', 'id IS NOT NULL', 'line IS NOT NULL']);
    const kcu = (await scan('information_schema.key_column_usage', ctx)).filter(user);
    expect(kcu.map((r) => [r['constraint_name'], r['column_name'], r['ordinal_position']])).toEqual([
      ['customers_pkey', 'id', 1], ['orders_pkey', 'id', 1], ['orders_pkey', 'line', 2], ['items_pkey', 'sku', 1],
    ]);
    const ccu = await scan('information_schema.constraint_column_usage', ctx);
    expect(ccu.filter(user).map((r) => r['column_name'])).toEqual(['id', 'id', 'line', 'sku']);
    // PostgreSQL 15's catalogs have primary keys and unique constraints (178 columns in PostgreSQL's view)
    expect(ccu.filter((r) => r['table_schema'] === 'pg_catalog').length).toBe(178);
    expect(await scan('information_schema.referential_constraints', ctx)).toEqual([]);
  });

  it('grants, routines, parameters, element_types, character_sets', async () => {
    const grants = (await scan('information_schema.role_table_grants', ctx)).filter((r) => r['table_name'] === 'customers');
    expect(grants.map((r) => [r['grantor'], r['grantee'], r['privilege_type'], r['is_grantable'], r['with_hierarchy']])).toEqual(
      ['INSERT', 'SELECT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'].map((p) => ['alice', 'alice', p, 'YES', p === 'SELECT' ? 'YES' : 'NO']),
    );
    const routines = await scan('information_schema.routines', ctx);
    expect(routines.find((r) => r['routine_name'] === 'version')).toMatchObject({ specific_name: 'version_89', routine_type: 'FUNCTION', data_type: 'text', type_udt_name: 'text' });
    const params = (await scan('information_schema.parameters', ctx)).filter((r) => r['specific_name'] === 'format_type_1081');
    expect(params.map((r) => [r['ordinal_position'], r['data_type'], r['parameter_mode']])).toEqual([[1, 'oid', 'IN'], [2, 'integer', 'IN']]);
    const el = (await scan('information_schema.element_types', ctx)).filter((r) => r['object_schema'] === 'public');
    expect(el.map((r) => [r['object_name'], r['collection_type_identifier'], r['data_type']])).toEqual([['orders', '6', 'text']]);
    expect((await scan('information_schema.character_sets', ctx))[0]?.['character_set_name']).toBe('UTF8');
    expect(await scan('information_schema.sequences', ctx)).toEqual([]);
    expect(await scan('information_schema.triggers', ctx)).toEqual([]);
  });
});
