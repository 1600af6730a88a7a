/**
 * CREATE [OR REPLACE] VIEW on an Iceberg namespace: the view metadata file is written first (FileIO
 * writeIfAbsent, `<view location>/metadata/00000-<uuid>.metadata.json`), then the catalog pointer is added or
 * swapped (compare-and-swap, as for tables). A pointer that cannot be set leaves an orphan file only.
 */
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { defaultTableLocation, nextMetadataFileLocation, stripTrailingSlash } from '../../catalog/iceberg/warehouse-layout.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IcebergIO } from '../io.ts';
import { writeMetadataFile } from '../commit/metadata-json.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { loadedView, newViewMetadata, parseViewMetadata, replaceViewVersion, type LoadedView, type ViewDefinition, type ViewMetadataDoc } from './view-metadata.ts';

/** the catalog's view operations, present on catalogs that store views */
export type ViewCatalog = IcebergCatalog & Required<Pick<IcebergCatalog, 'listViews' | 'loadViewLocation' | 'createView' | 'commitView' | 'dropView' | 'renameView'>>;

export function storesViews(catalog: IcebergCatalog): catalog is ViewCatalog {
  return catalog.viewsSupported !== false && catalog.listViews !== undefined && catalog.loadViewLocation !== undefined && catalog.createView !== undefined
    && catalog.commitView !== undefined && catalog.dropView !== undefined && catalog.renameView !== undefined;
}

export async function readViewMetadata(io: IcebergIO, metadataLocation: string): Promise<ViewMetadataDoc> {
  return parseViewMetadata(new TextDecoder().decode(await io.read(metadataLocation)), metadataLocation);
}

/** the current version of a view, as lakegate runs it */
export async function loadIcebergView(io: IcebergIO, metadataLocation: string): Promise<LoadedView> {
  return loadedView(await readViewMetadata(io, metadataLocation), metadataLocation);
}

async function writeNew(io: IcebergWriteIO, location: string, current: string | null, doc: ViewMetadataDoc): Promise<string> {
  const metadataLocation = nextMetadataFileLocation(location, current);
  if (!(await writeMetadataFile(io, metadataLocation, doc))) {
    throw pgError(SqlState.serialization_failure, `Iceberg view metadata file "${metadataLocation}" already exists`, {
      detail: 'Another writer replaced the view at the same time.',
    });
  }
  return metadataLocation;
}

/** CREATE VIEW: 42P07 when a table or view has the name */
export async function createIcebergView(catalog: ViewCatalog, io: IcebergWriteIO, id: TableIdentifier, def: ViewDefinition, warehouse?: string): Promise<void> {
  const nsLocation = (await catalog.loadNamespaceProperties(id.namespace))['location'];
  const location = nsLocation !== undefined ? `${stripTrailingSlash(nsLocation)}/${id.name}`
    : warehouse !== undefined ? defaultTableLocation(warehouse, id.namespace, id.name)
      : undefined;
  if (location === undefined) throw pgError(SqlState.invalid_parameter_value, `schema "${id.namespace.join('.')}" has no location for new views`);
  const metadataLocation = await writeNew(io, location, null, newViewMetadata(location, def));
  await catalog.createView(id, metadataLocation);
}

/** CREATE OR REPLACE VIEW over an existing Iceberg view: a new version, swapped in atomically */
export async function replaceIcebergView(catalog: ViewCatalog, io: IcebergWriteIO, id: TableIdentifier, def: ViewDefinition): Promise<void> {
  const { metadataLocation: current } = await catalog.loadViewLocation(id);
  const doc = await readViewMetadata(io, current);
  const next = await writeNew(io, doc.location, current, replaceViewVersion(doc, def));
  await catalog.commitView(id, current, next);
}

/** a view property set (undefined removes it) in a new metadata file, without a new version (COMMENT ON VIEW) */
export async function setIcebergViewProperty(catalog: ViewCatalog, io: IcebergWriteIO, id: TableIdentifier, key: string, value: string | undefined): Promise<void> {
  const { metadataLocation: current } = await catalog.loadViewLocation(id);
  const doc = await readViewMetadata(io, current);
  const properties = Object.fromEntries(Object.entries(doc.properties).filter(([k]) => k !== key));
  const next = await writeNew(io, doc.location, current, { ...doc, properties: value === undefined ? properties : { ...properties, [key]: value } });
  await catalog.commitView(id, current, next);
}
