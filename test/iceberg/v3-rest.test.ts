/**
 * Format v3 through an Iceberg REST catalog (another lakegate's): CREATE TABLE … WITH (format_version = 3),
 * appends and deletion-vector DML commit as TableUpdates, the REST server advances next-row-id from each
 * snapshot's first-row-id + added-rows (as Java's TableMetadata.Builder), and the owner reads the same rows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../helpers/text-client.ts';
import type { RunningServer } from '../../src/server/main.ts';
import { startRestPair, type RestPair } from '../helpers/rest-pair.ts';
import { FileIO } from '../../src/storage/index.ts';
import { icebergIOFromFileIO } from '../../src/iceberg/io.ts';
import { loadTableMetadata } from '../../src/iceberg/spec/metadata-file.ts';
import { planScan } from '../../src/iceberg/scan/table-scan.ts';

describe('format v3 through REST', () => {
  let pair: RestPair;
  let owner: RunningServer;
  let viaRest: RunningServer;
  let a: pg.Client;
  let b: pg.Client;
  let warehouse: string;

  beforeAll(async () => {
    pair = await startRestPair('lakegate-v3-rest-');
    ({ owner, viaRest, a, b, warehouse } = pair);
  });
  afterAll(() => pair?.close());

  it('appends, DELETE twice and UPDATE commit; next-row-id follows the snapshots', async () => {
    await b.query('CREATE SCHEMA shop');
    await b.query(`CREATE TABLE shop.o (id int8 NOT NULL, qty int4) WITH (format_version = 3)`);
    await b.query(`INSERT INTO shop.o SELECT g, g FROM generate_series(1, 6) g`);
    await b.query(`INSERT INTO shop.o SELECT g, g FROM generate_series(7, 9) g`);
    expect((await b.query('DELETE FROM shop.o WHERE id IN (2, 8)')).rowCount).toBe(2);
    expect((await b.query('DELETE FROM shop.o WHERE id = 3')).rowCount).toBe(1);
    expect((await b.query('UPDATE shop.o SET qty = 0 WHERE id = 4')).rowCount).toBe(1);
    await new Promise((r) => setTimeout(r, 300)); // the owner's mirror refresh is throttled
    expect(await rowsOf(a, 'SELECT id, qty FROM shop.o ORDER BY id')).toEqual([['1', '1'], ['4', '0'], ['5', '5'], ['6', '6'], ['7', '7'], ['9', '9']]);
    expect(await rowsOf(a, `SELECT file_format, count(*), count(DISTINCT referenced_data_file) FROM shop."o$files" WHERE content = 1 GROUP BY 1`)).toEqual([['PUFFIN', '2', '2']]);
    const dir = join(warehouse, 'shop', 'o', 'metadata');
    const md = JSON.parse(readFileSync(join(dir, readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!), 'utf8')) as Record<string, unknown>;
    const snaps = md['snapshots'] as Record<string, number>[];
    expect(md['format-version']).toBe(3);
    expect(snaps.slice(0, 2).map((s) => [s['first-row-id'], s['added-rows']])).toEqual([[0, 6], [6, 3]]);
    const lastSnap = snaps.at(-1)!;
    expect(md['next-row-id']).toBe(lastSnap['first-row-id']! + lastSnap['added-rows']!);
    expect(Number(md['next-row-id'])).toBeGreaterThanOrEqual(10);
  });

  it('a v2 table upgraded to v3: old position deletes still apply, the first DV absorbs them and supersedes them', async () => {
    await b.query(`CREATE TABLE shop.u (id int8 NOT NULL)`);
    await b.query(`INSERT INTO shop.u SELECT g FROM generate_series(1, 10) g`);
    expect((await b.query('DELETE FROM shop.u WHERE id IN (2, 3)')).rowCount).toBe(2);
    const res = await fetch(`http://127.0.0.1:${owner.restPort!}/v1/namespaces/shop/tables/u`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requirements: [], updates: [{ action: 'upgrade-format-version', 'format-version': 3 }] }),
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    await b.query('SELECT 1'); // the REST-side mirror refreshes too
    expect(await rowsOf(b, 'SELECT count(*) FROM shop.u')).toEqual([['8']]);
    expect((await b.query('DELETE FROM shop.u WHERE id = 5')).rowCount).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await rowsOf(a, 'SELECT id FROM shop.u ORDER BY id')).toEqual([['1'], ['4'], ['6'], ['7'], ['8'], ['9'], ['10']]);
    // the old Parquet position delete file stays; the DV holds all three positions and wins for that file
    expect(await rowsOf(a, `SELECT file_format, record_count FROM shop."u$files" WHERE content = 1 ORDER BY 1`)).toEqual([['PARQUET', '2'], ['PUFFIN', '3']]);
    const dir = join(warehouse, 'shop', 'u', 'metadata');
    const latest = join(dir, readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!);
    const md = JSON.parse(readFileSync(latest, 'utf8')) as Record<string, unknown>;
    // the planner gives the data file its DV only (§ Scan Planning: no position delete file once a DV applies)
    const io = icebergIOFromFileIO(new FileIO());
    const plan = await planScan(io, await loadTableMetadata(io, latest));
    expect(plan.tasks.map((t) => t.positionDeletes.map((d) => d.file.fileFormat))).toEqual([['PUFFIN']]);
    expect(plan.deleteFilesSeen).toBe(2);
    // the first v3 snapshot gives the pre-upgrade data manifest its first_row_id (existing rows count)
    expect([md['format-version'], md['next-row-id']]).toEqual([3, 10]);
    expect(await rowsOf(a, `SELECT first_row_id FROM shop."u$files" WHERE content = 0`)).toEqual([['0']]);
  });
});
