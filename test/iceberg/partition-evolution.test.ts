/**
 * Partition evolution over the wire: ALTER TABLE t SET (partitioning = '…') adds a spec (next spec id, field
 * ids after last-partition-id, default-spec-id switches), new writes use it while old files keep theirs,
 * reads, DELETE / UPDATE and the metadata tables work across specs; RESET (partitioning) / '' removes the
 * partitioning (an empty v2 spec); going back to an earlier layout reuses its spec and field ids.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../helpers/text-client.ts';
import { useLakeSession } from '../helpers/lake-session.ts';

describe('partition evolution', () => {
  const lake = useLakeSession();
  let c: pg.Client;
  /** the newest metadata file (names start with the zero-padded version) */
  const metadata = async (table: string): Promise<Record<string, unknown>> => {
    const dir = join(lake.warehouse, 'lake', table, 'metadata');
    const file = readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!;
    return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
  };

  beforeAll(() => {
    c = lake.client;
  });

  it('adds a spec; new files use it, old files keep theirs', async () => {
    await c.query(`CREATE TABLE lake.ev (id int8, ts timestamp, v text) WITH (partitioning = ARRAY['day(ts)'])`);
    await c.query(`INSERT INTO lake.ev VALUES (1, '2024-01-01 10:00', 'a'), (2, '2024-02-03 11:00', 'b')`);
    await c.query(`ALTER TABLE lake.ev SET (partitioning = 'month(ts), bucket(8, id)')`);
    const md = await metadata('ev');
    expect(md['default-spec-id']).toBe(1);
    expect(md['last-partition-id']).toBe(1002);
    expect(md['partition-specs']).toEqual([
      { 'spec-id': 0, fields: [{ name: 'ts_day', transform: 'day', 'source-id': 2, 'field-id': 1000 }] },
      { 'spec-id': 1, fields: [{ 'source-id': 2, 'field-id': 1001, name: 'ts_month', transform: 'month' }, { 'source-id': 1, 'field-id': 1002, name: 'id_bucket', transform: 'bucket[8]' }] },
    ]);
    await c.query(`INSERT INTO lake.ev VALUES (3, '2024-01-05 00:00', 'c'), (4, '2024-03-01 00:00', 'd')`);
    expect(await rowsOf(c, 'SELECT id, v FROM lake.ev ORDER BY id')).toEqual([['1', 'a'], ['2', 'b'], ['3', 'c'], ['4', 'd']]);
    expect(await rowsOf(c, `SELECT id FROM lake.ev WHERE ts >= '2024-01-01' AND ts < '2024-02-01' ORDER BY id`)).toEqual([['1'], ['3']]);
    const files = await rowsOf(c, `SELECT spec_id, partition::text, file_path ~ '/data/ts_month=2024-0[13]/id_bucket=\\d/' FROM lake."ev$files" ORDER BY spec_id, partition::text`);
    expect(files.map((f) => [f[0], f[2]])).toEqual([['0', 'f'], ['0', 'f'], ['1', 't'], ['1', 't']]);
    expect(files[0]![1]).toBe('{"ts_day": "2024-01-01"}');
    expect(files[2]![1]).toMatch(/^\{"ts_month": 6(48|50), "id_bucket": \d\}$/);
  });

  it('DELETE and UPDATE across specs: delete files in each data file\'s spec, new rows in the default spec', async () => {
    expect((await c.query(`DELETE FROM lake.ev WHERE id IN (1, 3)`)).rowCount).toBe(2);
    expect((await c.query(`UPDATE lake.ev SET v = 'B' WHERE id = 2`)).rowCount).toBe(1);
    expect(await rowsOf(c, 'SELECT id, v FROM lake.ev ORDER BY id')).toEqual([['2', 'B'], ['4', 'd']]);
    // id 1 and 3 were alone in their files: dropped whole; id 2 too; the new row for id 2 uses spec 1
    expect(await rowsOf(c, `SELECT content, spec_id, count(*) FROM lake."ev$files" GROUP BY 1, 2 ORDER BY 1, 2`)).toEqual([['0', '1', '2']]);
    await c.query(`INSERT INTO lake.ev VALUES (5, '2024-03-02', 'e'), (6, '2024-03-02', 'f'), (7, '2024-03-03', 'g'), (8, '2024-03-04', 'h')`);
    await c.query(`ALTER TABLE lake.ev SET (partitioning = 'v')`);
    expect((await c.query(`DELETE FROM lake.ev WHERE id = 5 OR id = 6`)).rowCount).toBe(2);
    expect(await rowsOf(c, 'SELECT count(*) FROM lake.ev')).toEqual([['4']]);
  });

  it('RESET (partitioning) / an empty value: an empty spec; returning to a layout reuses its spec and field ids', async () => {
    await c.query(`ALTER TABLE lake.ev RESET (partitioning)`);
    let md = await metadata('ev');
    const specs = md['partition-specs'] as { 'spec-id': number; fields: unknown[] }[];
    expect(specs.at(-1)).toEqual({ 'spec-id': 3, fields: [] });
    expect(md['default-spec-id']).toBe(3);
    await c.query(`INSERT INTO lake.ev VALUES (9, '2025-01-01', 'i')`);
    expect(await rowsOf(c, `SELECT spec_id, partition::text FROM lake."ev$files" WHERE content = 0 ORDER BY spec_id DESC LIMIT 1`)).toEqual([['3', '{}']]);
    await c.query(`ALTER TABLE lake.ev SET (partitioning = 'month(ts), bucket(8, id)')`);
    md = await metadata('ev');
    expect([md['default-spec-id'], (md['partition-specs'] as unknown[]).length, md['last-partition-id']]).toEqual([1, 4, 1003]);
    await c.query(`ALTER TABLE lake.ev SET (partitioning = 'day(ts)')`);
    md = await metadata('ev');
    expect([md['default-spec-id'], (md['partition-specs'] as unknown[]).length]).toEqual([0, 4]);
    await c.query(`ALTER TABLE lake.ev SET (partitioning = '')`);
    expect((await metadata('ev'))['default-spec-id']).toBe(3);
    expect(await rowsOf(c, 'SELECT id FROM lake.ev ORDER BY id')).toEqual([['2'], ['4'], ['7'], ['8'], ['9']]);
    expect(await rowsOf(c, `SELECT count(*) FROM lake."ev$partitions"`)).not.toEqual([['0']]);
  });

  it('errors: unknown columns, bad transforms, other storage parameters', async () => {
    await expect(c.query(`ALTER TABLE lake.ev SET (partitioning = 'day(nope)')`)).rejects.toMatchObject({ code: '42703' });
    await expect(c.query(`ALTER TABLE lake.ev SET (partitioning = 'frob(ts)')`)).rejects.toMatchObject({ code: '22023' });
    await expect(c.query(`ALTER TABLE lake.ev SET (fillfactor = 50)`)).rejects.toMatchObject({ code: '0A000' });
    expect((await metadata('ev'))['default-spec-id']).toBe(3);
  });

  it('a position delete for an old-spec file is written in that spec and partition', async () => {
    await c.query(`CREATE TABLE lake.old (id int4, ts timestamp) WITH (partitioning = ARRAY['day(ts)'])`);
    await c.query(`INSERT INTO lake.old VALUES (1, '2024-05-01 01:00'), (2, '2024-05-01 02:00'), (3, '2024-05-01 03:00')`);
    await c.query(`ALTER TABLE lake.old SET (partitioning = 'bucket(4, id)')`);
    await c.query(`INSERT INTO lake.old VALUES (4, '2024-05-01 04:00')`);
    expect((await c.query('DELETE FROM lake.old WHERE id IN (2, 4)')).rowCount).toBe(2);
    expect(await rowsOf(c, `SELECT content, spec_id, partition::text, record_count FROM lake."old$files" ORDER BY content, spec_id`)).toEqual([
      ['0', '0', '{"ts_day": "2024-05-01"}', '3'], ['1', '0', '{"ts_day": "2024-05-01"}', '1'],
    ]);
    expect(await rowsOf(c, 'SELECT id FROM lake.old ORDER BY id')).toEqual([['1'], ['3']]);
  });
});
