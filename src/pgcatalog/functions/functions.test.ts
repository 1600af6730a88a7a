import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import { Oid, sqlType } from '../../common/pgtypes/index.ts';
import { createRegistry } from '../../functions/index.ts';
import { PG_KEYWORDS } from '../data/pg-keywords.ts';
import { allPgcatalogFunctions } from '../functions.ts';
import { registerPgCatalog, regOutput } from '../index.ts';
import { setFunctionCatalog } from '../function-catalog.ts';
import { createSystemRelations } from '../system-catalog.ts';
import { primaryKeyConstraintOid, primaryKeyIndexOid } from '../well-known-oids.ts';
import { callFunction } from '../testing/call-function.ts';
import { evalContext, Fixture, fixtureCatalog, functionCatalogOf, MemorySession, scanContext } from '../testing/memory-catalog.ts';
import { scanRelation } from '../testing/scan-helpers.ts';

setFunctionCatalog(functionCatalogOf({ allRoutines: () => allPgcatalogFunctions }));
const session = new MemorySession();
const ctx = evalContext(fixtureCatalog(), session);
const call = (name: string, args: number[], values: unknown[]): unknown => callFunction(ctx, name, args, values);
const codeOf = (f: () => unknown): string | undefined => {
  try { f(); } catch (e) { return GatewayError.is(e) ? `${e.code} ${e.message}` : String(e); }
  return undefined;
};

describe('session functions', () => {
  it('version(), current_database(), current_schema(s), users', () => {
    expect(call('version', [], [])).toBe('PostgreSQL 16.4 (lakegate 0.1.0) on x86_64-pc-linux-gnu, compiled by lakegate, 64-bit');
    expect(call('current_database', [], [])).toBe('lake');
    expect(call('current_schema', [], [])).toBe('public');
    expect((call('current_schemas', [Oid.bool], [true]) as { values: unknown[] }).values).toEqual(['pg_catalog', 'public']);
    expect((call('current_schemas', [Oid.bool], [false]) as { values: unknown[] }).values).toEqual(['public']);
    expect([call('current_user', [], []), call('session_user', [], []), call('user', [], [])]).toEqual(['alice', 'alice', 'alice']);
    expect([call('pg_backend_pid', [], []), call('inet_server_port', [], []), call('inet_client_addr', [], [])]).toEqual([4242, 5433, '127.0.0.1']);
    expect(call('pg_is_in_recovery', [], [])).toBe(false);
    expect(call('txid_current', [], [])).toBe(700n);
    expect(call('pg_postmaster_start_time', [], [])).toBe(1_700_000_000_000_000n);
  });

  it('current_setting / set_config go through the SessionView', () => {
    expect(call('current_setting', [Oid.text], ['server_version_num'])).toBe('160004');
    expect(codeOf(() => call('current_setting', [Oid.text], ['nope']))).toBe('42704 unrecognized configuration parameter "nope"');
    expect(call('current_setting', [Oid.text, Oid.bool], ['nope', true])).toBeNull();
    expect(call('set_config', [Oid.text, Oid.text, Oid.bool], ['application_name', 'x', false])).toBe('x');
    expect(session.getSetting('application_name')).toBe('x');
  });

  it('pg_cancel_backend / pg_terminate_backend / pg_sleep honour the session and the abort signal', async () => {
    expect(call('pg_cancel_backend', [Oid.int4], [4242])).toBe(true);
    expect(call('pg_terminate_backend', [Oid.int4, Oid.int8], [1, 0n])).toBe(false);
    await expect(call('pg_sleep', [Oid.float8], [0.01]) as Promise<null>).resolves.toBeNull();
    const ac = new AbortController();
    const p = callFunction(evalContext(fixtureCatalog(), session, ac.signal), 'pg_sleep', [Oid.float8], [10]) as Promise<null>;
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: '57014' });
  });
});

