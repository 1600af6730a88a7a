/**
 * Row deltas (UPDATE / DELETE) against the embedded SQL catalog, driven through the RowDelta API the
 * executor uses: the delete manifest's entries (content 1, inherited sequence numbers), and optimistic
 * concurrency — a concurrent append is retried over, a concurrent delete from the same data file or the
 * removal of that file is 40001, and nothing of the losing statement becomes visible.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../../catalog/iceberg/index.ts';
import type { RowDelta } from '../../catalog/table-source.ts';
import { FileIO } from '../../storage/index.ts';
import { icebergIOFromFileIO } from '../io.ts';
import { writableIcebergIO, type IcebergWriteIO } from '../write/write-io.ts';
import { createIcebergTable } from './create-table.ts';
import { insertIntoIcebergTable, type IcebergTableWriter } from './table-writer.ts';
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
const signal = new AbortController().signal;

describe('row delta commits', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-rowdelta-'));
  const fileIO = new FileIO();
  const io: IcebergWriteIO = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
  const id = { namespace: ['ns'], name: 't' };
  let catalog: IcebergCatalog;
  let writer: IcebergTableWriter;

  const load = async () => loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);
  const source = async () => new IcebergTableSource(io, await load(), { writer });
  const ids = async (): Promise<bigint[]> => {
    const out: bigint[] = [];
    for await (const b of (await source()).scan({ signal })) out.push(...(b.columns[0] as bigint[]));
    return out.sort((a, b) => (a < b ? -1 : 1));
  };
  const insert = async (rows: unknown[][]) => { const md = await load(); await insertIntoIcebergTable(writer, md, currentSchema(md), one(rows)); };
  /** scans with row ids and deletes the rows whose id `pick` accepts (not committed yet) */
  const prepare = async (op: 'update' | 'delete', pick: (id: bigint) => boolean): Promise<RowDelta> => {
    const delta = (await source()).rowLevel!.begin(op);
    for await (const b of delta.scan({ signal } as never)) {
      for (let i = 0; i < b.length; i++) if (pick(b.columns[0]![i] as bigint)) delta.delete(b.columns[2]![i] as string, b.columns[3]![i] as bigint);
    }
    return delta;
  };

  beforeAll(async () => {
    catalog = await openSqlCatalog({ warehouse });
    await catalog.createNamespace(['ns']);
    writer = { catalog, io, id };
    await createIcebergTable(catalog, io, id, [
      { name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
      { name: 'name', type: { oid: Oid.text, typmod: -1 }, nullable: true },
    ]);
    await insert([[1n, 'a'], [2n, 'b'], [3n, 'c']]);
    await insert([[4n, 'd'], [5n, 'e']]);
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('writes a delete manifest of position delete files with inherited sequence numbers', async () => {
    const delta = await prepare('delete', (x) => x === 2n);
    await delta.commit();
    const md = await load();
    const snap = md.snapshots.at(-1)!;
    expect(snap.sequenceNumber).toBe(3n);
    const list = await readManifestList(io, snap.manifestList!);
    const deletes = list.filter((m) => m.content === 1);
    expect(deletes.map((m) => [m.sequenceNumber, m.addedSnapshotId, m.addedFilesCount, m.addedRowsCount])).toEqual([[3n, snap.snapshotId, 1, 1n]]);
    const [entry] = (await readManifest(io, deletes[0]!)).entries;
    expect([entry!.status, entry!.sequenceNumber, entry!.snapshotId, entry!.dataFile.content, entry!.dataFile.fileFormat]).toEqual([1, 3n, snap.snapshotId, 1, 'PARQUET']);
    expect(entry!.dataFile.referencedDataFile).toMatch(/\.parquet$/);
    // file_path bounds in full (lower = upper = the one data file), pos bounds = the deleted position
    const text = (b: Uint8Array | undefined) => Buffer.from(b!).toString('utf8');
    expect([text(entry!.dataFile.lowerBounds.get(2147483546)), text(entry!.dataFile.upperBounds.get(2147483546))]).toEqual([entry!.dataFile.referencedDataFile, entry!.dataFile.referencedDataFile]);
    expect(Buffer.from(entry!.dataFile.lowerBounds.get(2147483545)!).readBigInt64LE()).toBe(1n);
    expect(await ids()).toEqual([1n, 3n, 4n, 5n]);
  });

  it('retries over a concurrent append', async () => {
    const delta = await prepare('delete', (x) => x === 3n);
    await insert([[6n, 'f']]);
    await delta.commit();
    expect(await ids()).toEqual([1n, 4n, 5n, 6n]);
  });

  it('a concurrent delete from the same data file is 40001 and leaves the winner only', async () => {
    const loser = await prepare('delete', (x) => x === 4n);
    const winner = await prepare('delete', (x) => x === 5n);
    await winner.commit();
    const before = (await load()).snapshots.length;
    await expect(loser.commit()).rejects.toMatchObject({ code: '40001', message: 'could not serialize access due to concurrent update' });
    expect((await load()).snapshots.length).toBe(before);
    expect(await ids()).toEqual([1n, 4n, 6n]);
  });

  it('a concurrent removal of the data file is 40001; deletes in other files are fine', async () => {
    const loser = await prepare('update', (x) => x === 1n);
    await loser.insert(batchFromRows([[1n, 'A']], 2));
    const other = await prepare('delete', (x) => x === 6n); // another data file: no conflict
    const remover = await prepare('delete', (x) => x === 1n); // every live row of the file: dropped whole
    await remover.commit();
    await other.commit();
    await expect(loser.commit()).rejects.toMatchObject({ code: '40001' });
    expect(await ids()).toEqual([4n]);
  });

  it('format version 1 tables have no row-level deletes: 0A000', async () => {
    const v1 = { namespace: ['ns'], name: 'legacy' };
    await createIcebergTable(catalog, io, v1, [{ name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false }], { formatVersion: 1 });
    const md = await loadTableMetadata(io, (await catalog.loadTableLocation(v1)).metadataLocation);
    const src = new IcebergTableSource(io, md, { writer: { catalog, io, id: v1 } });
    expect(() => src.rowLevel!.begin('delete')).toThrow(expect.objectContaining({ code: '0A000' }) as Error);
  });
});
