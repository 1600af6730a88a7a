/**
 * Commit turns and lost races, with real `pg` sessions on one server:
 *  - a statement waiting for a table's commit turn (iceberg/commit/commit-turns.ts: a re-running statement holds
 *    it) ends promptly with 57014 on statement_timeout or pg_cancel_backend, and commits nothing (PostgreSQL: a
 *    statement waiting on a row lock is cancelled the same way);
 *  - a write staged inside a transaction block publishes nothing, so it does not wait for the turn;
 *  - INSERT … ON CONFLICT into an EMPTY table racing an INSERT of its key takes the conflict arm, as it does on a
 *    table with rows (PostgreSQL: no 23505);
 *  - the first attempt of a re-run statement leaves no files behind: every data / delete file under the table's
 *    data folder is referenced by a snapshot;
 *  - plain autocommit INSERTs from many sessions into a table without keys never fail (PostgreSQL never fails
 *    them): an append that lost a race takes the table's turn (iceberg/commit/append-commit.ts).
 * A `pg_sleep` in the statement holds it between its read and its commit so the race is certain (0.6 s: the
 * other session's statement must commit within it on a loaded machine).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { autocommitReruns } from '../../src/engine/autocommit-retry.ts';
import { appendTurn } from '../../src/iceberg/commit/append-commit.ts';
import { takeTurn } from '../../src/iceberg/commit/commit-turns.ts';
import { loadTableMetadata } from '../../src/iceberg/spec/metadata-file.ts';
import { readManifestList } from '../../src/iceberg/spec/manifest-list.ts';
import { readManifest } from '../../src/iceberg/spec/manifest.ts';
import { useTwoSessions } from '../helpers/two-sessions.ts';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata, localIO } from './txn-metadata-checks.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** data and delete files in the table's data folder that no snapshot of the metadata references */
async function unreferencedFiles(metadataLocation: string): Promise<string[]> {
  const md = await loadTableMetadata(localIO, metadataLocation);
  const referenced = new Set<string>();
  for (const s of md.snapshots) {
    if (s.manifestList === null) continue;
    for (const mf of await readManifestList(localIO, s.manifestList)) {
      for (const e of (await readManifest(localIO, mf)).entries) referenced.add(e.dataFile.filePath.replace(/^file:\/\//, ''));
    }
  }
  const dataDir = join(md.location.replace(/^file:\/\//, ''), 'data');
  const onDisk = (readdirSync(dataDir, { recursive: true }) as string[]).map((f) => join(dataDir, f)).filter((f) => /\.(parquet|puffin)$/.test(f));
  return onDisk.filter((f) => !referenced.has(f));
}

describe('commit turns: cancel while waiting, staged writes, races on empty tables, orphans', () => {
  const sessions = useTwoSessions('turns');
  let a: pg.Client;
  let b: pg.Client;
  let c: pg.Client;
  let catalog: IcebergCatalog;
  let table = '';
  let n = 0;
  const pointer = async (name = table): Promise<string> => (await catalog.loadTableLocation({ namespace: ['turns'], name: name.slice(6) })).metadataLocation;
  const contents = async (): Promise<string[][]> => rowsOf(b, `SELECT id, v FROM ${table} ORDER BY id`);

  /**
   * a's UPDATE of row 1 sleeps `ms` before its commit; b updates row 1 meanwhile, so a loses, takes the table's
   * turn and re-runs — sleeping `ms` again while holding the turn. Resolves (with a's outcome) once a is done;
   * `holding` resolves when the re-run holds the turn.
   */
  function turnHeld(ms: number): { holding: Promise<void>; done: Promise<pg.QueryResult> } {
    const before = autocommitReruns.reruns;
    const done = a.query(`UPDATE ${table} SET v = v + 1 FROM (SELECT pg_sleep(${ms / 1000}) AS z) s WHERE id = 1`);
    const holding = (async () => {
      await sleep(100);
      await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
      while (autocommitReruns.reruns === before) await sleep(20);
      await sleep(100); // the re-run is bound and sleeping
    })();
    return { holding, done };
  }

  beforeAll(async () => {
    ({ a, b, catalog } = sessions);
    c = await connectText(sessions.server.url);
  });
  afterAll(async () => {
    await c?.end();
  });
  beforeEach(async () => {
    table = `turns.t${++n}`;
    await a.query(`CREATE TABLE ${table} (id int4, v int4)`);
    await a.query(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  });

  it('statement_timeout ends a statement waiting for the turn with 57014 at once, and it commits nothing', async () => {
    const { holding, done } = turnHeld(2000);
    await holding;
    await c.query('SET statement_timeout = 300');
    const started = Date.now();
    await expect(c.query(`UPDATE ${table} SET v = 100 WHERE id = 2`)).rejects.toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
    const waited = Date.now() - started;
    await c.query('SET statement_timeout = 0');
    expect((await done).rowCount).toBe(1);
    // the re-run still held the turn for > 1 s after the timeout: the wait did not last until then
    expect(waited).toBeLessThan(1200);
    expect(await contents()).toEqual([['1', '2'], ['2', '0']]);
    const t = await checkTableMetadata(await pointer());
    expect(t.chain.map((s) => s.summary['operation'])).toEqual(['append', 'overwrite', 'overwrite']);
    expect(await unreferencedFiles(await pointer())).toEqual([]);
  });

  it('pg_cancel_backend ends a statement waiting for the turn with 57014, nothing committed', async () => {
    const { holding, done } = turnHeld(2000);
    await holding;
    const started = Date.now();
    const waiting = c.query(`DELETE FROM ${table} WHERE id = 2`);
    await sleep(300);
    expect(await rowsOf(b, `SELECT pg_cancel_backend(${(c as unknown as { processID: number }).processID})`)).toEqual([['t']]);
    await expect(waiting).rejects.toMatchObject({ code: '57014', message: 'canceling statement due to user request' });
    expect(Date.now() - started).toBeLessThan(1200);
    expect((await done).rowCount).toBe(1);
    expect(await contents()).toEqual([['1', '2'], ['2', '0']]);
    expect((await checkTableMetadata(await pointer())).chain).toHaveLength(3);
    // the session goes on
    expect(await rowsOf(c, 'SELECT 1')).toEqual([['1']]);
  });

  it('an UPDATE staged inside BEGIN does not wait for the turn (it publishes nothing until COMMIT)', async () => {
    const { holding, done } = turnHeld(2000);
    await holding;
    await c.query('BEGIN');
    const started = Date.now();
    expect((await c.query(`UPDATE ${table} SET v = 100 WHERE id = 2`)).rowCount).toBe(1);
    const took = Date.now() - started;
    expect(await rowsOf(b, `SELECT v FROM ${table} WHERE id = 2`)).toEqual([['0']]); // staged only
    expect((await done).rowCount).toBe(1);
    await c.query('COMMIT'); // re-applied onto the re-run's commit: different rows
    expect(took).toBeLessThan(1200);
    expect(await contents()).toEqual([['1', '2'], ['2', '100']]);
    await checkTableMetadata(await pointer());
  });

  it('a re-run leaves no files of its first attempt behind (UPDATE: new rows and position deletes)', async () => {
    const before = autocommitReruns.reruns;
    const slow = a.query(`UPDATE ${table} SET v = v + 1 FROM (SELECT pg_sleep(0.6) AS z) s WHERE id = 1`);
    await sleep(100);
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    expect((await slow).rowCount).toBe(1);
    expect(autocommitReruns.reruns - before).toBe(1);
    expect(await contents()).toEqual([['1', '2'], ['2', '0']]);
    await checkTableMetadata(await pointer());
    expect(await unreferencedFiles(await pointer())).toEqual([]);
  });

  it('INSERT … ON CONFLICT DO UPDATE into an EMPTY table racing an INSERT of its key: takes the DO UPDATE arm', async () => {
    const keyed = `${table}_pk`;
    await a.query(`CREATE TABLE ${keyed} (id int4 PRIMARY KEY, v int4)`);
    const before = autocommitReruns.reruns;
    const slow = a.query(`INSERT INTO ${keyed} (id, v) SELECT 5, 1 FROM (SELECT pg_sleep(0.6) AS z) s ON CONFLICT (id) DO UPDATE SET v = ${keyed}.v + EXCLUDED.v`);
    await sleep(100);
    await b.query(`INSERT INTO ${keyed} VALUES (5, 10)`);
    expect((await slow).rowCount).toBe(1);
    expect(autocommitReruns.reruns - before).toBe(1);
    expect(await rowsOf(b, `SELECT id, v FROM ${keyed} ORDER BY id`)).toEqual([['5', '11']]);
    const t = await checkTableMetadata(await pointer(keyed));
    expect(t.chain.map((s) => s.summary['operation'])).toEqual(['append', 'overwrite']);
    expect(await unreferencedFiles(await pointer(keyed))).toEqual([]);
  });

  it('8 sessions × 12 autocommit INSERTs into a table without keys: no error, every row, one snapshot each', async () => {
    const others = await Promise.all(Array.from({ length: 6 }, () => connectText(sessions.server.url)));
    try {
      const writers = [a, b, ...others];
      const errors: string[] = [];
      await Promise.all(writers.map(async (w, k) => {
        for (let i = 0; i < 12; i++) {
          await w.query(`INSERT INTO ${table} VALUES (${100 + i}, ${k})`).catch((e: unknown) => { errors.push(String((e as { code?: unknown }).code)); });
        }
      }));
      expect(errors).toEqual([]);
      expect(await rowsOf(b, `SELECT count(*), count(DISTINCT v) FROM ${table} WHERE id >= 100`)).toEqual([['96', '8']]);
      const t = await checkTableMetadata(await pointer());
      expect(t.chain).toHaveLength(97);
      expect(t.liveRecords).toBe(98n);
    } finally {
      await Promise.all(others.map((o) => o.end()));
    }
  }, 120_000);

  it('statement_timeout ends a plain INSERT waiting for the table\'s append turn: 57014, nothing committed, no files left', async () => {
    const uuid = (await loadTableMetadata(localIO, await pointer())).tableUuid!;
    const release = await takeTurn(appendTurn(uuid)); // as an INSERT that lost a race and re-applies holds it
    try {
      await c.query('SET statement_timeout = 300');
      const started = Date.now();
      await expect(c.query(`INSERT INTO ${table} VALUES (7, 7)`)).rejects.toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(3000); // an uncancellable wait lasts the turn's 10 s bound
    } finally {
      await c.query('SET statement_timeout = 0');
      release();
    }
    expect(await contents()).toEqual([['1', '0'], ['2', '0']]);
    expect(await unreferencedFiles(await pointer())).toEqual([]);
    await c.query(`INSERT INTO ${table} VALUES (8, 8)`); // the turn is free again
    expect(await contents()).toEqual([['1', '0'], ['2', '0'], ['8', '8']]);
  });

  it('INSERT … ON CONFLICT DO NOTHING into an EMPTY table racing an INSERT of its key: INSERT 0 0', async () => {
    const keyed = `${table}_pk`;
    await a.query(`CREATE TABLE ${keyed} (id int4 PRIMARY KEY, v int4)`);
    const slow = a.query(`INSERT INTO ${keyed} (id, v) SELECT 5, 1 FROM (SELECT pg_sleep(0.6) AS z) s ON CONFLICT DO NOTHING`);
    await sleep(100);
    await b.query(`INSERT INTO ${keyed} VALUES (5, 10)`);
    expect((await slow).rowCount).toBe(0);
    expect(await rowsOf(b, `SELECT id, v FROM ${keyed} ORDER BY id`)).toEqual([['5', '10']]);
    await checkTableMetadata(await pointer(keyed));
  });
});