describe('catalog description functions', () => {
  it('format_type, pg_typeof, pg_get_userbyid', () => {
    expect(call('format_type', [Oid.oid, Oid.int4], [Oid.varchar, 54])).toBe('character varying(50)');
    expect(call('format_type', [Oid.oid, Oid.int4], [Oid.numeric, null])).toBe('numeric');
    expect(call('format_type', [Oid.oid, Oid.int4], [Fixture.customersType, -1])).toBe('customers');
    expect(call('format_type', [Oid.oid, Oid.int4], [Fixture.itemsType, -1])).toBe('sales.items');
    expect(call('format_type', [Oid.oid, Oid.int4], [99999, -1])).toBe('???');
    expect(call('format_type', [Oid.oid, Oid.int4], [null, -1])).toBeNull();
    expect(callFunction(ctx, 'pg_typeof', [Oid.any], [1], [sqlType(Oid.int4)])).toBe(Oid.int4);
    expect(call('pg_get_userbyid', [Oid.oid], [10])).toBe('alice');
    expect(call('pg_get_userbyid', [Oid.oid], [12345])).toBe('unknown (OID=12345)');
  });

  it('visibility follows the search path', () => {
    expect(call('pg_table_is_visible', [Oid.oid], [Fixture.customers])).toBe(true);
    expect(call('pg_table_is_visible', [Oid.oid], [Fixture.items])).toBe(false);
    expect(call('pg_table_is_visible', [Oid.oid], [1259])).toBe(true);
    expect(call('pg_table_is_visible', [Oid.oid], [primaryKeyIndexOid(Fixture.customers)])).toBe(true);
    expect(call('pg_table_is_visible', [Oid.oid], [424242])).toBeNull();
    expect(call('pg_type_is_visible', [Oid.oid], [Oid.int4])).toBe(true);
    expect(call('pg_type_is_visible', [Oid.oid], [Fixture.itemsType])).toBe(false);
  });

  it('pg_get_indexdef / constraintdef / viewdef / expr / functiondef', () => {
    expect(call('pg_get_indexdef', [Oid.oid], [primaryKeyIndexOid(Fixture.orders)])).toBe('CREATE UNIQUE INDEX orders_pkey ON public.orders USING btree (id, line)');
    expect(call('pg_get_indexdef', [Oid.oid, Oid.int4, Oid.bool], [primaryKeyIndexOid(Fixture.orders), 2, false])).toBe('line');
    expect(call('pg_get_indexdef', [Oid.oid, Oid.int4, Oid.bool], [primaryKeyIndexOid(Fixture.orders), 0, true])).toBe('CREATE UNIQUE INDEX orders_pkey ON orders USING btree (id, line)');
    expect(call('pg_get_indexdef', [Oid.oid, Oid.int4, Oid.bool], [primaryKeyIndexOid(Fixture.items), 0, true])).toBe('CREATE UNIQUE INDEX items_pkey ON sales.items USING btree (sku)');
    expect(call('pg_get_constraintdef', [Oid.oid], [primaryKeyConstraintOid(Fixture.orders)])).toBe('PRIMARY KEY (id, line)');
    expect(call('pg_get_constraintdef', [Oid.oid, Oid.bool], [primaryKeyConstraintOid(Fixture.customers), true])).toBe('PRIMARY KEY (id)');
    const def = ' SELECT orders.cust,\n    sum(orders.amount) AS total\n   FROM orders\n  GROUP BY orders.cust;';
    expect(call('pg_get_viewdef', [Oid.oid], [Fixture.summary])).toBe(def);
    expect(call('pg_get_viewdef', [Oid.oid, Oid.bool], [Fixture.summary, true])).toBe(def);
    expect(call('pg_get_viewdef', [Oid.text], ['order_summary'])).toBe(def);
    expect(call('pg_get_viewdef', [Oid.oid], [Fixture.customers])).toBeNull();
    expect(call('pg_get_expr', [Oid.pg_node_tree, Oid.oid, Oid.bool], ['now()', Fixture.customers, true])).toBe('now()');
    expect(call('pg_get_triggerdef', [Oid.oid], [1])).toBeNull();
    expect(call('pg_get_serial_sequence', [Oid.text, Oid.text], ['customers', 'id'])).toBeNull();
    expect(call('pg_get_function_arguments', [Oid.oid], [1081])).toBe('oid, integer');
    expect(call('pg_get_function_result', [Oid.oid], [1081])).toBe('text');
    // PostgreSQL 15: pg_get_keywords() has OUT parameters, so SETOF record and the OUT list (not RETURNS TABLE's form)
    expect(call('pg_get_function_result', [Oid.oid], [1686])).toBe('SETOF record');
    expect(call('pg_get_function_arguments', [Oid.oid], [1686])).toBe('OUT word text, OUT catcode "char", OUT barelabel boolean, OUT catdesc text, OUT baredesc text');
    expect(call('pg_get_function_result', [Oid.oid], [3425])).toBe('SETOF regclass');
    expect(call('pg_get_functiondef', [Oid.oid], [89])).toContain('CREATE OR REPLACE FUNCTION pg_catalog.version()\n RETURNS text');
  });

  it('obj_description / col_description / shobj_description', () => {
    expect(call('obj_description', [Oid.oid, Oid.name], [Fixture.customers, 'pg_class'])).toBe('the customers');
    expect(call('obj_description', [Oid.oid, Oid.name], [2200, 'pg_namespace'])).toBe('standard public schema');
    expect(call('obj_description', [Oid.oid, Oid.name], [Fixture.orders, 'pg_class'])).toBeNull();
    expect(call('col_description', [Oid.oid, Oid.int4], [Fixture.customers, 2])).toBe('full name');
    expect(call('col_description', [Oid.oid, Oid.int4], [Fixture.customers, 1])).toBeNull();
    expect(call('shobj_description', [Oid.oid, Oid.name], [5, 'pg_database'])).toBe('default administrative connection database');
  });

  it('to_reg* return NULL for unknown names', () => {
    expect(call('to_regclass', [Oid.text], ['customers'])).toBe(Fixture.customers);
    expect(call('to_regclass', [Oid.text], ['nope'])).toBeNull();
    expect(call('to_regclass', [Oid.text], ['nope.customers'])).toBeNull();
    expect(call('to_regtype', [Oid.text], ['character varying'])).toBe(Oid.varchar);
    expect(call('to_regtype', [Oid.text], ['nope'])).toBeNull();
    expect(call('to_regproc', [Oid.text], ['version'])).toBe(89);
    expect(call('to_regprocedure', [Oid.text], ['format_type(oid, integer)'])).toBe(1081);
    expect(call('to_regnamespace', [Oid.text], ['sales'])).toBe(Fixture.sales);
    expect(call('to_regrole', [Oid.text], ['alice'])).toBe(10);
  });
});

