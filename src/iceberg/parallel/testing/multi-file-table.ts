/**
 * Test and benchmark helper: an Iceberg table in a local warehouse made of `files` data files (one append
 * each) of deterministic rows covering the types the workers pack differently (int, bigint, double,
 * numeric, text, date, timestamp, bool), with NULLs.
 */
import { existsSync } from 'node:fs';
import { batchFromRows, type Batch } from '../../../common/batch.ts';
import { Numeric } from '../../../common/pgtypes/numeric.ts';
import { Oid } from '../../../common/pgtypes/oids.ts';
import { openSqlCatalog, type IcebergCatalog } from '../../../catalog/iceberg/index.ts';
import { FileIO } from '../../../storage/index.ts';
import { icebergIOFromFileIO, type IcebergIO } from '../../io.ts';
import { writableIcebergIO } from '../../write/write-io.ts';
import { createIcebergTable } from '../../commit/create-table.ts';
import { insertIntoIcebergTable } from '../../commit/table-writer.ts';
import { loadTableMetadata } from '../../spec/metadata-file.ts';
import { currentSchema } from '../../spec/table-metadata.ts';
import { IcebergTableSource } from '../../iceberg-table-source.ts';

export const COLUMNS = [
  { name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
  { name: 'x', type: { oid: Oid.int4, typmod: -1 }, nullable: true },
  { name: 'f', type: { oid: Oid.float8, typmod: -1 }, nullable: true },
  { name: 'price', type: { oid: Oid.numeric, typmod: ((10 << 16) | 2) + 4 }, nullable: true },
  { name: 'name', type: { oid: Oid.text, typmod: -1 }, nullable: true },
  { name: 'd', type: { oid: Oid.date, typmod: -1 }, nullable: true },
  { name: 'ts', type: { oid: Oid.timestamp, typmod: -1 }, nullable: true },
  { name: 'ok', type: { oid: Oid.bool, typmod: -1 }, nullable: true },
] as const;

/** row `i` of the table (ids 0..files*rowsPerFile-1) */
export function rowOf(i: number): unknown[] {
  const n = i % 97 === 0;
  return [
    BigInt(i),
    n ? null : i % 1000,
    n ? null : i / 8,
    n ? null : Numeric.of(BigInt(i % 100_000), 2),
    n ? null : `name-${i % 5000}`,
    n ? null : 19_000 + (i % 365),
    n ? null : 1_700_000_000_000_000n + BigInt(i) * 1_000_000n,
    n ? null : i % 3 === 0,
  ];
}

async function* batchesOf(from: number, count: number): AsyncIterable<Batch> {
  const step = 65_536;
  for (let s = 0; s < count; s += step) {
    const rows: unknown[][] = [];
    for (let i = s; i < Math.min(count, s + step); i++) rows.push(rowOf(from + i));
    yield batchFromRows(rows, COLUMNS.length);
  }
}

export interface MultiFileTable {
  readonly io: IcebergIO;
  readonly fileIO: FileIO;
  readonly catalog: IcebergCatalog;
  load(): Promise<IcebergTableSource>;
  close(): Promise<void>;
}

/** Opens (or, the first time, writes) table `ns.t` in `warehouse`. */
export async function multiFileTable(warehouse: string, files: number, rowsPerFile: number): Promise<MultiFileTable> {
  const fileIO = new FileIO();
  const io = icebergIOFromFileIO(fileIO);
  const wio = writableIcebergIO(io, fileIO);
  const fresh = !existsSync(`${warehouse}/lakegate_catalog.db`);
  const catalog = await openSqlCatalog({ warehouse });
  const id = { namespace: ['ns'], name: 't' };
  const load = async (): Promise<IcebergTableSource> => new IcebergTableSource(io, await loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation));
  if (fresh) {
    await catalog.createNamespace(['ns']);
    await createIcebergTable(catalog, wio, id, COLUMNS, { warehouse });
    for (let k = 0; k < files; k++) {
      const md = (await load()).metadata;
      await insertIntoIcebergTable({ catalog, io: wio, id }, md, currentSchema(md), batchesOf(k * rowsPerFile, rowsPerFile));
    }
  }
  return { io, fileIO, catalog, load, close: async () => { await catalog.close(); fileIO.close(); } };
}
