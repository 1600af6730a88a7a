/**
 * diffViewMetadata is the inverse of the server's applyViewUpdates: applying the diff of (base, next) to base
 * gives next's current version, schema and properties — for a replace (new schema + version), a property
 * change only (COMMENT ON VIEW), and a version reusing an existing schema.
 */
import { describe, expect, it } from 'vitest';
import { applyViewUpdates } from '../rest-server/view-updates.ts';
import { createViewRequest, diffViewMetadata } from './view-metadata-diff.ts';

type Doc = Record<string, unknown>;
const schema = (id: number, names: string[]) => ({ type: 'struct', 'schema-id': id, fields: names.map((name, i) => ({ id: i + 1, name, required: false, type: 'int' })) });
const version = (id: number, schemaId: number, sql: string) => ({
  'version-id': id, 'schema-id': schemaId, 'timestamp-ms': 1000 * id, summary: { 'engine-name': 'lakegate' },
  representations: [{ type: 'sql', sql, dialect: 'postgresql' }], 'default-namespace': ['ns'],
});
const base: Doc = {
  'view-uuid': 'u-1', 'format-version': 1, location: '/w/ns/v', 'current-version-id': 1,
  versions: [version(1, 0, 'SELECT a FROM t')], 'version-log': [{ 'version-id': 1, 'timestamp-ms': 1000 }],
  schemas: [schema(0, ['a'])], properties: { 'lakegate.search-path': '["ns"]', comment: 'old' },
};

function current(doc: Doc): { sql: unknown; fields: unknown; properties: unknown } {
  const v = (doc['versions'] as Doc[]).find((x) => x['version-id'] === doc['current-version-id'])!;
  const s = (doc['schemas'] as Doc[]).find((x) => x['schema-id'] === v['schema-id'])!;
  return { sql: (v['representations'] as Doc[])[0]!['sql'], fields: s['fields'], properties: doc['properties'] };
}

describe('diffViewMetadata', () => {
  it('a replace sends add-schema, add-view-version (schema -1), set-current-view-version -1 under assert-view-uuid', () => {
    const next: Doc = {
      ...base, 'current-version-id': 2, versions: [...(base['versions'] as Doc[]), version(2, 1, 'SELECT a, b FROM t')],
      'version-log': [...(base['version-log'] as Doc[]), { 'version-id': 2, 'timestamp-ms': 2000 }],
      schemas: [...(base['schemas'] as Doc[]), schema(1, ['a', 'b'])], properties: { 'lakegate.search-path': '["ns"]' },
    };
    const { requirements, updates } = diffViewMetadata(base, next);
    expect(requirements).toEqual([{ type: 'assert-view-uuid', uuid: 'u-1' }]);
    expect(updates.map((u) => u['action'])).toEqual(['add-schema', 'add-view-version', 'set-current-view-version', 'remove-properties']);
    expect(updates[1]!['view-version']).toMatchObject({ 'schema-id': -1 });
    expect(updates[2]).toEqual({ action: 'set-current-view-version', 'view-version-id': -1 });
    const applied = applyViewUpdates(base, updates, 5000);
    expect(current(applied)).toEqual(current(next));
    expect(applied['version-log']).toEqual([{ 'version-id': 1, 'timestamp-ms': 1000 }, { 'version-id': 2, 'timestamp-ms': 2000 }]);
  });

  it('a property change alone (COMMENT ON VIEW) is set-properties only; no change is no update', () => {
    const next: Doc = { ...base, properties: { ...(base['properties'] as Doc), comment: 'new' } };
    expect(diffViewMetadata(base, next).updates).toEqual([{ action: 'set-properties', updates: { comment: 'new' } }]);
    expect(diffViewMetadata(base, base).updates).toEqual([]);
  });

  it('a version over an existing schema keeps its schema id; CreateViewRequest carries the current version', () => {
    const next: Doc = { ...base, 'current-version-id': 2, versions: [...(base['versions'] as Doc[]), version(2, 0, 'SELECT a + 1 AS a FROM t')] };
    const { updates } = diffViewMetadata(base, next);
    expect(updates.map((u) => u['action'])).toEqual(['add-view-version', 'set-current-view-version']);
    expect(updates[0]!['view-version']).toMatchObject({ 'schema-id': 0 });
    expect(current(applyViewUpdates(base, updates, 5000))).toEqual(current(next));
    expect(createViewRequest('v', next)).toEqual({
      name: 'v', location: '/w/ns/v', schema: schema(0, ['a']), 'view-version': version(2, 0, 'SELECT a + 1 AS a FROM t'), properties: base['properties'],
    });
  });
});
