/**
 * postgres.js: connects with its array-type lookup (pg_type at connect), tagged templates (extended
 * protocol, named statements), unsafe (simple), array parameters, cursors, begin/commit, and errors.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCompat, skipReason, type CompatEnv } from './compat-target.ts';

const skip = skipReason('postgres-js', null);

describe.skipIf(skip !== null)(`postgres.js${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let ctx: CompatEnv;
  let sql: postgres.Sql;
  beforeAll(async () => {
    ctx = await prepareCompat('postgres-js');
    sql = postgres(ctx.target.url, { max: 2, onnotice: () => {}, connection: { search_path: ctx.schema } });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await ctx?.close();
  });

  it('tagged template with parameters', async () => {
    const minId = 2;
    const rows = await sql`SELECT id, name FROM customers WHERE id >= ${minId} ORDER BY id`;
    expect(rows.map((r) => [r.id, r.name])).toEqual([[2, 'bob'], [3, 'cid']]);
    expect(rows.count).toBe(2);
    expect(rows.command).toBe('SELECT');
  });

  it('repeated statement (prepared, then reused)', async () => {
    for (let i = 0; i < 3; i++) {
      const [row] = await sql`SELECT count(*)::int AS n FROM orders WHERE customer_id = ${1}`;
      expect(row?.n).toBe(2);
    }
  });

  it('array parameter and array result (type list loaded at connect)', async () => {
    const ids = [100, 102];
    const rows = await sql`SELECT id, amount FROM orders WHERE id = ANY(${ids}::bigint[]) ORDER BY id`;
    expect(rows.map((r) => [String(r.id), r.amount])).toEqual([['100', '19.99'], ['102', '250.00']]);
    const [arr] = await sql`SELECT ARRAY[1, 2, 3]::int4[] AS a, ARRAY['x', 'y z']::text[] AS t`;
    expect(arr?.a).toEqual([1, 2, 3]);
    expect(arr?.t).toEqual(['x', 'y z']);
  });

  it('unsafe (simple protocol) with several statements', async () => {
    const res = await sql.unsafe('SELECT 1 AS a; SELECT 2 AS b');
    expect(res.length).toBe(2);
  });

  it('cursor', async () => {
    const seen: number[] = [];
    for await (const rows of sql`SELECT g FROM generate_series(1, 7) g ORDER BY g`.cursor(3)) {
      expect(rows.length).toBeLessThanOrEqual(3);
      seen.push(...rows.map((r) => r.g as number));
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('transaction (begin / commit, rollback on throw)', async () => {
    const n = await sql.begin(async (tx) => {
      await tx`CREATE TEMP TABLE IF NOT EXISTS pjs_tx (a int)`;
      await tx`INSERT INTO pjs_tx VALUES (1), (2)`;
      const [r] = await tx`SELECT count(*)::int AS n FROM pjs_tx`;
      return r?.n;
    });
    expect(n).toBe(2);
    await expect(sql.begin(async (tx) => {
      await tx`SELECT 1`;
      throw new Error('boom');
    })).rejects.toThrow('boom');
  });

  it('typed values: timestamptz, date, bool, numeric, float8', async () => {
    const [r] = await sql`SELECT created, active, balance, ratio, ordered_on FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.id = 100`;
    expect((r?.created as Date).toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(r?.active).toBe(true);
    expect(r?.balance).toBe('10.50');
    expect(r?.ratio).toBe(0.5);
  });

  it('errors carry SQLSTATE', async () => {
    await expect(sql`SELECT * FROM no_such_table`).rejects.toMatchObject({ code: '42P01' });
    await expect(sql`SELECT 1/0`).rejects.toMatchObject({ code: '22012' });
  });
});

if (skip !== null) it.skip(`postgres.js: ${skip}`, () => {});
