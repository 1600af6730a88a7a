/**
 * TableRequirements and TableUpdates of the REST spec (CommitTableRequest) applied to a raw metadata
 * document, as Iceberg Java's UpdateRequirement / MetadataUpdate / TableMetadata.Builder do. The document
 * comes from lossless JSON (ids above 2^53 are bigint), and every id is compared as a bigint.
 * A failed requirement is 409 CommitFailedException; an unknown or malformed update is 400.
 */
import { badRequest, RestError } from './rest-errors.ts';

export type Doc = Record<string, unknown>;

/** `set-properties` of a table or view metadata document */
export function setProperties(doc: Doc, updates: Doc): void {
  doc['properties'] = { ...((doc['properties'] as Doc | undefined) ?? {}), ...updates };
}

/** `remove-properties` of a table or view metadata document (unknown keys are ignored, as in Iceberg Java) */
export function removeProperties(doc: Doc, removals: unknown): void {
  const props = { ...((doc['properties'] as Doc | undefined) ?? {}) };
  for (const k of Array.isArray(removals) ? removals : []) delete props[String(k)];
  doc['properties'] = props;
}

const big = (v: unknown): bigint | null => (v === undefined || v === null ? null : BigInt(String(v)));
const num = (v: unknown, what: string): number => {
  if (typeof v !== 'number' && typeof v !== 'bigint') throw badRequest(`Malformed update: "${what}" must be a number`);
  return Number(v);
};
const arr = (v: unknown): Doc[] => (Array.isArray(v) ? (v as Doc[]) : []);
const commitFailed = (message: string): RestError => new RestError(409, 'CommitFailedException', `Requirement failed: ${message}`);

/** @param doc null when the table does not exist (assert-create) */
export function checkRequirement(doc: Doc | null, req: Doc): void {
  const type = req['type'];
  if (type === 'assert-create') {
    if (doc !== null) throw commitFailed('table already exists');
    return;
  }
  if (doc === null) throw commitFailed(`table does not exist (${String(type)})`);
  const same = (field: string, key: string, label: string): void => {
    if (big(doc[field]) !== big(req[key])) throw commitFailed(`${label} has changed: expected ${String(req[key])} != ${String(doc[field])}`);
  };
  switch (type) {
    case 'assert-table-uuid':
      if (String(doc['table-uuid']).toLowerCase() !== String(req['uuid']).toLowerCase()) throw commitFailed(`UUID does not match: expected ${String(req['uuid'])} != ${String(doc['table-uuid'])}`);
      return;
    case 'assert-ref-snapshot-id': {
      const name = String(req['ref']);
      const refs = (doc['refs'] as Record<string, Doc> | undefined) ?? {};
      let current = big(refs[name]?.['snapshot-id']);
      if (current === null && name === 'main' && doc['refs'] === undefined) current = big(doc['current-snapshot-id']); // v1 without refs
      if (current === -1n) current = null;
      const expected = big(req['snapshot-id']);
      if (current !== expected) {
        throw commitFailed(expected === null ? `reference ${name} was created concurrently` : current === null ? `branch or tag ${name} is missing, expected ${expected}` : `reference ${name} has changed: expected id ${expected} != ${current}`);
      }
      return;
    }
    case 'assert-last-assigned-field-id': return same('last-column-id', 'last-assigned-field-id', 'last assigned field id');
    case 'assert-current-schema-id': return same('current-schema-id', 'current-schema-id', 'current schema id');
    case 'assert-last-assigned-partition-id': return same('last-partition-id', 'last-assigned-partition-id', 'last assigned partition id');
    case 'assert-default-spec-id': return same('default-spec-id', 'default-spec-id', 'default partition spec');
    case 'assert-default-sort-order-id': return same('default-sort-order-id', 'default-sort-order-id', 'default sort order id');
    default:
      throw badRequest(`Unknown requirement type: ${String(type)}`);
  }
}

