/** iceberg/: reading Apache Iceberg tables (metadata JSON, Avro manifests, Parquet data and delete files). */
export { type IcebergIO, type FileIOLike, LocalPrefixIO, icebergIOFromFileIO } from './io.ts';
export * from './spec/schema.ts';
export * from './spec/partition-spec.ts';
export * from './spec/table-metadata.ts';
export { loadTableMetadata, findLatestMetadataFile, metadataFileVersion } from './spec/metadata-file.ts';
export { readAvroFile, type AvroFile } from './spec/avro-file.ts';
export * from './spec/manifest-list.ts';
export * from './spec/manifest.ts';
export { toSqlType, decodeSingleValue, fromAvroValue, fromJsonSingleValue } from './spec/types.ts';
export { planScan, manifestsOfSnapshot, partitionKey, type FileScanTask, type DeleteFileRef, type ScanPlan } from './scan/table-scan.ts';
export { readParquetColumns, type ParquetColumnRequest, type ColumnChunk } from './read/parquet-reader.ts';
export { DeleteLoader, tupleKey } from './read/delete-loader.ts';
export { readFileScanTask, missingValueOf } from './read/file-scan-task-reader.ts';
// pruning (issue #4): predicates bound to field ids, Parquet footers and row-group statistics
export { bindPredicates, type BoundPredicate } from './scan/bound-predicate.ts';
export { mightMatch, type FieldStats } from './scan/stats-evaluator.ts';
export { readParquetFooter, type ParquetFooter } from './read/parquet-footer.ts';
export { selectRowGroups, rowGroupFieldStats } from './read/row-group-stats.ts';
export { type ParquetReadOptions } from './read/parquet-reader.ts';
export { IcebergTableSource, type IcebergTableSourceOptions } from './iceberg-table-source.ts';
export { BrokenTableSource } from './broken-table-source.ts';
export { checkTableProperty, isTablePropertyName, targetFileSizeOf, TARGET_FILE_SIZE_PROPERTY } from './table-properties.ts';
export * from './metadata-tables/index.ts';
// write path (append commits)
export { type IcebergWriteIO, type FileIOWritable, writableIcebergIO } from './write/write-io.ts';
export { icebergTypeOf } from './write/iceberg-type-of.ts';
export { ParquetDataWriter, DEFAULT_TARGET_FILE_SIZE, type DataFileInfo } from './write/parquet-data-writer.ts';
export { createIcebergTable } from './commit/create-table.ts';
export { appendDataFiles, type AppendResult } from './commit/append-commit.ts';
export { insertIntoIcebergTable, type IcebergTableWriter } from './commit/table-writer.ts';
export { updateTableMetadata, setProperty, setColumnDoc } from './commit/update-metadata.ts';
export { purgeTableFiles, reachableFiles } from './commit/purge-table.ts';
export { setPartitioning } from './commit/partition-update.ts';
export { applySchemaChanges, isEmptyTable, type SchemaChange } from './commit/schema-update.ts';
export { partitioningItems, partitionFieldsFromOption } from './transforms/partitioning-option.ts';
export { partitionTransform, bucketHash } from './transforms/partition-transform.ts';
export { ScanPool, acquireSharedScanPool, sharedScanPool, type ScanPoolOptions } from './parallel/scan-pool.ts';