describe('privileges, sizes, encodings, keywords', () => {
  it('has_*_privilege answer true in every overload and check names', () => {
    expect(call('has_table_privilege', [Oid.text, Oid.text], ['customers', 'select'])).toBe(true);
    expect(call('has_table_privilege', [Oid.name, Oid.oid, Oid.text], ['alice', Fixture.customers, 'select'])).toBe(true);
    expect(codeOf(() => call('has_table_privilege', [Oid.text, Oid.text], ['nope', 'select']))).toBe('42P01 relation "nope" does not exist');
    expect(call('has_schema_privilege', [Oid.name, Oid.text, Oid.text], ['alice', 'public', 'usage'])).toBe(true);
    expect(codeOf(() => call('has_schema_privilege', [Oid.text, Oid.text], ['nope', 'usage']))).toBe('3F000 schema "nope" does not exist');
    expect(call('has_column_privilege', [Oid.text, Oid.int2, Oid.text], ['customers', 1, 'select'])).toBe(true);
    expect(call('has_database_privilege', [Oid.text, Oid.text], ['lake', 'connect'])).toBe(true);
    expect(call('pg_has_role', [Oid.name, Oid.text], ['alice', 'member'])).toBe(true);
    const counts = Object.fromEntries(['has_table_privilege', 'has_column_privilege', 'pg_has_role', 'has_any_column_privilege'].map((n) => [n, allPgcatalogFunctions.filter((f) => f.name === n).length]));
    expect(counts).toEqual({ has_table_privilege: 6, has_column_privilege: 12, pg_has_role: 6, has_any_column_privilege: 6 });
  });

  it('pg_size_pretty matches PostgreSQL; relation sizes are 0', () => {
    const pretty = (n: bigint): unknown => call('pg_size_pretty', [Oid.int8], [n]);
    expect([pretty(10239n), pretty(10240n), pretty(123456789n), pretty(20479n * 1024n), pretty(-5n), pretty(1n << 50n)]).toEqual(['10239 bytes', '10 kB', '118 MB', '20 MB', '-5 bytes', '1024 TB']);
    expect(call('pg_total_relation_size', [Oid.regclass], [Fixture.customers])).toBe(0n);
    expect(callFunction(ctx, 'pg_column_size', [Oid.any], ['abc'], [sqlType(Oid.text)])).toBe(4);
    expect(callFunction(ctx, 'pg_column_size', [Oid.any], [1], [sqlType(Oid.int4)])).toBe(4);
  });

  it('encodings, quote_ident, pg_get_keywords', () => {
    expect([call('pg_encoding_to_char', [Oid.int4], [6]), call('pg_encoding_to_char', [Oid.int4], [0]), call('pg_char_to_encoding', [Oid.name], ['UTF8'])]).toEqual(['UTF8', 'SQL_ASCII', 6]);
    expect(['user', 'name', 'between', 'Abc', 'a"b', 'plain_1'].map((s) => call('quote_ident', [Oid.text], [s]))).toEqual(['"user"', 'name', '"between"', '"Abc"', '"a""b"', 'plain_1']);
    const kw = call('pg_get_keywords', [], []) as unknown[][];
    expect(kw.length).toBe(PG_KEYWORDS.length);
    expect(kw.find((r) => r[0] === 'select')).toEqual(['select', 'R', true, 'reserved', 'can be bare label']);
    expect(kw.find((r) => r[0] === 'abort')).toEqual(['abort', 'U', true, 'unreserved', 'can be bare label']);
  });
});

