/** Driver failures surface as SQLSTATEs: a locked SQLite file is a retryable 40001, an unreachable database 58030. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/helpers/pg-cluster.ts';
import { openSqlCatalog } from './open-sql-catalog.ts';

const dir = mkdtempSync(join(tmpdir(), 'lg-caterr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('catalog database errors', () => {
  it('maps a write lock held elsewhere (busy timeout) to 40001, then works once it is released', async () => {
    const file = join(dir, 'busy.db');
    const catalog = await openSqlCatalog({ uri: file, busyTimeoutMs: 50 });
    const other = new Database(file); // stands in for another process
    other.exec('BEGIN IMMEDIATE');
    await expect(catalog.createNamespace(['n'])).rejects.toMatchObject({
      code: '40001',
      message: 'could not serialize access due to concurrent update',
    });
    other.exec('ROLLBACK');
    other.close();
    await catalog.createNamespace(['n']);
    expect(await catalog.namespaceExists(['n'])).toBe(true);
    await catalog.close();
  });

  it('maps an unreachable PostgreSQL to 58030', async () => {
    const port = await freePort();
    await expect(openSqlCatalog({ uri: `postgresql://postgres@127.0.0.1:${port}/nope` })).rejects.toMatchObject({ code: '58030' });
  });
});
