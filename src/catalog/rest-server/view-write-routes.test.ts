/**
 * CreateView and CommitView (replaceView) of lakegate's REST catalog server over the SQL catalog, driven by
 * raw HTTP the way Iceberg Java's RESTViewOperations sends them (iceberg-js has no view API): the metadata
 * file written, its ids assigned as ViewMetadata.Builder does, requirements, errors, and the VIEW row.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from './testing/rest-fixture.ts';

const schema = (fields: { id: number; name: string; type: string }[]) => ({ type: 'struct', 'schema-id': 0, fields: fields.map((f) => ({ ...f, required: false })) });
const version = (sql: string, extra: Record<string, unknown> = {}) => ({
  'version-id': 1, 'schema-id': 0, 'timestamp-ms': 1_700_000_000_000, summary: { 'engine-name': 'spark' },
  representations: [{ type: 'sql', sql, dialect: 'spark' }], 'default-namespace': ['lake'], ...extra,
});

describe('REST CreateView / CommitView', () => {
  let fx: RestFixture;
  const http = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${fx.base}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) };
  };

  beforeAll(async () => {
    fx = await startRestFixture();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('creates a view: first metadata file under the namespace location, VIEW row, LoadViewResult', async () => {
    const r = await http('POST', '/v1/lakegate/namespaces/lake/views', {
      name: 'v1', schema: schema([{ id: 1, name: 'id', type: 'long' }]), 'view-version': version('SELECT id FROM lake.bunnies', { 'schema-id': 7 }),
      properties: { owner: 'ana' },
    });
    expect(r.status).toBe(200);
    const location: string = r.json!['metadata-location'];
    expect(location).toMatch(new RegExp(`^${fx.dir}/lake/v1/metadata/00000-[0-9a-f-]{36}\\.metadata\\.json$`));
    const doc = JSON.parse(readFileSync(location, 'utf8'));
    expect(r.json!['metadata']).toEqual(doc);
    expect(doc).toMatchObject({
      'format-version': 1, location: `${fx.dir}/lake/v1`, 'current-version-id': 1, properties: { owner: 'ana' },
      schemas: [{ 'schema-id': 0, fields: [{ id: 1, name: 'id' }] }],
      versions: [{ 'version-id': 1, 'schema-id': 0, representations: [{ type: 'sql', dialect: 'spark' }] }],
      'version-log': [{ 'version-id': 1, 'timestamp-ms': 1_700_000_000_000 }],
    });
    expect((await fx.catalogs.get('lakegate')!.loadViewLocation!({ namespace: ['lake'], name: 'v1' })).metadataLocation).toBe(location);
    expect((await http('GET', '/v1/lakegate/namespaces/lake/views')).json).toEqual({ identifiers: [{ namespace: ['lake'], name: 'v1' }] });
    expect(fx.changes.at(-1)).toBe('lakegate');
  });

  it('refuses names taken by a table or view, missing namespaces and bad versions', async () => {
    const body = { name: 'v1', schema: schema([{ id: 1, name: 'x', type: 'int' }]), 'view-version': version('SELECT 1'), properties: {} };
    expect(await http('POST', '/v1/lakegate/namespaces/lake/views', body)).toMatchObject({ status: 409, json: { error: { type: 'AlreadyExistsException', message: 'View with same name already exists: lake.v1' } } });
    expect(await http('POST', '/v1/lakegate/namespaces/lake/views', { ...body, name: 'bunnies' })).toMatchObject({ status: 409, json: { error: { type: 'AlreadyExistsException' } } });
    expect(await http('POST', '/v1/lakegate/namespaces/nope/views', { ...body, name: 'v9' })).toMatchObject({ status: 404, json: { error: { type: 'NoSuchNamespaceException' } } });
    const twoSpark = version('SELECT 1', { representations: [{ type: 'sql', sql: 'SELECT 1', dialect: 'spark' }, { type: 'sql', sql: 'SELECT 2', dialect: 'Spark' }] });
    expect(await http('POST', '/v1/lakegate/namespaces/lake/views', { ...body, name: 'v9', 'view-version': twoSpark })).toMatchObject({ status: 400, json: { error: { message: 'Invalid view version: Cannot add multiple queries for dialect spark' } } });
  });

  it('replaces a view: new schema and version, current version, version-log, properties; assert-view-uuid', async () => {
    const loaded = await http('GET', '/v1/lakegate/namespaces/lake/views/v1');
    const uuid: string = loaded.json!['metadata']['view-uuid'];
    const first: string = loaded.json!['metadata-location'];
    const r = await http('POST', '/v1/lakegate/namespaces/lake/views/v1', {
      identifier: { namespace: ['lake'], name: 'v1' },
      requirements: [{ type: 'assert-view-uuid', uuid }],
      updates: [
        { action: 'add-schema', schema: schema([{ id: 1, name: 'id', type: 'long' }, { id: 2, name: 'n', type: 'string' }]) },
        { action: 'add-view-version', 'view-version': version('SELECT id, n FROM lake.bunnies', { 'version-id': 1, 'schema-id': -1, 'timestamp-ms': 1_700_000_100_000 }) },
        { action: 'set-current-view-version', 'view-version-id': -1 },
        { action: 'set-properties', updates: { comment: 'two columns' } },
        { action: 'remove-properties', removals: ['owner'] },
      ],
    });
    expect(r.status).toBe(200);
    const next: string = r.json!['metadata-location'];
    expect(next).toMatch(/\/00001-[0-9a-f-]{36}\.metadata\.json$/);
    expect(r.json!['metadata']).toMatchObject({
      'view-uuid': uuid, 'current-version-id': 2, properties: { comment: 'two columns' },
      versions: [{ 'version-id': 1, 'schema-id': 0 }, { 'version-id': 2, 'schema-id': 1 }],
      'version-log': [{ 'version-id': 1 }, { 'version-id': 2, 'timestamp-ms': 1_700_000_100_000 }],
    });
    expect(r.json!['metadata'].properties.owner).toBeUndefined();
    expect((await http('GET', '/v1/lakegate/namespaces/lake/views/v1')).json!['metadata-location']).toBe(next);
    expect(next).not.toBe(first);

    // the same version again reuses its id; going back to version 1 logs it
    const again = await http('POST', '/v1/lakegate/namespaces/lake/views/v1', { updates: [{ action: 'set-current-view-version', 'view-version-id': 1 }] });
    expect(again.json!['metadata']).toMatchObject({ 'current-version-id': 1, 'version-log': [{ 'version-id': 1 }, { 'version-id': 2 }, { 'version-id': 1 }] });

    expect(await http('POST', '/v1/lakegate/namespaces/lake/views/v1', { requirements: [{ type: 'assert-view-uuid', uuid: '00000000-0000-4000-8000-000000000000' }], updates: [] }))
      .toMatchObject({ status: 409, json: { error: { type: 'CommitFailedException', message: expect.stringContaining('View UUID does not match') } } });
    expect(await http('POST', '/v1/lakegate/namespaces/lake/views/v1', { updates: [{ action: 'upgrade-format-version', 'format-version': 2 }] }))
      .toMatchObject({ status: 400, json: { error: { message: 'Cannot upgrade view to unsupported format version: v2 (supported: v1)' } } });
    expect(await http('POST', '/v1/lakegate/namespaces/lake/views/v1', { updates: [{ action: 'set-current-view-version', 'view-version-id': 9 }] }))
      .toMatchObject({ status: 400, json: { error: { message: 'Cannot set current version to unknown version: 9' } } });
    expect(await http('POST', '/v1/lakegate/namespaces/lake/views/v1', { updates: [{ action: 'add-snapshot', snapshot: {} }] }))
      .toMatchObject({ status: 400, json: { error: { message: 'Unsupported view update: add-snapshot' } } });
    expect(await http('POST', '/v1/lakegate/namespaces/lake/views/nope', { updates: [] })).toMatchObject({ status: 404, json: { error: { type: 'NoSuchViewException' } } });
  });

  it('expires versions beyond version.history.num-entries', async () => {
    await http('POST', '/v1/lakegate/namespaces/lake/views/v1', { updates: [{ action: 'set-properties', updates: { 'version.history.num-entries': '2' } }] });
    const r = await http('POST', '/v1/lakegate/namespaces/lake/views/v1', {
      updates: [
        { action: 'add-view-version', 'view-version': version('SELECT 3', { 'schema-id': 0 }) },
        { action: 'set-current-view-version', 'view-version-id': -1 },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json!['metadata']['current-version-id']).toBe(3);
    expect(r.json!['metadata'].versions.map((v: { 'version-id': number }) => v['version-id'])).toEqual([2, 3]);
    expect(r.json!['metadata']['version-log'].every((e: { 'version-id': number }) => e['version-id'] !== 1)).toBe(true);
  });

  it('register-view: a pointer to an existing view metadata file (drop, then register it again)', async () => {
    const loaded = await http('GET', '/v1/lakegate/namespaces/lake/views/v1');
    const location: string = loaded.json!['metadata-location'];
    expect((await http('DELETE', '/v1/lakegate/namespaces/lake/views/v1')).status).toBe(204);
    expect((await http('GET', '/v1/lakegate/namespaces/lake/views/v1')).status).toBe(404);
    const r = await http('POST', '/v1/lakegate/namespaces/lake/register-view', { name: 'v1', 'metadata-location': location });
    expect(r).toMatchObject({ status: 200, json: { 'metadata-location': location, metadata: { 'view-uuid': loaded.json!['metadata']['view-uuid'] } } });
    expect((await http('GET', '/v1/lakegate/namespaces/lake/views/v1')).json!['metadata-location']).toBe(location);
    // the name is taken now; a table's metadata is not a view's; missing namespace; missing file
    expect(await http('POST', '/v1/lakegate/namespaces/lake/register-view', { name: 'v1', 'metadata-location': location })).toMatchObject({ status: 409, json: { error: { type: 'AlreadyExistsException' } } });
    const table = (await http('GET', '/v1/lakegate/namespaces/lake/tables/bunnies')).json!['metadata-location'] as string;
    expect(await http('POST', '/v1/lakegate/namespaces/lake/register-view', { name: 'v2', 'metadata-location': table })).toMatchObject({ status: 400, json: { error: { type: 'BadRequestException' } } });
    expect(await http('POST', '/v1/lakegate/namespaces/nope/register-view', { name: 'v2', 'metadata-location': location })).toMatchObject({ status: 404, json: { error: { type: 'NoSuchNamespaceException' } } });
    expect((await http('GET', '/v1/lakegate/namespaces/lake/views')).json).toEqual({ identifiers: [{ namespace: ['lake'], name: 'v1' }] });
  });

  it('unregister: the table leaves the catalog, its files stay and register brings it back', async () => {
    const before = await http('GET', '/v1/lakegate/namespaces/lake/tables/bunnies');
    const location: string = before.json!['metadata-location'];
    const r = await http('POST', '/v1/lakegate/namespaces/lake/tables/bunnies/unregister');
    expect(r).toMatchObject({ status: 200, json: { 'metadata-location': location, metadata: { 'table-uuid': before.json!['metadata']['table-uuid'] } } });
    expect((await http('GET', '/v1/lakegate/namespaces/lake/tables/bunnies')).status).toBe(404);
    expect(await http('POST', '/v1/lakegate/namespaces/lake/tables/bunnies/unregister')).toMatchObject({ status: 404, json: { error: { type: 'NoSuchTableException' } } });
    expect((await http('POST', '/v1/lakegate/namespaces/lake/register', { name: 'bunnies', 'metadata-location': location })).status).toBe(200);
    expect((await http('GET', '/v1/lakegate/namespaces/lake/tables/bunnies')).json!['metadata-location']).toBe(location);
  });
});
