/**
 * ViewRequirements and ViewUpdates of the REST spec (CommitViewRequest) applied to a raw view metadata
 * document, as Iceberg Java's UpdateRequirement.AssertViewUUID and ViewMetadata.Builder do: a schema equal to
 * one already there reuses its id, a version equal to one already there (but for its id and timestamp)
 * reuses its id, `-1` means "the one added in this commit", and making a version current appends to the
 * version-log. Versions beyond `version.history.num-entries` (default 10) expire, oldest first.
 * A failed requirement is 409 CommitFailedException; an unknown or malformed update is 400.
 * @see https://iceberg.apache.org/view-spec/
 */
import { badRequest, RestError } from './rest-errors.ts';
import { removeProperties, setProperties, type Doc } from './table-updates.ts';

const VERSION_HISTORY_SIZE = 'version.history.num-entries';
const DEFAULT_VERSION_HISTORY_SIZE = 10;
export const VIEW_FORMAT_VERSION = 1;

const arr = (v: unknown): Doc[] => (Array.isArray(v) ? (v as Doc[]) : []);
const int = (v: unknown, what: string): number => {
  if ((typeof v !== 'number' && typeof v !== 'bigint') || !Number.isInteger(Number(v))) throw badRequest(`Malformed update: "${what}" must be an integer`);
  return Number(v);
};
const object = (v: unknown, what: string): Doc => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badRequest(`Malformed update: "${what}" must be an object`);
  return v as Doc;
};

/** assert-view-uuid, the only ViewRequirement */
export function checkViewRequirement(doc: Doc, req: Doc): void {
  if (req['type'] !== 'assert-view-uuid') throw badRequest(`Unknown view requirement type: ${String(req['type'])}`);
  if (String(doc['view-uuid']).toLowerCase() !== String(req['uuid']).toLowerCase()) {
    throw new RestError(409, 'CommitFailedException', `Requirement failed: View UUID does not match: expected ${String(req['uuid'])} != ${String(doc['view-uuid'])}`);
  }
}

