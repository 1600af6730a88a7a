/**
 * Unix-domain sockets as PostgreSQL's unix_socket_directories: psql and pg reach `<dir>/.s.PGSQL.<port>`, the
 * session has no addresses (inet_* NULL, pg_stat_activity client_addr NULL and client_port -1 — PostgreSQL 15's
 * answers over its socket), a CancelRequest over the socket cancels, SSLRequest is answered 'N' even with TLS
 * configured, the files go at close, stale ones are replaced and a live owner's lock refuses the start.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { startWire } from './start-wire.ts';

const run = promisify(execFile);
const PSQL = '/usr/bin/psql';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function socketDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lg-sock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(dir: string): Promise<LakegateServer> {
  const lg = await startLakegate({ config: { unix_socket_directories: dir } });
  cleanups.push(() => lg.close());
  return lg;
}

async function psql(dir: string, port: number, sql: string): Promise<string> {
  const r = await run(PSQL, ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'lakegate', '-X', '-A', '-t', '-c', sql], {
    env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
    timeout: 15000,
  });
  return r.stdout.trim();
}

/** a pid that surely runs no process: a child that already exited */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('Unix-domain socket listening', () => {
  it('psql connects through <dir>/.s.PGSQL.<port>; the session has no addresses, as in PostgreSQL', async () => {
    const dir = socketDir();
    const lg = await serve(dir);
    const path = join(dir, `.s.PGSQL.${lg.port}`);
    expect(existsSync(path)).toBe(true);
    // PostgreSQL's lock file layout: pid first, then data dir, start time, port, socket dir
    const lock = readFileSync(`${path}.lock`, 'utf8').split('\n');
    expect(lock[0]).toBe(String(process.pid));
    expect(lock[3]).toBe(String(lg.port));
    expect(lock[4]).toBe(dir);
    // PostgreSQL 15 over its socket: `||||(,,-1)`
    const sql = 'SELECT inet_server_addr(), inet_server_port(), inet_client_addr(), inet_client_port(), (SELECT row(client_addr, client_hostname, client_port) FROM pg_stat_activity WHERE pid = pg_backend_pid())';
    expect(await psql(dir, lg.port, sql)).toBe('||||(,,-1)');
    expect(await psql(dir, lg.port, '\\conninfo')).toContain(`via socket in "${dir}" at port "${lg.port}"`);
    // TCP still answers with its addresses
    const c = new pg.Client({ connectionString: lg.url });
    await c.connect();
    try {
      const r = await c.query<{ a: string; p: number; n: boolean }>("SELECT inet_server_addr() AS a, inet_server_port() AS p, inet_client_port() IS NULL AS n");
      expect(r.rows[0]).toEqual({ a: '127.0.0.1', p: lg.port, n: false });
    } finally {
      await c.end();
    }
  });

  it('pg queries over the socket and a CancelRequest sent over the socket cancels (57014)', async () => {
    const dir = socketDir();
    const lg = await serve(dir);
    const c = new pg.Client({ host: dir, port: lg.port, user: 'postgres', database: 'lakegate' });
    await c.connect();
    try {
      expect((await c.query('SELECT 40 + 2 AS x')).rows).toEqual([{ x: 42 }]);
      const { processID, secretKey } = c as unknown as { processID: number; secretKey: number };
      const sleeping = c.query('SELECT pg_sleep(30)').then(
        () => 'finished',
        (e: { code?: string }) => e.code,
      );
      await new Promise((r) => setTimeout(r, 300));
      const cancel = Buffer.alloc(16);
      cancel.writeInt32BE(16, 0);
      cancel.writeInt32BE(80877102, 4);
      cancel.writeInt32BE(processID, 8);
      cancel.writeInt32BE(secretKey, 12);
      const s = connect(join(dir, `.s.PGSQL.${lg.port}`));
      s.end(cancel);
      expect(await sleeping).toBe('57014');
    } finally {
      await c.end();
    }
  });

  it('removes the socket and its lock at close', async () => {
    const dir = socketDir();
    const lg = await serve(dir);
    const path = join(dir, `.s.PGSQL.${lg.port}`);
    await lg.close();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("replaces a crashed server's socket file and lock (its pid runs no more)", async () => {
    const dir = socketDir();
    // a free port from a first server, then the files a killed server on it would have left
    const first = await serve(dir);
    const port = first.port;
    await first.close();
    const path = join(dir, `.s.PGSQL.${port}`);
    writeFileSync(path, '');
    writeFileSync(`${path}.lock`, `${deadPid()}\n/gone\n0\n${port}\n${dir}\n`);
    const lg = await startLakegate({ config: { unix_socket_directories: dir, port } });
    cleanups.push(() => lg.close());
    expect(await psql(dir, port, 'SELECT 7')).toBe('7');
    expect(readFileSync(`${path}.lock`, 'utf8').split('\n')[0]).toBe(String(process.pid));
  });

  it('refuses to start while another live process holds the lock, leaving its files and the port alone', async () => {
    const dir = socketDir();
    const first = await serve(dir);
    const port = first.port;
    await first.close();
    const path = join(dir, `.s.PGSQL.${port}`);
    // the parent process (vitest's) stands for another running server
    writeFileSync(`${path}.lock`, `${process.ppid}\n/elsewhere\n0\n${port}\n${dir}\n`);
    await expect(startLakegate({ config: { unix_socket_directories: dir, port } })).rejects.toThrow(`lock file "${path}.lock" already exists`);
    expect(readFileSync(`${path}.lock`, 'utf8').split('\n')[0]).toBe(String(process.ppid));
    // the TCP listener opened first was closed again: the port is free for the next start
    rmSync(`${path}.lock`);
    const lg = await startLakegate({ config: { unix_socket_directories: dir, port } });
    cleanups.push(() => lg.close());
    expect(await psql(dir, port, 'SELECT 8')).toBe('8');
  });

  it("answers SSLRequest with 'N' over the socket even when TLS is configured (PostgreSQL's rule)", async () => {
    const dir = socketDir();
    // any SecureContext will do: the answer must be 'N' before a handshake could start
    const { createSecureContext } = await import('node:tls');
    const fx = await startWire({ tls: createSecureContext() });
    cleanups.push(() => fx.close());
    const [path] = await fx.server.listenUnix([dir], fx.port, '/test');
    const answer = await new Promise<string>((resolve, reject) => {
      const s = connect(path!);
      s.once('error', reject);
      s.once('data', (d) => {
        resolve(d.toString('latin1'));
        s.destroy();
      });
      const req = Buffer.alloc(8);
      req.writeInt32BE(8, 0);
      req.writeInt32BE(80877103, 4);
      s.write(req);
    });
    expect(answer).toBe('N');
  });
});
