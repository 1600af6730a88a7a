/**
 * TRUNCATE of Iceberg tables over the wire: one metadata-only `delete` snapshot that drops every data and
 * delete file (the files stay on disk for time travel), totals zero in the summary, `$files` empty, older
 * snapshots still readable; a second session does not see a TRUNCATE staged in an open transaction block.
 */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { useLakeSession } from '../helpers/lake-session.ts';

describe('TRUNCATE on Iceberg tables', () => {
  const lake = useLakeSession();
  let c: pg.Client;

  beforeAll(() => {
    c = lake.client;
  });

  it('drops every data and delete file in one delete snapshot, metadata only', async () => {
    await c.query(`CREATE TABLE lake.t (id int8 NOT NULL, day date) WITH (partitioning = ARRAY['day'])`);
    await c.query(`INSERT INTO lake.t SELECT g, DATE '2024-01-01' + (g % 3)::int FROM generate_series(1, 30) g`);
    await c.query(`INSERT INTO lake.t SELECT g, DATE '2024-01-01' FROM generate_series(31, 40) g`);
    await c.query('DELETE FROM lake.t WHERE id IN (1, 2, 31)'); // position delete files
    const files = await rowsOf(c, `SELECT file_path, content FROM lake."t$files" ORDER BY file_path`);
    expect(files.some((f) => f[1] === '1')).toBe(true);
    const [[before]] = (await rowsOf(c, `SELECT snapshot_id FROM lake."t$snapshots" ORDER BY committed_at DESC LIMIT 1`)) as [[string]];

    const r = await c.query('TRUNCATE lake.t');
    expect(r.command).toBe('TRUNCATE');
    expect(await rowsOf(c, 'SELECT count(*) FROM lake.t')).toEqual([['0']]);
    expect(await rowsOf(c, `SELECT count(*) FROM lake."t$files"`)).toEqual([['0']]);
    const s = await c.query(`SELECT operation, summary FROM lake."t$snapshots" ORDER BY committed_at DESC, snapshot_id LIMIT 1`);
    expect(s.rows[0].operation).toBe('delete');
    const summary = JSON.parse(s.rows[0].summary as string) as Record<string, string>;
    expect(summary['total-records']).toBe('0');
    expect(summary['total-data-files']).toBe('0');
    expect(summary['total-delete-files']).toBe('0');
    expect(summary['deleted-records']).toBe('40');
    expect(summary['changed-partition-count']).toBe('3');
    // no file was rewritten or removed from disk: time travel still reads the old rows
    for (const [path] of files) expect(existsSync(String(path).replace(/^file:\/\//, ''))).toBe(true);
    expect(await rowsOf(c, `SELECT count(*), sum(id) FROM lake.t FOR SYSTEM_VERSION AS OF ${before}`)).toEqual([['37', String(820 - 1 - 2 - 31)]]);
    // the table takes rows again
    await c.query('INSERT INTO lake.t VALUES (100, DATE \'2024-02-01\')');
    expect(await rowsOf(c, 'SELECT id FROM lake.t')).toEqual([['100']]);
  });

  it('an empty table: TRUNCATE writes no snapshot', async () => {
    await c.query('CREATE TABLE lake.e (id int)');
    const count = async (): Promise<string> => String((await rowsOf(c, `SELECT count(*) FROM lake."e$snapshots"`))[0]![0]);
    const n = await count();
    await c.query('TRUNCATE lake.e');
    expect(await count()).toBe(n);
  });

  it('staged inside a transaction block: other sessions see the rows until COMMIT', async () => {
    await c.query('CREATE TABLE lake.s (id int)');
    await c.query('INSERT INTO lake.s VALUES (1), (2), (3)');
    const other = await connectText(lake.server.url);
    try {
      await c.query('BEGIN');
      await c.query('TRUNCATE lake.s');
      expect(await rowsOf(c, 'SELECT count(*) FROM lake.s')).toEqual([['0']]);
      expect(await rowsOf(other, 'SELECT count(*) FROM lake.s')).toEqual([['3']]);
      await c.query('COMMIT');
      expect(await rowsOf(other, 'SELECT count(*) FROM lake.s')).toEqual([['0']]);
    } finally {
      await other.end();
    }
  });
});
