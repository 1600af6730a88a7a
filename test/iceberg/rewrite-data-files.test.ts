/**
 * CALL system.rewrite_data_files over the wire: a partitioned table written by many small INSERTs gets one file per
 * partition in one `replace` snapshot (rows, answers, record counts and id bounds unchanged; the previous snapshot
 * still reads the old files); files with delete files are skipped, not rewritten; a second CALL finds nothing to
 * do; an unpartitioned table too; errors for unknown tables, bad names and v3 tables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

describe('CALL system.rewrite_data_files', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-rewrite-'));
  let server: LakegateServer;
  let client: pg.Client;
  const rows = async (sql: string): Promise<string[][]> =>
    ((await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  const digest = (t: string): Promise<string[][]> => rows(
    `SELECT date_trunc('month', d)::date, count(*), sum(id), sum(amount), min(s), max(s), count(DISTINCT s) FROM lake.${t} GROUP BY 1 ORDER BY 1 NULLS FIRST`);
  const filesPerPartition = (t: string): Promise<string[][]> =>
    rows(`SELECT partition->>'d_month', count(*), sum(record_count) FROM lake."${t}$files" GROUP BY 1 ORDER BY 1 NULLS FIRST`);
  const snapshots = (t: string): Promise<string[][]> => rows(`SELECT snapshot_id, operation FROM lake."${t}$snapshots" ORDER BY committed_at, snapshot_id`);

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    const cols = 'id int8 NOT NULL, d date, amount numeric(12,2), s text';
    await client.query(`CREATE TABLE lake.t (${cols}) WITH (partitioning = ARRAY['month(d)'])`);
    await client.query(`CREATE TABLE lake.flat (${cols})`);
    // six statements, each spanning every month: six small files per partition
    for (let k = 0; k < 6; k++) {
      for (const t of ['t', 'flat']) {
        await client.query(`INSERT INTO lake.${t} SELECT g, date '2023-11-01' + (g * 13) % 150, (g % 1000) / 4.0, 's' || g % ${5 + k}
          FROM generate_series(${k * 1000 + 1}, ${k * 1000 + 1000}) g`);
      }
    }
    await client.query(`INSERT INTO lake.t VALUES (7001, NULL, NULL, NULL), (7002, NULL, 1.5, 'n')`);
    await client.query(`INSERT INTO lake.flat VALUES (7001, NULL, NULL, NULL), (7002, NULL, 1.5, 'n')`);
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('one file per partition in one replace snapshot; answers, counts and bounds unchanged; time travel reads the old files', async () => {
    const before = await digest('t');
    expect(before).toEqual(await digest('flat'));
    const filesBefore = await filesPerPartition('t');
    expect(filesBefore.filter((f) => f[1] === '6').length).toBe(5);
    const snapsBefore = await snapshots('t');
    await client.query(`CALL system.rewrite_data_files("table" => 'lake.t')`);
    const snapsAfter = await snapshots('t');
    expect(snapsAfter.length).toBe(snapsBefore.length + 1);
    expect(snapsAfter.at(-1)![1]).toBe('replace');
    const after = await filesPerPartition('t');
    // every partition with two or more small files is now one file; record counts per partition unchanged
    expect(after.map((f) => [f[0], f[2]])).toEqual(filesBefore.map((f) => [f[0], f[2]]));
    expect(after.every((f) => f[1] === '1')).toBe(true);
    expect(await digest('t')).toEqual(before);
    const summary = await rows(`SELECT summary->>'added-data-files', summary->>'deleted-data-files', summary->>'added-records', summary->>'deleted-records', summary->>'total-records'
      FROM lake."t$snapshots" WHERE operation = 'replace'`);
    // the NULL partition holds one file (one INSERT): nothing to compact there
    expect(filesBefore[0]).toEqual(['NULL', '1', '2']);
    expect(summary).toEqual([['5', '30', '6000', '6000', '6002']]);
    // id bounds of each new file = min/max of its partition's rows
    expect(await rows(`SELECT (partition->>'d_month')::int, lower_bounds->>'1', upper_bounds->>'1' FROM lake."t$files" ORDER BY 1 NULLS FIRST`)).toEqual(
      await rows(`SELECT ((extract(year from d) - 1970) * 12 + extract(month from d) - 1)::int, min(id), max(id) FROM lake.flat GROUP BY 1 ORDER BY 1 NULLS FIRST`));
    // the snapshot before the CALL still reads its own (old) files
    const previous = snapsBefore.at(-1)![0]!;
    expect(await rows(`SELECT count(*), sum(id) FROM lake.t FOR SYSTEM_VERSION AS OF ${previous}`)).toEqual(await rows('SELECT count(*), sum(id) FROM lake.t'));
  });

  it('a second CALL finds nothing to rewrite (no new snapshot)', async () => {
    const n = (await snapshots('t')).length;
    await client.query(`CALL system.rewrite_data_files('lake.t')`);
    expect((await snapshots('t')).length).toBe(n);
  });

  it('files with delete files are skipped; the others of the partition are compacted', async () => {
    for (let k = 0; k < 3; k++) {
      await client.query(`INSERT INTO lake.t SELECT g, date '2023-12-01' + g % 20, 1, 'x' FROM generate_series(${8000 + k * 100}, ${8000 + k * 100 + 99}) g`);
      await client.query(`INSERT INTO lake.flat SELECT g, date '2023-12-01' + g % 20, 1, 'x' FROM generate_series(${8000 + k * 100}, ${8000 + k * 100 + 99}) g`);
    }
    // position deletes on the December files (the compacted one and the three new ones)
    await client.query(`DELETE FROM lake.t WHERE id % 10 = 3 AND d >= date '2023-12-01' AND d < date '2024-01-01'`);
    await client.query(`DELETE FROM lake.flat WHERE id % 10 = 3 AND d >= date '2023-12-01' AND d < date '2024-01-01'`);
    // and three more small files in December without deletes
    for (let k = 0; k < 3; k++) {
      await client.query(`INSERT INTO lake.t SELECT g, date '2023-12-05', 2, 'y' FROM generate_series(${9000 + k * 10}, ${9000 + k * 10 + 9}) g`);
      await client.query(`INSERT INTO lake.flat SELECT g, date '2023-12-05', 2, 'y' FROM generate_series(${9000 + k * 10}, ${9000 + k * 10 + 9}) g`);
    }
    const dec = `content = 0 AND partition->>'d_month' = '647'`;
    const before = await rows(`SELECT count(*) FROM lake."t$files" WHERE ${dec}`);
    expect(before).toEqual([['7']]);
    await client.query(`CALL system.rewrite_data_files('lake.t')`);
    // the 4 files with deletes stay, the 3 without became 1
    expect(await rows(`SELECT count(*), sum(record_count) FROM lake."t$files" WHERE ${dec} AND record_count = 30`)).toEqual([['1', '30']]);
    expect(await rows(`SELECT count(*) FROM lake."t$files" WHERE ${dec}`)).toEqual([['5']]);
    expect(await digest('t')).toEqual(await digest('flat'));
  });

  it('an unpartitioned table becomes one file', async () => {
    expect(Number((await rows(`SELECT count(*) FROM lake."flat$files" WHERE content = 0`))[0]![0])).toBeGreaterThan(5);
    const before = await rows('SELECT count(*), sum(id), sum(amount) FROM lake.flat');
    await client.query(`CREATE TABLE lake.flat2 AS SELECT * FROM lake.flat WHERE false`);
    for (let k = 0; k < 4; k++) await client.query(`INSERT INTO lake.flat2 SELECT * FROM lake.flat WHERE id % 4 = ${k}`);
    expect(await rows(`SELECT count(*) FROM lake."flat2$files"`)).toEqual([['4']]);
    await client.query(`CALL system.rewrite_data_files('lake.flat2')`);
    expect(await rows(`SELECT count(*) FROM lake."flat2$files"`)).toEqual([['1']]);
    expect(await rows('SELECT count(*), sum(id), sum(amount) FROM lake.flat2')).toEqual(before);
  });

  it('errors: unknown table, not schema.table, v3 table', async () => {
    await expect(client.query(`CALL system.rewrite_data_files('lake.nope')`)).rejects.toMatchObject({ code: '42P01' });
    await expect(client.query(`CALL system.rewrite_data_files('t')`)).rejects.toMatchObject({ code: '22023' });
    await expect(client.query(`CALL system.rewrite_data_files('lake.t', min_input_files => 'x')`)).rejects.toMatchObject({ code: '22023' });
    await client.query(`CREATE TABLE lake.v3 (id int) WITH (format_version = 3)`);
    await client.query(`INSERT INTO lake.v3 VALUES (1)`);
    await client.query(`INSERT INTO lake.v3 VALUES (2)`);
    await expect(client.query(`CALL system.rewrite_data_files('lake.v3')`)).rejects.toMatchObject({ code: '0A000' });
  });
});
