/**
 * The COMMIT of a transaction block (engine/iceberg-transaction.ts) on real files and the embedded SQL
 * catalog, without a server: statements write through the transaction's staging catalog; another writer
 * commits to the real catalog meanwhile; COMMIT re-applies the staged snapshots onto it
 * (iceberg/commit/rebase-staged.ts) — snapshot ids kept, parents, sequence numbers, summaries, logs and
 * (v3) row lineage recomputed — and a compare-and-swap lost during COMMIT itself re-reads and retries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog, type TableCommitChange, type TableIdentifier } from '../../src/catalog/iceberg/index.ts';
import { batchFromRows, type Batch } from '../../src/common/batch.ts';
import { Oid } from '../../src/common/pgtypes/oids.ts';
import { IcebergTransaction } from '../../src/engine/iceberg-transaction.ts';
import { createIcebergTable } from '../../src/iceberg/commit/create-table.ts';
import { insertIntoIcebergTable } from '../../src/iceberg/commit/table-writer.ts';
import { IcebergTableSource } from '../../src/iceberg/iceberg-table-source.ts';
import { readManifestList } from '../../src/iceberg/spec/manifest-list.ts';
import { loadTableMetadata } from '../../src/iceberg/spec/metadata-file.ts';
import { currentSchema, type TableMetadata } from '../../src/iceberg/spec/table-metadata.ts';
import { writableIcebergIO } from '../../src/iceberg/write/write-io.ts';
import { FileIO } from '../../src/storage/index.ts';
import { icebergIOFromFileIO } from '../../src/iceberg/io.ts';
import { checkTableMetadata } from './txn-metadata-checks.ts';

async function* one(rows: unknown[][]): AsyncIterable<Batch> {
  yield batchFromRows(rows, 2);
}

describe('re-applying staged snapshots at COMMIT', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-txn-rebase-'));
  const fileIO = new FileIO();
  const io = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
  let catalog: IcebergCatalog;
  let n = 0;

  beforeAll(async () => {
    catalog = await openSqlCatalog({ warehouse });
    await catalog.createNamespace(['ns']);
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  const columns = [{ name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false }, { name: 'v', type: { oid: Oid.text, typmod: -1 }, nullable: true }];
  const newTable = async (formatVersion: 2 | 3 = 2): Promise<TableIdentifier> => {
    const id = { namespace: ['ns'], name: `t${++n}` };
    await createIcebergTable(catalog, io, id, columns, { formatVersion, warehouse });
    return id;
  };
  const load = async (c: IcebergCatalog, id: TableIdentifier): Promise<TableMetadata> => loadTableMetadata(io, (await c.loadTableLocation(id)).metadataLocation);
  /** one INSERT through catalog `c` (the real one: autocommit; the staging one: a statement of the block) */
  const insert = async (c: IcebergCatalog, id: TableIdentifier, rows: unknown[][]): Promise<void> => {
    const md = await load(c, id);
    await insertIntoIcebergTable({ catalog: c, io, id }, md, currentSchema(md), one(rows));
  };
  const ids = async (id: TableIdentifier): Promise<bigint[]> => {
    const out: bigint[] = [];
    for await (const b of new IcebergTableSource(io, await load(catalog, id)).scan({ signal: new AbortController().signal })) {
      for (let r = 0; r < b.length; r++) out.push(BigInt(b.columns[0]![r] as bigint));
    }
    return out.sort((x, y) => (x < y ? -1 : 1));
  };

  it('keeps the staged snapshot ids, parents them on the winner, advances sequence numbers and totals', async () => {
    const id = await newTable();
    await insert(catalog, id, [[1n, 'seed']]);
    const tx = new IcebergTransaction(catalog, io, () => {}, io);
    await insert(tx.staging, id, [[10n, 'tx'], [11n, 'tx']]);
    await insert(tx.staging, id, [[12n, 'tx']]);
    const staged = await load(tx.staging, id);
    const stagedIds = staged.snapshots.slice(1).map((s) => s.snapshotId);
    await insert(catalog, id, [[20n, 'winner']]);
    const winner = await load(catalog, id);
    const winnerLocation = (await catalog.loadTableLocation(id)).metadataLocation;
    await tx.commit();
    const t = await checkTableMetadata((await catalog.loadTableLocation(id)).metadataLocation);
    expect(t.chain.map((s) => s.snapshotId)).toEqual([winner.snapshots[0]!.snapshotId, winner.snapshots[1]!.snapshotId, ...stagedIds]);
    expect(t.chain.map((s) => s.sequenceNumber)).toEqual([1n, 2n, 3n, 4n]);
    expect(t.chain.map((s) => [s.summary['added-records'], s.summary['total-records'], s.summary['total-data-files']])).toEqual([
      ['1', '1', '1'], ['1', '2', '2'], ['2', '4', '3'], ['1', '5', '4'],
    ]);
    // the metadata log: every committed file, the winner's last; the staged files are not in it
    expect(t.md.metadataLog.at(-1)!.metadataFile).toBe(winnerLocation);
    expect(t.md.metadataLog).toHaveLength(winner.metadataLog.length + 1);
    expect(t.md.metadataLog.map((e) => e.metadataFile)).not.toContain((await tx.staging.loadTableLocation(id)).metadataLocation);
    // the first re-applied manifest list: its own manifest first, with the new sequence number, then the winner's
    const list = await readManifestList(io, t.chain[2]!.manifestList!);
    expect(list.map((m) => [m.addedSnapshotId, m.sequenceNumber])).toEqual([[stagedIds[0], 3n], [winner.snapshots[1]!.snapshotId, 2n], [winner.snapshots[0]!.snapshotId, 1n]]);
    expect(await ids(id)).toEqual([1n, 10n, 11n, 12n, 20n]);
  });

  it('v3: the re-applied snapshots get row ids after the winner\'s (first-row-id, added-rows, next-row-id)', async () => {
    const id = await newTable(3);
    await insert(catalog, id, [[1n, 'seed'], [2n, 'seed']]);
    const tx = new IcebergTransaction(catalog, io, () => {}, io);
    await insert(tx.staging, id, [[10n, 'tx'], [11n, 'tx'], [12n, 'tx']]);
    await insert(catalog, id, [[20n, 'winner']]);
    await tx.commit();
    const t = await checkTableMetadata((await catalog.loadTableLocation(id)).metadataLocation);
    expect(t.chain.map((s) => [s.firstRowId, s.addedRows])).toEqual([[0n, 2n], [2n, 1n], [3n, 3n]]);
    expect(t.md.nextRowId).toBe(6n);
    const list = await readManifestList(io, t.chain[2]!.manifestList!);
    expect(list.map((m) => m.firstRowId)).toEqual([3n, 2n, 0n]);
  });

  it('a compare-and-swap lost during COMMIT itself: re-reads, re-applies onto the new winner, commits', async () => {
    const id = await newTable();
    let raced = 0;
    // the real catalog, except that one other writer commits right before our first swap
    const racing: IcebergCatalog = Object.create(catalog, {
      commitTables: {
        value: async (changes: readonly TableCommitChange[]) => {
          if (raced++ === 0) await insert(catalog, id, [[30n, 'racer']]);
          return catalog.commitTables!(changes);
        },
      },
    }) as IcebergCatalog;
    const tx = new IcebergTransaction(racing, io, () => {}, io);
    await insert(tx.staging, id, [[1n, 'tx']]);
    await tx.commit();
    expect(raced).toBe(2);
    expect(await ids(id)).toEqual([1n, 30n]);
    const t = await checkTableMetadata((await catalog.loadTableLocation(id)).metadataLocation);
    expect(t.chain.map((s) => s.summary['total-records'])).toEqual(['1', '2']);
  });

  it('a catalog without multi-table commits: table by table, each re-applied', async () => {
    const [x, y] = [await newTable(), await newTable()];
    // the same catalog seen without commitTables (as a catalog that cannot swap several pointers at once)
    const single = new Proxy(catalog, {
      get: (target, p) => {
        if (p === 'commitTables') return undefined;
        const v = Reflect.get(target, p) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const tx = new IcebergTransaction(single, io, () => {}, io);
    await insert(tx.staging, x, [[1n, 'tx']]);
    await insert(tx.staging, y, [[1n, 'tx']]);
    await insert(catalog, x, [[2n, 'other']]);
    await insert(catalog, y, [[2n, 'other']]);
    await tx.commit();
    expect(await ids(x)).toEqual([1n, 2n]);
    expect(await ids(y)).toEqual([1n, 2n]);
  });
});
