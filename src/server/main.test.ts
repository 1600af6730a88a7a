import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { FakeHandler } from '../wire/testing/fake-handler.ts';
import { testCodec } from '../wire/testing/test-codec.ts';
import { silentLogger } from '../wire/wire-logger.ts';
import { startServer } from './main.ts';
import { hasOpenssl } from '../../test/helpers/openssl.ts';

const run = promisify(execFile);

describe('startServer', () => {
  it('port 0 picks a free port; serves the given handler; close() is graceful and idempotent', async () => {
    const server = await startServer({ port: 0 }, new FakeHandler(), { codec: testCodec, log: silentLogger });
    expect(server.port).toBeGreaterThan(0);
    expect(server.host).toBe('127.0.0.1');
    const c = new pg.Client({ host: server.host, port: server.port, user: 'x' });
    c.on('error', () => undefined);
    await c.connect();
    expect((await c.query('select 3')).rows).toEqual([{ '?column?': 3 }]);
    await Promise.all([server.close(), server.close()]);
    await expect(c.query('select 1')).rejects.toBeDefined();
  });

  it('with users configured, SCRAM is required', async () => {
    const server = await startServer({ port: 0, users: [{ name: 'alice', password: 'pw' }] }, new FakeHandler(), { codec: testCodec, log: silentLogger });
    try {
      const c = new pg.Client({ host: server.host, port: server.port, user: 'alice', password: 'bad' });
      await expect(c.connect()).rejects.toMatchObject({ code: '28P01' });
    } finally {
      await server.close();
    }
  });
});

describe('txid_current() across restarts', () => {
  it('keeps growing when the whole server restarts on the same warehouse, as in PostgreSQL', async () => {
    const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-xid-'));
    const xidOnce = async (): Promise<bigint[]> => {
      const server = await startServer({ port: 0, warehouse, auth: 'trust', sample_data: false }, undefined, { log: silentLogger });
      try {
        const c = new pg.Client({ host: server.host, port: server.port, user: 'postgres', database: 'lakegate' });
        await c.connect();
        const ids: bigint[] = [];
        for (let i = 0; i < 3; i++) ids.push(BigInt((await c.query('select txid_current()::text as x')).rows[0].x as string));
        await c.end();
        return ids;
      } finally {
        await server.close();
      }
    };
    const first = await xidOnce();
    const second = await xidOnce();
    expect(first[1]! > first[0]! && first[2]! > first[1]!).toBe(true);
    expect(second[0]! > first[2]!).toBe(true);
  }, 60_000);
});

describe.skipIf(!hasOpenssl)('startServer with tls in the config', () => {
  it('loads PEM files and upgrades SSLRequest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lakegate-main-tls-'));
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    const server = await startServer({ port: 0, tls: { cert, key } }, new FakeHandler(), { codec: testCodec, log: silentLogger });
    try {
      const c = new pg.Client({ host: server.host, port: server.port, user: 'x', ssl: { rejectUnauthorized: false } });
      await c.connect();
      expect((await c.query('select 8')).rows).toEqual([{ '?column?': 8 }]);
      await c.end();
    } finally {
      await server.close();
    }
  }, 30000);
});

// needs the real engine and pgtypes, which are written in parallel: runs once they exist
const engineReady = existsSync('src/common/pgtypes/index.ts') && existsSync('src/pgcatalog/index.ts');

describe('cli', () => {
  it.skipIf(!engineReady)('serve: logs the address, answers queries, exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/lakegate.mjs', 'serve', '--port', '0'], { env: { ...process.env, LAKEGATE_WAREHOUSE: mkdtempSync(join(tmpdir(), 'lakegate-wh-')), LAKEGATE_SAMPLE: 'false' } });
    let out = '';
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /lakegate listening on 127\.0\.0\.1:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    const c = new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'lakegate' });
    c.on('error', () => undefined);
    await c.connect();
    expect((await c.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await c.end();
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  }, 60000);

  it('--help and scram-verifier', async () => {
    const help = await run(process.execPath, ['bin/lakegate.mjs', '--help']);
    expect(help.stdout).toContain('lakegate serve');
    expect(help.stdout).toContain('lakegate sample [--scale N]');
    expect(help.stdout).toContain('--no-sample');
    const v = await run(process.execPath, ['bin/lakegate.mjs', 'scram-verifier', 'pencil']);
    expect(v.stdout.trim()).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    await expect(run(process.execPath, ['bin/lakegate.mjs', 'serve', '--bogus'])).rejects.toMatchObject({ code: 1 });
  }, 30000);
});
