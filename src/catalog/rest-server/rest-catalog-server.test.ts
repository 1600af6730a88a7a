/**
 * The REST catalog server over two SqlCatalogs (databases `lakegate` and `other`) on one temp SQLite file,
 * with the Spark "bunnies" fixture registered through the path map: raw HTTP for the wire format (error
 * shapes, status codes, lossless ids), lakegate's RestCatalog client for the IcebergCatalog contract.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRestCatalog, type RestCatalog } from '../rest/index.ts';
import { BUNNIES, V3, V5, startRestFixture, type RestFixture } from './testing/rest-fixture.ts';

describe('Iceberg REST catalog server', () => {
  let fx: RestFixture;
  let base: string;
  let client: RestCatalog;
  const changes = (): string[] => fx.changes;

  const http = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, text, json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
  };

  beforeAll(async () => {
    fx = await startRestFixture();
    base = fx.base;
    client = await openRestCatalog({ uri: base, warehouse: 'lakegate' });
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('GET /v1/config gives the database as prefix, chosen by warehouse', async () => {
    const r = await http('GET', '/v1/config');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ defaults: {}, overrides: { prefix: 'lakegate' } });
    expect((r.json!['endpoints'] as string[])).toContain('GET /v1/{prefix}/namespaces/{namespace}/tables/{table}');
    expect((await http('GET', '/v1/config?warehouse=other')).json).toMatchObject({ overrides: { prefix: 'other' } });
    const bad = await http('GET', '/v1/config?warehouse=nope');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: { message: expect.stringContaining('nope'), type: 'BadRequestException', code: 400 } });
    expect(client.properties['prefix']).toBe('lakegate');
  });

  it('loads a table with its metadata passed through losslessly', async () => {
    const r = await http('GET', '/v1/lakegate/namespaces/lake/tables/bunnies');
    expect(r.status).toBe(200);
    const doc = parse(r.text) as { 'metadata-location': string; metadata: Record<string, unknown>; config: unknown };
    expect(doc['metadata-location']).toBe(V5);
    expect(String(doc.metadata['current-snapshot-id'])).toBe('2701171901096418979'); // > 2^53
    expect(r.text).toContain('"current-snapshot-id" : 2701171901096418979');
    const ids = (doc.metadata['snapshots'] as { 'snapshot-id': unknown }[]).map((s) => String(s['snapshot-id']));
    expect(ids).toEqual(['7505300640432048841', '469881615898633426', '2701171901096418979']);
    expect(doc.config).toEqual({});
    expect(await client.loadTableLocation({ namespace: ['lake'], name: 'bunnies' })).toEqual({
      metadataLocation: V5,
      previousMetadataLocation: `${BUNNIES}/metadata/v4.metadata.json`,
    });
  });

  it('lists, creates, loads, updates and drops namespaces (multi-level with %1F)', async () => {
    expect((await http('GET', '/v1/lakegate/namespaces')).json).toEqual({ namespaces: [['lake']] });
    const created = await http('POST', '/v1/lakegate/namespaces', { namespace: ['sales'], properties: { owner: 'bo' } });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ namespace: ['sales'], properties: { owner: 'bo' } });
    await client.createNamespace(['sales', 'eu'], { region: 'eu' });
    expect(await client.listNamespaces(['sales'])).toEqual([['sales', 'eu']]);
    expect((await http('GET', '/v1/lakegate/namespaces?parent=sales')).json).toEqual({ namespaces: [['sales', 'eu']] });
    expect((await http('GET', '/v1/lakegate/namespaces/sales%1Feu')).json).toMatchObject({ namespace: ['sales', 'eu'], properties: { region: 'eu' } });
    expect((await http('HEAD', '/v1/lakegate/namespaces/sales%1Feu')).status).toBe(204);
    expect((await http('HEAD', '/v1/lakegate/namespaces/nope')).status).toBe(404);
    expect(await client.namespaceExists(['sales', 'eu'])).toBe(true);
    expect(await client.namespaceExists(['nope'])).toBe(false);

    const upd = await http('POST', '/v1/lakegate/namespaces/sales/properties', { removals: ['owner', 'gone'], updates: { tier: 'gold' } });
    expect(upd.json).toEqual({ updated: ['tier'], removed: ['owner'], missing: ['gone'] });
    expect(await client.updateNamespaceProperties(['sales'], [], { tier: 'platinum' })).toEqual({ updated: ['tier'], removed: [], missing: [] });
    expect((await client.loadNamespaceProperties(['sales']))['tier']).toBe('platinum');
    expect((await http('POST', '/v1/lakegate/namespaces/sales/properties', { removals: ['a'], updates: { a: '1' } })).status).toBe(422);

    expect(await client.dropNamespace(['sales', 'eu'])).toBe(true);
    expect(await client.dropNamespace(['sales', 'eu'])).toBe(false);
    expect((await http('DELETE', '/v1/lakegate/namespaces/sales')).status).toBe(204);
    expect(await client.listNamespaces()).toEqual([['lake']]);
    // the other database is another catalog
    expect((await http('GET', '/v1/other/namespaces')).json).toEqual({ namespaces: [] });
    expect(changes()).toContain('lakegate');
  });

  it('answers errors in the IcebergErrorResponse shape', async () => {
    const err = (type: string, code: number) => ({ error: { message: expect.any(String), type, code } });
    expect((await http('GET', '/v1/lakegate/namespaces/nope')).json).toEqual(err('NoSuchNamespaceException', 404));
    expect((await http('GET', '/v1/lakegate/namespaces/nope/tables')).json).toEqual(err('NoSuchNamespaceException', 404));
    expect((await http('GET', '/v1/lakegate/namespaces?parent=nope')).json).toEqual(err('NoSuchNamespaceException', 404));
    expect((await http('GET', '/v1/lakegate/namespaces/lake/tables/nope')).json).toEqual(err('NoSuchTableException', 404));
    expect((await http('POST', '/v1/lakegate/namespaces', { namespace: ['lake'] })).json).toEqual(err('AlreadyExistsException', 409));
    expect((await http('DELETE', '/v1/lakegate/namespaces/lake')).json).toEqual(err('NamespaceNotEmptyException', 409));
    expect((await http('POST', '/v1/lakegate/namespaces', '{not json')).json).toEqual(err('BadRequestException', 400));
    expect((await http('POST', '/v1/lakegate/namespaces', { namespace: 'lake' })).json).toEqual(err('BadRequestException', 400));
    expect((await http('POST', '/v1/lakegate/namespaces', { namespace: ['a.b'] })).json).toEqual(err('BadRequestException', 400));
    expect((await http('GET', '/v1/nope/namespaces')).status).toBe(404);
    expect((await http('POST', '/v1/lakegate/namespaces/lake/tables', { name: 't', schema: { type: 'struct', fields: [] }, 'stage-create': true })).json).toEqual(err('UnsupportedOperationException', 501));
    expect((await http('POST', '/v1/lakegate/namespaces/lake/tables', { name: 'bunnies', schema: { type: 'struct', fields: [] } })).json).toEqual(err('AlreadyExistsException', 409));
    expect((await http('POST', '/v1/lakegate/namespaces/nope/tables', { name: 't', schema: { type: 'struct', fields: [] } })).json).toEqual(err('NoSuchNamespaceException', 404));
    expect((await http('POST', '/v1/lakegate/namespaces/lake/tables/nope', { requirements: [], updates: [] })).json).toEqual(err('NoSuchTableException', 404));
    // client side: the same GatewayErrors as the SQL catalog
    await expect(client.listTables(['nope'])).rejects.toMatchObject({ code: '3F000' });
    await expect(client.loadTableLocation({ namespace: ['lake'], name: 'nope' })).rejects.toMatchObject({ code: '42P01', message: 'relation "lake.nope" does not exist' });
    await expect(client.createNamespace(['lake'])).rejects.toMatchObject({ code: '42P06' });
    await expect(client.dropNamespace(['lake'])).rejects.toMatchObject({ code: '2BP01' });
    await expect(client.commitTable({ namespace: ['lake'], name: 'bunnies' }, V5, V3)).rejects.toMatchObject({ code: '0A000' });
  });

  it('registers, lists, renames and drops tables', async () => {
    const reg = await http('POST', '/v1/lakegate/namespaces/lake/register', { name: 'old_bunnies', 'metadata-location': V3 });
    expect(reg.status).toBe(200);
    expect(reg.text).toContain(`"metadata-location":"${V3}"`);
    expect((await http('POST', '/v1/lakegate/namespaces/lake/register', { name: 'old_bunnies', 'metadata-location': V3 })).status).toBe(409);
    const missingFile = await http('POST', '/v1/lakegate/namespaces/lake/register', { name: 'x', 'metadata-location': `${BUNNIES}/metadata/v99.metadata.json` });
    expect(missingFile.status).toBe(500);
    expect(await client.tableExists({ namespace: ['lake'], name: 'x' })).toBe(false);

    await client.registerTable({ namespace: ['lake'], name: 'b2' }, V5);
    await expect(client.registerTable({ namespace: ['lake'], name: 'b2' }, V5)).rejects.toMatchObject({ code: '42P07' });
    expect((await http('GET', '/v1/lakegate/namespaces/lake/tables')).json).toEqual({
      identifiers: [
        { namespace: ['lake'], name: 'b2' },
        { namespace: ['lake'], name: 'bunnies' },
        { namespace: ['lake'], name: 'old_bunnies' },
      ],
    });
    expect((await http('HEAD', '/v1/lakegate/namespaces/lake/tables/b2')).status).toBe(204);
    expect((await http('HEAD', '/v1/lakegate/namespaces/lake/tables/zz')).status).toBe(404);

    // overwrite swaps the pointer with the catalog's compare-and-swap
    await http('POST', '/v1/lakegate/namespaces/lake/register', { name: 'b2', 'metadata-location': V3, overwrite: true });
    expect((await client.loadTableLocation({ namespace: ['lake'], name: 'b2' })).metadataLocation).toBe(V3);

    await client.createNamespace(['archive']);
    const rn = await http('POST', '/v1/lakegate/tables/rename', { source: { namespace: ['lake'], name: 'old_bunnies' }, destination: { namespace: ['archive'], name: 'bunnies_v3' } });
    expect(rn.status).toBe(204);
    expect(await client.listTables(['archive'])).toEqual([{ namespace: ['archive'], name: 'bunnies_v3' }]);
    await client.renameTable({ namespace: ['lake'], name: 'b2' }, { namespace: ['archive'], name: 'b2' });
    await expect(client.renameTable({ namespace: ['lake'], name: 'nope' }, { namespace: ['archive'], name: 'n' })).rejects.toMatchObject({ code: '42P01' });
    await expect(client.renameTable({ namespace: ['lake'], name: 'bunnies' }, { namespace: ['nope'], name: 'n' })).rejects.toMatchObject({ code: '3F000' });
    await expect(client.renameTable({ namespace: ['lake'], name: 'bunnies' }, { namespace: ['archive'], name: 'b2' })).rejects.toMatchObject({ code: '42P07' });

    expect((await http('DELETE', '/v1/lakegate/namespaces/archive/tables/bunnies_v3?purgeRequested=true')).status).toBe(204);
    expect((await http('DELETE', '/v1/lakegate/namespaces/archive/tables/bunnies_v3')).json).toMatchObject({ error: { type: 'NoSuchTableException', code: 404 } });
    expect(await client.dropTable({ namespace: ['archive'], name: 'b2' })).toBe(true);
    expect(await client.dropTable({ namespace: ['archive'], name: 'b2' })).toBe(false);
    expect(await client.dropNamespace(['archive'])).toBe(true);
    // the fixture files are untouched (purge is ignored): the original table still loads
    expect((await client.loadTableLocation({ namespace: ['lake'], name: 'bunnies' })).metadataLocation).toBe(V5);
  });

  it('lists, loads, renames and drops views of the SQL catalog', async () => {
    const lake = fx.catalogs.get('lakegate')!;
    const location = `${fx.dir}/lake/v_rest`;
    const metadataLocation = `${location}/metadata/00000-0b7c0f6e-0000-4000-8000-000000000002.metadata.json`;
    const doc = {
      'view-uuid': '0b7c0f6e-0000-4000-8000-000000000002', 'format-version': 1, location, 'current-version-id': 1,
      versions: [{ 'version-id': 1, 'schema-id': 0, 'timestamp-ms': 1700000000000, summary: {}, 'default-namespace': ['lake'],
        representations: [{ type: 'sql', sql: 'SELECT 1 AS one', dialect: 'postgresql' }] }],
      'version-log': [{ 'version-id': 1, 'timestamp-ms': 1700000000000 }],
      schemas: [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'one', required: false, type: 'int' }] }],
      properties: {},
    };
    await mkdir(`${location}/metadata`, { recursive: true });
    await writeFile(metadataLocation, JSON.stringify(doc));
    await lake.createView!({ namespace: ['lake'], name: 'v_rest' }, metadataLocation);
    expect((await http('GET', '/v1/lakegate/namespaces/lake/views')).json).toEqual({ identifiers: [{ namespace: ['lake'], name: 'v_rest' }] });
    // views are not tables, in either listing
    expect((await http('GET', '/v1/lakegate/namespaces/lake/tables')).json).toEqual({ identifiers: [{ namespace: ['lake'], name: 'bunnies' }] });
    const loaded = await http('GET', '/v1/lakegate/namespaces/lake/views/v_rest');
    expect(loaded.status).toBe(200);
    expect(loaded.json).toMatchObject({ 'metadata-location': metadataLocation, metadata: { 'view-uuid': doc['view-uuid'], 'current-version-id': 1 } });
    expect((await http('HEAD', '/v1/lakegate/namespaces/lake/views/v_rest')).status).toBe(204);
    expect((await http('GET', '/v1/lakegate/namespaces/lake/views/bunnies')).json).toEqual({ error: { message: 'View does not exist: lake.bunnies', type: 'NoSuchViewException', code: 404 } });
    expect((await http('POST', '/v1/lakegate/namespaces/lake/views', { name: 'x' })).status).toBe(400); // no schema (creation: view-write-routes.test.ts)
    expect((await http('POST', '/v1/lakegate/views/rename', { source: { namespace: ['lake'], name: 'v_rest' }, destination: { namespace: ['lake'], name: 'v2' } })).status).toBe(204);
    expect((await http('HEAD', '/v1/lakegate/namespaces/lake/views/v_rest')).status).toBe(404);
    expect((await http('DELETE', '/v1/lakegate/namespaces/lake/views/v2')).status).toBe(204);
    expect((await http('DELETE', '/v1/lakegate/namespaces/lake/views/v2')).status).toBe(404);
    expect((await http('GET', '/v1/config')).json!['endpoints']).toContain('GET /v1/{prefix}/namespaces/{namespace}/views/{view}');
  });
});
