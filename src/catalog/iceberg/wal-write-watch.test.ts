/**
 * SqliteDialect.quietChangeToken (wal-write-watch.ts): answers the change token without reading it only while no
 * commit can have been missed. The ordering claim is tested as the server relies on it: another process commits
 * and then says so over a pipe; in the check phase after the poll phase that read its word (where wire/ runs
 * statements), the watch has already seen the commit's -wal write, every time — whether the word came in the same
 * epoll batch as the write's event or a later one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteDialect } from './sqlite-dialect.ts';

const worker = fileURLToPath(new URL('./test/wal-commit-worker.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lg-wal-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** what the server would see for a statement read with the word: the quiet answer, the token it uses, the header now */
interface Seen {
  quiet: number | string | undefined;
  used: number | string;
  header: number | string;
}

describe('SqliteDialect.quietChangeToken', () => {
  it("is never quiet in the check phase after reading another process's word that it committed", async () => {
    const file = join(dir, 'order.db');
    const here = new SqliteDialect(file);
    const probe = new SqliteDialect(file); // its changeToken() reads the header (it never trusts a quiet watch)
    await here.execute('CREATE TABLE t (x int)');
    const child = spawn(process.execPath, ['--import', 'tsx', worker, file], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      let onLine: (() => void) | null = null;
      let buffered = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        // read in the poll phase; look in the check phase, as wire/after-reads.ts delivers statements
        while (buffered.includes('\n')) {
          buffered = buffered.slice(buffered.indexOf('\n') + 1);
          const wake = onLine;
          onLine = null;
          if (wake !== null) setImmediate(wake);
        }
      });
      const nextLine = (): Promise<void> => new Promise((resolve) => (onLine = resolve));
      await nextLine(); // ready
      let quietBetween = 0;
      for (let i = 0; i < 60; i++) {
        const before = here.changeToken(); // settles the watch: nobody holds the write lock
        if (here.quietChangeToken() === before) quietBetween++;
        const seen = new Promise<Seen>((resolve) => {
          onLine = () => {
            const quiet = here.quietChangeToken();
            resolve({ quiet, used: quiet ?? here.changeToken(), header: probe.changeToken() });
          };
        });
        child.stdin.write(i % 2 === 0 ? 'now\n' : 'later\n');
        const { quiet, used, header } = await seen;
        expect(quiet).toBeUndefined();
        expect(used).toEqual(header);
        expect(used).not.toEqual(before);
      }
      // the quiet path was taken between commits (else this proves nothing)
      expect(quietBetween).toBe(60);
      child.stdin.write('end\n');
      await new Promise((r) => child.once('exit', r));
    } finally {
      if (child.exitCode === null) child.kill();
      await here.close();
      await probe.close();
    }
  }, 60_000);

  it('stays unsure while another connection holds the write lock, and after close', async () => {
    const file = join(dir, 'busy.db');
    const here = new SqliteDialect(file);
    await here.execute('CREATE TABLE t (x int)');
    const other = new Database(file, { timeout: 0 });
    try {
      other.exec('BEGIN IMMEDIATE');
      other.prepare('INSERT INTO t VALUES (1)').run();
      const during = here.changeToken(); // the first read: the watch cannot settle while the lock is held
      expect(here.quietChangeToken()).toBeUndefined();
      expect(here.changeToken()).toEqual(during);
      other.exec('COMMIT');
      const after = here.changeToken();
      expect(after).not.toEqual(during);
      expect(here.quietChangeToken()).toEqual(after);
    } finally {
      other.close();
      await here.close();
    }
    expect(here.quietChangeToken()).toBeUndefined();
    expect(here.changeToken()).toBe(-1);
  });

  it('has nothing to watch without a WAL (:memory:)', async () => {
    const mem = new SqliteDialect(':memory:');
    try {
      expect(typeof mem.changeToken()).toBe('number');
      expect(mem.quietChangeToken()).toBeUndefined();
    } finally {
      await mem.close();
    }
  });
});
