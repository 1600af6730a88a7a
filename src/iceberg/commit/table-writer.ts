/**
 * The write capability IcebergTables hands to an IcebergTableSource (the current snapshot of a table in
 * this server's catalog): `insertIntoIcebergTable` streams the statement's batches into Parquet files,
 * then makes them one append snapshot (append-commit.ts) and tells the engine to refresh its mirror.
 * One statement = one atomic commit; an error anywhere before the catalog swap commits nothing.
 */
import type { Batch } from '../../common/batch.ts';
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { stripTrailingSlash } from '../../catalog/iceberg/warehouse-layout.ts';
import type { Schema } from '../spec/schema.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { appendDataFiles } from './append-commit.ts';

export interface IcebergTableWriter {
  readonly catalog: IcebergCatalog;
  readonly io: IcebergWriteIO;
  readonly id: TableIdentifier;
  /** called after a successful commit (the engine re-reads the catalog) */
  readonly afterCommit?: () => Promise<void>;
  /** roll data files at this many (uncompressed Arrow) bytes; default 128 MiB */
  readonly targetFileSizeBytes?: number;
  readonly maxRetries?: number;
}

export function dataLocation(md: TableMetadata): string {
  return stripTrailingSlash(md.properties['write.data.path'] ?? md.properties['write.folder-storage.path'] ?? `${stripTrailingSlash(md.location)}/data`);
}

export async function insertIntoIcebergTable(writer: IcebergTableWriter, md: TableMetadata, schema: Schema, batches: AsyncIterable<Batch>): Promise<number> {
  const files = new ParquetDataWriter(writer.io, dataLocation(md), schema, {
    relationName: writer.id.name,
    ...(writer.targetFileSizeBytes === undefined ? {} : { targetFileSizeBytes: writer.targetFileSizeBytes }),
  });
  let count = 0;
  for await (const b of batches) {
    await files.add(b);
    count += b.length;
  }
  const written = await files.close();
  const result = await appendDataFiles(writer.catalog, writer.io, writer.id, schema, written, writer.maxRetries === undefined ? {} : { maxRetries: writer.maxRetries });
  if (result !== null) await writer.afterCommit?.();
  return count;
}
