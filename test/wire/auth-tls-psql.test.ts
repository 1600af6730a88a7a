/** Logins (trust, SCRAM-SHA-256, cleartext) with pg and psql, too many clients, and TLS via SSLRequest. */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { makeScramVerifier } from '../../src/wire/auth/scram-sha-256.ts';
import { startWire, type WireFixture } from './start-wire.ts';
import { hasOpenssl } from '../helpers/openssl.ts';

const run = promisify(execFile);
const PSQL = '/usr/bin/psql';
let fx: WireFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const users = [
  { name: 'alice', verifier: makeScramVerifier('wonderland') },
  { name: 'bob', password: 'builder' },
];

async function login(user: string, password?: string, extra: Partial<pg.ClientConfig> = {}): Promise<pg.Client> {
  const c = new pg.Client({ host: fx!.host, port: fx!.port, user, database: 'lakegate', ...(password !== undefined && { password }), ...extra });
  await c.connect();
  return c;
}

async function psql(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const r = await run(PSQL, ['-h', fx!.host, '-p', String(fx!.port), '-d', 'lakegate', '-X', '-A', '-t', ...args], {
      env: { ...process.env, PGCONNECT_TIMEOUT: '5', ...env },
      timeout: 15000,
    });
    return { ...r, code: 0 };
  } catch (e) {
    const err = e as { stdout: string; stderr: string; code: number };
    return { stdout: err.stdout, stderr: err.stderr, code: err.code };
  }
}

describe('authentication', () => {
  it('SCRAM-SHA-256 with a stored verifier and with a configured password (pg)', async () => {
    fx = await startWire({ auth: { method: 'scram-sha-256', users } });
    const a = await login('alice', 'wonderland');
    expect((await a.query('select 1')).rows).toEqual([{ '?column?': 1 }]);
    await a.end();
    const b = await login('bob', 'builder');
    await b.end();
    await expect(login('alice', 'nope')).rejects.toMatchObject({ code: '28P01', message: 'password authentication failed for user "alice"' });
  });

  it('cleartext password method (pg), verifier users included', async () => {
    fx = await startWire({ auth: { method: 'password', users } });
    await (await login('bob', 'builder')).end();
    await (await login('alice', 'wonderland')).end();
    await expect(login('bob', 'wrong')).rejects.toMatchObject({ code: '28P01' });
  });

  it('unlisted users are trusted from loopback', async () => {
    fx = await startWire({ auth: { method: 'scram-sha-256', users } });
    await (await login('carol')).end();
  });

  it('psql: SCRAM and cleartext with PGPASSWORD, and 28P01', async () => {
    fx = await startWire({ auth: { method: 'scram-sha-256', users } });
    const ok = await psql(['-U', 'alice', '-c', 'select 42'], { PGPASSWORD: 'wonderland' });
    expect(ok.stderr).toBe('');
    expect(ok.stdout.trim()).toBe('42');
    const bad = await psql(['-U', 'alice', '-c', 'select 1'], { PGPASSWORD: 'x' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('password authentication failed for user "alice"');
    await fx.close();
    fx = await startWire({ auth: { method: 'password', users } });
    const clear = await psql(['-U', 'bob', '-c', 'select 7'], { PGPASSWORD: 'builder' });
    expect(clear.stdout.trim()).toBe('7');
  });

  it('psql: several statements, an error with SQLSTATE, options -c passed to the handler', async () => {
    fx = await startWire();
    const r = await psql(['-U', 'dave', '-v', 'VERBOSITY=verbose', '-c', 'select 1; select * from missing'], { PGOPTIONS: '-c search_path=foo --work-mem=64MB' });
    expect(r.stdout.trim()).toBe('1');
    expect(r.stderr).toContain('ERROR:  42P01: relation "missing" does not exist');
    expect(r.stderr).toContain('LINE 1');
    const params = fx.handler.sessions.at(-1)!.info.parameters;
    expect(params['search_path']).toBe('foo');
    expect(params['work_mem']).toBe('64MB');
    expect(params['options']).toBe('-c search_path=foo --work-mem=64MB');
  });

  it('psql: \\copy to stdout and from stdin', async () => {
    fx = await startWire();
    const out = await psql(['-U', 'e', '-c', '\\copy t to stdout']);
    expect(out.stdout).toBe('1\trow 1\n2\trow 2\n3\trow 3\n');
    const input = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const child = execFile(PSQL, ['-h', fx!.host, '-p', String(fx!.port), '-d', 'lakegate', '-U', 'e', '-X', '-c', '\\copy t from stdin'], (_e, stdout, stderr) => resolve({ stdout, stderr }));
      child.stdin!.end('7\tx\n8\ty\n');
    });
    expect(input.stderr).toBe('');
    expect(input.stdout.trim()).toBe('COPY 2');
    expect(fx.handler.copied.at(-1)).toBe('7\tx\n8\ty\n');
  });

  it('too many connections → FATAL 53300', async () => {
    fx = await startWire({ maxConnections: 2 });
    const a = await login('u1');
    const b = await login('u2');
    await expect(login('u3')).rejects.toMatchObject({ code: '53300', message: 'sorry, too many clients already' });
    await a.end();
    await expect.poll(() => fx!.server.connectionCount).toBe(1);
    const c = await login('u4');
    await Promise.all([b.end(), c.end()]);
  });
});

describe.skipIf(!hasOpenssl)('TLS', () => {
  function selfSigned(): { cert: Buffer; key: Buffer } {
    const dir = mkdtempSync(join(tmpdir(), 'lakegate-tls-'));
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    expect(existsSync(cert)).toBe(true);
    return { cert: readFileSync(cert), key: readFileSync(key) };
  }

  it('SSLRequest → S → TLS (pg with ssl, psql sslmode=require); SCRAM inside TLS', async () => {
    const { cert, key } = selfSigned();
    fx = await startWire({ tls: createSecureContext({ cert, key }), auth: { method: 'scram-sha-256', users } });
    const c = await login('alice', 'wonderland', { ssl: { rejectUnauthorized: false } });
    expect((await c.query('select 11')).rows).toEqual([{ '?column?': 11 }]);
    expect(fx.handler.sessions.at(-1)!.info.ssl).toBe(true);
    await c.end();
    const r = await psql(['-U', 'alice', '-c', 'select 12'], { PGPASSWORD: 'wonderland', PGSSLMODE: 'require' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('12');
  });

  it('without a certificate SSLRequest is answered N (sslmode=prefer falls back, require fails)', async () => {
    fx = await startWire();
    const r = await psql(['-U', 'x', '-c', 'select 13'], { PGSSLMODE: 'prefer' });
    expect(r.stdout.trim()).toBe('13');
    const req = await psql(['-U', 'x', '-c', 'select 13'], { PGSSLMODE: 'require' });
    expect(req.code).not.toBe(0);
    expect(req.stderr).toMatch(/server does not support SSL/);
  });
});
