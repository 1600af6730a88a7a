/**
 * KeyCheck against the embedded SQL catalog on a temp warehouse: the new keys are looked up only in the data
 * files whose bounds can hold them (key columns only), and a commit that loses its compare-and-swap to a
 * writer that added one of its keys fails with 23505 on the retry, with nothing of it committed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../../catalog/iceberg/index.ts';
import { FileIO } from '../../storage/index.ts';
import { icebergIOFromFileIO } from '../io.ts';
import { writableIcebergIO, type IcebergWriteIO } from '../write/write-io.ts';
import { createIcebergTable } from '../commit/create-table.ts';
import { insertIntoIcebergTable } from '../commit/table-writer.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';
import { currentSchema } from '../spec/table-metadata.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { batchFromRows, type Batch } from '../../common/batch.ts';
import { IcebergTableSource } from '../iceberg-table-source.ts';
import { KeyCheck } from './key-check.ts';

async function* one(rows: unknown[][]): AsyncIterable<Batch> {
  yield batchFromRows(rows, 2);
}

const range = (from: number, n: number): unknown[][] => Array.from({ length: n }, (_, i) => [BigInt(from + i), `v${from + i}`]);

describe('KeyCheck', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-keycheck-'));
  const fileIO = new FileIO();
  const io: IcebergWriteIO = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
  const id = { namespace: ['ns'], name: 't' };
  let catalog: IcebergCatalog;
  const load = async () => loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);

  beforeAll(async () => {
    catalog = await openSqlCatalog({ warehouse });
    await catalog.createNamespace(['ns']);
    await createIcebergTable(catalog, io, id, [
      { name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
      { name: 'v', type: { oid: Oid.text, typmod: -1 }, nullable: true },
    ], { primaryKey: [0] });
    // four files of disjoint key ranges
    for (let f = 0; f < 4; f++) {
      const md = await load();
      await insertIntoIcebergTable({ catalog, io, id }, md, currentSchema(md), one(range(f * 1000 + 1, 1000)));
    }
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('reads only the key column of the files whose bounds hold a new key, only its rows that may match', async () => {
    const md = await load();
    const check = KeyCheck.of(io, md, currentSchema(md), { schema: 'ns', name: 't' })!;
    check.observe(batchFromRows([[5000n, 'new'], [2500n, 'dup']], 2));
    await expect(check.validate(md)).rejects.toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "t_pkey"', detail: 'Key (id)=(2500) already exists.' });
    // one file by its bounds, and in it only the row the key predicate keeps (late materialization)
    expect(check.lastProbe).toMatchObject({ filesTotal: 4, filesRead: 1, rowsRead: 1 });
    const fresh = KeyCheck.of(io, md, currentSchema(md), { schema: 'ns', name: 't' })!;
    fresh.observe(batchFromRows([[5000n, 'new'], [6000n, 'new']], 2));
    await fresh.validate(md);
    expect(fresh.lastProbe).toMatchObject({ filesRead: 0, rowsRead: 0 });
  });

  it('a table without keys gets no check', async () => {
    const md = await load();
    const schema = { ...currentSchema(md), identifierFieldIds: [] };
    expect(KeyCheck.of(io, md, schema, { schema: 'ns', name: 't' })).toBeNull();
  });

  it('a commit retried on top of a writer that added one of its keys fails with 23505 and commits nothing', async () => {
    const md = await load();
    let raced = false;
    // the first compare-and-swap loses to a writer that commits key 7000 just before it
    const racing: IcebergCatalog = Object.create(catalog, {
      commitTable: {
        value: async (tid: typeof id, expected: string, next: string): Promise<void> => {
          if (!raced) {
            raced = true;
            const now = await load();
            await insertIntoIcebergTable({ catalog, io, id }, now, currentSchema(now), one([[7000n, 'winner']]));
          }
          return catalog.commitTable(tid, expected, next);
        },
      },
    }) as IcebergCatalog;
    await expect(insertIntoIcebergTable({ catalog: racing, io, id }, md, currentSchema(md), one([[7001n, 'a'], [7000n, 'loser']])))
      .rejects.toMatchObject({ code: '23505', detail: 'Key (id)=(7000) already exists.' });
    expect(raced).toBe(true);
    const after = await load();
    const keys: unknown[] = [];
    for await (const b of new IcebergTableSource(io, after).scan({ signal: new AbortController().signal, filters: [{ kind: 'compare', op: '>=', column: 0, value: 7000n }] })) {
      for (let i = 0; i < b.length; i++) if ((b.columns[0]![i] as bigint) >= 7000n) keys.push(b.columns[1]![i]);
    }
    expect(keys).toEqual(['winner']);
  });
});
