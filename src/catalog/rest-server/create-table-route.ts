/**
 * POST /namespaces/{ns}/tables (CreateTableRequest → LoadTableResult): the first metadata file
 * (`00000-<uuid>.metadata.json`) from the request's schema, partition spec, sort order and properties,
 * written with writeIfAbsent under the table location (request `location`, else the namespace's
 * `location` property + `/<name>`, i.e. the warehouse layout), then the catalog pointer. The client's
 * field ids are kept (lakegate does not renumber them as Java's fresh-id assignment does); partition field
 * ids missing from the spec are assigned from 1000. `stage-create` is not supported (501).
 */
import { randomUUID } from 'node:crypto';
import { tableAlreadyExists } from '../iceberg/catalog-errors.ts';
import type { Namespace, TableIdentifier } from '../iceberg/iceberg-catalog.ts';
import { stripTrailingSlash } from '../iceberg/warehouse-layout.ts';
import { writableIO, writeNextMetadata } from './commit-table-route.ts';
import { badRequest, notImplemented } from './rest-errors.ts';
import { bodyObject, stringField, stringMap, type RestContext, type RestRequest, type RestResponse } from './rest-request.ts';
import { maxFieldId, type Doc } from './table-updates.ts';

export async function createTable(ctx: RestContext, namespace: Namespace, req: RestRequest): Promise<RestResponse> {
  const io = writableIO(ctx.io);
  const body = bodyObject(req);
  const id: TableIdentifier = { namespace, name: stringField(body, 'name') };
  if (body['stage-create'] === true) throw notImplemented('stage-create is not supported by this lakegate REST catalog');
  const schema = body['schema'] as Doc | undefined;
  if (schema === undefined || schema === null || typeof schema !== 'object' || !Array.isArray(schema['fields'])) throw badRequest('Malformed request: "schema" must be a struct schema');
  const properties = stringMap(body['properties'], 'properties');
  const formatVersion = Number(properties['format-version'] ?? 2);
  delete properties['format-version'];
  if (![1, 2, 3].includes(formatVersion)) throw badRequest(`Unsupported format-version: ${formatVersion}`);

  let location = typeof body['location'] === 'string' && body['location'] !== '' ? stripTrailingSlash(body['location']) : undefined;
  if (location === undefined) {
    const nsLocation = (await ctx.catalog.loadNamespaceProperties(namespace))['location']; // 404 for a missing namespace
    if (nsLocation === undefined) throw badRequest(`Namespace ${namespace.join('.')} has no location; pass "location"`);
    location = `${stripTrailingSlash(nsLocation)}/${id.name}`;
  } else if (!(await ctx.catalog.namespaceExists(namespace))) {
    await ctx.catalog.loadNamespaceProperties(namespace); // raises NoSuchNamespace
  }
  if (await ctx.catalog.tableExists(id)) throw tableAlreadyExists(id);

  let nextPartitionId = 1000;
  const specIn = (body['partition-spec'] as Doc | undefined) ?? { fields: [] };
  const specFields = (Array.isArray(specIn['fields']) ? (specIn['fields'] as Doc[]) : []).map((f) => {
    const fieldId = f['field-id'] === undefined ? nextPartitionId : Number(f['field-id']);
    nextPartitionId = Math.max(nextPartitionId, fieldId) + 1;
    return { ...f, 'field-id': fieldId };
  });
  const orderIn = (body['write-order'] as Doc | undefined) ?? { fields: [] };
  const orderFields = Array.isArray(orderIn['fields']) ? (orderIn['fields'] as Doc[]) : [];
  const orderId = orderFields.length === 0 ? 0 : 1;
  const now = Date.now();
  const doc: Doc = {
    'format-version': formatVersion,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 0,
    'last-updated-ms': now,
    'last-column-id': maxFieldId(schema),
    'current-schema-id': 0,
    schemas: [{ ...schema, type: 'struct', 'schema-id': 0 }],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: specFields }],
    'last-partition-id': nextPartitionId - 1,
    'default-sort-order-id': orderId,
    'sort-orders': orderId === 0 ? [{ 'order-id': 0, fields: [] }] : [{ 'order-id': 0, fields: [] }, { 'order-id': orderId, fields: orderFields }],
    properties,
    'current-snapshot-id': -1,
    refs: {},
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    ...(formatVersion >= 3 ? { 'next-row-id': 0 } : {}),
  };
  const written = await writeNextMetadata(io, doc, null);
  if (written === null) throw badRequest(`A metadata file for a new table already exists under ${location}`);
  await ctx.catalog.createTable(id, written.location);
  await ctx.changed();
  return { status: 200, body: `{"metadata-location":${JSON.stringify(written.location)},"metadata":${written.text},"config":{}}` };
}
