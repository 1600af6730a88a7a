/**
 * catalog/iceberg: Iceberg catalogs (metadata-location pointers with compare-and-swap commits).
 * See README.md.
 */
export type {
  IcebergCatalog,
  Namespace,
  NamespaceProperties,
  PropertiesUpdateSummary,
  TableIdentifier,
  TableLocation,
  TableCommitChange,
} from './iceberg-catalog.ts';
export { namespaceToString, stringToNamespace, tableIdentifierToString, sameTableIdentifier } from './iceberg-catalog.ts';
export { SqlCatalog, DEFAULT_CATALOG_NAME, type SqlCatalogOptions } from './sql-catalog.ts';
export {
  openSqlCatalog,
  resolveCatalogDatabase,
  DEFAULT_SQLITE_FILE_NAME,
  type OpenSqlCatalogOptions,
  type CatalogDatabase,
} from './open-sql-catalog.ts';
export type { SqlDialect, SqlExecutor, SqlRow, SqlValue } from './sql-dialect.ts';
export { SqliteDialect, type SqliteDialectOptions } from './sqlite-dialect.ts';
export { PostgresDialect, type PostgresDialectOptions } from './postgres-dialect.ts';
export {
  defaultNamespaceLocation,
  defaultTableLocation,
  metadataFileLocation,
  newMetadataFileLocation,
  nextMetadataFileLocation,
  parseMetadataVersion,
  stripTrailingSlash,
  type MetadataFileOptions,
  type MetadataCompression,
} from './warehouse-layout.ts';
