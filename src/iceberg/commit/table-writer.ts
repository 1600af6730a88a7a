/**
 * The write capability IcebergTables hands to an IcebergTableSource (the current snapshot of a table in
 * this server's catalog): `insertIntoIcebergTable` streams the statement's batches into Parquet files,
 * then makes them one append snapshot (append-commit.ts) and tells the engine to refresh its mirror.
 * One statement = one atomic commit; an error anywhere before the catalog swap commits nothing.
 */
import { targetFileSizeOf } from '../table-properties.ts';
import type { Batch } from '../../common/batch.ts';
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { stripTrailingSlash } from '../../catalog/iceberg/warehouse-layout.ts';
import type { Schema } from '../spec/schema.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { ParquetDataWriter, type DataFileInfo } from '../write/parquet-data-writer.ts';
import type { ManifestPartitioning } from '../write/partition-avro.ts';
import { PartitionedDataWriter } from '../write/partitioned-data-writer.ts';
import { specById } from '../spec/table-metadata.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { appendDataFiles } from './append-commit.ts';
import { KeyCheck } from '../keys/key-check.ts';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

export interface IcebergTableWriter {
  readonly catalog: IcebergCatalog;
  readonly io: IcebergWriteIO;
  readonly id: TableIdentifier;
  /** called after a successful commit (the engine re-reads the catalog) */
  readonly afterCommit?: () => Promise<void>;
  /** roll data files at this many (uncompressed Arrow) bytes; default 48 MiB (DEFAULT_TARGET_FILE_SIZE) */
  readonly targetFileSizeBytes?: number;
  readonly maxRetries?: number;
}

export function dataLocation(md: TableMetadata): string {
  return stripTrailingSlash(md.properties['write.data.path'] ?? md.properties['write.folder-storage.path'] ?? `${stripTrailingSlash(md.location)}/data`);
}

/** rolling data files for the table's default spec (one writer per partition when partitioned) */
export interface OpenDataWriter {
  readonly files: {
    add(b: Batch): Promise<void>;
    close(): Promise<(DataFileInfo & { readonly partition?: readonly unknown[] })[]>;
    /** a failed statement: removes the files written so far (none was committed) */
    abort(): Promise<void>;
  };
  readonly partitioning: ManifestPartitioning;
}

export function openDataWriter(writer: IcebergTableWriter, md: TableMetadata, schema: Schema): OpenDataWriter {
  // the table's write.target-file-size-bytes wins over the server's setting (table-properties.ts)
  const targetFileSizeBytes = targetFileSizeOf(md.properties) ?? writer.targetFileSizeBytes;
  const fileOptions = {
    relationName: writer.id.name,
    ...(targetFileSizeBytes === undefined ? {} : { targetFileSizeBytes }),
    ...(md.properties['write.parquet.compression-codec'] === undefined ? {} : { compressionCodec: md.properties['write.parquet.compression-codec'] }),
  };
  // a partitioned default spec: one rolling file per partition tuple under data/<partition path>/
  const spec = specById(md, md.defaultSpecId);
  const partitioning = { specId: spec.specId, fields: bindPartitionSpec(spec, schema) };
  const files = partitioning.fields.length === 0
    ? new ParquetDataWriter(writer.io, dataLocation(md), schema, fileOptions)
    : new PartitionedDataWriter(writer.io, dataLocation(md), schema, partitioning.fields, fileOptions);
  return { files, partitioning };
}

export async function insertIntoIcebergTable(writer: IcebergTableWriter, md: TableMetadata, schema: Schema, batches: AsyncIterable<Batch>, signal?: AbortSignal): Promise<number> {
  const { files, partitioning } = openDataWriter(writer, md, schema);
  // PRIMARY KEY / UNIQUE (keys/key-check.ts): keys taken from each batch before the writer may recycle its buffers
  const keys = KeyCheck.of(writer.io, md, schema, { schema: writer.id.namespace.join('.'), name: writer.id.name });
  let count = 0;
  let written;
  try {
    for await (const b of batches) {
      keys?.observe(b);
      await files.add(b);
      count += b.length;
    }
    written = await files.close();
  } catch (e) {
    // nothing is committed before the catalog swap: the statement's own files are removed, not left as orphans
    await files.abort();
    throw e;
  }
  let result;
  try {
    result = await appendDataFiles(writer.catalog, writer.io, writer.id, schema, written, {
      ...(writer.maxRetries === undefined ? {} : { maxRetries: writer.maxRetries }),
      partitioning,
      ...(keys === null ? {} : { validate: (current: TableMetadata) => keys.validate(current) }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (e) {
    // a key violation, every attempt lost its race, or a cancel while waiting for the table's append turn
    // (appendDataFiles throws all three before a swap that took effect): the statement's files were never committed
    if (e instanceof GatewayError && (e.code === SqlState.unique_violation || e.code === SqlState.serialization_failure || e.code === SqlState.query_canceled)) await files.abort();
    throw e;
  }
  if (result !== null) await writer.afterCommit?.();
  return count;
}
