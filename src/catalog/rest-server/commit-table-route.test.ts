/**
 * Create table and commit through the REST server: metadata files written in the temp warehouse, every
 * requirement checked against the current metadata (409 CommitFailedException), ids above 2^53 exact.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseLosslessJson as parse } from './lossless-doc.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from './testing/rest-fixture.ts';

type Doc = Record<string, unknown>;
const BIG_ID = '9007199254740993'; // 2^53 + 1: a double would make it ...992

describe('REST create table and commit', () => {
  let fx: RestFixture;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${fx.base}/v1/lakegate${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, doc: (text === '' ? {} : parse(text)) as Doc };
  };
  const meta = (r: { doc: Doc }) => r.doc['metadata'] as Doc;
  const commit = (updates: unknown[], requirements: unknown[] = []) => post('/namespaces/lake/tables/events', { requirements, updates });

  beforeAll(async () => {
    fx = await startRestFixture();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('creates a table: first metadata file under the namespace location', async () => {
    const r = await post('/namespaces/lake/tables', {
      name: 'events',
      schema: { type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'id', type: 'long', required: true }, { id: 2, name: 'tags', type: { type: 'list', 'element-id': 3, element: 'string', 'element-required': false }, required: false }] },
      'partition-spec': { 'spec-id': 0, fields: [{ 'source-id': 1, transform: 'bucket[4]', name: 'id_bucket' }] },
      properties: { owner: 'ana' },
    });
    expect(r.status).toBe(200);
    expect(String(r.doc['metadata-location'])).toMatch(new RegExp(`^${fx.dir}/lake/events/metadata/00000-[0-9a-f-]{36}\\.metadata\\.json$`));
    expect(meta(r)).toMatchObject({ 'format-version': 2, 'last-column-id': 3, 'last-partition-id': 1000, properties: { owner: 'ana' }, location: `${fx.dir}/lake/events` });
    expect(await readdir(join(fx.dir, 'lake/events/metadata'))).toHaveLength(1);
  });

  it('commits updates with requirements; stale requirements fail with 409', async () => {
    const base = meta(await post('/namespaces/lake/tables/events', { requirements: [], updates: [] })) as Doc;
    const uuid = String(base['table-uuid']);
    const r1 = await commit([{ action: 'set-properties', updates: { tier: 'gold' } }, { action: 'remove-properties', removals: ['owner'] }], [
      { type: 'assert-table-uuid', uuid },
      { type: 'assert-current-schema-id', 'current-schema-id': 0 },
      { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 3 },
      { type: 'assert-default-spec-id', 'default-spec-id': 0 },
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null },
    ]);
    expect(r1.status).toBe(200);
    expect(String(r1.doc['metadata-location'])).toMatch(/\/metadata\/00002-[^/]+\.metadata\.json$/);
    expect(meta(r1)['properties']).toEqual({ tier: 'gold' });
    expect((meta(r1)['metadata-log'] as Doc[]).length).toBe(2);

    const stale = await commit([{ action: 'set-properties', updates: { x: '1' } }], [{ type: 'assert-table-uuid', uuid: 'c0ffee00-0000-0000-0000-000000000000' }]);
    expect(stale.status).toBe(409);
    expect(stale.doc).toEqual({ error: { message: expect.stringContaining('UUID'), type: 'CommitFailedException', code: 409 } });
    expect((await commit([], [{ type: 'assert-create' }])).doc).toMatchObject({ error: { type: 'CommitFailedException' } });
    expect((await commit([], [{ type: 'assert-current-schema-id', 'current-schema-id': 7 }])).status).toBe(409);
    expect((await commit([{ action: 'frobnicate' }])).doc).toMatchObject({ error: { type: 'BadRequestException', code: 400 } });
  });

  it('evolves the schema and adds a snapshot with an exact 64-bit id', async () => {
    const schema = { type: 'struct', 'schema-id': 1, fields: [{ id: 1, name: 'id', type: 'long', required: true }, { id: 4, name: 'note', type: 'string', required: false }] };
    const r = await commit([{ action: 'add-schema', schema, 'last-column-id': 4 }, { action: 'set-current-schema', 'schema-id': -1 }], [{ type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 3 }]);
    expect(meta(r)).toMatchObject({ 'current-schema-id': 1, 'last-column-id': 4 });

    const snapshot = `{"snapshot-id":${BIG_ID},"sequence-number":1,"timestamp-ms":1743310561983,"manifest-list":"${fx.dir}/lake/events/metadata/snap.avro","summary":{"operation":"append"},"schema-id":1}`;
    const body = `{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}],"updates":[{"action":"add-snapshot","snapshot":${snapshot}},{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":${BIG_ID}}]}`;
    const added = await post('/namespaces/lake/tables/events', body);
    expect(added.status).toBe(200);
    expect(added.text).toContain(`"current-snapshot-id": ${BIG_ID}`);
    expect(String(meta(added)['last-sequence-number'])).toBe('1');
    const loaded = await fetch(`${fx.base}/v1/lakegate/namespaces/lake/tables/events`).then((x) => x.text());
    expect(loaded).toContain(`"snapshot-id": ${BIG_ID}`);
    // the ref now holds the id: asserting it (as a bare JSON integer) passes, asserting "no ref" fails
    const ok = await post('/namespaces/lake/tables/events', `{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":${BIG_ID}}],"updates":[]}`);
    expect(ok.status).toBe(200);
    const off = await post('/namespaces/lake/tables/events', `{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":9007199254740992}],"updates":[]}`);
    expect(off.status).toBe(409);
  });
});
