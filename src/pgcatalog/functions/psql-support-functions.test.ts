import { describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/index.ts';
import { int2vector, oidvector, textArray } from '../tables/vectors.ts';
import { primaryKeyConstraintOid, primaryKeyIndexOid } from '../well-known-oids.ts';
import { callFunction } from '../testing/call-function.ts';
import { evalContext, Fixture, fixtureCatalog, MemorySession, scanContext } from '../testing/memory-catalog.ts';
import { systemScanner } from '../testing/scan-helpers.ts';

const ctx = evalContext(fixtureCatalog(), new MemorySession());
const call = (name: string, args: number[], values: unknown[]): unknown => callFunction(ctx, name, args, values);

describe('psql / JDBC support functions', () => {
  it('pg_describe_object words objects as PostgreSQL does', () => {
    const d = (c: number, o: number, s: number): unknown => call('pg_describe_object', [Oid.oid, Oid.oid, Oid.int4], [c, o, s]);
    expect([d(1259, Fixture.customers, 0), d(1259, Fixture.customers, 2), d(2606, primaryKeyConstraintOid(Fixture.orders), 0), d(1259, Fixture.items, 0), d(1259, primaryKeyIndexOid(Fixture.customers), 0), d(2615, 2200, 0)])
      .toEqual(['table customers', 'column name of table customers', 'constraint orders_pkey on table orders', 'table sales.items', 'index customers_pkey', 'schema public']);
  });

  it('oidvectortypes, getdatabaseencoding, pg_options_to_table, _pg_expandarray', () => {
    expect(call('oidvectortypes', [Oid.oidvector], [oidvector([23, 25])])).toBe('integer, text');
    expect(call('getdatabaseencoding', [], [])).toBe('UTF8');
    expect(call('pg_options_to_table', [Oid._text], [textArray(['a=1', 'b=2'])])).toEqual([['a', '1'], ['b', '2']]);
    expect(callFunction(ctx, '_pg_expandarray', [Oid.anyarray], [int2vector([3, 1])], [sqlType(Oid.int2vector)])).toEqual([[3, 1], [1, 2]]);
    expect(call('pg_relation_is_publishable', [Oid.regclass], [Fixture.customers])).toBe(true);
    expect(call('pg_relation_is_publishable', [Oid.regclass], [1259])).toBe(false);
  });

  it('no partitions; numeric pg_size_pretty; extension comments', () => {
    expect(call('pg_partition_ancestors', [Oid.regclass], [Fixture.customers])).toEqual([]);
    expect(call('pg_partition_tree', [Oid.regclass], [Fixture.customers])).toEqual([]);
    expect(call('pg_size_pretty', [Oid.numeric], ['1234567'])).toBe('1206 kB');
    expect(call('pg_size_pretty', [Oid.numeric], ['12.5'])).toBe('12.5 bytes');
    expect(call('obj_description', [Oid.oid, Oid.name], [13559, 'pg_extension'])).toBe('PL/pgSQL procedural language');
  });

  it('pg_timezone_names lists IANA zones with offsets', async () => {
    const rows = await systemScanner()('pg_timezone_names', scanContext());
    const utc = rows.find((r) => r['name'] === 'UTC');
    expect(utc).toEqual({ name: 'UTC', abbrev: 'UTC', utc_offset: { months: 0, days: 0, micros: 0n }, is_dst: false });
    const tokyo = rows.find((r) => r['name'] === 'Asia/Tokyo');
    expect([tokyo?.['utc_offset'], tokyo?.['is_dst']]).toEqual([{ months: 0, days: 0, micros: 32_400_000_000n }, false]);
    expect(rows.length).toBeGreaterThan(300);
  });
});
