/**
 * MERGE and INSERT … ON CONFLICT find their target rows by key, not by reading the whole target: the join's
 * runtime key filter reaches the row delta's scan, which keeps only the data files whose bounds hold one of
 * the keys and reads only matching rows (EXPLAIN ANALYZE: `files scanned 1 / 4`, `actual rows=2`). A file all of whose
 * live rows such a statement deletes is still dropped whole (its live count from its metadata and delete files).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { connectText } from '../helpers/text-client.ts';

describe('key lookups for MERGE and ON CONFLICT', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-keys-lookup-'));
  let server: LakegateServer;
  let c: pg.Client;
  const text = async (sql: string): Promise<string> => ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.join('\t')).join('\n');
  const last = async (table: string): Promise<[string, Record<string, string>]> => {
    const r = await c.query(`SELECT operation, summary FROM l."${table}$snapshots" ORDER BY committed_at DESC, snapshot_id LIMIT 1`);
    return [r.rows[0].operation as string, JSON.parse(r.rows[0].summary as string) as Record<string, string>];
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    c = await connectText(server.url);
    await c.query('CREATE SCHEMA l');
    await c.query('CREATE TABLE l.t (id int8 PRIMARY KEY, v text)');
    // four data files of 250 keys each
    for (let f = 0; f < 4; f++) await c.query(`INSERT INTO l.t SELECT g, 'v' || g FROM generate_series(${f * 250 + 1}, ${f * 250 + 250}) g`);
  });

  afterAll(async () => {
    await c?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('ON CONFLICT DO UPDATE reads the target rows of its keys only', async () => {
    const plan = await text(`EXPLAIN ANALYZE INSERT INTO l.t VALUES (5, 'five'), (7, 'seven'), (5000, 'new') ON CONFLICT (id) DO UPDATE SET v = excluded.v`);
    expect(plan).toMatch(/TableScan: l\.t .*actual rows=2 /);
    expect(plan).toMatch(/files scanned 1 \/ 4/);
    expect(await text('SELECT id, v FROM l.t WHERE id IN (5, 7, 5000) ORDER BY id')).toBe('5\tfive\n7\tseven\n5000\tnew');
    expect(await text('SELECT count(*) FROM l.t')).toBe('1001');
  });

  it('MERGE reads the target rows of its source keys only', async () => {
    const plan = await text(`EXPLAIN ANALYZE MERGE INTO l.t USING (VALUES (600::int8, 'six hundred'), (6000::int8, 'x')) s(i, v) ON t.id = s.i
      WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.i, s.v)`);
    expect(plan).toMatch(/TableScan: l\.t .*actual rows=1 /);
    // 501..750 and the upsert's file of 5, 7, 5000 hold 600 by their bounds; the other three cannot
    expect(plan).toMatch(/files scanned 2 \/ 5, .*by stats 3/);
    expect(await text('SELECT id, v FROM l.t WHERE id IN (600, 6000) ORDER BY id')).toBe('600\tsix hundred\n6000\tx');
  });

  it('a MERGE deleting every live row of a file it read by key drops the file (after an earlier delete too)', async () => {
    await c.query('DELETE FROM l.t WHERE id = 260');
    await c.query(`MERGE INTO l.t USING (SELECT g::int8 AS i FROM generate_series(251, 500) g) s ON t.id = s.i WHEN MATCHED THEN DELETE`);
    const [op, summary] = await last('t');
    expect(op).toBe('delete');
    expect(summary['deleted-data-files']).toBe('1');
    expect(summary['added-delete-files']).toBeUndefined();
    expect(await text('SELECT count(*) FROM l.t WHERE id BETWEEN 251 AND 500')).toBe('0');
    // some rows of a file: position deletes, the file stays
    await c.query(`MERGE INTO l.t USING (SELECT g::int8 AS i FROM generate_series(501, 510) g) s ON t.id = s.i WHEN MATCHED THEN DELETE`);
    const [op2, summary2] = await last('t');
    expect(op2).toBe('delete');
    expect(summary2['deleted-data-files']).toBeUndefined();
    expect(summary2['added-position-deletes']).toBe('10');
    expect(await text('SELECT count(*) FROM l.t WHERE id BETWEEN 501 AND 750')).toBe('240');
  });
});
