/**
 * Namespace endpoints of the Iceberg REST catalog API:
 * GET/POST /namespaces, GET/HEAD/DELETE /namespaces/{ns}, POST /namespaces/{ns}/properties.
 */
import { noSuchNamespace } from '../iceberg/catalog-errors.ts';
import type { Namespace } from '../iceberg/iceberg-catalog.ts';
import { splitNamespace } from '../rest/namespace-encoding.ts';
import { RestError } from './rest-errors.ts';
import { bodyObject, json, noContent, stringArray, stringMap, type RestContext, type RestRequest, type RestResponse } from './rest-request.ts';

/** GET /namespaces?parent=a%1Fb — children of parent (the spec: a missing parent is 404) */
export async function listNamespaces(ctx: RestContext, req: RestRequest): Promise<RestResponse> {
  const parent = splitNamespace(req.query.get('parent') ?? '');
  if (parent.length > 0 && !(await ctx.catalog.namespaceExists(parent))) throw noSuchNamespace(parent);
  // no paging: every namespace in one page, no next-page-token
  return json({ namespaces: await ctx.catalog.listNamespaces(parent) });
}

/** POST /namespaces { namespace, properties } */
export async function createNamespace(ctx: RestContext, req: RestRequest): Promise<RestResponse> {
  const body = bodyObject(req);
  const namespace = stringArray(body['namespace'], 'namespace');
  if (namespace.length === 0) throw new RestError(400, 'BadRequestException', 'Malformed request: "namespace" needs at least one level');
  const properties = stringMap(body['properties'], 'properties');
  await ctx.catalog.createNamespace(namespace, properties);
  await ctx.changed();
  return json({ namespace, properties: await ctx.catalog.loadNamespaceProperties(namespace) });
}

/** GET /namespaces/{ns} */
export async function loadNamespace(ctx: RestContext, namespace: Namespace): Promise<RestResponse> {
  return json({ namespace, properties: await ctx.catalog.loadNamespaceProperties(namespace) });
}

/** HEAD /namespaces/{ns}: 204 or 404 */
export async function namespaceExists(ctx: RestContext, namespace: Namespace): Promise<RestResponse> {
  if (!(await ctx.catalog.namespaceExists(namespace))) throw noSuchNamespace(namespace);
  return noContent;
}

/** DELETE /namespaces/{ns}: 204; 404 missing; 409 NamespaceNotEmptyException */
export async function dropNamespace(ctx: RestContext, namespace: Namespace): Promise<RestResponse> {
  if (!(await ctx.catalog.dropNamespace(namespace))) throw noSuchNamespace(namespace);
  await ctx.changed();
  return noContent;
}

/** POST /namespaces/{ns}/properties { removals, updates } → { updated, removed, missing } */
export async function updateNamespaceProperties(ctx: RestContext, namespace: Namespace, req: RestRequest): Promise<RestResponse> {
  const body = bodyObject(req);
  const removals = stringArray(body['removals'], 'removals');
  const updates = stringMap(body['updates'], 'updates');
  const both = removals.filter((k) => k in updates);
  if (both.length > 0) {
    throw new RestError(422, 'UnprocessableEntityException', `Invalid namespace properties update: cannot remove and update the same key: ${both.join(', ')}`);
  }
  const summary = await ctx.catalog.updateNamespaceProperties(namespace, removals, updates);
  return json({ updated: summary.updated, removed: summary.removed, missing: summary.missing });
}
