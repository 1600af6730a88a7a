/**
 * Many transaction blocks committing to one Iceberg table at the same moment, through real `pg` clients:
 * every one commits (each lost race re-applies its staged snapshots onto the winner's and retries), every
 * row is there, and the table's metadata stays one clean snapshot chain. With a PRIMARY KEY, blocks adding
 * different keys commit too (their files' key bounds are disjoint, or their keys read at COMMIT differ) and one
 * adding a key another block added meanwhile is 23505, with nothing of it published.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

const WRITERS = 8;

describe('many concurrent inserting transactions', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-txn-many-'));
  let server: LakegateServer;
  let catalog: IcebergCatalog;
  const clients: pg.Client[] = [];
  const pointer = async (name: string): Promise<string> => (await catalog.loadTableLocation({ namespace: ['many'], name })).metadataLocation;

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    for (let i = 0; i < WRITERS; i++) clients.push(await connectText(server.url));
    await clients[0]!.query('CREATE SCHEMA many');
    catalog = await openSqlCatalog({ warehouse });
  });
  afterAll(async () => {
    for (const c of clients) await c.end();
    await catalog?.close();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it(`${WRITERS} blocks of two INSERTs each, committed at once: all ${WRITERS * 2} rows, one chain`, async () => {
    const c0 = clients[0]!;
    await c0.query('CREATE TABLE many.t (id int4 PRIMARY KEY, who int4)');
    await Promise.all(clients.map(async (c, i) => {
      await c.query('BEGIN');
      await c.query(`INSERT INTO many.t VALUES (${i}, ${i})`);
      await c.query(`INSERT INTO many.t VALUES (${100 + i}, ${i})`);
    }));
    await Promise.all(clients.map((c) => c.query('COMMIT')));
    expect(await rowsOf(c0, 'SELECT count(*), count(DISTINCT id), sum(who) FROM many.t')).toEqual([[String(WRITERS * 2), String(WRITERS * 2), String(WRITERS * (WRITERS - 1))]]);
    const t = await checkTableMetadata(await pointer('t'));
    expect(t.chain).toHaveLength(WRITERS * 2);
    expect(t.chain.map((s) => s.sequenceNumber)).toEqual(Array.from({ length: WRITERS * 2 }, (_, k) => BigInt(k + 1)));
    // each block's two snapshots stay adjacent and in statement order (a block is re-applied as a unit)
    const added: number[] = [];
    let before = new Set<number>();
    for (const snap of t.chain) {
      const now = new Set((await rowsOf(c0, `SELECT id FROM many.t FOR SYSTEM_VERSION AS OF ${snap.snapshotId}`)).map((r) => Number(r[0])));
      added.push(...[...now].filter((id) => !before.has(id)));
      before = now;
    }
    expect(added).toHaveLength(WRITERS * 2);
    for (let k = 0; k < WRITERS; k++) expect(added[2 * k + 1]).toBe(added[2 * k]! + 100);
    expect(t.chain.at(-1)!.summary['total-records']).toBe(String(WRITERS * 2));
  });

  it('with a PRIMARY KEY: a block adding a key another block added meanwhile is 23505 (as in PostgreSQL); the rest commit', async () => {
    const [a, b, c] = clients as [pg.Client, pg.Client, pg.Client];
    await a.query('CREATE TABLE many.k (id int4 PRIMARY KEY, who text)');
    await a.query(`INSERT INTO many.k VALUES (1, 'seed')`);
    await a.query('BEGIN');
    await b.query('BEGIN');
    await c.query('BEGIN');
    await a.query(`INSERT INTO many.k VALUES (10, 'a')`);
    await b.query(`INSERT INTO many.k VALUES (20, 'b')`);
    await c.query(`INSERT INTO many.k VALUES (10, 'c')`);
    await a.query('COMMIT');
    await b.query('COMMIT');
    // the keys are read at COMMIT (iceberg/keys/staged-keys.ts): a real duplicate, PostgreSQL's later inserter's error
    await expect(c.query('COMMIT')).rejects.toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "k_pkey"', detail: 'Key (id)=(10) already exists.' });
    expect(await rowsOf(a, 'SELECT id, who FROM many.k ORDER BY id')).toEqual([['1', 'seed'], ['10', 'a'], ['20', 'b']]);
    await checkTableMetadata(await pointer('k'));
  });
});
