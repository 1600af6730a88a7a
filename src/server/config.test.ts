import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, loadConfig, parseConfig } from './config.ts';

function yamlFile(text: string): string {
  const p = join(mkdtempSync(join(tmpdir(), 'lakegate-cfg-')), 'lakegate.yml');
  writeFileSync(p, text);
  return p;
}

describe('config', () => {
  it('defaults', async () => {
    const c = await loadConfig({}, {});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 5433, warehouse: './warehouse', databases: ['lakegate'], users: [], tls: null, max_connections: 100, auth: 'scram-sha-256' });
  });

  it('CLI flags > env > file > defaults', async () => {
    const file = yamlFile('host: 0.0.0.0\nport: 6000\nwarehouse: /data/wh\ndatabases: [a, b]\nusers:\n  - name: alice\n    password: pw\n');
    const fromFile = await loadConfig({ config: file }, {});
    expect(fromFile).toMatchObject({ host: '0.0.0.0', port: 6000, warehouse: '/data/wh', databases: ['a', 'b'], users: [{ name: 'alice', password: 'pw' }] });
    const env = { LAKEGATE_CONFIG: file, LAKEGATE_PORT: '7000', LAKEGATE_WAREHOUSE: '/env/wh' };
    expect(await loadConfig({}, env)).toMatchObject({ host: '0.0.0.0', port: 7000, warehouse: '/env/wh' });
    expect(await loadConfig({ port: '8000', host: '::1' }, env)).toMatchObject({ host: '::1', port: 8000, warehouse: '/env/wh' });
  });

  it('env parsing', () => {
    expect(configFromEnv({ LAKEGATE_DATABASES: 'x, y', LAKEGATE_HOST: 'h', LAKEGATE_TLS_CERT: 'c', LAKEGATE_TLS_KEY: 'k' })).toEqual({
      databases: ['x', 'y'],
      host: 'h',
      tls: { cert: 'c', key: 'k' },
    });
  });

  it('processes: 1 by default; file < LAKEGATE_PROCESSES < --processes; 1…200', async () => {
    expect((await loadConfig({}, {})).processes).toBe(1);
    const file = yamlFile('processes: 2\n');
    expect((await loadConfig({ config: file }, {})).processes).toBe(2);
    expect((await loadConfig({ config: file }, { LAKEGATE_PROCESSES: '3' })).processes).toBe(3);
    expect((await loadConfig({ config: file, processes: '4' }, { LAKEGATE_PROCESSES: '3' })).processes).toBe(4);
    expect(() => parseConfig({ processes: 0 })).toThrowError(/processes/);
    expect(() => parseConfig({ processes: 201 })).toThrowError(/processes/);
  });

  it("unix_socket_directories: /tmp by default (PostgreSQL's); file < LAKEGATE_UNIX_SOCKET_DIRECTORIES < flag; '' = none", async () => {
    expect((await loadConfig({}, {})).unix_socket_directories).toBe('/tmp');
    const file = yamlFile('unix_socket_directories: /run/a, /run/b\n');
    expect((await loadConfig({ config: file }, {})).unix_socket_directories).toBe('/run/a, /run/b');
    // an empty variable turns the sockets off (the other variables ignore '')
    expect((await loadConfig({ config: file }, { LAKEGATE_UNIX_SOCKET_DIRECTORIES: '' })).unix_socket_directories).toBe('');
    expect((await loadConfig({ config: file, unixSocketDirectories: '/run/c' }, { LAKEGATE_UNIX_SOCKET_DIRECTORIES: '' })).unix_socket_directories).toBe('/run/c');
  });

  it('rejects bad values and unknown keys with a readable message', async () => {
    expect(() => parseConfig({ port: 70000 })).toThrowError(ConfigError);
    expect(() => parseConfig({ prot: 1 })).toThrowError(/invalid configuration/);
    expect(() => parseConfig({ auth: 'ident' })).toThrowError(/auth/);
    expect(() => parseConfig({ users: [{ name: 'a', verifier: 'md5ABC' }] })).toThrowError(/verifier/);
    await expect(loadConfig({ config: '/nonexistent/x.yml' }, {})).rejects.toThrowError(/could not read config file/);
    await expect(loadConfig({ config: yamlFile('- 1\n- 2\n') }, {})).rejects.toThrowError(/mapping/);
  });

  it("auth: md5, and users' MD5 secrets as pg_authid keeps them (md5 + 32 hex digits)", () => {
    const c = parseConfig({ auth: 'md5', users: [{ name: 'alice', verifier: 'md5ee69efad287c7423caf0b3229d71f567' }, { name: 'bob', verifier: 'SCRAM-SHA-256$4096:c2FsdA==$a2V5:a2V5' }] });
    expect(c.auth).toBe('md5');
    expect(c.users.map((u) => u.verifier?.slice(0, 5))).toEqual(['md5ee', 'SCRAM']);
  });
});
