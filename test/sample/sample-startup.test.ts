/**
 * The sample lakehouse end to end: the first start on an empty warehouse writes it (as Iceberg tables the
 * SQL sees at once, README query included), a second start reuses it without rebuilding, and
 * `lakegate sample` (a child process) rebuilds it with a progress bar. Tiny scales keep this quick.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlCatalog } from '../../src/catalog/iceberg/index.ts';
import { SAMPLE_MARKER_PROPERTY } from '../../src/sample/index.ts';
import { startServer } from '../../src/server/main.ts';

const run = promisify(execFile);
const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-sample-wh-'));
afterAll(() => rmSync(warehouse, { recursive: true, force: true }));

async function withServer<T>(config: Record<string, unknown>, body: (c: pg.Client) => Promise<T>): Promise<{ result: T; startMs: number }> {
  const started = performance.now();
  const server = await startServer({ host: '127.0.0.1', port: 0, warehouse, auth: 'trust', ...config });
  const startMs = performance.now() - started;
  const c = new pg.Client({ host: server.host, port: server.port, user: 'lakegate', database: 'lakegate' });
  try {
    await c.connect();
    return { result: await body(c), startMs };
  } finally {
    await c.end().catch(() => undefined);
    await server.close();
  }
}

const README_QUERY = `SELECT c.country, count(*) AS orders, sum(o.total) AS revenue
FROM sample.orders o JOIN sample.customers c USING (customer_id)
WHERE o.ordered_at >= DATE '2024-06-01'
GROUP BY c.country ORDER BY revenue DESC LIMIT 5`;

const snapshotOf = async (c: pg.Client, table: string): Promise<string> =>
  (await c.query(`SELECT snapshot_id::text AS id FROM sample."${table}$snapshots"`)).rows.map((r: { id: string }) => r.id).join(',');

describe('sample lakehouse at server start', () => {
  let firstSnapshot = '';

  it('the first start on an empty warehouse creates it; the README query answers', async () => {
    const { result } = await withServer({ sample_scale: 0.002 }, async (c) => {
      const tables = await c.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'sample' ORDER BY 1`);
      expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual(['customers', 'order_items', 'orders', 'products']);
      const counts = await c.query(`SELECT (SELECT count(*) FROM sample.customers) AS customers, (SELECT count(*) FROM sample.products) AS products,
        (SELECT count(*) FROM sample.order_items) AS order_items`);
      expect(counts.rows[0]).toEqual({ customers: '100', products: '10', order_items: '1446' });
      const totals = await c.query(`SELECT count(*)::int AS orders, sum(total)::text AS revenue, min(ordered_at)::date::text AS first,
        max(ordered_at)::date::text AS last FROM sample.orders`);
      expect(totals.rows[0]).toEqual({ orders: 600, revenue: '170448.77', first: '2023-01-01', last: '2024-12-31' });
      const readme = await c.query(README_QUERY);
      expect(readme.rows).toHaveLength(5);
      expect(readme.rows.map((r: { country: string }) => r.country)).toContain('United States');
      return snapshotOf(c, 'orders');
    });
    firstSnapshot = result;
    expect(firstSnapshot).toMatch(/^\d+$/);
  }, 180_000);

  it('a second start finds it and does not rebuild', async () => {
    const { result } = await withServer({ sample_scale: 0.002 }, (c) => snapshotOf(c, 'orders'));
    expect(result).toBe(firstSnapshot);
  }, 60_000);

  it('sample_data: false skips it on a warehouse that has none', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'lakegate-nosample-'));
    try {
      const server = await startServer({ host: '127.0.0.1', port: 0, warehouse: empty, auth: 'trust', sample_data: false });
      await server.close();
      const { readdirSync } = await import('node:fs');
      expect(readdirSync(empty).filter((f) => f !== 'lakegate_catalog.db')).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('lakegate sample (CLI)', () => {
  it('drops and rebuilds the sample at the given scale, with progress on stderr, then exits', async () => {
    const { stdout, stderr } = await run(process.execPath, ['bin/lakegate.mjs', 'sample', '--scale', '0.001', '--warehouse', warehouse], {
      env: { ...process.env, LAKEGATE_CONFIG: '' },
    });
    expect(stdout).toMatch(/^sample dataset written in [\d.]+s: [\d,]+ rows \(customers 50, products 5, orders 300, order_items [\d,]+\)\n$/);
    expect(stderr).toContain('rebuilding the sample dataset (schema "sample", scale 0.001)');
    expect(stderr).toMatch(/100% [\d,]+\/[\d,]+ rows {2}[\d,]+ rows\/s {2}in /); // plain lines: stderr is a pipe
    const catalog = await openSqlCatalog({ catalogName: 'lakegate', warehouse });
    try {
      expect((await catalog.loadNamespaceProperties(['sample']))[SAMPLE_MARKER_PROPERTY]).toBe('0.001');
      expect((await catalog.listTables(['sample'])).map((t) => t.name)).toEqual(['customers', 'order_items', 'orders', 'products']);
    } finally {
      await catalog.close();
    }
  }, 180_000);

  it('rejects a bad scale', async () => {
    await expect(run(process.execPath, ['bin/lakegate.mjs', 'sample', '--scale', '0', '--warehouse', warehouse])).rejects.toMatchObject({ code: 2 });
  }, 30_000);
});
