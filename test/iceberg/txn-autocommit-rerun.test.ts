/**
 * Autocommit row changes (UPDATE / DELETE / MERGE / INSERT … ON CONFLICT outside BEGIN) that lose a race to a
 * concurrent commit of the same rows: PostgreSQL under READ COMMITTED waits and re-evaluates the row on its new
 * version, so the statement succeeds and no update is lost. lakegate re-runs the whole statement on the table's
 * new snapshot (engine/autocommit-retry.ts), a bounded number of times, before any row reaches the client;
 * inside a transaction block the conflict stays 40001. Two (or more) real `pg` sessions on one server; a
 * `pg_sleep` in UPDATE … FROM holds a statement between its read and its commit so the race is certain.
 */
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { autocommitReruns } from '../../src/engine/autocommit-retry.ts';
import { useTwoSessions } from '../helpers/two-sessions.ts';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

describe('autocommit DML re-run on a moved table (READ COMMITTED)', () => {
  const sessions = useTwoSessions('rerun');
  let a: pg.Client;
  let b: pg.Client;
  let catalog: IcebergCatalog;
  let table = '';
  let n = 0;
  const pointer = async (): Promise<string> => (await catalog.loadTableLocation({ namespace: ['rerun'], name: table.slice(6) })).metadataLocation;
  const checked = async () => checkTableMetadata(await pointer());
  /** the statement held between its read and its commit: a cross join with a sleeping one-row source */
  const slowBump = (ms: number): string => `UPDATE ${table} SET v = v + 1 FROM (SELECT pg_sleep(${ms / 1000}) AS z) s WHERE id = 1`;
  const v1 = async (): Promise<string[][]> => rowsOf(b, `SELECT v FROM ${table} WHERE id = 1`);

  beforeAll(() => {
    ({ a, b, catalog } = sessions);
  });
  beforeEach(async () => {
    table = `rerun.t${++n}`;
    await a.query(`CREATE TABLE ${table} (id int4, v int4)`);
    await a.query(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  });
  afterEach(() => {
    autocommitReruns.maxReruns = 5;
  });

  it('a statement whose row another session updated meanwhile is re-run on the new version (no lost update)', async () => {
    const before = autocommitReruns.reruns;
    const slow = a.query(slowBump(300));
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`); // commits while a sleeps
    expect((await slow).rowCount).toBe(1);
    expect(await v1()).toEqual([['2']]);
    expect(autocommitReruns.reruns - before).toBe(1);
    const t = await checked();
    // seed, b's update, a's re-run: one line of snapshots, sequence numbers 1..3
    expect(t.chain.map((s) => s.sequenceNumber)).toEqual([1n, 2n, 3n]);
    expect(t.chain.map((s) => s.summary['operation'])).toEqual(['append', 'overwrite', 'overwrite']);
    expect(t.liveRecords - BigInt(t.chain.at(-1)!.summary['total-position-deletes'] ?? '0')).toBe(2n);
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['1', '2'], ['2', '0']]);
  });

  it('the classic lost-update check: two sessions each run UPDATE v = v + 1 many times, v ends at the total', async () => {
    const before = autocommitReruns.reruns;
    const times = 12;
    const bump = async (c: pg.Client): Promise<void> => {
      for (let i = 0; i < times; i++) expect((await c.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`)).rowCount).toBe(1);
    };
    await Promise.all([bump(a), bump(b)]);
    expect(await v1()).toEqual([[String(2 * times)]]);
    const t = await checked();
    expect(t.chain).toHaveLength(1 + 2 * times);
    expect(await rowsOf(b, `SELECT count(*) FROM ${table}`)).toEqual([['2']]);
    // the race really happened (else this test would prove nothing)
    expect(autocommitReruns.reruns).toBeGreaterThan(before);
  });

  it('RETURNING: each statement returns its re-run\'s row once, and the returned values are all distinct', async () => {
    const times = 10;
    const seen: string[] = [];
    const bump = async (c: pg.Client): Promise<void> => {
      for (let i = 0; i < times; i++) {
        const got = await rowsOf(c, `UPDATE ${table} SET v = v + 1 WHERE id = 1 RETURNING id, v`);
        expect(got).toHaveLength(1);
        seen.push(got[0]![1]!);
      }
    };
    const slow = rowsOf(a, `${slowBump(300)} RETURNING id, v`);
    await new Promise((r) => setTimeout(r, 100));
    await Promise.all([bump(b), (async () => { seen.push(...(await slow).map((r) => r[1]!)); })()]);
    expect(seen.map(Number).sort((x, y) => x - y)).toEqual(Array.from({ length: times + 1 }, (_, i) => i + 1));
    expect(await v1()).toEqual([[String(times + 1)]]);
    await checked();
  });

  it('DELETE against a concurrent UPDATE of the same row: both succeed, the row is gone', async () => {
    const before = autocommitReruns.reruns;
    const slow = a.query(`DELETE FROM ${table} USING (SELECT pg_sleep(0.3) AS z) s WHERE id = 1`);
    await new Promise((r) => setTimeout(r, 100));
    expect((await b.query(`UPDATE ${table} SET v = 7 WHERE id = 1`)).rowCount).toBe(1);
    expect((await slow).rowCount).toBe(1); // the re-run deletes the updated version
    expect(autocommitReruns.reruns - before).toBe(1);
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['2', '0']]);
    const t = await checked();
    expect(t.chain.map((s) => s.summary['operation'])).toEqual(['append', 'overwrite', 'delete']);
  });

  it('UPDATE against a concurrent DELETE of the same row: UPDATE 0 (the row is gone), no resurrected row', async () => {
    const slow = a.query(slowBump(300));
    await new Promise((r) => setTimeout(r, 100));
    expect((await b.query(`DELETE FROM ${table} WHERE id = 1`)).rowCount).toBe(1);
    expect((await slow).rowCount).toBe(0);
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['2', '0']]);
    await checked();
  });

  it('MERGE re-runs too', async () => {
    const slow = a.query(`MERGE INTO ${table} t USING (SELECT 1 AS id, pg_sleep(0.3) AS z) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = t.v + 10`);
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    expect((await slow).rowCount).toBe(1);
    expect(await v1()).toEqual([['11']]);
    await checked();
  });

  it('past the bound the 40001 stands, and nothing of the statement is applied', async () => {
    autocommitReruns.maxReruns = 0;
    const before = { ...autocommitReruns };
    const slow = a.query(slowBump(300));
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    await expect(slow).rejects.toMatchObject({ code: '40001', message: 'could not serialize access due to concurrent update' });
    expect(autocommitReruns.reruns).toBe(before.reruns);
    expect(autocommitReruns.exhausted).toBe(before.exhausted + 1);
    expect(await v1()).toEqual([['1']]);
    expect(await rowsOf(a, 'SELECT 1')).toEqual([['1']]); // a is usable, not in a failed block
    const t = await checked();
    expect(t.chain).toHaveLength(2);
  });

  it('INSERT … ON CONFLICT DO UPDATE against a concurrent INSERT of its key: re-run, takes the DO UPDATE branch', async () => {
    const keyed = `${table}_pk`;
    await a.query(`CREATE TABLE ${keyed} (id int4 PRIMARY KEY, v int4)`);
    await a.query(`INSERT INTO ${keyed} VALUES (1, 0)`);
    const before = autocommitReruns.reruns;
    const slow = a.query(`INSERT INTO ${keyed} (id, v) SELECT 5, 1 FROM (SELECT pg_sleep(0.3) AS z) s ON CONFLICT (id) DO UPDATE SET v = ${keyed}.v + EXCLUDED.v`);
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`INSERT INTO ${keyed} VALUES (5, 10)`);
    expect((await slow).rowCount).toBe(1);
    expect(autocommitReruns.reruns - before).toBe(1);
    expect(await rowsOf(b, `SELECT id, v FROM ${keyed} ORDER BY id`)).toEqual([['1', '0'], ['5', '11']]);
    await checkTableMetadata((await catalog.loadTableLocation({ namespace: ['rerun'], name: keyed.slice(6) })).metadataLocation);
  });

  it('a plain INSERT of a key inserted concurrently is still 23505 (PostgreSQL\'s answer too)', async () => {
    const keyed = `${table}_pk`;
    await a.query(`CREATE TABLE ${keyed} (id int4 PRIMARY KEY, v int4)`);
    await a.query(`INSERT INTO ${keyed} VALUES (1, 0)`);
    const slow = a.query(`INSERT INTO ${keyed} (id, v) SELECT 5, 1 FROM (SELECT pg_sleep(0.3) AS z) s`);
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`INSERT INTO ${keyed} VALUES (5, 10)`);
    await expect(slow).rejects.toMatchObject({ code: '23505', detail: 'Key (id)=(5) already exists.' });
    expect(await rowsOf(b, `SELECT id, v FROM ${keyed} ORDER BY id`)).toEqual([['1', '0'], ['5', '10']]);
  });

  it('MERGE inserting a key a concurrent INSERT added is 23505, not re-run into its MATCHED arm (PostgreSQL\'s answer)', async () => {
    const keyed = `${table}_pk`;
    await a.query(`CREATE TABLE ${keyed} (id int4 PRIMARY KEY, v int4)`);
    await a.query(`INSERT INTO ${keyed} VALUES (1, 0)`);
    const before = autocommitReruns.reruns;
    const slow = a.query(`MERGE INTO ${keyed} t USING (SELECT 5 AS id, 1 AS v, pg_sleep(0.3) AS z) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = t.v + s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)`);
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`INSERT INTO ${keyed} VALUES (5, 10)`);
    await expect(slow).rejects.toMatchObject({ code: '23505', detail: 'Key (id)=(5) already exists.' });
    expect(autocommitReruns.reruns - before).toBe(0);
    expect(await rowsOf(b, `SELECT id, v FROM ${keyed} ORDER BY id`)).toEqual([['1', '0'], ['5', '10']]);
  });

  it('v3: two DELETEs of different rows of one data file (one deletion vector each): the loser re-runs, one merged DV', async () => {
    const v3 = `${table}_v3`;
    await a.query(`CREATE TABLE ${v3} (id int8 NOT NULL, v int4) WITH (format_version = 3)`);
    await a.query(`INSERT INTO ${v3} VALUES (1, 0), (2, 0), (3, 0), (4, 0)`);
    const before = autocommitReruns.reruns;
    const slow = a.query(`DELETE FROM ${v3} USING (SELECT pg_sleep(0.3) AS z) s WHERE id = 2`);
    await new Promise((r) => setTimeout(r, 100));
    expect((await b.query(`DELETE FROM ${v3} WHERE id = 3`)).rowCount).toBe(1);
    expect((await slow).rowCount).toBe(1);
    expect(autocommitReruns.reruns - before).toBe(1);
    expect(await rowsOf(b, `SELECT id, _row_id FROM ${v3} ORDER BY id`)).toEqual([['1', '0'], ['4', '3']]);
    const t = await checkTableMetadata((await catalog.loadTableLocation({ namespace: ['rerun'], name: v3.slice(6) })).metadataLocation);
    // at most one DV per data file: the re-run's DV holds both positions and replaced b's
    const head = t.chain.at(-1)!.summary;
    expect([head['total-delete-files'], head['total-position-deletes'], head['removed-dvs']]).toEqual(['1', '2', '1']);
  });

  it('extended protocol with parameters (Parse/Bind/Execute/Sync, a lone write): re-run with the same values', async () => {
    const before = autocommitReruns.reruns;
    const slow = a.query({ text: `UPDATE ${table} SET v = v + $1 FROM (SELECT pg_sleep(0.3) AS z) s WHERE id = $2`, values: [5, 1] });
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    expect((await slow).rowCount).toBe(1);
    expect(autocommitReruns.reruns - before).toBe(1);
    expect(await v1()).toEqual([['6']]);
    await checked();
  });

  it('inside BEGIN … COMMIT the conflict stays 40001 (the block saw the old row: REPEATABLE READ\'s answer)', async () => {
    const before = autocommitReruns.reruns;
    await a.query('BEGIN');
    await a.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    await expect(a.query('COMMIT')).rejects.toMatchObject({ code: '40001' });
    expect(autocommitReruns.reruns).toBe(before);
    expect(await v1()).toEqual([['1']]);
  });

  it('a multi-statement Query (one implicit transaction) is not re-run: 40001', async () => {
    const before = autocommitReruns.reruns;
    const slow = a.query(`UPDATE ${table} SET v = v + 100 WHERE id = 2; ${slowBump(300)}`);
    await new Promise((r) => setTimeout(r, 100));
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    await expect(slow).rejects.toMatchObject({ code: '40001' });
    expect(autocommitReruns.reruns).toBe(before);
    expect(await rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`)).toEqual([['1', '1'], ['2', '0']]);
  });

  it('four sessions hammering one row: no update lost, no error', async () => {
    const more = await Promise.all([connectText(sessions.server.url), connectText(sessions.server.url)]);
    try {
      const times = 6;
      const bump = async (c: pg.Client): Promise<void> => {
        for (let i = 0; i < times; i++) await c.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
      };
      await Promise.all([a, b, ...more].map(bump));
      expect(await v1()).toEqual([[String(4 * times)]]);
      const t = await checked();
      expect(t.chain).toHaveLength(1 + 4 * times);
    } finally {
      await Promise.all(more.map((c) => c.end()));
    }
  });
});
