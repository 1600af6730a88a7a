/**
 * Table endpoints of the Iceberg REST catalog API: list, load, HEAD, DELETE, register, unregister, rename
 * (create: create-table-route.ts; commit: commit-table-route.ts).
 */
import { noSuchNamespace, noSuchTable } from '../iceberg/catalog-errors.ts';
import type { Namespace, TableIdentifier } from '../iceberg/iceberg-catalog.ts';
import { loadTableResult, readMetadataText } from './load-table-result.ts';
import { badRequest } from './rest-errors.ts';
import { bodyObject, json, noContent, stringArray, stringField, type RestContext, type RestRequest, type RestResponse } from './rest-request.ts';

/** GET /namespaces/{ns}/tables → { identifiers: [{ namespace, name }] } */
export async function listTables(ctx: RestContext, namespace: Namespace): Promise<RestResponse> {
  if (!(await ctx.catalog.namespaceExists(namespace))) throw noSuchNamespace(namespace);
  const ids = await ctx.catalog.listTables(namespace);
  return json({ identifiers: ids.map((id) => ({ namespace: id.namespace, name: id.name })) });
}

/** GET /namespaces/{ns}/tables/{table} (`snapshots` query parameter ignored: always all snapshots) */
export async function loadTable(ctx: RestContext, id: TableIdentifier): Promise<RestResponse> {
  const { metadataLocation } = await ctx.catalog.loadTableLocation(id);
  return loadTableResult(ctx.io, metadataLocation);
}

/** HEAD /namespaces/{ns}/tables/{table}: 204 or 404 */
export async function tableExists(ctx: RestContext, id: TableIdentifier): Promise<RestResponse> {
  if (!(await ctx.catalog.tableExists(id))) throw noSuchTable(id);
  return noContent;
}

/** DELETE /namespaces/{ns}/tables/{table}: drops the pointer; `purgeRequested` is ignored (files stay) */
export async function dropTable(ctx: RestContext, id: TableIdentifier): Promise<RestResponse> {
  if (!(await ctx.catalog.dropTable(id))) throw noSuchTable(id);
  await ctx.changed();
  return noContent;
}

/**
 * POST /namespaces/{ns}/register { name, metadata-location, overwrite? } → LoadTableResult.
 * The file is read first, so a bad location fails before any pointer exists. `overwrite` swaps the
 * pointer of an existing table with the catalog's compare-and-swap.
 */
export async function registerTable(ctx: RestContext, namespace: Namespace, req: RestRequest): Promise<RestResponse> {
  const body = bodyObject(req);
  const id: TableIdentifier = { namespace, name: stringField(body, 'name') };
  const location = stringField(body, 'metadata-location');
  const result = await loadTableResult(ctx.io, location);
  if (body['overwrite'] === true && (await ctx.catalog.tableExists(id))) {
    const current = await ctx.catalog.loadTableLocation(id);
    await ctx.catalog.commitTable(id, current.metadataLocation, location);
  } else {
    await ctx.catalog.registerTable(id, location);
  }
  await ctx.changed();
  return result;
}

/**
 * POST /namespaces/{ns}/tables/{table}/unregister → UnregisterTableResult { metadata-location, metadata }:
 * the catalog forgets the table (its pointer goes, with the catalog's compare-and-swap semantics of a drop),
 * its data and metadata files stay so another catalog can register them.
 */
export async function unregisterTable(ctx: RestContext, id: TableIdentifier): Promise<RestResponse> {
  const { metadataLocation } = await ctx.catalog.loadTableLocation(id); // 404 for a missing table
  const text = await readMetadataText(ctx.io, metadataLocation);
  if (!(await ctx.catalog.dropTable(id))) throw noSuchTable(id);
  await ctx.changed();
  return { status: 200, body: `{"metadata-location":${JSON.stringify(metadataLocation)},"metadata":${text}}` };
}

/** a TableIdentifier field of a request body (rename's source / destination) */
export function tableIdentifierField(v: unknown, what: string): TableIdentifier {
  if (v === null || typeof v !== 'object') throw badRequest(`Malformed request: "${what}" must be a table identifier`);
  const o = v as Record<string, unknown>;
  return { namespace: stringArray(o['namespace'], `${what}.namespace`), name: stringField(o, 'name') };
}

/** POST /tables/rename { source, destination }: 204 */
export async function renameTable(ctx: RestContext, req: RestRequest): Promise<RestResponse> {
  const body = bodyObject(req);
  const source = tableIdentifierField(body['source'], 'source');
  const destination = tableIdentifierField(body['destination'], 'destination');
  if (!(await ctx.catalog.tableExists(source))) throw noSuchTable(source);
  if (!(await ctx.catalog.namespaceExists(destination.namespace))) throw noSuchNamespace(destination.namespace);
  await ctx.catalog.renameTable(source, destination);
  await ctx.changed();
  return noContent;
}
