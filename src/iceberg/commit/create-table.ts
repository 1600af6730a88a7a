/**
 * CREATE TABLE on an Iceberg namespace: writes the first metadata file (`00000-<uuid>.metadata.json`)
 * under the table location (namespace `location` property + `/<table>`, i.e. the warehouse layout) with
 * FileIO.writeIfAbsent, then adds the catalog pointer. If the pointer cannot be added (42P07, catalog
 * errors) the metadata file stays behind as an orphan; nothing else references it.
 */
import type { ColumnDef } from '../../catalog/table-source.ts';
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { defaultTableLocation, nextMetadataFileLocation, stripTrailingSlash } from '../../catalog/iceberg/warehouse-layout.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { newTableMetadata } from '../write/new-table-metadata.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { writeMetadataFile } from './metadata-json.ts';

export interface CreateIcebergTableOptions {
  /** explicit table location; default: namespace location (or warehouse layout) + `/<name>` */
  readonly location?: string;
  readonly warehouse?: string;
  /** 0-based positions of the primary key columns (Iceberg identifier fields) */
  readonly primaryKey?: readonly number[];
  /** extra table properties */
  readonly properties?: Readonly<Record<string, string>>;
  /** `partitioning` option items (Trino spelling: `day(ts)`, `bucket(16, id)`, `region`, …) */
  readonly partitioning?: readonly string[];
  /** Iceberg format version (default 2) */
  readonly formatVersion?: 1 | 2 | 3;
}

export async function createIcebergTable(
  catalog: IcebergCatalog,
  io: IcebergWriteIO,
  id: TableIdentifier,
  columns: readonly ColumnDef[],
  options: CreateIcebergTableOptions = {},
): Promise<string> {
  let location = options.location;
  if (location === undefined) {
    const nsLocation = (await catalog.loadNamespaceProperties(id.namespace))['location'];
    if (nsLocation !== undefined) location = `${stripTrailingSlash(nsLocation)}/${id.name}`;
    else if (options.warehouse !== undefined) location = defaultTableLocation(options.warehouse, id.namespace, id.name);
    else throw pgError(SqlState.invalid_parameter_value, `schema "${id.namespace.join('.')}" has no location for new tables`);
  }
  if (await catalog.tableExists(id)) throw pgError(SqlState.duplicate_table, `relation "${id.name}" already exists`);
  const doc = newTableMetadata(location, columns, options.primaryKey ?? [], Date.now(), options.partitioning ?? [], options.formatVersion ?? 2);
  if (options.properties !== undefined) doc['properties'] = { ...(doc['properties'] as Record<string, string>), ...options.properties };
  const metadataLocation = nextMetadataFileLocation(location, null);
  if (!(await writeMetadataFile(io, metadataLocation, doc))) {
    throw pgError(SqlState.duplicate_object, `Iceberg metadata file "${metadataLocation}" already exists`);
  }
  await catalog.createTable(id, metadataLocation);
  return metadataLocation;
}
