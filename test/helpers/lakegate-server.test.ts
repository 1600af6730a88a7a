/** The in-process lakegate used by .slt runs, compat clients and benchmarks starts, answers and closes. */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { expect, it } from 'vitest';
import { startLakegate } from './lakegate-server.ts';

it('starts lakegate on 127.0.0.1:0 with a temp warehouse, answers SELECT 1, closes', async () => {
  const server = await startLakegate();
  expect(server.port).toBeGreaterThan(0);
  expect(existsSync(server.warehouse)).toBe(true);
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  } finally {
    await client.end();
    await server.close();
  }
  expect(existsSync(server.warehouse)).toBe(false);
});
