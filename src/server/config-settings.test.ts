/**
 * Config `settings:` are server-wide defaults of session settings (as postgresql.conf): every session starts from
 * them, a client's startup parameters and SET win, RESET returns to them, and a bad one stops the server at start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startServer } from './main.ts';

describe('config settings', () => {
  it('seed every session; startup options and SET win; RESET goes back to the configured value', async () => {
    const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-settings-'));
    const server = await startServer({
      port: 0, warehouse, auth: 'trust', sample_data: false, workers: 0,
      settings: { work_mem: '8MB', TimeZone: 'Europe/Paris', 'lakegate.query_memory_limit': '512MB', statement_timeout: 30000 },
    });
    const show = async (c: pg.Client, name: string): Promise<string> => String((await c.query({ text: `SHOW ${name}`, rowMode: 'array' })).rows[0]![0]);
    const a = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'lakegate', database: 'lakegate' });
    const b = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'lakegate', database: 'lakegate', options: '-c work_mem=16MB' });
    try {
      await a.connect();
      await b.connect();
      expect([await show(a, 'work_mem'), await show(a, 'timezone'), await show(a, '"lakegate.query_memory_limit"'), await show(a, 'statement_timeout')])
        .toEqual(['8MB', 'Europe/Paris', '512MB', '30s']);
      expect(await show(b, 'work_mem')).toBe('16MB');
      await a.query(`SET work_mem = '1MB'`);
      expect(await show(a, 'work_mem')).toBe('1MB');
      await a.query('RESET work_mem');
      expect(await show(a, 'work_mem')).toBe('8MB');
    } finally {
      await a.end();
      await b.end();
      await server.close();
      rmSync(warehouse, { recursive: true, force: true });
    }
  });

  it('a bad value stops the server at start with the setting named', async () => {
    await expect(startServer({ port: 0, auth: 'trust', sample_data: false, workers: 0, settings: { work_mem: 'lots' } }))
      .rejects.toThrow(/settings\.work_mem: invalid value for parameter "work_mem"/);
    await expect(startServer({ port: 0, auth: 'trust', sample_data: false, workers: 0, settings: { no_such_setting: '1' } }))
      .rejects.toThrow(/settings\.no_such_setting: unrecognized configuration parameter/);
  });
});
