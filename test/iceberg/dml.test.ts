/**
 * DELETE and UPDATE on Iceberg tables over the wire (merge-on-read): position delete files for partial
 * files, whole data files dropped when every row goes, UPDATE = position deletes + new rows in one
 * `overwrite` snapshot; what our reader, time travel and the `$snapshots` / `$files` tables show, and the
 * delete files' own content (file_path, pos).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { useLakeSession } from '../helpers/lake-session.ts';
import { FileIO } from '../../src/storage/index.ts';
import { icebergIOFromFileIO } from '../../src/iceberg/io.ts';
import { readParquetColumns } from '../../src/iceberg/read/parquet-reader.ts';

async function lastSummary(c: pg.Client, table: string): Promise<[string, Record<string, string>]> {
  const r = await c.query({ text: `SELECT operation, summary FROM ${table} ORDER BY committed_at DESC, snapshot_id LIMIT 1` });
  return [r.rows[0].operation as string, JSON.parse(r.rows[0].summary as string) as Record<string, string>];
}

/** (file_path, pos) rows of a position delete file */
async function positionDeletes(path: string, size: number): Promise<[string, bigint][]> {
  const io = icebergIOFromFileIO(new FileIO());
  const out: [string, bigint][] = [];
  const cols = [
    { fieldId: 2147483546, type: { kind: 'primitive', name: 'string' } as const, missingValue: null },
    { fieldId: 2147483545, type: { kind: 'primitive', name: 'long' } as const, missingValue: null },
  ];
  for await (const chunk of readParquetColumns({ io, size }, path, cols)) {
    for (let i = 0; i < chunk.length; i++) out.push([chunk.columns[0]![i] as string, chunk.columns[1]![i] as bigint]);
  }
  return out;
}

