/**
 * Where a catalog puts things when the user does not say: table locations under the warehouse and the
 * names of metadata files. Pure functions, following Iceberg Java (JdbcCatalog.defaultWarehouseLocation,
 * BaseMetastoreTableOperations.newTableMetadataFilePath).
 * @see https://iceberg.apache.org/spec/#file-system-tables (metadata file naming)
 */
import { randomUUID } from 'node:crypto';
import type { Namespace } from './iceberg-catalog.ts';

/** `s3://b/wh/` → `s3://b/wh` (LocationUtil.stripTrailingSlash; keeps `s3://` and `/` intact). */
export function stripTrailingSlash(location: string): string {
  let end = location.length;
  while (end > 1 && location[end - 1] === '/' && !location.slice(0, end).endsWith('://')) end--;
  return location.slice(0, end);
}

/** `<warehouse>/<level1>/<level2>` (JdbcCatalog.defaultNamespaceLocation); the warehouse itself for []. */
export function defaultNamespaceLocation(warehouse: string, namespace: Namespace): string {
  const root = stripTrailingSlash(warehouse);
  return namespace.length === 0 ? root : `${root}/${namespace.join('/')}`;
}

/** `<warehouse>/<ns levels>/<table>` (JdbcCatalog.defaultWarehouseLocation). */
export function defaultTableLocation(warehouse: string, namespace: Namespace, table: string): string {
  return `${defaultNamespaceLocation(warehouse, namespace)}/${table}`;
}

export type MetadataCompression = 'none' | 'gzip';

export interface MetadataFileOptions {
  /** `write.metadata.path` table property: metadata files go here instead of `<location>/metadata` */
  readonly metadataPath?: string;
  /** `write.metadata.compression-codec`: gzip names the file `….gz.metadata.json` */
  readonly compression?: MetadataCompression;
}

/** `<location>/metadata/00001-<uuid>.metadata.json`: version zero-padded to 5 digits, as Java's `%05d`. */
export function metadataFileLocation(
  tableLocation: string,
  version: number,
  uuid: string,
  options: MetadataFileOptions = {},
): string {
  if (!Number.isInteger(version) || version < 0) throw new RangeError(`invalid metadata version ${version}`);
  const dir = options.metadataPath !== undefined ? stripTrailingSlash(options.metadataPath) : `${stripTrailingSlash(tableLocation)}/metadata`;
  const ext = options.compression === 'gzip' ? '.gz.metadata.json' : '.metadata.json';
  return `${dir}/${String(version).padStart(5, '0')}-${uuid}${ext}`;
}

/** The same with a fresh random UUID. */
export function newMetadataFileLocation(tableLocation: string, version: number, options?: MetadataFileOptions): string {
  return metadataFileLocation(tableLocation, version, randomUUID(), options);
}

/**
 * Version of a metadata file (`…/00003-uuid.metadata.json` → 3; also the file-system-table form
 * `v3.metadata.json`), or -1 when the name has none (BaseMetastoreTableOperations.parseVersion).
 */
export function parseMetadataVersion(metadataLocation: string): number {
  const file = metadataLocation.slice(metadataLocation.lastIndexOf('/') + 1);
  const m = /^(\d+)-.+\.metadata\.json$/.exec(file) ?? /^v(\d+)(?:\.gz)?\.metadata\.json$/.exec(file);
  return m?.[1] === undefined ? -1 : Number.parseInt(m[1], 10);
}

/** Location of the metadata file that follows `current` (version + 1) in the same directory layout. */
export function nextMetadataFileLocation(tableLocation: string, currentMetadataLocation: string | null, options?: MetadataFileOptions): string {
  const version = currentMetadataLocation === null ? 0 : parseMetadataVersion(currentMetadataLocation) + 1;
  return newMetadataFileLocation(tableLocation, Math.max(version, 0), options);
}
