/**
 * Iceberg format v3 over the wire: CREATE TABLE … WITH (format_version = 3), row lineage on append
 * (snapshot first-row-id / added-rows, manifest first_row_id, table next-row-id), DELETE / UPDATE writing
 * deletion vectors (one Puffin file per statement, one DV per data file, merged with the previous DV, which
 * the same snapshot removes), the Java summary keys, time travel to every snapshot, `$files`, and 40001
 * when a concurrent statement replaced the DV first.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { FileIO } from '../../src/storage/index.ts';
import { icebergIOFromFileIO } from '../../src/iceberg/io.ts';
import { readManifestList } from '../../src/iceberg/spec/manifest-list.ts';
import { deserializeDeletionVector } from '../../src/iceberg/puffin/deletion-vector.ts';
import { parsePuffinFooter } from '../../src/iceberg/puffin/puffin-file.ts';
import { acquireSharedScanPool, sharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';

const passthrough = { getTypeParser: () => (v: string) => v };
const rowsOf = async (c: pg.Client, sql: string): Promise<string[][]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

async function lastSummary(c: pg.Client, table: string): Promise<[string, string, Record<string, string>]> {
  const r = await c.query({ text: `SELECT snapshot_id, operation, summary FROM ${table} ORDER BY committed_at DESC, snapshot_id LIMIT 1` });
  return [String(r.rows[0].snapshot_id), r.rows[0].operation as string, JSON.parse(r.rows[0].summary as string) as Record<string, string>];
}

describe('Iceberg format v3: deletion vectors and row lineage', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-v3-'));
  const io = icebergIOFromFileIO(new FileIO());
  let server: LakegateServer;
  let c: pg.Client;
  let c2: pg.Client;
  const snaps: { id: string; rows: string[][] }[] = [];

  /** the table's current metadata JSON (highest version file) */
  const metadata = (table: string): Record<string, unknown> => {
    const dir = join(warehouse, 'lake', table, 'metadata');
    const last = readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!;
    return JSON.parse(readFileSync(join(dir, last), 'utf8')) as Record<string, unknown>;
  };
  const record = async (): Promise<void> => {
    const [id] = await lastSummary(c, 'lake."t$snapshots"');
    snaps.push({ id, rows: await rowsOf(c, 'SELECT id, name FROM lake.t ORDER BY id') });
  };
  const dvFiles = (): Promise<string[][]> =>
    rowsOf(c, `SELECT file_format, record_count, referenced_data_file, file_path FROM lake."t$files" WHERE content = 1 ORDER BY referenced_data_file`);
  const dataFiles = (): Promise<string[][]> => rowsOf(c, `SELECT file_path FROM lake."t$files" WHERE content = 0 ORDER BY lower_bounds::text`);

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    c = new pg.Client({ connectionString: server.url, types: passthrough as never });
    c2 = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await c.connect();
    await c2.connect();
    await c.query('CREATE SCHEMA lake');
  });
  afterAll(async () => {
    await c?.end();
    await c2?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('CREATE TABLE … WITH (format_version = 3) and appends assign row lineage', async () => {
    await c.query('CREATE TABLE lake.t (id int8 NOT NULL, name text) WITH (format_version = 3)');
    expect(metadata('t')).toMatchObject({ 'format-version': 3, 'next-row-id': 0 });
    await c.query(`INSERT INTO lake.t SELECT g, 'n' || g FROM generate_series(1, 10) g`);
    await record();
    await c.query(`INSERT INTO lake.t SELECT g, 'n' || g FROM generate_series(11, 20) g`);
    await record();
    const md = metadata('t');
    expect(md['next-row-id']).toBe(20);
    const list = md['snapshots'] as Record<string, unknown>[];
    expect(list.map((s) => [s['first-row-id'], s['added-rows']])).toEqual([[0, 10], [10, 10]]);
    const manifests = await readManifestList(io, list[1]!['manifest-list'] as string);
    expect(manifests.map((m) => m.firstRowId).sort()).toEqual([0n, 10n]);
    // § First Row ID Inheritance: the data files' null first_row_id reads as their manifest's
    expect(await rowsOf(c, `SELECT first_row_id, record_count FROM lake."t$files" ORDER BY 1`)).toEqual([['0', '10'], ['10', '10']]);
    await expect(c.query('CREATE TABLE lake.bad (id int) WITH (format_version = 7)')).rejects.toMatchObject({ code: '22023' });
    await expect(c.query('CREATE TABLE lake.v1 (id int) WITH (format_version = 1)')).rejects.toMatchObject({ code: '0A000' });
  });

  it('DELETE writes one deletion vector per data file into one Puffin file', async () => {
    const r = await c.query('DELETE FROM lake.t WHERE id IN (2, 3, 15)');
    expect([r.command, r.rowCount]).toEqual(['DELETE', 3]);
    await record();
    expect(await rowsOf(c, 'SELECT count(*), sum(id) FROM lake.t')).toEqual([['17', String(210 - 20)]]);
    const [, op, s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(op).toBe('delete');
    expect(s).toMatchObject({
      'added-dvs': '2', 'added-delete-files': '2', 'added-position-deletes': '3',
      'total-delete-files': '2', 'total-position-deletes': '3', 'total-records': '20', 'total-data-files': '2',
    });
    expect(s['added-position-delete-files']).toBeUndefined();
    const [a, b] = (await dataFiles()).map((x) => x[0]!) as [string, string];
    const dvs = await dvFiles();
    expect(dvs.map((d) => d.slice(0, 3))).toEqual([['PUFFIN', '2', a], ['PUFFIN', '1', b]].sort((x, y) => x[2]!.localeCompare(y[2]!)));
    expect(new Set(dvs.map((d) => d[3])).size).toBe(1);
    expect(dvs[0]![3]).toMatch(/\/data\/[^/]+-deletes\.puffin$/);
    expect(await rowsOf(c, `SELECT content_offset, first_row_id FROM lake."t$files" WHERE content = 1 ORDER BY 1`)).toEqual([['4', 'NULL'], [expect.any(String), 'NULL']]);
    // the blobs, by the footer's offsets
    const puffin = await io.read(dvs[0]![3]!);
    const footer = parsePuffinFooter(puffin);
    expect(footer.blobs.map((x) => [x.type, x.fields, x.snapshotId, x.sequenceNumber, x.properties['cardinality']])).toEqual([
      ['deletion-vector-v1', [2147483545], -1n, -1n, expect.any(String)], ['deletion-vector-v1', [2147483545], -1n, -1n, expect.any(String)],
    ]);
    const byFile = new Map(footer.blobs.map((x) => [x.properties['referenced-data-file'], deserializeDeletionVector(puffin.subarray(x.offset, x.offset + x.length))]));
    expect(byFile.get(a)).toEqual([1, 2]);
    expect(byFile.get(b)).toEqual([4]);
  });

  it('a second DELETE on the same files merges into new DVs and removes the old ones', async () => {
    expect((await c.query('DELETE FROM lake.t WHERE id IN (4, 16)')).rowCount).toBe(2);
    await record();
    const [, , s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(s).toMatchObject({
      'added-dvs': '2', 'removed-dvs': '2', 'added-delete-files': '2', 'removed-delete-files': '2',
      'added-position-deletes': '5', 'removed-position-deletes': '3', 'total-delete-files': '2', 'total-position-deletes': '5',
    });
    const dvs = await dvFiles();
    expect(dvs.map((d) => d[1]).sort()).toEqual(['2', '3']);
    expect(new Set(dvs.map((d) => d[2])).size).toBe(2); // one DV per data file
    expect(await rowsOf(c, 'SELECT id FROM lake.t WHERE id < 6 OR id BETWEEN 14 AND 17 ORDER BY id')).toEqual([['1'], ['5'], ['14'], ['17']]);
    const m = await rowsOf(c, `SELECT content, existing_data_files_count, deleted_data_files_count FROM lake."t$manifests" WHERE content = 1 ORDER BY 2, 3`);
    expect(m).toContainEqual(['1', '0', '2']);
  });

  it('UPDATE = DV + new rows in one overwrite snapshot; new data files get row ids', async () => {
    const before = metadata('t')['next-row-id'];
    const r = await c.query({ text: `UPDATE lake.t SET name = upper(name) WHERE id IN (5, 17) RETURNING id, name`, rowMode: 'array' });
    expect((r.rows as string[][]).map((x) => x.join(':')).sort()).toEqual(['17:N17', '5:N5']);
    await record();
    const [, op, s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(op).toBe('overwrite');
    expect(s).toMatchObject({ 'added-data-files': '1', 'added-records': '2', 'added-dvs': '2', 'removed-dvs': '2', 'total-position-deletes': '7', 'total-records': '22' });
    const md = metadata('t');
    const last = (md['snapshots'] as Record<string, unknown>[]).at(-1)!;
    expect(last['first-row-id']).toBe(before);
    expect(Number(md['next-row-id'])).toBeGreaterThanOrEqual(Number(before) + 2);
    expect(await rowsOf(c, `SELECT id, name FROM lake.t WHERE name LIKE 'N%' ORDER BY id`)).toEqual([['5', 'N5'], ['17', 'N17']]);
    expect((await dvFiles()).length).toBe(2);
  });

  it('DELETE of the rest of a file drops it together with its DV', async () => {
    // the second file's 7 live rows (file dropped, its DV removed) and UPDATE's 17 (a DV on the new file)
    expect((await c.query('DELETE FROM lake.t WHERE id BETWEEN 11 AND 20')).rowCount).toBe(8);
    await record();
    const [, , s] = await lastSummary(c, 'lake."t$snapshots"');
    expect(s).toMatchObject({ 'deleted-data-files': '1', 'deleted-records': '10', 'added-dvs': '1', 'removed-dvs': '1', 'total-delete-files': '2', 'total-data-files': '2' });
    expect((await dvFiles()).map((d) => d[1])).toEqual(expect.arrayContaining(['1', '4']));
    expect(await rowsOf(c, 'SELECT id FROM lake.t ORDER BY id')).toEqual([['1'], ['5'], ['6'], ['7'], ['8'], ['9'], ['10']]);
    // the kept files keep their row ids: the first file's 0, UPDATE's file the table's next-row-id of then (20)
    expect(await rowsOf(c, `SELECT first_row_id FROM lake."t$files" WHERE content = 0 ORDER BY 1`)).toEqual([['0'], ['20']]);
  });

  it('time travel to every snapshot gives that snapshot\'s rows', async () => {
    for (const s of snaps) expect(await rowsOf(c, `SELECT id, name FROM lake.t FOR SYSTEM_VERSION AS OF ${s.id} ORDER BY id`)).toEqual(s.rows);
  });

  it('a concurrent DELETE that replaced the DV first: COMMIT fails with 40001, as on v2', async () => {
    await c.query('BEGIN');
    expect((await c.query('DELETE FROM lake.t WHERE id = 6')).rowCount).toBe(1);
    expect((await c2.query('DELETE FROM lake.t WHERE id = 7')).rowCount).toBe(1);
    await expect(c.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(await rowsOf(c, 'SELECT id FROM lake.t ORDER BY id')).toEqual([['1'], ['5'], ['6'], ['8'], ['9'], ['10']]);
    expect((await dvFiles()).length).toBe(2);
    expect(new Set((await dvFiles()).map((d) => d[2])).size).toBe(2);
  });

  it('two DELETEs on one file inside BEGIN … COMMIT: the second replaces the staged DV', async () => {
    await c.query('BEGIN');
    expect((await c.query('DELETE FROM lake.t WHERE id = 8')).rowCount).toBe(1);
    expect((await c.query('DELETE FROM lake.t WHERE id = 9')).rowCount).toBe(1);
    expect(await rowsOf(c2, 'SELECT count(*) FROM lake.t')).toEqual([['6']]);
    await c.query('COMMIT');
    expect(await rowsOf(c2, 'SELECT id FROM lake.t ORDER BY id')).toEqual([['1'], ['5'], ['6'], ['10']]);
    const dvs = await dvFiles();
    expect([dvs.length, new Set(dvs.map((d) => d[2])).size]).toEqual([2, 2]);
    await record();
  });

  it('the worker pool applies DVs the same way (delete-loader in the workers)', async () => {
    const main = await rowsOf(c, 'SELECT id, name FROM lake.t ORDER BY id');
    const release = acquireSharedScanPool({ size: 2, minRows: 0 });
    try {
      expect(await rowsOf(c, 'SELECT id, name FROM lake.t ORDER BY id')).toEqual(main);
      expect(sharedScanPool()!.started).toBe(true);
      for (const s of snaps) expect(await rowsOf(c, `SELECT id, name FROM lake.t FOR SYSTEM_VERSION AS OF ${s.id} ORDER BY id`)).toEqual(s.rows);
    } finally {
      await release();
    }
  });

  it('a corrupt deletion vector is XX001 naming the Puffin file', async () => {
    const [dv] = await dvFiles();
    const path = dv![3]!;
    const local = path.replace(/^file:\/\//, '');
    const bytes = readFileSync(local);
    const footer = parsePuffinFooter(new Uint8Array(bytes));
    const blob = footer.blobs.find((b) => b.properties['referenced-data-file'] === dv![2])!;
    bytes[blob.offset + 12] = bytes[blob.offset + 12]! ^ 0xff; // inside the bitmap: CRC mismatch
    writeFileSync(local, bytes);
    const err = await c.query('SELECT count(*) FROM lake.t').catch((e: unknown) => e as { code: string; message: string });
    expect(err).toMatchObject({ code: 'XX001' });
    expect((err as { message: string }).message).toContain(path);
  });
});
