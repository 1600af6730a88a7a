/**
 * Plans rely on a PRIMARY KEY only while the rows are verified unique on it (iceberg/keys/verified-keys.ts).
 * Another engine may write rows with equal identifier fields (here: a file registered as add_files would,
 * while lakegate runs); from then on GROUP BY over the key must aggregate for real, until ALTER TABLE ADD
 * PRIMARY KEY verifies the rows again. lakegate's own writes carry the proof on (INSERT, a transaction block,
 * DELETE) and do not restore it over unverified rows.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { Table as WasmTable, writeParquet } from 'parquet-wasm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { openSqlCatalog } from '../../src/catalog/iceberg/index.ts';
import { FileIO } from '../../src/storage/index.ts';
import { appendDataFiles, icebergIOFromFileIO, loadTableMetadata, writableIcebergIO } from '../../src/iceberg/index.ts';
import { currentSchema, findSnapshot } from '../../src/iceberg/spec/table-metadata.ts';
import { KEYS_VERIFIED_SNAPSHOT_PROPERTY, KEYS_VERIFIED_SUMMARY } from '../../src/iceberg/keys/verified-keys.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

describe('primary keys the optimizer relies on', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-verified-keys-'));
  let server: LakegateServer;
  let client: pg.Client;
  const rows = async (sql: string): Promise<string[][]> =>
    ((await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  const plan = async (sql: string): Promise<string> => (await rows(`EXPLAIN ${sql}`)).map((r) => r[0]).join('\n');
  const catalogIO = (): { io: ReturnType<typeof writableIcebergIO> } => {
    const fileIO = new FileIO({ pathMap: [] });
    return { io: writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO) };
  };
  /** the table's current metadata, read as another engine would */
  const metadata = async (name: string) => {
    const catalog = await openSqlCatalog({ catalogName: 'lakegate', warehouse });
    try {
      const { io } = catalogIO();
      return await loadTableMetadata(io, (await catalog.loadTableLocation({ namespace: ['lake'], name })).metadataLocation);
    } finally {
      await catalog.close();
    }
  };
  /** registers a Parquet file (no field ids: ids by position) holding `ids` into lake.<name>, as add_files would */
  const foreignAppend = async (name: string, ids: number[], v: number[]): Promise<void> => {
    const dir = join(warehouse, 'imported');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${name}-${Date.now()}.parquet`);
    const table = tableFromArrays({ id: Int32Array.from(ids), v: Int32Array.from(v) });
    writeFileSync(path, writeParquet(WasmTable.fromIPCStream(tableToIPC(table, 'stream'))));
    const catalog = await openSqlCatalog({ catalogName: 'lakegate', warehouse });
    try {
      const { io } = catalogIO();
      const id = { namespace: ['lake'], name };
      const md = await loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);
      await appendDataFiles(catalog, io, id, currentSchema(md), [{ path, fileSizeInBytes: statSync(path).size, recordCount: ids.length, metrics: [] }]);
    } finally {
      await catalog.close();
    }
  };
  const groupByKey = 'SELECT id, max(v) FROM lake.k GROUP BY id ORDER BY id';
  /** aggregate_over_unique_rows made the GROUP BY a projection (`k.v AS max`): the plan relies on the key */
  const reliesOnKey = async (): Promise<boolean> => {
    const p = await plan(groupByKey);
    return /k\.v AS max/.test(p) && !/Aggregate/.test(p);
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    await client.query('CREATE TABLE lake.k (id int4 PRIMARY KEY, v int4)');
    await client.query('INSERT INTO lake.k VALUES (1, 10), (2, 20)');
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('lakegate writes carry the proof: GROUP BY the key needs no aggregate', async () => {
    await client.query('BEGIN');
    await client.query('INSERT INTO lake.k VALUES (3, 30)');
    await client.query('COMMIT');
    const md = await metadata('k');
    expect(findSnapshot(md, null)?.summary[KEYS_VERIFIED_SUMMARY]).toBe('1');
    expect(await reliesOnKey()).toBe(true);
    expect(await rows(groupByKey)).toEqual([['1', '10'], ['2', '20'], ['3', '30']]);
  });

  it('rows another engine wrote with a duplicate key are aggregated for real', async () => {
    await foreignAppend('k', [1], [99]);
    expect(await rows('SELECT count(*) FROM lake.k')).toEqual([['4']]);
    expect(await reliesOnKey()).toBe(false);
    expect(await rows(groupByKey)).toEqual([['1', '99'], ['2', '20'], ['3', '30']]);
    expect(await rows('SELECT id, count(*) FROM lake.k GROUP BY id ORDER BY id')).toEqual([['1', '2'], ['2', '1'], ['3', '1']]);
    expect(await rows('SELECT count(DISTINCT id) FROM (SELECT DISTINCT id, v FROM lake.k) s')).toEqual([['3']]);
    // the key still shows, as the table declares it
    expect(await rows(`SELECT conname, contype FROM pg_constraint WHERE conrelid = 'lake.k'::regclass`)).toEqual([['k_pkey', 'p']]);
  });

  it('a lakegate write over unverified rows does not restore the proof', async () => {
    await client.query('INSERT INTO lake.k VALUES (4, 40)');
    expect(findSnapshot(await metadata('k'), null)?.summary[KEYS_VERIFIED_SUMMARY]).toBeUndefined();
    expect(await reliesOnKey()).toBe(false);
    expect(await rows(groupByKey)).toEqual([['1', '99'], ['2', '20'], ['3', '30'], ['4', '40']]);
  });

  it('ALTER TABLE ADD PRIMARY KEY verifies the rows again', async () => {
    await client.query('DELETE FROM lake.k WHERE v = 99');
    await client.query('ALTER TABLE lake.k DROP CONSTRAINT k_pkey');
    await client.query('ALTER TABLE lake.k ADD PRIMARY KEY (id)');
    const md = await metadata('k');
    expect(md.properties[KEYS_VERIFIED_SNAPSHOT_PROPERTY]).toBe(`${findSnapshot(md, null)!.snapshotId}:1`);
    expect(await reliesOnKey()).toBe(true);
    // and the next lakegate write carries it on
    await client.query('INSERT INTO lake.k VALUES (5, 50)');
    expect(findSnapshot(await metadata('k'), null)?.summary[KEYS_VERIFIED_SUMMARY]).toBe('1');
    expect(await reliesOnKey()).toBe(true);
    expect(await rows(groupByKey)).toEqual([['1', '10'], ['2', '20'], ['3', '30'], ['4', '40'], ['5', '50']]);
  });

  it('ADD PRIMARY KEY over rows with a duplicate fails and leaves the plan aggregating', async () => {
    await foreignAppend('k', [2], [98]);
    await client.query('ALTER TABLE lake.k DROP CONSTRAINT k_pkey');
    await expect(client.query('ALTER TABLE lake.k ADD PRIMARY KEY (id)')).rejects.toMatchObject({ code: '23505' });
    expect(await reliesOnKey()).toBe(false);
    expect(await rows(groupByKey)).toEqual([['1', '10'], ['2', '98'], ['3', '30'], ['4', '40'], ['5', '50']]);
  });
});
