/**
 * Which bound plans read nothing of the catalog (isCatalogFree), and that the session then skips the
 * Iceberg mirror's change check (PRAGMA data_version) for them — and only for them — and checks once per
 * extended-protocol pipeline (Parse … Execute … Sync) otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseSql } from '../sql/index.ts';
import { createQueryEngine, type QueryEngine } from './index.ts';
import type { EngineSession } from './engine-session.ts';
import { isCatalogFree } from './catalog-free-plan.ts';

let engine: QueryEngine;
let session: EngineSession;
let warehouse: string;

async function run(sql: string): Promise<void> {
  for await (const r of session.simpleQuery(sql)) if (r.kind === 'rows') for await (const _ of r.batches) { /* drain */ }
}

beforeAll(async () => {
  warehouse = mkdtempSync(join(tmpdir(), 'lg-catalog-free-'));
  engine = await createQueryEngine({ databases: ['lake'], warehouse });
  session = (await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 81, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false })) as EngineSession;
  await run('CREATE TABLE kv (id int PRIMARY KEY, v text)');
});
afterAll(async () => {
  await session?.close();
  await engine?.close();
  rmSync(warehouse, { recursive: true, force: true });
});

const free = (sql: string, paramTypes: number[] = []): boolean => isCatalogFree(session.bind(parseSql(sql)[0]!.ast, paramTypes));

describe('isCatalogFree', () => {
  it('accepts constants, parameters, immutable operators and functions', () => {
    expect(free('SELECT 1')).toBe(true);
    expect(free('SELECT $1::int + 2, upper($2)', [23, 25])).toBe(true);
    expect(free("SELECT CASE WHEN 1 < 2 THEN 'a' ELSE NULL END, coalesce(NULL, 3), abs(-4) LIMIT 1")).toBe(true);
    expect(free('SELECT x FROM (VALUES (1), (2)) v(x) WHERE x > 1 ORDER BY x')).toBe(true);
  });

  it('refuses relations, catalog functions, stable/volatile functions and reg* values', () => {
    expect(free('SELECT v FROM kv WHERE id = 1')).toBe(false);
    expect(free('SELECT count(*) FROM pg_class')).toBe(false);
    expect(free("SELECT to_regclass('kv')")).toBe(false);
    expect(free("SELECT 'kv'::regclass")).toBe(false);
    expect(free("SELECT 'kv'::regclass::oid")).toBe(false);
    expect(free('SELECT now()')).toBe(false);
    expect(free('SELECT random()')).toBe(false);
    expect(free('SELECT current_schema()')).toBe(false);
    expect(free('SELECT 1 WHERE EXISTS (SELECT 1 FROM kv)')).toBe(false);
    expect(free('SELECT * FROM generate_series(1, 3)')).toBe(false);
  });
});

describe('the Iceberg mirror check before statements', () => {
  const checks = (): (() => number) => {
    const catalog = session.iceberg!.catalog;
    // a check asks for the token known without a read first (a quiet -wal watch), and reads it when unsure
    const spies = [vi.spyOn(catalog, 'changeToken'), vi.spyOn(catalog as { quietChangeToken(): number | string | undefined }, 'quietChangeToken')];
    for (const spy of spies) spy.mockClear();
    return () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
  };

  it('is skipped for a cached catalog-free plan in every protocol, and kept for plans that read the catalog', async () => {
    await run('SELECT 1');
    let count = checks();
    await run('SELECT 1');
    await run('SELECT 1');
    expect(count()).toBe(0);
    await run('SELECT v FROM kv WHERE id = 1');
    expect(count()).toBeGreaterThan(0);

    const p = await session.prepare('SELECT $1::int + 1', []);
    await session.sync();
    count = checks();
    for (let i = 0; i < 3; i++) {
      const r = await session.execute(p, [i]);
      if (r.kind === 'rows') for await (const _ of r.batches) { /* drain */ }
      await session.sync();
    }
    expect(count()).toBe(0);
  });

  it('checks once per extended pipeline: Parse refreshes, its Execute before Sync does not, the next one does', async () => {
    const count = checks();
    const drain = async (sql: string): Promise<void> => {
      const p = await session.prepare(sql, []);
      const r = await session.execute(p, []);
      if (r.kind === 'rows') for await (const _ of r.batches) { /* drain */ }
    };
    await drain('SELECT v FROM kv WHERE id = 2');
    const afterFirst = count();
    expect(afterFirst).toBeGreaterThan(0);
    const p = await session.prepare('SELECT v FROM kv WHERE id = 3', []);
    await session.sync();
    const beforeExecute = count();
    const r = await session.execute(p, []);
    if (r.kind === 'rows') for await (const _ of r.batches) { /* drain */ }
    // after Sync the pipeline's freshness is gone: this Execute checks again
    expect(count()).toBeGreaterThan(beforeExecute);
    await session.sync();
  });
});