export function maxFieldId(type: unknown): number {
  if (type === null || typeof type !== 'object') return 0;
  const t = type as Doc;
  let m = 0;
  for (const key of ['id', 'element-id', 'key-id', 'value-id']) if (t[key] !== undefined) m = Math.max(m, Number(t[key]));
  for (const f of arr(t['fields'])) m = Math.max(m, maxFieldId(f), maxFieldId(f['type']));
  for (const key of ['element', 'key', 'value']) m = Math.max(m, maxFieldId(t[key]));
  return m;
}

/** -1 means "the last one added in this commit" (Java's LAST_ADDED) */
function lastAddedOr(id: number, added: number | null, what: string): number {
  if (id !== -1) return id;
  if (added === null) throw badRequest(`Cannot set last added ${what}: no ${what} has been added`);
  return added;
}

/** applies the updates in order to a copy of `doc`; `now` stamps snapshot-log entries for new main snapshots */
export function applyUpdates(base: Doc, updates: readonly Doc[], now: bigint): Doc {
  const doc: Doc = { ...base };
  let addedSchema: number | null = null;
  let addedSpec: number | null = null;
  let addedOrder: number | null = null;
  for (const u of updates) {
    switch (u['action']) {
      case 'assign-uuid': doc['table-uuid'] = String(u['uuid']); break;
      case 'upgrade-format-version': {
        const v = num(u['format-version'], 'format-version');
        if (v < Number(doc['format-version'])) throw badRequest(`Cannot downgrade format-version from ${String(doc['format-version'])} to ${v}`);
        doc['format-version'] = v;
        break;
      }
      case 'add-schema': {
        const schema = u['schema'] as Doc;
        if (schema === null || typeof schema !== 'object') throw badRequest('Malformed update: add-schema needs a schema');
        const schemas = arr(doc['schemas']);
        const existing = schemas.find((s) => JSON.stringify(s['fields']) === JSON.stringify(schema['fields']) && JSON.stringify(s['identifier-field-ids'] ?? []) === JSON.stringify(schema['identifier-field-ids'] ?? []));
        if (existing !== undefined) { addedSchema = Number(existing['schema-id']); break; }
        const id = Math.max(-1, ...schemas.map((s) => Number(s['schema-id']))) + 1;
        doc['schemas'] = [...schemas, { ...schema, 'schema-id': id }];
        doc['last-column-id'] = Math.max(Number(doc['last-column-id'] ?? 0), Number(u['last-column-id'] ?? 0), maxFieldId(schema));
        addedSchema = id;
        break;
      }
      case 'set-current-schema': {
        const id = lastAddedOr(num(u['schema-id'], 'schema-id'), addedSchema, 'schema');
        if (!arr(doc['schemas']).some((s) => Number(s['schema-id']) === id)) throw badRequest(`Cannot set current schema to unknown schema: ${id}`);
        doc['current-schema-id'] = id;
        break;
      }
      case 'add-spec': {
        const spec = u['spec'] as Doc;
        const specs = arr(doc['partition-specs']);
        const id = Math.max(-1, ...specs.map((s) => Number(s['spec-id']))) + 1;
        doc['partition-specs'] = [...specs, { ...spec, 'spec-id': id }];
        doc['last-partition-id'] = Math.max(Number(doc['last-partition-id'] ?? 999), ...arr(spec?.['fields']).map((f) => Number(f['field-id'] ?? 0)));
        addedSpec = id;
        break;
      }
      case 'set-default-spec': {
        const id = lastAddedOr(num(u['spec-id'], 'spec-id'), addedSpec, 'partition spec');
        if (!arr(doc['partition-specs']).some((s) => Number(s['spec-id']) === id)) throw badRequest(`Cannot set default partition spec to unknown spec: ${id}`);
        doc['default-spec-id'] = id;
        break;
      }
      case 'add-sort-order': {
        const order = u['sort-order'] as Doc;
        const orders = arr(doc['sort-orders']);
        const fields = arr(order?.['fields']);
        const id = fields.length === 0 ? 0 : Math.max(0, ...orders.map((o) => Number(o['order-id']))) + 1;
        if (!orders.some((o) => Number(o['order-id']) === id)) doc['sort-orders'] = [...orders, { ...order, 'order-id': id }];
        addedOrder = id;
        break;
      }
      case 'set-default-sort-order': {
        const id = lastAddedOr(num(u['sort-order-id'], 'sort-order-id'), addedOrder, 'sort order');
        if (!arr(doc['sort-orders']).some((o) => Number(o['order-id']) === id)) throw badRequest(`Cannot set default sort order to unknown order: ${id}`);
        doc['default-sort-order-id'] = id;
        break;
      }
      case 'add-snapshot': {
        const snap = u['snapshot'] as Doc;
        const id = big(snap?.['snapshot-id']);
        if (id === null) throw badRequest('Malformed update: add-snapshot needs a snapshot-id');
        if (arr(doc['snapshots']).some((s) => big(s['snapshot-id']) === id)) throw badRequest(`Snapshot already exists for id: ${id}`);
        const seq = big(snap['sequence-number']) ?? 0n;
        const last = big(doc['last-sequence-number']) ?? 0n;
        if (Number(doc['format-version']) >= 2 && seq <= last && snap['parent-snapshot-id'] !== undefined) {
          throw new RestError(409, 'CommitFailedException', `Cannot add snapshot with sequence number ${seq} older than last sequence number ${last}`);
        }
        // v3 row lineage (Java TableMetadata.Builder.addSnapshot): first-row-id >= next-row-id, which advances by added-rows
        if (Number(doc['format-version']) >= 3) {
          const first = big(snap['first-row-id']);
          const nextRowId = big(doc['next-row-id']) ?? 0n;
          if (first === null) throw badRequest('Cannot add a snapshot: first-row-id is required in v3 tables');
          if (first < nextRowId) throw new RestError(409, 'CommitFailedException', `Cannot add a snapshot, first-row-id is behind table next-row-id: ${first} < ${nextRowId}`);
          doc['next-row-id'] = first + (big(snap['added-rows']) ?? 0n);
        }
        doc['snapshots'] = [...arr(doc['snapshots']), snap];
        if (seq > last) doc['last-sequence-number'] = seq;
        break;
      }
      case 'set-snapshot-ref': {
        const name = String(u['ref-name']);
        const id = big(u['snapshot-id']);
        const snap = arr(doc['snapshots']).find((s) => big(s['snapshot-id']) === id);
        if (snap === undefined) throw badRequest(`Cannot set ${name} to unknown snapshot: ${String(id)}`);
        const { action: _a, 'ref-name': _n, ...ref } = u;
        doc['refs'] = { ...((doc['refs'] as Doc | undefined) ?? {}), [name]: ref };
        if (name === 'main' && big(doc['current-snapshot-id']) !== id) {
          doc['current-snapshot-id'] = id;
          doc['snapshot-log'] = [...arr(doc['snapshot-log']), { 'timestamp-ms': big(snap['timestamp-ms']) ?? now, 'snapshot-id': id }];
        }
        break;
      }
      case 'remove-snapshot-ref': {
        const name = String(u['ref-name']);
        const refs = { ...((doc['refs'] as Doc | undefined) ?? {}) };
        delete refs[name];
        doc['refs'] = refs;
        if (name === 'main') doc['current-snapshot-id'] = -1;
        break;
      }
      case 'remove-snapshots': {
        const ids = new Set((Array.isArray(u['snapshot-ids']) ? u['snapshot-ids'] : []).map((v) => String(v)));
        doc['snapshots'] = arr(doc['snapshots']).filter((s) => !ids.has(String(s['snapshot-id'])));
        doc['snapshot-log'] = arr(doc['snapshot-log']).filter((s) => !ids.has(String(s['snapshot-id'])));
        const refs = Object.entries((doc['refs'] as Record<string, Doc> | undefined) ?? {}).filter(([, r]) => !ids.has(String(r['snapshot-id'])));
        doc['refs'] = Object.fromEntries(refs);
        if (ids.has(String(doc['current-snapshot-id']))) doc['current-snapshot-id'] = -1;
        break;
      }
      case 'set-location': doc['location'] = String(u['location']); break;
      case 'set-properties': setProperties(doc, (u['updates'] as Doc | undefined) ?? {}); break;
      case 'remove-properties': removeProperties(doc, u['removals']); break;
      default:
        throw badRequest(`Unsupported table update: ${String(u['action'])}`);
    }
  }
  return doc;
}
