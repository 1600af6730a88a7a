/**
 * The inverse of the REST server's applyViewUpdates (rest-server/view-updates.ts): given the view metadata a
 * CREATE OR REPLACE VIEW / COMMENT ON VIEW started from and the metadata lakegate built, the ViewRequirements
 * + ViewUpdates that turn one into the other on a REST catalog, as Iceberg Java's RESTViewOperations sends
 * them from ViewMetadata.changes(): assert-view-uuid, add-schema then add-view-version with `schema-id: -1`
 * (the server assigns its own ids), set-current-view-version (-1 = the version just added), property changes.
 * The spec's only view requirement is the uuid, so two concurrent replaces both succeed (the last one wins),
 * as with every REST view client.
 * @see https://iceberg.apache.org/view-spec/
 */
import type { Doc } from './metadata-diff.ts';

export interface ViewCommit {
  readonly requirements: Doc[];
  readonly updates: Doc[];
}

const arr = (v: unknown): Doc[] => (Array.isArray(v) ? (v as Doc[]) : []);
const props = (d: Doc): Record<string, string> => (d['properties'] as Record<string, string> | undefined) ?? {};

export function diffViewMetadata(base: Doc, next: Doc): ViewCommit {
  const updates: Doc[] = [];
  if (next['location'] !== base['location']) updates.push({ action: 'set-location', location: next['location'] });
  const baseSchemas = new Set(arr(base['schemas']).map((s) => Number(s['schema-id'])));
  const baseVersions = new Set(arr(base['versions']).map((v) => Number(v['version-id'])));
  const schemas = new Map(arr(next['schemas']).map((s) => [Number(s['schema-id']), s]));
  const current = Number(next['current-version-id']);
  // the current version last, so that -1 ("last added") names it
  const newVersions = arr(next['versions']).filter((v) => !baseVersions.has(Number(v['version-id'])))
    .sort((a, b) => Number(Number(a['version-id']) === current) - Number(Number(b['version-id']) === current));
  let lastAdded: number | null = null;
  for (const v of newVersions) {
    const schemaId = Number(v['schema-id']);
    const schema = schemas.get(schemaId);
    const newSchema = !baseSchemas.has(schemaId) && schema !== undefined;
    if (newSchema) updates.push({ action: 'add-schema', schema });
    updates.push({ action: 'add-view-version', 'view-version': { ...v, 'schema-id': newSchema ? -1 : schemaId } });
    lastAdded = Number(v['version-id']);
  }
  if (current !== Number(base['current-version-id']) || lastAdded === current) {
    updates.push({ action: 'set-current-view-version', 'view-version-id': lastAdded === current ? -1 : current });
  }
  const before = props(base);
  const after = props(next);
  const set = Object.fromEntries(Object.entries(after).filter(([k, v]) => before[k] !== v));
  const removed = Object.keys(before).filter((k) => !(k in after));
  if (Object.keys(set).length > 0) updates.push({ action: 'set-properties', updates: set });
  if (removed.length > 0) updates.push({ action: 'remove-properties', removals: removed });
  return { requirements: [{ type: 'assert-view-uuid', uuid: base['view-uuid'] }], updates };
}

/** CreateViewRequest fields from a view metadata document lakegate wrote: its current version and schema */
export function createViewRequest(name: string, doc: Doc): Doc {
  const current = Number(doc['current-version-id']);
  const version = arr(doc['versions']).find((v) => Number(v['version-id']) === current);
  const schema = arr(doc['schemas']).find((s) => Number(s['schema-id']) === Number(version?.['schema-id']));
  if (version === undefined || schema === undefined) throw new Error(`view metadata of "${name}" has no current version or schema`);
  return { name, location: doc['location'], schema, 'view-version': version, properties: props(doc) };
}
