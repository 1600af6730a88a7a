/**
 * A DELETE / UPDATE whose server is killed (SIGKILL, the test-only LAKEGATE_FAULT hook of
 * src/iceberg/commit/commit-faults.ts) after writing its delete files, manifests and metadata file but before
 * the catalog swap leaves the table at its previous snapshot; killed right after the swap, the change is
 * fully visible. Real `lakegate serve` child processes on one warehouse.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const passthrough = { getTypeParser: () => (v: string) => v };
const rows = async (c: pg.Client, sql: string): Promise<string[][]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

/** runs `sql` on a child server started with LAKEGATE_FAULT=`fault`; resolves once the child is dead */
async function runKilled(warehouse: string, fault: string, sql: string): Promise<string | null> {
  const proc = spawn(process.execPath, [join(ROOT, 'bin/lakegate.mjs'), 'serve', '--warehouse', warehouse, '--host', '127.0.0.1', '--port', '0', '--no-sample'], {
    cwd: ROOT, env: { ...process.env, LAKEGATE_SAMPLE: 'false', LAKEGATE_FAULT: fault, LAKEGATE_UNIX_SOCKET_DIRECTORIES: '' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.once('exit', (_code, signal) => resolve(signal)));
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /lakegate listening on [^\s:]+:(\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error('lakegate exited before listening')));
  });
  const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/lakegate`, types: passthrough as never });
  c.on('error', () => undefined);
  await c.connect();
  await c.query(sql).catch(() => undefined); // the server dies under it
  await c.end().catch(() => undefined);
  return exited;
}

describe('DML commits killed around the catalog swap', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-dml-crash-'));
  let server: LakegateServer;
  let c: pg.Client;
  const fresh = async (): Promise<string[][]> => {
    const s = await startLakegate({ config: { warehouse } });
    const f = new pg.Client({ connectionString: s.url, types: passthrough as never });
    await f.connect();
    try {
      return await rows(f, `SELECT (SELECT string_agg(id || ':' || v, ',' ORDER BY id) FROM lake.t), (SELECT count(*) FROM lake."t$snapshots")`);
    } finally {
      await f.end();
      await s.close();
    }
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    c = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await c.connect();
    await c.query('CREATE SCHEMA lake');
    await c.query('CREATE TABLE lake.t (id int4, v text)');
    await c.query(`INSERT INTO lake.t VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
    await c.end();
    await server.close();
  });
  afterAll(() => rmSync(warehouse, { recursive: true, force: true }));

  it('killed before the swap: the previous snapshot stays current', async () => {
    expect(await runKilled(warehouse, 'exit-before-catalog-commit', 'DELETE FROM lake.t WHERE id = 2')).toBe('SIGKILL');
    expect(await fresh()).toEqual([['1:a,2:b,3:c', '1']]);
    expect(await runKilled(warehouse, 'exit-before-catalog-commit', `UPDATE lake.t SET v = 'X' WHERE id = 3`)).toBe('SIGKILL');
    expect(await fresh()).toEqual([['1:a,2:b,3:c', '1']]);
  });

  it('killed after the swap: the whole change is visible', async () => {
    expect(await runKilled(warehouse, 'exit-after-catalog-commit', `UPDATE lake.t SET v = 'X' WHERE id = 3`)).toBe('SIGKILL');
    expect(await fresh()).toEqual([['1:a,2:b,3:X', '2']]);
  });
});
