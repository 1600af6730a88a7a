/**
 * Real clients through lakegate's authentication: MD5 (`auth: md5`, users with an MD5 secret as pg_authid keeps it
 * under password_encryption = md5, or a password) as psqlODBC and old drivers ask for it, and SCRAM-SHA-256-PLUS
 * over TLS (tls-server-end-point) as libpq's `channel_binding=require`, pgJDBC 42.7 and node-postgres
 * (`enableChannelBinding`) use it. psql 15 and node-postgres connect exactly as they do to PostgreSQL 15 configured
 * the same way (pg_hba `md5` / `scram-sha-256`, ssl = on).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/main.ts';
import { md5Verifier } from '../../src/wire/auth/md5-password.ts';
import { makeScramVerifier } from '../../src/wire/auth/scram-sha-256.ts';
import { FakeHandler } from '../../src/wire/testing/fake-handler.ts';
import { testCodec } from '../../src/wire/testing/test-codec.ts';
import { silentLogger } from '../../src/wire/wire-logger.ts';

const run = promisify(execFile);
const has = (cmd: string, args: string[]): boolean => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasOpenssl = has('openssl', ['version']);
const hasPsql = has('psql', ['--version']);
const PG_JDBC_JAR = '/usr/share/java/postgresql.jar';
const hasJdbc = has('java', ['-version']) && existsSync(PG_JDBC_JAR);

const USERS = [
  { name: 'alice', verifier: md5Verifier('pencil', 'alice') },
  { name: 'bob', password: 'pw' },
  { name: 'carol', verifier: makeScramVerifier('s3cret') },
];

let md5Server: RunningServer;
let scramServer: RunningServer;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-auth-clients-'));
  const tls = { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
  if (hasOpenssl) {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', tls.key, '-out', tls.cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  }
  const common = { port: 0, users: USERS, unix_socket_directories: '', ...(hasOpenssl ? { tls } : {}) };
  md5Server = await startServer({ ...common, auth: 'md5' }, new FakeHandler(), { codec: testCodec, log: silentLogger });
  scramServer = await startServer({ ...common, auth: 'scram-sha-256' }, new FakeHandler(), { codec: testCodec, log: silentLogger });
}, 30_000);

afterAll(async () => {
  await md5Server?.close();
  await scramServer?.close();
});

/** connects with node-postgres and reports which authentication request the server made */
async function nodePg(server: RunningServer, user: string, password: string, ssl = false, enableChannelBinding = false): Promise<string> {
  const c = new pg.Client({ host: server.host, port: server.port, user, password, database: 'x', ...(ssl ? { ssl: { rejectUnauthorized: false } } : {}), enableChannelBinding } as pg.ClientConfig);
  c.on('error', () => undefined);
  const seen: string[] = [];
  const conn = (c as unknown as { connection: { on(e: string, f: (m: { mechanisms?: string[] }) => void): void; sendSASLInitialResponseMessage: (m: string, r: string) => void } }).connection;
  conn.on('authenticationMD5Password', () => seen.push('md5'));
  conn.on('authenticationCleartextPassword', () => seen.push('cleartext'));
  conn.on('authenticationSASL', (m) => seen.push(`sasl offered ${(m.mechanisms ?? []).join(' ')}`));
  const send = conn.sendSASLInitialResponseMessage.bind(conn);
  conn.sendSASLInitialResponseMessage = (mechanism, response) => {
    seen.push(`chose ${mechanism}`);
    send(mechanism, response);
  };
  await c.connect();
  try {
    expect((await c.query('select 3')).rows).toEqual([{ '?column?': 3 }]);
  } finally {
    await c.end();
  }
  return seen.join('; ');
}

/** psql -c 'select 3' with a libpq connection string; resolves to stdout, rejects with stderr */
async function psql(server: RunningServer, conninfo: string, password: string, env: Record<string, string> = {}): Promise<string> {
  const base: Record<string, string | undefined> = { ...process.env, PGPASSWORD: password, ...env };
  if (env['PGSSLMODE'] === undefined) delete base['PGSSLMODE'];
  if (env['PGCHANNELBINDING'] === undefined) delete base['PGCHANNELBINDING'];
  try {
    const { stdout } = await run('psql', ['-X', '-At', '-c', 'select 3', `host=${server.host} port=${server.port} dbname=x ${conninfo}`],
      { env: base, timeout: 20_000 });
    return stdout.trim();
  } catch (e) {
    throw new Error(String((e as { stderr?: string }).stderr ?? e));
  }
}

/** pgJDBC (its own MD5 / SCRAM code, not libpq's): `ok 3` or `error <SQLState> <message>` */
async function jdbc(server: RunningServer, params: string, user: string, password: string): Promise<string> {
  const source = fileURLToPath(new URL('./jdbc/JdbcAuth.java', import.meta.url));
  const url = `jdbc:postgresql://${server.host}:${server.port}/x?${params}`;
  const { stdout } = await run('java', ['-Xshare:auto', '-XX:TieredStopAtLevel=1', '-cp', PG_JDBC_JAR, source, url, user, password], { timeout: 60_000 });
  return stdout.trim();
}