describe('registration with the function registry', () => {
  it('registerPgCatalog adds routines and casts once, and pg_proc uses the registry OIDs', async () => {
    const registry = createRegistry();
    registerPgCatalog(registry);
    const n = registry.allRoutines().length;
    registerPgCatalog(registry);
    expect(registry.allRoutines().length).toBe(n);
    expect(registry.routines('version')).toHaveLength(1);
    expect(registry.cast(Oid.text, Oid.regclass)?.context).toBe('i');
    const pgProc = createSystemRelations({ functions: registry }).find((r) => r.name === 'pg_proc')!;
    const rows = await scanRelation(pgProc, scanContext());
    const quote = rows.find((r) => r['proname'] === 'quote_ident');
    expect(quote?.['oid']).toBe(registry.oidOf(registry.routines('quote_ident')[0]!));
    expect(rows.find((r) => r['proname'] === 'version')?.['oid']).toBe(89);
    setFunctionCatalog(functionCatalogOf({ allRoutines: () => allPgcatalogFunctions }));
  });

  it('regOutput renders reg* values for the wire', () => {
    const cat = fixtureCatalog();
    expect(regOutput(Oid.regclass, 1259, session, cat)).toBe('pg_class');
    expect(regOutput(Oid.regclass, Fixture.items, session, cat)).toBe('sales.items');
    expect(regOutput(Oid.regtype, Oid._int4, session, cat)).toBe('integer[]');
    expect(regOutput(Oid.regproc, 0, session, cat)).toBe('-');
  });
});