/** JSON text with object keys sorted at every level (bigint ids as their digits) */
function canonical(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Doc;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** a version compared without what the builder assigns (id, timestamp) */
function versionKey(v: Doc): string {
  const { 'version-id': _id, 'timestamp-ms': _ts, ...rest } = v;
  return canonical(rest);
}

function checkRepresentations(v: Doc): void {
  const dialects = new Set<string>();
  for (const r of arr(v['representations'])) {
    if (r['type'] !== 'sql') continue;
    if (typeof r['sql'] !== 'string' || typeof r['dialect'] !== 'string') throw badRequest('Malformed update: a sql representation needs "sql" and "dialect"');
    const dialect = r['dialect'].toLowerCase();
    if (dialects.has(dialect)) throw badRequest(`Invalid view version: Cannot add multiple queries for dialect ${dialect}`);
    dialects.add(dialect);
  }
  if (!Array.isArray(v['default-namespace'])) throw badRequest('Malformed update: a view version needs "default-namespace"');
}

/** applies the updates in order to a copy of `base`; `now` stamps versions that carry no timestamp */
export function applyViewUpdates(base: Doc, updates: readonly Doc[], now: number): Doc {
  const doc: Doc = { ...base };
  let addedSchema: number | null = null;
  let addedVersion: number | null = null;
  for (const u of updates) {
    switch (u['action']) {
      case 'assign-uuid': {
        const uuid = String(u['uuid']);
        if (doc['view-uuid'] !== undefined && String(doc['view-uuid']).toLowerCase() !== uuid.toLowerCase()) throw badRequest('Cannot reassign uuid');
        doc['view-uuid'] = uuid;
        break;
      }
      case 'upgrade-format-version': {
        const v = int(u['format-version'], 'format-version');
        if (v > VIEW_FORMAT_VERSION) throw badRequest(`Cannot upgrade view to unsupported format version: v${v} (supported: v${VIEW_FORMAT_VERSION})`);
        if (v < Number(doc['format-version'] ?? VIEW_FORMAT_VERSION)) throw badRequest(`Cannot downgrade v${String(doc['format-version'])} view to v${v}`);
        doc['format-version'] = v;
        break;
      }
      case 'add-schema': {
        const schema = object(u['schema'], 'schema');
        if (!Array.isArray(schema['fields'])) throw badRequest('Malformed update: add-schema needs a struct schema');
        const schemas = arr(doc['schemas']);
        const same = schemas.find((s) => canonical(s['fields']) === canonical(schema['fields']) && canonical(s['identifier-field-ids'] ?? []) === canonical(schema['identifier-field-ids'] ?? []));
        if (same !== undefined) {
          addedSchema = Number(same['schema-id']);
          break;
        }
        const id = Math.max(-1, ...schemas.map((s) => Number(s['schema-id']))) + 1;
        doc['schemas'] = [...schemas, { ...schema, type: 'struct', 'schema-id': id }];
        addedSchema = id;
        break;
      }
      case 'add-view-version': {
        const version = { ...object(u['view-version'], 'view-version') };
        checkRepresentations(version);
        let schemaId = int(version['schema-id'], 'view-version.schema-id');
        if (schemaId === -1) {
          if (addedSchema === null) throw badRequest('Cannot set last added schema: no schema has been added');
          schemaId = addedSchema;
        }
        if (!arr(doc['schemas']).some((s) => Number(s['schema-id']) === schemaId)) throw badRequest(`Cannot add version with unknown schema: ${schemaId}`);
        version['schema-id'] = schemaId;
        version['timestamp-ms'] ??= now;
        version['summary'] ??= {};
        const versions = arr(doc['versions']);
        const same = versions.find((v) => versionKey(v) === versionKey(version));
        if (same !== undefined) {
          addedVersion = Number(same['version-id']);
          break;
        }
        const id = Math.max(0, ...versions.map((v) => Number(v['version-id']))) + 1;
        doc['versions'] = [...versions, { ...version, 'version-id': id }];
        addedVersion = id;
        break;
      }
      case 'set-current-view-version': {
        let id = int(u['view-version-id'], 'view-version-id');
        if (id === -1) {
          if (addedVersion === null) throw badRequest('Cannot set last version: no views have been added');
          id = addedVersion;
        }
        const version = arr(doc['versions']).find((v) => Number(v['version-id']) === id);
        if (version === undefined) throw badRequest(`Cannot set current version to unknown version: ${id}`);
        if (doc['current-version-id'] !== id) {
          doc['current-version-id'] = id;
          doc['version-log'] = [...arr(doc['version-log']), { 'version-id': id, 'timestamp-ms': version['timestamp-ms'] ?? now }];
        }
        break;
      }
      case 'set-location': {
        if (typeof u['location'] !== 'string' || u['location'] === '') throw badRequest('Malformed update: "location" must be a non-empty string');
        doc['location'] = u['location'];
        break;
      }
      case 'set-properties':
        setProperties(doc, object(u['updates'] ?? {}, 'updates'));
        break;
      case 'remove-properties':
        removeProperties(doc, u['removals']);
        break;
      default:
        throw badRequest(`Unsupported view update: ${String(u['action'])}`);
    }
  }
  return expireVersions(doc);
}

/** keeps the newest `version.history.num-entries` versions (the current one always), and their version-log entries */
function expireVersions(doc: Doc): Doc {
  const props = (doc['properties'] as Record<string, unknown> | undefined) ?? {};
  const keep = Math.max(1, Number(props[VERSION_HISTORY_SIZE] ?? DEFAULT_VERSION_HISTORY_SIZE) || DEFAULT_VERSION_HISTORY_SIZE);
  const versions = arr(doc['versions']);
  if (versions.length <= keep) return doc;
  const current = Number(doc['current-version-id']);
  const byId = [...versions].sort((a, b) => Number(b['version-id']) - Number(a['version-id']));
  const kept = new Set<number>([current]);
  for (const v of byId) if (kept.size < keep) kept.add(Number(v['version-id']));
  return {
    ...doc,
    versions: versions.filter((v) => kept.has(Number(v['version-id']))),
    'version-log': arr(doc['version-log']).filter((e) => kept.has(Number(e['version-id']))),
  };
}