describe('DELETE / UPDATE on Iceberg tables', () => {
  const lake = useLakeSession();
  let c: pg.Client;

  beforeAll(() => {
    c = lake.client;
  });

  it('DELETE of some rows writes one position delete file (operation delete)', async () => {
    await c.query('CREATE TABLE lake.t (id int8 NOT NULL, name text)');
    await c.query(`INSERT INTO lake.t SELECT g, 'n' || g FROM generate_series(1, 10) g`);
    await c.query(`INSERT INTO lake.t SELECT g, 'n' || g FROM generate_series(11, 20) g`);
    const [[before]] = (await rowsOf(c, `SELECT snapshot_id FROM lake."t$snapshots" ORDER BY committed_at DESC LIMIT 1`)) as [[string]];
    const r = await c.query('DELETE FROM lake.t WHERE id IN (2, 3, 15)');
    expect([r.command, r.rowCount]).toEqual(['DELETE', 3]);
    expect(await rowsOf(c, 'SELECT count(*), sum(id) FROM lake.t')).toEqual([['17', String(210 - 20)]]);
    expect(await rowsOf(c, 'SELECT id FROM lake.t WHERE id < 5 ORDER BY id')).toEqual([['1'], ['4']]);
    expect(await rowsOf(c, `SELECT count(*) FROM lake.t FOR SYSTEM_VERSION AS OF ${before}`)).toEqual([['20']]);
    const [op, s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(op).toBe('delete');
    expect(s).toMatchObject({
      'added-delete-files': '1', 'added-position-delete-files': '1', 'added-position-deletes': '3', 'changed-partition-count': '1',
      'total-records': '20', 'total-data-files': '2', 'total-delete-files': '1', 'total-position-deletes': '3', 'total-equality-deletes': '0',
    });
    expect(s['deleted-data-files']).toBeUndefined();
    // one delete file per partition: both data files are in the one (unpartitioned) partition
    const files = await rowsOf(c, `SELECT content, record_count, referenced_data_file IS NULL, file_path, file_size_in_bytes FROM lake."t$files" ORDER BY content, record_count`);
    expect(files.map((f) => f.slice(0, 3))).toEqual([['0', '10', 't'], ['0', '10', 't'], ['1', '3', 't']]);
    const data = await rowsOf(c, `SELECT file_path FROM lake."t$files" WHERE content = 0 ORDER BY lower_bounds::text`);
    const del = files[2]!;
    expect(await positionDeletes(del[3]!, Number(del[4]))).toEqual([...[[data[0]![0]!, 1n], [data[0]![0]!, 2n], [data[1]![0]!, 4n]]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
  });

  it('DELETE covering a whole file drops it (no delete file); total-records follows Java (data file rows)', async () => {
    const r = await c.query('DELETE FROM lake.t WHERE id > 10');
    expect(r.rowCount).toBe(9);
    const [op, s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(op).toBe('delete');
    expect(s).toMatchObject({ 'deleted-data-files': '1', 'deleted-records': '10', 'total-records': '10', 'total-data-files': '1', 'total-delete-files': '1' });
    expect(s['added-delete-files']).toBeUndefined();
    expect(Number(s['removed-files-size'])).toBeGreaterThan(0);
    expect(await rowsOf(c, 'SELECT count(*) FROM lake.t')).toEqual([['8']]);
    expect(await rowsOf(c, `SELECT content, count(*) FROM lake."t$files" GROUP BY content ORDER BY content`)).toEqual([['0', '1'], ['1', '1']]);
    // the rewritten data manifest: one DELETED entry of this snapshot, one EXISTING
    const entries = await rowsOf(c, `SELECT existing_data_files_count, deleted_data_files_count FROM lake."t$manifests" WHERE content = 0 ORDER BY 1`);
    expect(entries).toContainEqual(['0', '1']);
  });

  it('UPDATE = position deletes + new rows in one overwrite snapshot, with RETURNING', async () => {
    const snaps = Number((await rowsOf(c, `SELECT count(*) FROM lake."t$snapshots"`))[0]![0]);
    const r = await c.query({ text: `UPDATE lake.t SET name = upper(name) WHERE id IN (4, 5) RETURNING id, name`, rowMode: 'array' });
    expect([r.command, r.rowCount]).toEqual(['UPDATE', 2]);
    expect((r.rows as string[][]).map((x) => x.join(':')).sort()).toEqual(['4:N4', '5:N5']);
    expect(await rowsOf(c, `SELECT count(*) FROM lake."t$snapshots"`)).toEqual([[String(snaps + 1)]]);
    const [op, s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(op).toBe('overwrite');
    expect(s).toMatchObject({ 'added-data-files': '1', 'added-records': '2', 'added-delete-files': '1', 'added-position-deletes': '2', 'total-records': '12', 'total-position-deletes': '5' });
    expect(await rowsOf(c, 'SELECT id, name FROM lake.t ORDER BY id')).toEqual([['1', 'n1'], ['4', 'N4'], ['5', 'N5'], ['6', 'n6'], ['7', 'n7'], ['8', 'n8'], ['9', 'n9'], ['10', 'n10']]);
    // the new rows have the delete's sequence number: the position deletes do not hide them
    expect((await c.query(`UPDATE lake.t SET id = id * 100 WHERE name = 'N4'`)).rowCount).toBe(1);
    expect(await rowsOf(c, `SELECT id FROM lake.t WHERE name LIKE 'N%' ORDER BY id`)).toEqual([['5'], ['400']]);
    expect((await c.query(`UPDATE lake.t SET name = 'none' WHERE id = -1`)).rowCount).toBe(0);
    // parameters (extended protocol) and a subquery over the same table
    expect((await c.query('UPDATE lake.t SET name = $1 WHERE id = $2', ['six', 6])).rowCount).toBe(1);
    expect((await c.query(`UPDATE lake.t SET name = name || '!' WHERE id IN (SELECT id FROM lake.t WHERE name = 'six')`)).rowCount).toBe(1);
    expect(await rowsOf(c, 'SELECT name FROM lake.t WHERE id = 6')).toEqual([['six!']]);
    await expect(c.query(`UPDATE lake.t SET id = NULL WHERE id = 1`)).rejects.toMatchObject({ code: '23502' });
    expect(await rowsOf(c, 'SELECT count(*) FROM lake.t')).toEqual([['8']]);
  });

  it('DELETE without WHERE drops every data file; RETURNING on DELETE', async () => {
    const r = await c.query({ text: 'DELETE FROM lake.t WHERE id >= 9 RETURNING id', rowMode: 'array' });
    expect((r.rows as string[][]).map((x) => x[0]).sort()).toEqual(['10', '400', '9']);
    const all = await c.query('DELETE FROM lake.t');
    expect(all.rowCount).toBe(5);
    const [op, s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(op).toBe('delete');
    expect(s).toMatchObject({ 'total-data-files': '0', 'total-records': '0' });
    expect(await rowsOf(c, 'SELECT count(*) FROM lake.t')).toEqual([['0']]);
    expect(await rowsOf(c, `SELECT count(*) FROM lake."t$files" WHERE content = 0`)).toEqual([['0']]);
    expect((await c.query('DELETE FROM lake.t')).rowCount).toBe(0);
  });

  it('partitioned tables: delete files in the data file\'s partition and spec', async () => {
    await c.query(`CREATE TABLE lake.p (id int4, ts timestamp, v text) WITH (partitioning = ARRAY['day(ts)'])`);
    await c.query(`INSERT INTO lake.p SELECT g, timestamp '2024-01-01' + (g % 3) * interval '1 day', 'v' || g FROM generate_series(1, 30) g`);
    expect((await c.query(`DELETE FROM lake.p WHERE id IN (3, 6, 4)`)).rowCount).toBe(3);
    const [, s] = await lastSummary(c, 'lake."p$snapshots"');
    expect(s).toMatchObject({ 'added-delete-files': '2', 'changed-partition-count': '2', 'added-position-deletes': '3' });
    const del = await rowsOf(c, `SELECT partition::text, record_count, spec_id, file_path LIKE '%/data/ts_day=%' FROM lake."p$files" WHERE content = 1 ORDER BY 1`);
    expect(del).toEqual([['{"ts_day": "2024-01-01"}', '2', '0', 't'], ['{"ts_day": "2024-01-02"}', '1', '0', 't']]);
    expect(await rowsOf(c, `SELECT count(*) FROM lake.p WHERE id IN (3, 4, 6)`)).toEqual([['0']]);
    expect((await c.query(`UPDATE lake.p SET ts = ts + interval '1 day' WHERE id = 1`)).rowCount).toBe(1);
    expect(await rowsOf(c, `SELECT ts FROM lake.p WHERE id = 1`)).toEqual([['2024-01-03 00:00:00']]);
    expect(await rowsOf(c, `SELECT count(*), count(DISTINCT id) FROM lake.p`)).toEqual([['27', '27']]);
  });

  it('plain DROP TABLE keeps the files; CALL system.drop_table(..., purge => true) deletes them', async () => {
    const files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name) : []);
    await c.query('CREATE TABLE lake.keep (id int4)');
    await c.query('INSERT INTO lake.keep VALUES (1), (2)');
    await c.query('DELETE FROM lake.keep WHERE id = 1');
    const keepDir = join(lake.warehouse, 'lake', 'keep');
    const before = files(keepDir).length;
    expect(before).toBeGreaterThan(5);
    await c.query('DROP TABLE lake.keep');
    expect(files(keepDir).length).toBe(before);

    await c.query('CREATE TABLE lake.gone (id int4, ts timestamp) WITH (partitioning = ARRAY[\'day(ts)\'])');
    await c.query(`INSERT INTO lake.gone VALUES (1, '2024-01-01'), (2, '2024-01-02'), (3, '2024-01-02')`);
    await c.query('DELETE FROM lake.gone WHERE id = 2');
    await c.query('UPDATE lake.gone SET id = 10 WHERE id = 1');
    const goneDir = join(lake.warehouse, 'lake', 'gone');
    expect(files(goneDir).length).toBeGreaterThan(10);
    await expect(c.query(`CALL system.drop_table(schema_name => 'lake', table_name => 'nope', purge => true)`)).rejects.toMatchObject({ code: '42P01' });
    await c.query(`CALL system.drop_table(schema_name => 'lake', table_name => 'gone', purge => true)`);
    expect(files(goneDir)).toEqual([]);
    await expect(c.query('SELECT * FROM lake.gone')).rejects.toMatchObject({ code: '42P01' });
    // the name is free again
    await c.query('CREATE TABLE lake.gone (x text)');
    expect(await rowsOf(c, 'SELECT count(*) FROM lake.gone')).toEqual([['0']]);
  });

  it('a DELETE racing INSERTs of another session: the commit retries over the appends, nothing is lost', async () => {
    await c.query('CREATE TABLE lake.race (id int4)');
    await c.query('INSERT INTO lake.race SELECT g FROM generate_series(1, 100) g');
    const b = await connectText(lake.server.url);
    try {
      const inserts = (async () => { for (let i = 0; i < 6; i++) await b.query(`INSERT INTO lake.race VALUES (${1001 + 2 * i})`); })();
      const [del] = await Promise.all([c.query('DELETE FROM lake.race WHERE id % 2 = 0'), inserts]);
      expect(del.rowCount).toBe(50);
      expect(await rowsOf(c, 'SELECT count(*), count(*) FILTER (WHERE id > 1000) FROM lake.race')).toEqual([['56', '6']]);
    } finally {
      await b.end();
    }
  });
});
