/**
 * RestCatalog's view methods against lakegate's REST server (SQL catalog behind it): create from a written
 * view metadata file, commit the difference of two files, load, list, rename, drop, errors as the SQL catalog
 * raises them; and a server whose /v1/config lists no view endpoints has no views (as Iceberg Java decides).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from '../rest-server/testing/rest-fixture.ts';
import { openRestCatalog, type RestCatalog } from './index.ts';

const doc = (dir: string, versions: number) => ({
  'view-uuid': '6f1c2d3e-0000-4000-8000-00000000000a', 'format-version': 1, location: `${dir}/lake/cv`, 'current-version-id': versions,
  versions: Array.from({ length: versions }, (_, i) => ({
    'version-id': i + 1, 'schema-id': i, 'timestamp-ms': 1_700_000_000_000 + i, summary: {}, 'default-namespace': ['lake'],
    representations: [{ type: 'sql', sql: `SELECT ${i + 1} AS v${i + 1}`, dialect: 'postgresql' }],
  })),
  'version-log': Array.from({ length: versions }, (_, i) => ({ 'version-id': i + 1, 'timestamp-ms': 1_700_000_000_000 + i })),
  schemas: Array.from({ length: versions }, (_, i) => ({ type: 'struct', 'schema-id': i, fields: [{ id: 1, name: `v${i + 1}`, required: false, type: 'int' }] })),
  properties: { comment: `version ${versions}` },
});

describe('RestCatalog views', () => {
  let fx: RestFixture;
  let client: RestCatalog;
  const id = { namespace: ['lake'], name: 'cv' };

  beforeAll(async () => {
    fx = await startRestFixture();
    client = await openRestCatalog({ uri: fx.base, warehouse: 'lakegate', readMetadata: (l) => readFile(l, 'utf8') });
    await mkdir(`${fx.dir}/client`, { recursive: true });
    await writeFile(`${fx.dir}/client/v1.metadata.json`, JSON.stringify(doc(fx.dir, 1)));
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('creates, replaces, loads and lists a view through REST', async () => {
    expect(client.viewsSupported).toBe(true);
    await client.createView(id, `${fx.dir}/client/v1.metadata.json`);
    const first = await client.loadViewLocation(id);
    expect(first.metadataLocation).toMatch(new RegExp(`^${fx.dir}/lake/cv/metadata/00000-`)); // the server wrote its own file
    // as lakegate's replace does: the base is the file the catalog points to (the server chose its view-uuid)
    const { 'view-uuid': uuid } = JSON.parse(await readFile(first.metadataLocation, 'utf8'));
    await writeFile(`${fx.dir}/client/v2.metadata.json`, JSON.stringify({ ...doc(fx.dir, 2), 'view-uuid': uuid }));
    await client.commitView(id, first.metadataLocation, `${fx.dir}/client/v2.metadata.json`);
    await expect(client.commitView(id, `${fx.dir}/client/v1.metadata.json`, `${fx.dir}/client/v2.metadata.json`)).rejects.toMatchObject({ code: '40001' }); // another view's uuid
    const second = await client.loadViewLocation(id);
    expect(second.metadataLocation).toMatch(/\/00001-/);
    const stored = JSON.parse(await readFile(second.metadataLocation, 'utf8'));
    expect(stored).toMatchObject({ 'current-version-id': 2, properties: { comment: 'version 2' } });
    expect(stored.versions[1].representations[0].sql).toBe('SELECT 2 AS v2');
    expect(await client.listViews(['lake'])).toEqual([id]);
    expect(await client.listTables(['lake'])).toEqual([{ namespace: ['lake'], name: 'bunnies' }]);
  });

  it('errors are the SQL catalog\'s: 42P07, 42P01, 3F000', async () => {
    await expect(client.createView(id, `${fx.dir}/client/v1.metadata.json`)).rejects.toMatchObject({ code: '42P07' });
    await expect(client.createView({ namespace: ['lake'], name: 'bunnies' }, `${fx.dir}/client/v1.metadata.json`)).rejects.toMatchObject({ code: '42P07' });
    await expect(client.loadViewLocation({ namespace: ['lake'], name: 'nope' })).rejects.toMatchObject({ code: '42P01' });
    await expect(client.listViews(['nope'])).rejects.toMatchObject({ code: '3F000' });
  });

  it('renames and drops', async () => {
    await client.renameView(id, { namespace: ['lake'], name: 'cv2' });
    await expect(client.loadViewLocation(id)).rejects.toMatchObject({ code: '42P01' });
    expect(await client.dropView({ namespace: ['lake'], name: 'cv2' })).toBe(true);
    expect(await client.dropView({ namespace: ['lake'], name: 'cv2' })).toBe(false);
  });

  it('a server listing no view endpoints has no views', async () => {
    const noViews: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!String(input).includes('/v1/config')) return res;
      const config = (await res.json()) as { endpoints: string[] };
      return new Response(JSON.stringify({ ...config, endpoints: config.endpoints.filter((e) => !e.includes('/views')) }), { status: 200 });
    };
    const old = await openRestCatalog({ uri: fx.base, warehouse: 'lakegate', fetch: noViews as never });
    expect(old.viewsSupported).toBe(false);
    expect(await old.listViews(['lake'])).toEqual([]);
  });
});