describe('MD5 password authentication (auth: md5)', () => {
  it('node-postgres answers the MD5 challenge for an MD5 secret and for a configured password', async () => {
    expect(await nodePg(md5Server, 'alice', 'pencil')).toBe('md5');
    expect(await nodePg(md5Server, 'bob', 'pw')).toBe('md5');
    await expect(nodePg(md5Server, 'alice', 'pencil2')).rejects.toMatchObject({ code: '28P01', message: 'password authentication failed for user "alice"' });
  });

  it('a user with a SCRAM verifier still authenticates by SCRAM, as PostgreSQL does under md5', async () => {
    expect(await nodePg(md5Server, 'carol', 's3cret')).toBe('sasl offered SCRAM-SHA-256; chose SCRAM-SHA-256');
  });

  it.skipIf(!hasPsql)('psql 15 connects with md5', async () => {
    expect(await psql(md5Server, 'user=alice sslmode=disable', 'pencil')).toBe('3');
    await expect(psql(md5Server, 'user=alice sslmode=disable', 'wrong')).rejects.toThrow(/password authentication failed for user "alice"/);
  });

  it.skipIf(!hasJdbc)("pgJDBC's own MD5 client connects; a wrong password is 28P01", async () => {
    expect(await jdbc(md5Server, 'sslmode=disable', 'alice', 'pencil')).toBe('ok 3');
    expect(await jdbc(md5Server, 'sslmode=disable', 'alice', 'nope')).toMatch(/^error 28P01 .*password authentication failed for user "alice"/);
  }, 60_000);

  it('scram-sha-256 refuses a user whose secret is MD5 (a doomed exchange, 28P01), as PostgreSQL does', async () => {
    await expect(nodePg(scramServer, 'alice', 'pencil')).rejects.toMatchObject({ code: '28P01' });
  });
});

describe.skipIf(!hasOpenssl)('SCRAM-SHA-256-PLUS over TLS (tls-server-end-point)', () => {
  it('offers -PLUS first over TLS and only SCRAM-SHA-256 without it; node-postgres binds when enabled', async () => {
    expect(await nodePg(scramServer, 'carol', 's3cret', true, true)).toBe('sasl offered SCRAM-SHA-256-PLUS SCRAM-SHA-256; chose SCRAM-SHA-256-PLUS');
    expect(await nodePg(scramServer, 'bob', 'pw', true, true)).toBe('sasl offered SCRAM-SHA-256-PLUS SCRAM-SHA-256; chose SCRAM-SHA-256-PLUS');
    expect(await nodePg(scramServer, 'carol', 's3cret', true, false)).toBe('sasl offered SCRAM-SHA-256-PLUS SCRAM-SHA-256; chose SCRAM-SHA-256');
    expect(await nodePg(scramServer, 'carol', 's3cret', false, true)).toBe('sasl offered SCRAM-SHA-256; chose SCRAM-SHA-256');
    await expect(nodePg(scramServer, 'carol', 'wrong', true, true)).rejects.toMatchObject({ code: '28P01' });
  });

  it.skipIf(!hasJdbc)('pgJDBC (42.5, SCRAM without channel binding) connects over TLS while -PLUS is offered', async () => {
    expect(await jdbc(scramServer, 'sslmode=require', 'carol', 's3cret')).toBe('ok 3');
    expect(await jdbc(scramServer, 'sslmode=disable', 'carol', 's3cret')).toBe('ok 3');
  }, 60_000);

  it.skipIf(!hasPsql)('psql 15 with channel_binding=require connects over TLS (libpq refuses a server that does not bind)', async () => {
    expect(await psql(scramServer, 'user=carol sslmode=require channel_binding=require', 's3cret')).toBe('3');
    expect(await psql(scramServer, 'user=bob sslmode=require channel_binding=require', 'pw')).toBe('3');
    expect(await psql(scramServer, 'user=carol', 's3cret', { PGSSLMODE: 'require', PGCHANNELBINDING: 'require' })).toBe('3');
    // libpq's default channel_binding=prefer binds too when the server offers it
    expect(await psql(scramServer, 'user=carol sslmode=require', 's3cret')).toBe('3');
    await expect(psql(scramServer, 'user=carol sslmode=disable channel_binding=require', 's3cret')).rejects.toThrow(/channel binding/);
    await expect(psql(scramServer, 'user=carol sslmode=require channel_binding=require', 'wrong')).rejects.toThrow(/password authentication failed/);
    // md5 has no channel binding: libpq refuses it when binding is required
    await expect(psql(md5Server, 'user=alice sslmode=require channel_binding=require', 'pencil')).rejects.toThrow(/channel binding required/);
  });
});
