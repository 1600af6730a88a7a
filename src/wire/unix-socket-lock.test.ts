import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockUnixSocket, SocketInUseError } from './unix-socket-lock.ts';

/** PostgreSQL's CreateLockFile rules for `.s.PGSQL.<port>.lock`, the cases a real rival or crash leaves behind */
describe('lockUnixSocket', () => {
  let dir: string;
  const port = 59151;
  const lockPath = () => join(dir, `.s.PGSQL.${port}.lock`);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lg-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes PostgreSQL's layout: pid, data dir, start time, port, socket dir", () => {
    const lock = lockUnixSocket(dir, port, { dataDir: '/wh' });
    const lines = readFileSync(lockPath(), 'utf8').split('\n');
    expect(lines[0]).toBe(String(process.pid));
    expect(lines[1]).toBe('/wh');
    expect(lines[3]).toBe(String(port));
    expect(lines[4]).toBe(dir);
    lock.release();
    expect(existsSync(lockPath())).toBe(false);
  });

  it("replaces a dead process's lock and its socket file", () => {
    writeFileSync(lockPath(), '2147483646\n/old\n0\n59151\n/tmp\n');
    writeFileSync(join(dir, `.s.PGSQL.${port}`), '');
    const lock = lockUnixSocket(dir, port, { dataDir: '' });
    expect(readFileSync(lockPath(), 'utf8').split('\n')[0]).toBe(String(process.pid));
    expect(existsSync(join(dir, `.s.PGSQL.${port}`))).toBe(false);
    lock.release();
  });

  it("refuses a live process's lock (pid 1 always runs)", () => {
    writeFileSync(lockPath(), '1\n/other\n0\n59151\n/tmp\n');
    expect(() => lockUnixSocket(dir, port, { dataDir: '' })).toThrow(SocketInUseError);
    expect(() => lockUnixSocket(dir, port, { dataDir: '' })).toThrow(/is another server \(PID 1\) using socket file/);
  });

  it('refuses an empty lock, as PostgreSQL does: a rival may be between creating and writing it', () => {
    writeFileSync(lockPath(), '');
    expect(() => lockUnixSocket(dir, port, { dataDir: '' })).toThrow(SocketInUseError);
    expect(() => lockUnixSocket(dir, port, { dataDir: '' })).toThrow(`lock file "${lockPath()}" is empty`);
    expect(readFileSync(lockPath(), 'utf8')).toBe('');
  });

  it('refuses a lock without a pid ("bogus data")', () => {
    writeFileSync(lockPath(), 'garbage\n');
    expect(() => lockUnixSocket(dir, port, { dataDir: '' })).toThrow(`bogus data in lock file "${lockPath()}": "garbage"`);
  });

  it('lets the same process take its released lock again', () => {
    lockUnixSocket(dir, port, { dataDir: '' }).release();
    const again = lockUnixSocket(dir, port, { dataDir: '' });
    again.release();
  });
});
