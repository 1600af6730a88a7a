/**
 * Iceberg table properties from SQL: `WITH ("write.target-file-size-bytes" = …, "owner.team" = …)` on CREATE
 * TABLE (and CREATE TABLE AS), `ALTER TABLE … SET (…)` / `RESET (…)` in one commit, `"t$properties"` lists them,
 * the writer rolls data files at the table's target size, and reserved or managed keys are refused.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

describe('Iceberg table properties', () => {
  let server: LakegateServer;
  let c: pg.Client;
  const props = async (t: string): Promise<string[][]> => rowsOf(c, `SELECT key, value FROM lake."${t}$properties" WHERE key LIKE 'owner.%' OR key = 'write.target-file-size-bytes' ORDER BY key`);
  const files = async (t: string): Promise<number> => Number((await rowsOf(c, `SELECT count(*) FROM lake."${t}$files"`))[0]![0]);

  beforeAll(async () => {
    server = await startLakegate();
    c = await connectText(server.url);
    await c.query('CREATE SCHEMA lake');
  });
  afterAll(async () => {
    await c?.end();
    await server?.close();
  });

  it('CREATE TABLE WITH sets properties; the writer rolls files at write.target-file-size-bytes', async () => {
    await c.query(`CREATE TABLE lake.small (id int8, s text) WITH ("write.target-file-size-bytes" = 200000, "owner.team" = 'growth')`);
    await c.query(`CREATE TABLE lake.big (id int8, s text)`);
    expect(await props('small')).toEqual([['owner.team', 'growth'], ['write.target-file-size-bytes', '200000']]);
    const fill = `SELECT g, repeat('x', 20) || g FROM generate_series(1, 100000) g`;
    await c.query(`INSERT INTO lake.small ${fill}`);
    await c.query(`INSERT INTO lake.big ${fill}`);
    expect(await files('big')).toBe(1);
    expect(await files('small')).toBeGreaterThan(5);
    expect(await rowsOf(c, 'SELECT count(*), sum(id) FROM lake.small')).toEqual([['100000', '5000050000']]);
  });

  it('ALTER TABLE SET / RESET change properties in one commit; the next write follows them', async () => {
    const before = Number((await rowsOf(c, `SELECT count(*) FROM lake."small$metadata_log_entries"`))[0]![0]);
    await c.query(`ALTER TABLE lake.small SET ("write.target-file-size-bytes" = '1000000000', "owner.oncall" = 'ana')`);
    expect(Number((await rowsOf(c, `SELECT count(*) FROM lake."small$metadata_log_entries"`))[0]![0])).toBe(before + 1);
    expect(await props('small')).toEqual([['owner.oncall', 'ana'], ['owner.team', 'growth'], ['write.target-file-size-bytes', '1000000000']]);
    const n = await files('small');
    await c.query(`INSERT INTO lake.small SELECT g, repeat('y', 20) FROM generate_series(1, 100000) g`);
    expect(await files('small')).toBe(n + 1);
    await c.query(`ALTER TABLE lake.small RESET ("owner.oncall", "write.target-file-size-bytes")`);
    expect(await props('small')).toEqual([['owner.team', 'growth']]);
  });

  it('CREATE TABLE AS takes properties too', async () => {
    await c.query(`CREATE TABLE lake.copy WITH ("owner.team" = 'ops') AS SELECT * FROM lake.big LIMIT 10`);
    expect(await props('copy')).toEqual([['owner.team', 'ops']]);
  });

  it('refuses reserved and managed keys and bad target sizes with 22023', async () => {
    for (const sql of [
      `CREATE TABLE lake.bad (id int) WITH ("format-version" = '1')`,
      `CREATE TABLE lake.bad (id int) WITH ("lakegate.indexes" = '[]')`,
      `CREATE TABLE lake.bad (id int) WITH ("write.target-file-size-bytes" = 'big')`,
      `ALTER TABLE lake.big SET ("write.target-file-size-bytes" = '0')`,
      `ALTER TABLE lake.big SET ("current-snapshot-id" = '1')`,
    ]) {
      await expect(c.query(sql), sql).rejects.toMatchObject({ code: '22023' });
    }
    expect(await rowsOf(c, `SELECT count(*) FROM pg_tables WHERE tablename = 'bad'`)).toEqual([['0']]);
  });
});
