import { describe, expect, it } from 'vitest';
import { GatewayError } from '../common/errors.ts';
import { Oid } from '../common/pgtypes/index.ts';
import { allPgcatalogFunctions } from './functions.ts';
import { setFunctionCatalog } from './function-catalog.ts';
import { snapshotFor } from './eval-snapshot.ts';
import { parseQualifiedName, regIn, regOut } from './reg-names.ts';
import { pgcatalogCasts } from './casts.ts';
import { primaryKeyIndexOid } from './well-known-oids.ts';
import { evalContext, Fixture, fixtureCatalog, functionCatalogOf, MemorySession } from './testing/memory-catalog.ts';

setFunctionCatalog(functionCatalogOf({ allRoutines: () => allPgcatalogFunctions }));
const ctx = evalContext(fixtureCatalog(), new MemorySession());
const snap = snapshotFor(ctx);
const err = (f: () => unknown): string => {
  try { f(); return 'no error'; } catch (e) { return GatewayError.is(e) ? `${e.code} ${e.message}` : String(e); }
};

describe('reg* input and output', () => {
  it('parses qualified, quoted names as PostgreSQL does', () => {
    expect(parseQualifiedName('Public."My ""T"""')).toEqual(['public', 'My "T"']);
    expect(parseQualifiedName(' a . b ')).toEqual(['a', 'b']);
    expect(err(() => parseQualifiedName('a.'))).toMatch(/^42602/);
  });

  it('regclass resolves through the search path with PostgreSQL errors', () => {
    const rc = (t: string): unknown => regIn(Oid.regclass, t, snap);
    expect([rc('customers'), rc('Customers'), rc('public.customers'), rc('"customers"'), rc('sales.items'), rc('pg_class'), rc('pg_catalog.pg_class'), rc('lake.public.orders'), rc('16384')])
      .toEqual([Fixture.customers, Fixture.customers, Fixture.customers, Fixture.customers, Fixture.items, 1259, 1259, Fixture.orders, 16384]);
    expect([rc('customers_pkey'), rc('sales.items_pkey'), regOut(Oid.regclass, primaryKeyIndexOid(Fixture.items), snap), regOut(Oid.regclass, primaryKeyIndexOid(Fixture.orders), snap)])
      .toEqual([primaryKeyIndexOid(Fixture.customers), primaryKeyIndexOid(Fixture.items), 'sales.items_pkey', 'orders_pkey']);
    expect(err(() => rc('"Customers"'))).toBe('42P01 relation "Customers" does not exist');
    expect(err(() => rc('items'))).toBe('42P01 relation "items" does not exist');
    expect(err(() => rc('nope.items'))).toBe('3F000 schema "nope" does not exist');
    expect(err(() => rc('x.y.z.w'))).toBe('42601 improper relation name (too many dotted names): x.y.z.w');
    expect(err(() => rc('other.public.orders'))).toBe('0A000 cross-database references are not implemented: other.public.orders');
  });

  it('regclass prints names, qualified when not visible, numbers when unknown', () => {
    expect([regOut(Oid.regclass, Fixture.customers, snap), regOut(Oid.regclass, Fixture.items, snap), regOut(Oid.regclass, 99999, snap), regOut(Oid.regclass, 0, snap)])
      .toEqual(['customers', 'sales.items', '99999', '-']);
  });

  it('regtype, regproc, regprocedure, regnamespace, regrole', () => {
    expect([regIn(Oid.regtype, 'int4', snap), regIn(Oid.regtype, 'integer[]', snap), regIn(Oid.regtype, 'customers', snap)]).toEqual([23, 1007, Fixture.customersType]);
    expect([regOut(Oid.regtype, 23, snap), regOut(Oid.regtype, 1007, snap), regOut(Oid.regtype, 2202, snap)]).toEqual(['integer', 'integer[]', 'regprocedure']);
    expect(err(() => regIn(Oid.regtype, 'nope', snap))).toBe('42704 type "nope" does not exist');
    expect(regIn(Oid.regproc, 'version', snap)).toBe(89);
    expect(regIn(Oid.regproc, 'int4in', snap)).toBe(42);
    expect(err(() => regIn(Oid.regproc, 'pg_get_viewdef', snap))).toBe('42725 more than one function named "pg_get_viewdef"');
    expect(err(() => regIn(Oid.regproc, 'nope', snap))).toBe('42883 function "nope" does not exist');
    expect([regOut(Oid.regproc, 42, snap), regOut(Oid.regprocedure, 1081, snap)]).toEqual(['int4in', 'format_type(oid,integer)']);
    expect(regIn(Oid.regprocedure, 'pg_catalog.format_type(oid, int4)', snap)).toBe(1081);
    expect([regIn(Oid.regnamespace, 'public', snap), regOut(Oid.regnamespace, 13207, snap)]).toEqual([2200, 'information_schema']);
    expect(err(() => regIn(Oid.regnamespace, 'nope', snap))).toBe('3F000 schema "nope" does not exist');
    expect([regIn(Oid.regrole, 'lakegate', snap), regOut(Oid.regrole, 10, snap)]).toEqual([9999, 'alice']);
  });

  it('casts text ⇄ reg* through the catalog', () => {
    const cast = (s: number, t: number) => pgcatalogCasts.find((c) => c.source === s && c.target === t)!;
    expect(cast(Oid.text, Oid.regclass).impl('orders', -1, ctx)).toBe(Fixture.orders);
    expect(cast(Oid.unknown, Oid.regtype).impl('text', -1, ctx)).toBe(Oid.text);
    expect(cast(Oid.regclass, Oid.text).impl(1259, -1, ctx)).toBe('pg_class');
    expect([cast(Oid.text, Oid.regclass).context, cast(Oid.text, Oid.regtype).context, cast(Oid.regclass, Oid.text).context]).toEqual(['i', 'e', 'a']);
  });
});
