/**
 * The inverse of the REST server's applyUpdates (rest-server/table-updates.ts): given the metadata a commit
 * started from and the metadata lakegate's commit code built, the TableRequirements + TableUpdates that
 * turn one into the other on a REST catalog — what Iceberg Java's RESTTableOperations sends from
 * TableMetadata.changes(). This is how every lakegate write (append, delete, schema change, property,
 * rollback) commits through a REST catalog without a second implementation of each operation.
 *
 * Requirements make the commit a compare-and-swap on what the change depends on: the table's identity,
 * the main branch's snapshot, and (when changed) the schema / partition spec ids — as Java's
 * UpdateRequirements.forUpdateTable does.
 */
export type Doc = Record<string, unknown>;

export interface TableCommit {
  readonly requirements: Doc[];
  readonly updates: Doc[];
}

const arr = (v: unknown): Doc[] => (Array.isArray(v) ? (v as Doc[]) : []);
const idText = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a, bigintSafe) === JSON.stringify(b, bigintSafe);

function bigintSafe(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `${v}n` : v;
}

/** snapshot id of a ref in `doc`; v1 metadata without `refs` has main = current-snapshot-id */
function refsOf(doc: Doc): Record<string, Doc> {
  const refs = doc['refs'] as Record<string, Doc> | undefined;
  if (refs !== undefined) return refs;
  const current = doc['current-snapshot-id'];
  return current === undefined || current === null || String(current) === '-1' ? {} : { main: { 'snapshot-id': current, type: 'branch' } };
}

/** entries of `next`'s list whose id is not in `base`'s */
function added(base: Doc, next: Doc, list: string, id: string): Doc[] {
  const seen = new Set(arr(base[list]).map((x) => idText(x[id])));
  return arr(next[list]).filter((x) => !seen.has(idText(x[id])));
}

export function diffMetadata(base: Doc, next: Doc): TableCommit {
  const updates: Doc[] = [];
  const requirements: Doc[] = [{ type: 'assert-table-uuid', uuid: base['table-uuid'] }];

  if (idText(next['table-uuid']) !== idText(base['table-uuid'])) updates.push({ action: 'assign-uuid', uuid: next['table-uuid'] });
  if (Number(next['format-version']) > Number(base['format-version'])) {
    updates.push({ action: 'upgrade-format-version', 'format-version': Number(next['format-version']) });
  }

  const newSchemas = added(base, next, 'schemas', 'schema-id');
  for (const s of newSchemas) updates.push({ action: 'add-schema', schema: s, 'last-column-id': next['last-column-id'] });
  if (idText(next['current-schema-id']) !== idText(base['current-schema-id'])) {
    const isNew = newSchemas.some((s) => idText(s['schema-id']) === idText(next['current-schema-id']));
    updates.push({ action: 'set-current-schema', 'schema-id': isNew && newSchemas.length === 1 ? -1 : Number(next['current-schema-id']) });
  }
  if (newSchemas.length > 0 || idText(next['current-schema-id']) !== idText(base['current-schema-id'])) {
    requirements.push({ type: 'assert-current-schema-id', 'current-schema-id': base['current-schema-id'] });
    requirements.push({ type: 'assert-last-assigned-field-id', 'last-assigned-field-id': base['last-column-id'] });
  }

  const newSpecs = added(base, next, 'partition-specs', 'spec-id');
  for (const s of newSpecs) updates.push({ action: 'add-spec', spec: s });
  if (idText(next['default-spec-id']) !== idText(base['default-spec-id'])) {
    const isNew = newSpecs.some((s) => idText(s['spec-id']) === idText(next['default-spec-id']));
    updates.push({ action: 'set-default-spec', 'spec-id': isNew && newSpecs.length === 1 ? -1 : Number(next['default-spec-id']) });
  }
  if (newSpecs.length > 0 || idText(next['default-spec-id']) !== idText(base['default-spec-id'])) {
    requirements.push({ type: 'assert-default-spec-id', 'default-spec-id': base['default-spec-id'] });
    requirements.push({ type: 'assert-last-assigned-partition-id', 'last-assigned-partition-id': base['last-partition-id'] });
  }

  const newOrders = added(base, next, 'sort-orders', 'order-id');
  for (const o of newOrders) updates.push({ action: 'add-sort-order', 'sort-order': o });
  if (idText(next['default-sort-order-id']) !== idText(base['default-sort-order-id']) && next['default-sort-order-id'] !== undefined) {
    const isNew = newOrders.some((o) => idText(o['order-id']) === idText(next['default-sort-order-id']));
    updates.push({ action: 'set-default-sort-order', 'sort-order-id': isNew && newOrders.length === 1 ? -1 : Number(next['default-sort-order-id']) });
  }

  for (const s of added(base, next, 'snapshots', 'snapshot-id')) updates.push({ action: 'add-snapshot', snapshot: s });

  const baseRefs = refsOf(base);
  const nextRefs = refsOf(next);
  // the main branch is the one concurrent writers race on: require it unchanged whenever we move it
  const mainMoved = !same(baseRefs['main'], nextRefs['main']);
  for (const [name, ref] of Object.entries(nextRefs)) {
    if (same(baseRefs[name], ref)) continue;
    updates.push({ action: 'set-snapshot-ref', 'ref-name': name, type: ref['type'] ?? 'branch', ...ref });
    requirements.push({ type: 'assert-ref-snapshot-id', ref: name, 'snapshot-id': baseRefs[name]?.['snapshot-id'] ?? null });
  }
  for (const name of Object.keys(baseRefs)) {
    if (nextRefs[name] !== undefined) continue;
    updates.push({ action: 'remove-snapshot-ref', 'ref-name': name });
    requirements.push({ type: 'assert-ref-snapshot-id', ref: name, 'snapshot-id': baseRefs[name]!['snapshot-id'] ?? null });
  }
  if (!mainMoved && added(base, next, 'snapshots', 'snapshot-id').length > 0) {
    // a snapshot added without moving main (a staged write): still must not race an expiring writer
    requirements.push({ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': baseRefs['main']?.['snapshot-id'] ?? null });
  }

  const nextIds = new Set(arr(next['snapshots']).map((s) => idText(s['snapshot-id'])));
  const removed = arr(base['snapshots']).map((s) => s['snapshot-id']).filter((id) => !nextIds.has(idText(id)));
  if (removed.length > 0) updates.push({ action: 'remove-snapshots', 'snapshot-ids': removed });

  if (idText(next['location']) !== idText(base['location'])) updates.push({ action: 'set-location', location: next['location'] });

  const bp = (base['properties'] as Record<string, string> | undefined) ?? {};
  const np = (next['properties'] as Record<string, string> | undefined) ?? {};
  const set = Object.fromEntries(Object.entries(np).filter(([k, v]) => bp[k] !== v));
  const gone = Object.keys(bp).filter((k) => !(k in np));
  if (Object.keys(set).length > 0) updates.push({ action: 'set-properties', updates: set });
  if (gone.length > 0) updates.push({ action: 'remove-properties', removals: gone });

  // keep the order the server applies them in sensible: the requirement list is de-duplicated by type+ref
  const seen = new Set<string>();
  const reqs = requirements.filter((r) => {
    const k = `${String(r['type'])}:${String(r['ref'] ?? '')}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { requirements: reqs, updates };
}
