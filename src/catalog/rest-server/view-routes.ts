/**
 * View endpoints of the Iceberg REST catalog API over a catalog that stores views (the SQL catalog's VIEW
 * rows): list, load (LoadViewResult has LoadTableResult's shape), HEAD, DELETE, rename, register (create:
 * create-view-route.ts; replace/commit: commit-view-route.ts).
 */
import { GatewayError } from '../../common/errors.ts';
import { noSuchNamespace } from '../iceberg/catalog-errors.ts';
import type { IcebergCatalog, Namespace, TableIdentifier } from '../iceberg/iceberg-catalog.ts';
import { loadTableResult, readMetadataText } from './load-table-result.ts';
import { RestError, badRequest, notImplemented } from './rest-errors.ts';
import { bodyObject, json, noContent, stringField, type RestContext, type RestRequest, type RestResponse } from './rest-request.ts';
import { tableIdentifierField } from './table-routes.ts';

export type ViewCatalogMethods = Required<Pick<IcebergCatalog, 'listViews' | 'loadViewLocation' | 'createView' | 'commitView' | 'dropView' | 'renameView'>>;

/** the served catalog's view methods (501 when it stores no views) */
export function viewCatalog(ctx: RestContext): ViewCatalogMethods {
  const c = ctx.catalog;
  if (c.listViews === undefined || c.loadViewLocation === undefined || c.createView === undefined || c.commitView === undefined || c.dropView === undefined || c.renameView === undefined) {
    throw notImplemented('This catalog does not store views');
  }
  return {
    listViews: c.listViews.bind(c), loadViewLocation: c.loadViewLocation.bind(c), createView: c.createView.bind(c),
    commitView: c.commitView.bind(c), dropView: c.dropView.bind(c), renameView: c.renameView.bind(c),
  };
}
const views = viewCatalog;

/** LoadViewResult of a metadata file just written (its text spliced in unparsed) */
export const loadViewResult = (location: string, text: string): RestResponse => ({
  status: 200,
  body: `{"metadata-location":${JSON.stringify(location)},"metadata":${text},"config":{}}`,
});

const noSuchView = (id: TableIdentifier): RestError =>
  new RestError(404, 'NoSuchViewException', `View does not exist: ${[...id.namespace, id.name].join('.')}`);

/** the catalog's "relation does not exist" (42P01) is a missing view here */
export async function asView<T>(id: TableIdentifier, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (GatewayError.is(e) && e.code === '42P01') throw noSuchView(id);
    throw e;
  }
}

/** GET /namespaces/{ns}/views → { identifiers } */
export async function listViews(ctx: RestContext, namespace: Namespace): Promise<RestResponse> {
  const v = views(ctx);
  if (!(await ctx.catalog.namespaceExists(namespace))) throw noSuchNamespace(namespace);
  const ids = await v.listViews(namespace);
  return json({ identifiers: ids.map((id) => ({ namespace: id.namespace, name: id.name })) });
}

/** GET /namespaces/{ns}/views/{view} → LoadViewResult { metadata-location, metadata, config } */
export async function loadView(ctx: RestContext, id: TableIdentifier): Promise<RestResponse> {
  const { metadataLocation } = await asView(id, () => views(ctx).loadViewLocation(id));
  return loadTableResult(ctx.io, metadataLocation);
}

/** HEAD /namespaces/{ns}/views/{view}: 204 or 404 */
export async function viewExists(ctx: RestContext, id: TableIdentifier): Promise<RestResponse> {
  await asView(id, () => views(ctx).loadViewLocation(id));
  return noContent;
}

/** DELETE /namespaces/{ns}/views/{view}: the pointer goes, the metadata files stay */
export async function dropView(ctx: RestContext, id: TableIdentifier): Promise<RestResponse> {
  if (!(await views(ctx).dropView(id))) throw noSuchView(id);
  await ctx.changed();
  return noContent;
}

/** POST /views/rename { source, destination }: 204 */
export async function renameView(ctx: RestContext, req: RestRequest): Promise<RestResponse> {
  const body = bodyObject(req);
  const source = tableIdentifierField(body['source'], 'source');
  const destination = tableIdentifierField(body['destination'], 'destination');
  const v = views(ctx);
  await asView(source, () => v.loadViewLocation(source));
  if (!(await ctx.catalog.namespaceExists(destination.namespace))) throw noSuchNamespace(destination.namespace);
  await v.renameView(source, destination);
  await ctx.changed();
  return noContent;
}

/**
 * POST /namespaces/{ns}/register-view { name, metadata-location } → LoadViewResult: a pointer to an existing
 * view metadata file (written by another catalog). The file is read and checked to be view metadata first,
 * so a bad location fails before any pointer exists.
 */
export async function registerView(ctx: RestContext, namespace: Namespace, req: RestRequest): Promise<RestResponse> {
  const v = views(ctx);
  const body = bodyObject(req);
  const id: TableIdentifier = { namespace, name: stringField(body, 'name') };
  const location = stringField(body, 'metadata-location');
  if (!(await ctx.catalog.namespaceExists(namespace))) throw noSuchNamespace(namespace);
  const text = await readMetadataText(ctx.io, location);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw badRequest(`Malformed view metadata file: ${location}`);
  }
  const d = doc as Record<string, unknown>;
  if (typeof d['view-uuid'] !== 'string' || !Array.isArray(d['versions'])) throw badRequest(`Not a view metadata file (no view-uuid / versions): ${location}`);
  const name = [...namespace, id.name].join('.');
  if (await ctx.catalog.tableExists(id)) throw new RestError(409, 'AlreadyExistsException', `Table with same name already exists: ${name}`);
  if ((await v.listViews(namespace)).some((x) => x.name === id.name)) throw new RestError(409, 'AlreadyExistsException', `View with same name already exists: ${name}`);
  await v.createView(id, location);
  await ctx.changed();
  return loadViewResult(location, text);
}
