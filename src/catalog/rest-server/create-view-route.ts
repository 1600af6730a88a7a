/**
 * POST /namespaces/{ns}/views (CreateViewRequest → LoadViewResult): the view's first metadata file
 * (`00000-<uuid>.metadata.json`, format-version 1) built from the request's schema, view-version and
 * properties the way Iceberg Java's CatalogHandlers.createView does (add the schema, add the version with
 * the schema's assigned id, make it current), written with writeIfAbsent under the view location (request
 * `location`, else the namespace's `location` + `/<name>`), then the catalog's VIEW pointer.
 * @see https://iceberg.apache.org/view-spec/
 */
import { randomUUID } from 'node:crypto';
import type { Namespace, TableIdentifier } from '../iceberg/iceberg-catalog.ts';
import { stripTrailingSlash } from '../iceberg/warehouse-layout.ts';
import { writableIO, writeNextMetadata } from './commit-table-route.ts';
import { badRequest, RestError } from './rest-errors.ts';
import { bodyObject, stringField, stringMap, type RestContext, type RestRequest, type RestResponse } from './rest-request.ts';
import type { Doc } from './table-updates.ts';
import { applyViewUpdates, VIEW_FORMAT_VERSION } from './view-updates.ts';
import { loadViewResult, viewCatalog } from './view-routes.ts';

export async function createView(ctx: RestContext, namespace: Namespace, req: RestRequest): Promise<RestResponse> {
  const io = writableIO(ctx.io);
  const views = viewCatalog(ctx);
  const body = bodyObject(req);
  const id: TableIdentifier = { namespace, name: stringField(body, 'name') };
  const schema = body['schema'];
  if (schema === null || typeof schema !== 'object' || !Array.isArray((schema as Doc)['fields'])) throw badRequest('Malformed request: "schema" must be a struct schema');
  const version = body['view-version'];
  if (version === null || typeof version !== 'object' || Array.isArray(version)) throw badRequest('Malformed request: "view-version" must be a view version');
  const properties = stringMap(body['properties'], 'properties');

  let location = typeof body['location'] === 'string' && body['location'] !== '' ? stripTrailingSlash(body['location']) : undefined;
  const nsLocation = (await ctx.catalog.loadNamespaceProperties(namespace))['location']; // 404 for a missing namespace
  if (location === undefined) {
    if (nsLocation === undefined) throw badRequest(`Namespace ${namespace.join('.')} has no location; pass "location"`);
    location = `${stripTrailingSlash(nsLocation)}/${id.name}`;
  }
  const name = [...namespace, id.name].join('.');
  if (await ctx.catalog.tableExists(id)) throw new RestError(409, 'AlreadyExistsException', `Table with same name already exists: ${name}`);
  if ((await views.listViews(namespace)).some((v) => v.name === id.name)) throw new RestError(409, 'AlreadyExistsException', `View with same name already exists: ${name}`);

  const empty: Doc = { 'view-uuid': randomUUID(), 'format-version': VIEW_FORMAT_VERSION, location, 'current-version-id': -1, versions: [], 'version-log': [], schemas: [], properties };
  const doc = applyViewUpdates(empty, [
    { action: 'add-schema', schema },
    { action: 'add-view-version', 'view-version': { ...(version as Doc), 'schema-id': -1 } },
    { action: 'set-current-view-version', 'view-version-id': -1 },
  ], Date.now());
  const written = await writeNextMetadata(io, doc, null);
  if (written === null) throw badRequest(`A metadata file for a new view already exists under ${location}`);
  await views.createView(id, written.location);
  await ctx.changed();
  return loadViewResult(written.location, written.text);
}
