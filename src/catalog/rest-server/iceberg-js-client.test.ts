/**
 * lakegate's REST catalog driven by an independent client, iceberg-js (dev dependency, pinned 1.0.0):
 * config/prefix discovery, namespace CRUD, list/load/register/rename/drop/create/commit tables, errors, bearer auth.
 * iceberg-js parses responses with JSON.parse, so ids above 2^53 are rounded on its side; a fetch wrapper
 * checks that the bytes lakegate sent carry them exactly.
 */
import { IcebergError, IcebergRestCatalog } from 'iceberg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V3, V5, V5_CURRENT_SNAPSHOT, startRestFixture, type RestFixture } from './testing/rest-fixture.ts';

const TOKEN = 'iceberg-js-token';

describe('iceberg-js against lakegate REST catalog', () => {
  let fx: RestFixture;
  let catalog: IcebergRestCatalog;
  const bodies: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    bodies.push(await res.clone().text());
    return res;
  };

  beforeAll(async () => {
    fx = await startRestFixture({ token: TOKEN });
    catalog = new IcebergRestCatalog({ baseUrl: fx.base, warehouse: 'lakegate', auth: { type: 'bearer', token: TOKEN }, fetch: recordingFetch });
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('discovers the prefix and lists namespaces and tables', async () => {
    const config = await catalog.loadConfig();
    expect(config.overrides).toEqual({ prefix: 'lakegate' });
    expect(await catalog.listNamespaces()).toEqual({ namespaces: [{ namespace: ['lake'] }] });
    expect(await catalog.listTables({ namespace: ['lake'] })).toEqual({ identifiers: [{ namespace: ['lake'], name: 'bunnies' }] });
    expect(await catalog.tableExists({ namespace: ['lake'], name: 'bunnies' })).toBe(true);
    expect(await catalog.tableExists({ namespace: ['lake'], name: 'nope' })).toBe(false);
  });

  it('loads table metadata; the wire carries exact 64-bit snapshot ids', async () => {
    bodies.length = 0;
    const result = await catalog.loadTableResult({ namespace: ['lake'], name: 'bunnies' });
    expect(result?.['metadata-location']).toBe(V5);
    expect(result?.metadata['format-version']).toBe(2);
    expect(result?.metadata['table-uuid']).toBe('50d305b7-f929-4857-869f-68d7e9b570e5');
    expect(bodies.at(-1)).toMatch(new RegExp(`"current-snapshot-id"\\s*:\\s*${V5_CURRENT_SNAPSHOT}\\b`));
  });

  it('creates, inspects, updates and drops namespaces', async () => {
    await catalog.createNamespace({ namespace: ['sales'] }, { properties: { owner: 'bo' } });
    await catalog.createNamespace({ namespace: ['sales', 'eu'] });
    expect(await catalog.listNamespaces({ parent: { namespace: ['sales'] } })).toEqual({ namespaces: [{ namespace: ['sales', 'eu'] }] });
    expect(await catalog.namespaceExists({ namespace: ['sales', 'eu'] })).toBe(true);
    expect((await catalog.loadNamespaceMetadata({ namespace: ['sales'] })).properties).toMatchObject({ owner: 'bo' });
    expect(await catalog.updateNamespaceProperties({ namespace: ['sales'] }, { removals: ['owner'], updates: { tier: 'gold' } })).toEqual({ updated: ['tier'], removed: ['owner'], missing: [] });
    await catalog.dropNamespace({ namespace: ['sales', 'eu'] });
    await catalog.dropNamespace({ namespace: ['sales'] });
    expect(await catalog.namespaceExists({ namespace: ['sales'] })).toBe(false);
  });

  it('registers, renames and drops tables', async () => {
    const md = await catalog.registerTable({ namespace: ['lake'] }, { name: 'v3', 'metadata-location': V3 });
    expect(md['format-version']).toBe(2);
    await catalog.renameTable({ source: { namespace: ['lake'], name: 'v3' }, destination: { namespace: ['lake'], name: 'bunnies_v3' } });
    expect((await catalog.loadTableResult({ namespace: ['lake'], name: 'bunnies_v3' }))?.['metadata-location']).toBe(V3);
    await catalog.dropTable({ namespace: ['lake'], name: 'bunnies_v3' }, { purge: true });
    expect(await catalog.tableExists({ namespace: ['lake'], name: 'bunnies_v3' })).toBe(false);
  });

  it('creates a table and commits to it', async () => {
    const md = await catalog.createTable({ namespace: ['lake'] }, {
      name: 'events',
      schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: true }, { id: 2, name: 'name', type: 'string', required: false }] },
      'partition-spec': { 'spec-id': 0, fields: [] },
      'write-order': { 'order-id': 0, fields: [] },
      properties: { 'write.format.default': 'parquet' },
    });
    expect(md['format-version']).toBe(2);
    const id = { namespace: ['lake'], name: 'events' };
    const committed = await catalog.commitTable(id, {
      requirements: [{ type: 'assert-table-uuid', uuid: md['table-uuid'] }],
      updates: [{ action: 'set-properties', updates: { owner: 'iceberg-js' } }],
    });
    expect(committed['metadata-location']).toMatch(/\/lake\/events\/metadata\/00001-[^/]+\.metadata\.json$/);
    expect((await catalog.loadTable(id))?.properties).toMatchObject({ owner: 'iceberg-js', 'write.format.default': 'parquet' });
    const stale = catalog.commitTable(id, { requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 5 }], updates: [] });
    await expect(stale).rejects.toMatchObject({ status: 409, icebergType: 'CommitFailedException' });
  });

  it('sees the spec error types, and 401 without the token', async () => {
    const failure = async (p: Promise<unknown>): Promise<IcebergError> => {
      try {
        await p;
      } catch (e) {
        if (e instanceof IcebergError) return e;
        throw e;
      }
      throw new Error('expected an IcebergError');
    };
    expect(await failure(catalog.loadTable({ namespace: ['lake'], name: 'nope' }))).toMatchObject({ status: 404, icebergType: 'NoSuchTableException', icebergCode: 404 });
    expect(await failure(catalog.createNamespace({ namespace: ['lake'] }))).toMatchObject({ status: 409, icebergType: 'AlreadyExistsException' });
    expect(await failure(catalog.dropNamespace({ namespace: ['lake'] }))).toMatchObject({ status: 409, icebergType: 'NamespaceNotEmptyException' });
    expect(await failure(catalog.listTables({ namespace: ['nope'] }))).toMatchObject({ status: 404, icebergType: 'NoSuchNamespaceException' });
    expect(await failure(catalog.commitTable({ namespace: ['lake'], name: 'nope' }, { requirements: [], updates: [] }))).toMatchObject({ status: 404, icebergType: 'NoSuchTableException' });
    const anonymous = new IcebergRestCatalog({ baseUrl: fx.base, warehouse: 'lakegate' });
    expect(await failure(anonymous.listNamespaces())).toMatchObject({ status: 401, icebergType: 'NotAuthorizedException' });
  });
});
