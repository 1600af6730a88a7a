/**
 * Create + append commits against the embedded SQL catalog on a temp warehouse: the metadata written
 * (snapshots, sequence numbers, summaries, logs, refs, lossless ids), manifests read back by the reader,
 * and a lost compare-and-swap retried on the winner's metadata.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../../catalog/iceberg/index.ts';
import { FileIO } from '../../storage/index.ts';
import { icebergIOFromFileIO } from '../io.ts';
import { writableIcebergIO, type IcebergWriteIO } from '../write/write-io.ts';
import { createIcebergTable } from './create-table.ts';
import { insertIntoIcebergTable } from './table-writer.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';
import { readManifestList } from '../spec/manifest-list.ts';
import { readManifest } from '../spec/manifest.ts';
import { IcebergTableSource } from '../iceberg-table-source.ts';
import { currentSchema } from '../spec/table-metadata.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { batchFromRows, type Batch } from '../../common/batch.ts';

async function* one(rows: unknown[][]): AsyncIterable<Batch> {
  yield batchFromRows(rows, 2);
}

describe('append commits', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-commit-'));
  const fileIO = new FileIO();
  const io: IcebergWriteIO = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
  const id = { namespace: ['ns'], name: 't' };
  let catalog: IcebergCatalog;

  beforeAll(async () => {
    catalog = await openSqlCatalog({ warehouse });
    await catalog.createNamespace(['ns']);
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  const load = async () => loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);
  const count = async (md: Awaited<ReturnType<typeof load>>, snapshotId?: bigint): Promise<number> => {
    let n = 0;
    for await (const b of new IcebergTableSource(io, md, snapshotId === undefined ? {} : { snapshotId }).scan({ signal: new AbortController().signal })) n += b.length;
    return n;
  };

  it('creates a v2 table at the warehouse layout location', async () => {
    const loc = await createIcebergTable(catalog, io, id, [
      { name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
      { name: 'name', type: { oid: Oid.varchar, typmod: 14 }, nullable: true },
    ]);
    expect(loc).toMatch(new RegExp(`^${warehouse}/ns/t/metadata/00000-[0-9a-f-]{36}\\.metadata\\.json$`));
    const md = await load();
    expect(md.formatVersion).toBe(2);
    expect(md.currentSnapshotId).toBeNull();
    expect(currentSchema(md).fields.map((f) => [f.id, f.name, f.required, f.type])).toEqual([
      [1, 'id', true, { kind: 'primitive', name: 'long' }],
      [2, 'name', false, { kind: 'primitive', name: 'string' }],
    ]);
    await expect(createIcebergTable(catalog, io, id, [])).rejects.toMatchObject({ code: '42P07' });
  });

  it('appends snapshots with sequence numbers, summaries, logs and the previous manifests', async () => {
    const base = await load();
    const writer = { catalog, io, id };
    expect(await insertIntoIcebergTable(writer, base, currentSchema(base), one([[1n, 'a'], [2n, null]]))).toBe(2);
    const md1 = await load();
    expect(await insertIntoIcebergTable(writer, md1, currentSchema(md1), one([[3n, 'c']]))).toBe(1);
    const md2 = await load();
    expect(md2.lastSequenceNumber).toBe(2n);
    expect(md2.snapshots.map((s) => s.sequenceNumber)).toEqual([1n, 2n]);
    const [s1, s2] = md2.snapshots as [typeof md2.snapshots[0], typeof md2.snapshots[0]];
    expect(s2.parentSnapshotId).toBe(s1.snapshotId);
    expect(md2.refs.get('main')?.snapshotId).toBe(s2.snapshotId);
    expect(md2.snapshotLog.map((e) => e.snapshotId)).toEqual([s1.snapshotId, s2.snapshotId]);
    expect(md2.metadataLog).toHaveLength(2);
    expect(s2.summary).toMatchObject({ operation: 'append', 'added-data-files': '1', 'added-records': '1', 'total-records': '3', 'total-data-files': '2' });
    // ids are written as exact JSON integers
    const text = readFileSync((await catalog.loadTableLocation(id)).metadataLocation, 'utf8');
    expect(text).toContain(`"current-snapshot-id": ${s2.snapshotId}`);
    const list = await readManifestList(io, s2.manifestList!);
    expect(list.map((m) => [m.sequenceNumber, m.addedSnapshotId])).toEqual([[2n, s2.snapshotId], [1n, s1.snapshotId]]);
    const entries = (await readManifest(io, list[1]!)).entries;
    expect(entries.map((e) => [e.status, e.snapshotId, e.sequenceNumber, e.dataFile.recordCount])).toEqual([[1, s1.snapshotId, 1n, 2n]]);
    expect(entries[0]!.dataFile.nullValueCounts.get(2)).toBe(1n);
    expect(await count(md2)).toBe(3);
    expect(await count(md2, s1.snapshotId)).toBe(2);
  });

  it('retries a lost compare-and-swap on top of the winner', async () => {
    const md = await load();
    let raced = false;
    const racing: IcebergCatalog = Object.create(catalog, {
      commitTable: {
        value: async (tid: typeof id, expected: string, next: string) => {
          if (!raced) {
            raced = true; // another writer commits first
            await insertIntoIcebergTable({ catalog, io, id }, md, currentSchema(md), one([[100n, 'winner']]));
          }
          return catalog.commitTable(tid, expected, next);
        },
      },
    }) as IcebergCatalog;
    await insertIntoIcebergTable({ catalog: racing, io, id }, md, currentSchema(md), one([[200n, 'retried']]));
    const after = await load();
    expect(after.snapshots).toHaveLength(4);
    expect(after.lastSequenceNumber).toBe(4n);
    expect(await count(after)).toBe(5);
    expect(after.snapshots[3]!.summary['total-records']).toBe('5');
  });

  it('gives up with 40001 after the retry budget', async () => {
    const md = await load();
    const failing: IcebergCatalog = Object.create(catalog, {
      commitTable: { value: async () => { const { pgError } = await import('../../common/errors.ts'); throw pgError('40001', 'could not serialize access due to concurrent update'); } },
    }) as IcebergCatalog;
    await expect(insertIntoIcebergTable({ catalog: failing, io, id, maxRetries: 1 }, md, currentSchema(md), one([[1n, 'x']]))).rejects.toMatchObject({ code: '40001' });
    expect((await load()).snapshots).toHaveLength(4);
  });
});
