import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSocketDirectories, UnixSocketListeners } from './unix-socket-listeners.ts';
import { unixSocketPath } from './unix-socket-lock.ts';

describe('unix_socket_directories', () => {
  it('splits on commas, trims, skips empty entries', () => {
    expect(parseSocketDirectories('/tmp')).toEqual(['/tmp']);
    expect(parseSocketDirectories(' /tmp , /run/lakegate,,')).toEqual(['/tmp', '/run/lakegate']);
    expect(parseSocketDirectories('')).toEqual([]);
  });

  it("names the socket as libpq looks for it", () => {
    expect(unixSocketPath('/tmp', 5433)).toBe('/tmp/.s.PGSQL.5433');
  });

  it("refuses a path longer than a socket address holds, with PostgreSQL's message", async () => {
    const dir = `/tmp/${'d'.repeat(110)}`;
    await expect(UnixSocketListeners.open([dir], 5433, () => {}, { dataDir: '' })).rejects.toThrow(`could not create any Unix-domain sockets: Unix-domain socket path "${dir}/.s.PGSQL.5433" is too long (maximum 107 bytes)`);
  });

  it('skips a directory where no socket can be made, with a warning, as long as another one works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-sock-'));
    const warnings: string[] = [];
    try {
      const set = await UnixSocketListeners.open(['/nonexistent/lakegate', dir], 59150, () => {}, { dataDir: '', warn: (m) => warnings.push(m) });
      expect(set.paths).toEqual([join(dir, '.s.PGSQL.59150')]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('could not create Unix-domain socket in directory "/nonexistent/lakegate"');
      await set.close();
      expect(existsSync(join(dir, '.s.PGSQL.59150'))).toBe(false);
      expect(existsSync(join(dir, '.s.PGSQL.59150.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
