/**
 * SqliteDialect.changeToken: read from the WAL-index header (-shm) with one pread — it must move for every
 * commit of another connection (also across a WAL restart by a checkpoint), stay put without commits, and
 * fall back to PRAGMA data_version where there is no WAL index (:memory:).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteDialect } from './sqlite-dialect.ts';

const dir = mkdtempSync(join(tmpdir(), 'lg-change-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteDialect.changeToken', () => {
  it('moves with every commit of another connection, also after a WAL restart', async () => {
    const file = join(dir, 'c.db');
    const writer = new SqliteDialect(file);
    const reader = new SqliteDialect(file);
    try {
      await writer.execute('CREATE TABLE t (x int)');
      const seen = new Set<number | string>();
      let last = reader.changeToken();
      expect(typeof last).toBe('string'); // the WAL-index header, not the pragma
      seen.add(last);
      for (let i = 0; i < 20; i++) {
        if (i === 10) await writer.query('PRAGMA wal_checkpoint(RESTART)');
        await writer.execute('INSERT INTO t VALUES (?)', [String(i)]);
        const now = reader.changeToken();
        expect(now).not.toEqual(last);
        expect(reader.changeToken()).toEqual(now); // no commit, no move
        expect(seen.has(now)).toBe(false); // never back to an earlier value
        seen.add(now);
        last = now;
      }
      await writer.execute('BEGIN');
      await writer.execute('INSERT INTO t VALUES (100)');
      expect(reader.changeToken()).toEqual(last); // not committed yet
      await writer.execute('COMMIT');
      expect(reader.changeToken()).not.toEqual(last);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('falls back to PRAGMA data_version without a WAL index', async () => {
    const mem = new SqliteDialect(':memory:');
    try {
      expect(typeof mem.changeToken()).toBe('number');
    } finally {
      await mem.close();
    }
    expect(mem.changeToken()).toBe(-1);
  });
});
