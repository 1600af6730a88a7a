/** iceberg/metadata-tables: Trino-style `"t$snapshots"`… metadata tables and the snapshot-management procedures. */
export { MetadataTableSource, METADATA_TABLE_KINDS, isMetadataTableKind, splitMetadataTableName, type MetadataTableKind } from './metadata-table-source.ts';
export { MetadataTableOids, metadataTableOids, metadataRelation, findMetadataRelation, metadataRelationByOid } from './metadata-relations.ts';
export { setCurrentSnapshot, nextMetadataFile, type SetCurrentSnapshotRequest, type SetCurrentSnapshotResult, type MetadataPointerStore } from './set-current-snapshot.ts';
