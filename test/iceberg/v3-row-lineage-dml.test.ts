/**
 * v3 row lineage through UPDATE and DELETE (§ Row Lineage → Row lineage assignment): an updated row keeps its
 * `_row_id` (copied into the new data file, read back from it) and gets the commit's sequence number
 * (`_last_updated_sequence_number` written null, inherited from the new file); unchanged rows keep both;
 * `_row_id` / `_last_updated_sequence_number` usable in WHERE, SET expressions and RETURNING of the target,
 * never assignable (0A000, as PostgreSQL for ctid); partitioned tables, whole-file updates, repeated updates,
 * stored ids from another engine's file, transactions, time travel; the new data file holds the columns
 * under their reserved field ids. v2 tables have none of it (42703).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ParquetFile } from 'parquet-wasm';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineageParquet, registerFiles, V3Session } from './v3-helpers.ts';

/** newest .parquet file under dir (recursively) */
function newestParquet(dir: string): string {
  const all: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.parquet')) all.push(join(d, e.name));
    }
  };
  walk(dir);
  return all.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs).at(-1)!;
}

describe('Iceberg v3 row lineage through UPDATE / DELETE', () => {
  const s = new V3Session('lineage-dml');
  const rows = (sql: string): Promise<string[][]> => s.rows(sql);
  const q = (sql: string): Promise<unknown> => s.c.query(sql);
  const lineage = (table: string, where = 'true'): Promise<string[][]> =>
    rows(`SELECT id, _row_id, _last_updated_sequence_number FROM lake.${table} WHERE ${where} ORDER BY id`);

  beforeAll(async () => {
    await s.start();
    await q('CREATE SCHEMA lake');
    await q('CREATE TABLE lake.t (id int, name text) WITH (format_version = 3)');
    await q(`INSERT INTO lake.t VALUES (1, 'a'), (2, 'b'), (3, 'c')`); // ids 0-2, seq 1
    await q(`INSERT INTO lake.t VALUES (4, 'd'), (5, 'e')`); // ids 3-4, seq 2
    await q(`CREATE TABLE lake.p (id int, k text) WITH (format_version = 3, partitioning = ARRAY['k'])`);
    await q(`INSERT INTO lake.p VALUES (1, 'x'), (2, 'y'), (3, 'x'), (4, 'y')`);
    await q('CREATE TABLE lake.stored (id int) WITH (format_version = 3)');
    await q('CREATE TABLE lake.v2 (id int, n int)');
    await q('INSERT INTO lake.v2 VALUES (1, 1)');
    await s.stop();
    // another engine's file storing ids 100 and 102 (the middle row inherits first_row_id + 1 = 1)
    await registerFiles(s.warehouse, 'stored', [{ bytes: lineageParquet([10, 11, 12], [100n, null, 102n], [1n, null, null]), rows: 3 }]);
    await s.start();
  });
  afterAll(() => s.dispose());

  it('keeps the id of an updated row and gives it the commit sequence number; other rows keep both', async () => {
    await q(`UPDATE lake.t SET name = upper(name) WHERE id IN (2, 4)`); // seq 3
    expect(await rows('SELECT id, name, _row_id, _last_updated_sequence_number FROM lake.t ORDER BY id')).toEqual([
      ['1', 'a', '0', '1'], ['2', 'B', '1', '3'], ['3', 'c', '2', '1'], ['4', 'D', '3', '3'], ['5', 'e', '4', '2'],
    ]);
    // again: same id, next sequence number; an insert afterwards gets a fresh id past every assigned one (each
    // UPDATE's new file took first_row_id 5 and 7 by inheritance, unused: its rows store their ids)
    await q(`UPDATE lake.t SET name = name || '!' WHERE id = 2`); // seq 4
    await q(`INSERT INTO lake.t VALUES (6, 'f')`); // seq 5
    expect(await lineage('t', 'id IN (2, 6)')).toEqual([['2', '1', '4'], ['6', '8', '5']]);
    expect(await rows('SELECT count(DISTINCT _row_id), count(*) FROM lake.t')).toEqual([['6', '6']]);
  });

  it('writes _row_id (copied) and a null _last_updated_sequence_number into the new data file under the reserved ids', async () => {
    await q(`UPDATE lake.t SET name = 'E' WHERE id = 5`);
    const file = newestParquet(join(s.warehouse, 'lake', 't', 'data'));
    const table = tableFromIPC((await (await ParquetFile.fromFile(new Blob([readFileSync(file)]))).read()).intoIPCStream());
    const byId = new Map(table.schema.fields.map((f, i) => [f.metadata.get('PARQUET:field_id'), i]));
    expect([...byId.keys()].sort()).toEqual(['1', '2', '2147483539', '2147483540']);
    expect(table.getChildAt(byId.get('2147483540')!)!.toArray()).toEqual(BigInt64Array.of(4n));
    expect(table.getChildAt(byId.get('2147483539')!)!.get(0)).toBeNull();
  });

  it('filters UPDATE and DELETE on _row_id / _last_updated_sequence_number, qualified or through an alias', async () => {
    await q(`UPDATE lake.t AS x SET name = 'first' WHERE x._row_id = 0`);
    await q(`DELETE FROM lake.t WHERE _last_updated_sequence_number = 1 AND _row_id <> 0`); // id 3 (row id 2)
    expect(await rows('SELECT id, name, _row_id FROM lake.t ORDER BY id')).toEqual([
      ['1', 'first', '0'], ['2', 'B!', '1'], ['4', 'D', '3'], ['5', 'E', '4'], ['6', 'f', '8'],
    ]);
    // in SET expressions, too (the old version's values)
    await q(`UPDATE lake.t SET name = 'r' || _row_id::text WHERE lake.t._row_id = 8`);
    expect(await lineage('t', `name = 'r8'`)).toEqual([['6', '8', '9']]);
  });

  it('returns them from UPDATE … RETURNING (new sequence number) and DELETE … RETURNING (as they were)', async () => {
    const u = await s.c.query({ text: `UPDATE lake.t SET name = 'ret' WHERE _row_id IN (1, 3) RETURNING id, _row_id, _last_updated_sequence_number`, rowMode: 'array' });
    expect((u.rows as string[][]).sort()).toEqual([['2', '1', '10'], ['4', '3', '10']]);
    expect(u.fields.map((f) => f.name)).toEqual(['id', '_row_id', '_last_updated_sequence_number']);
    expect(await lineage('t', `name = 'ret'`)).toEqual([['2', '1', '10'], ['4', '3', '10']]);
    const star = await s.c.query({ text: 'DELETE FROM lake.t WHERE _row_id = 4 RETURNING *, _row_id, _last_updated_sequence_number', rowMode: 'array' });
    expect(star.rows).toEqual([['5', 'E', '4', '6']]);
  });

  it('refuses assigning them (0A000) and leaves v2 tables without them (42703)', async () => {
    await expect(q('UPDATE lake.t SET _row_id = 5')).rejects.toMatchObject({ code: '0A000', message: 'cannot assign to system column "_row_id"' });
    await expect(q('UPDATE lake.t SET _last_updated_sequence_number = 5')).rejects.toMatchObject({ code: '0A000' });
    await expect(q('UPDATE lake.v2 SET n = 2 WHERE _row_id = 0')).rejects.toMatchObject({ code: '42703' });
    await expect(q('DELETE FROM lake.v2 WHERE _row_id = 0')).rejects.toMatchObject({ code: '42703' });
    await q('UPDATE lake.v2 SET n = 2');
    expect(await rows('SELECT * FROM lake.v2')).toEqual([['1', '2']]);
  });

  it('keeps ids in partitioned tables, when every row of a file is updated, and for ids stored by another engine', async () => {
    const before = await lineage('p');
    await q(`UPDATE lake.p SET id = id * 10 WHERE k = 'x'`);
    await q(`UPDATE lake.p SET k = 'x' WHERE id = 2`); // moves to the other partition
    const after = await lineage('p');
    expect(after.map((r) => r[1]).sort()).toEqual(before.map((r) => r[1]).sort());
    expect(after.find((r) => r[0] === '10')![1]).toBe(before.find((r) => r[0] === '1')![1]);
    expect(after.find((r) => r[0] === '2')![1]).toBe(before.find((r) => r[0] === '2')![1]);
    // a whole-file update (the old file dropped): still the same ids
    const t0 = await lineage('stored');
    expect(t0.map((r) => r.slice(0, 2))).toEqual([['10', '100'], ['11', '1'], ['12', '102']]);
    await q('UPDATE lake.stored SET id = id + 1');
    expect((await lineage('stored')).map((r) => r.slice(0, 2))).toEqual([['11', '100'], ['12', '1'], ['13', '102']]);
  });

  it('carries ids inside a transaction and time travels to the old sequence numbers', async () => {
    const snap = (await rows(`SELECT snapshot_id FROM lake."t$snapshots" ORDER BY committed_at DESC, snapshot_id LIMIT 1`))[0]![0]!;
    const old = await lineage('t', 'id = 1');
    await q('BEGIN');
    await q(`UPDATE lake.t SET name = 'tx' WHERE id = 1`);
    expect((await lineage('t', 'id = 1'))[0]![1]).toBe(old[0]![1]);
    await q('COMMIT');
    const now = await lineage('t', 'id = 1');
    expect(now[0]![1]).toBe('0');
    expect(BigInt(now[0]![2]!)).toBeGreaterThan(BigInt(old[0]![2]!));
    expect(await rows(`SELECT id, _row_id, _last_updated_sequence_number FROM lake.t FOR SYSTEM_VERSION AS OF ${snap} WHERE id = 1`)).toEqual(old);
  });
});
