/**
 * diffMetadata is checked against the REST server's applyUpdates: for each kind of change, applying the
 * diff's updates to the base reproduces the new metadata (up to the server-stamped fields), and the
 * requirements pass on the base and fail once another writer moved main.
 */
import { describe, expect, it } from 'vitest';
import { applyUpdates, checkRequirement } from '../rest-server/table-updates.ts';
import { diffMetadata, type Doc } from './metadata-diff.ts';

const SNAP1 = { 'snapshot-id': 9007199254740993n, 'sequence-number': 1, 'timestamp-ms': 1000, 'manifest-list': 'm1.avro', summary: { operation: 'append' }, 'schema-id': 0 };
const SNAP2 = { 'snapshot-id': 42n, 'parent-snapshot-id': 9007199254740993n, 'sequence-number': 2, 'timestamp-ms': 2000, 'manifest-list': 'm2.avro', summary: { operation: 'append' }, 'schema-id': 0 };

const BASE: Doc = {
  'format-version': 2, 'table-uuid': 'f0e1d2c3-0000-4000-8000-000000000001', location: '/wh/t', 'last-sequence-number': 1,
  'last-updated-ms': 1000, 'last-column-id': 2, 'current-schema-id': 0,
  schemas: [{ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'a', required: false, type: 'int' }, { id: 2, name: 'b', required: false, type: 'string' }] }],
  'default-spec-id': 0, 'partition-specs': [{ 'spec-id': 0, fields: [] }], 'last-partition-id': 999,
  'default-sort-order-id': 0, 'sort-orders': [{ 'order-id': 0, fields: [] }],
  properties: { owner: 'x', 'keep.me': '1' }, 'current-snapshot-id': SNAP1['snapshot-id'],
  refs: { main: { 'snapshot-id': SNAP1['snapshot-id'], type: 'branch' } }, snapshots: [SNAP1],
  'snapshot-log': [{ 'timestamp-ms': 1000, 'snapshot-id': SNAP1['snapshot-id'] }], 'metadata-log': [],
};

const STAMPED = ['last-updated-ms', 'snapshot-log', 'metadata-log'];
/** key order and number-vs-bigint do not matter in JSON metadata */
const canonical = (v: unknown): unknown =>
  typeof v === 'bigint' || typeof v === 'number' ? String(v)
    : Array.isArray(v) ? v.map(canonical)
      : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, canonical(x)]))
        : v;
const strip = (d: Doc): string => JSON.stringify(canonical(Object.fromEntries(Object.entries(d).filter(([k]) => !STAMPED.includes(k)))));

function roundTrip(next: Doc): ReturnType<typeof diffMetadata> {
  const diff = diffMetadata(BASE, next);
  for (const r of diff.requirements) checkRequirement(BASE, r);
  expect(strip(applyUpdates(BASE, diff.updates, 5000n))).toBe(strip(next));
  return diff;
}

describe('diffMetadata (REST commit of a metadata change)', () => {
  it('an append: add-snapshot + set-snapshot-ref main, guarded by main\'s snapshot id', () => {
    const next = { ...BASE, 'last-sequence-number': 2, 'current-snapshot-id': 42n, refs: { main: { 'snapshot-id': 42n, type: 'branch' } }, snapshots: [SNAP1, SNAP2] };
    const diff = roundTrip(next);
    expect(diff.updates.map((u) => u['action'])).toEqual(['add-snapshot', 'set-snapshot-ref']);
    expect(diff.requirements).toContainEqual({ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': 9007199254740993n });
    const moved = { ...BASE, refs: { main: { 'snapshot-id': 7n, type: 'branch' } } };
    expect(() => diff.requirements.forEach((r) => checkRequirement(moved, r))).toThrow(/main has changed/);
  });

  it('a schema change: add-schema + set-current-schema -1, guarded by schema and field ids', () => {
    const schema1 = { type: 'struct', 'schema-id': 1, fields: [...(BASE['schemas'] as Doc[])[0]!['fields'] as Doc[], { id: 3, name: 'c', required: false, type: 'long' }] };
    const next = { ...BASE, 'last-column-id': 3, 'current-schema-id': 1, schemas: [...(BASE['schemas'] as Doc[]), schema1] };
    const diff = roundTrip(next);
    expect(diff.updates).toContainEqual({ action: 'set-current-schema', 'schema-id': -1 });
    expect(diff.requirements.map((r) => r['type'])).toEqual(['assert-table-uuid', 'assert-current-schema-id', 'assert-last-assigned-field-id']);
  });

  it('partition evolution, properties set and removed', () => {
    const spec1 = { 'spec-id': 1, fields: [{ 'source-id': 1, 'field-id': 1000, name: 'a_bucket', transform: 'bucket[4]' }] };
    const next = { ...BASE, 'default-spec-id': 1, 'last-partition-id': 1000, 'partition-specs': [...(BASE['partition-specs'] as Doc[]), spec1], properties: { owner: 'y', added: 'z' } };
    const diff = roundTrip(next);
    expect(diff.updates.map((u) => u['action'])).toEqual(['add-spec', 'set-default-spec', 'set-properties', 'remove-properties']);
  });

  it('a rollback moves main to an older snapshot; expiring removes snapshots', () => {
    const withTwo = { ...BASE, snapshots: [SNAP1, SNAP2], 'current-snapshot-id': 42n, refs: { main: { 'snapshot-id': 42n, type: 'branch' } } };
    const back = diffMetadata(withTwo, { ...withTwo, 'current-snapshot-id': SNAP1['snapshot-id'], refs: { main: { 'snapshot-id': SNAP1['snapshot-id'], type: 'branch' } } });
    expect(back.updates).toEqual([{ action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': SNAP1['snapshot-id'] }]);
    const expired = diffMetadata(withTwo, { ...withTwo, snapshots: [SNAP2] });
    expect(expired.updates).toEqual([{ action: 'remove-snapshots', 'snapshot-ids': [SNAP1['snapshot-id']] }]);
  });

  it('no change, no updates', () => {
    expect(diffMetadata(BASE, { ...BASE, 'last-updated-ms': 9 }).updates).toEqual([]);
  });
});
