/**
 * Re-applying a transaction's staged snapshots onto a table that moved (what Iceberg Java's
 * SnapshotProducer.commit does on a lost race: refresh, re-apply the pending operation on the new base,
 * validate, retry). A transaction block stages one snapshot per statement, each built on the previous
 * one (engine/iceberg-transaction.ts); when another writer committed to the table meanwhile, COMMIT calls
 * rebaseStagedSnapshots, which, oldest first, for each staged snapshot:
 *   - validates it against every commit since the transaction's base (staged-conflicts.ts), else 40001;
 *   - keeps its snapshot id, gives it the next sequence number and the previous one (the table's current
 *     snapshot for the first) as parent;
 *   - lists the manifests it added (new data / delete files; their entries inherit the new sequence
 *     number and snapshot id, § Sequence Number Inheritance) before the parent's manifests, from which the
 *     files it dropped whole are dropped again (row-delta-commit.ts dropRemovedFiles: rewritten manifests,
 *     entries DELETED by this snapshot id; a file no longer there → 40001);
 *   - recomputes the summary totals as the new parent's totals plus the snapshot's own change;
 *   - (v3) gets first-row-id / added-rows from the table's next-row-id (row-lineage.ts).
 * The result is one new metadata file on top of the current one: its snapshots, snapshot-log and refs.main
 * extended, metadata-log extended by the current file, last-sequence-number advanced. The staged metadata
 * files become orphans, like a lost commit's. A table whose definition changed on either side (schema,
 * partition spec, sort order, properties, format version) is 40001: re-applying would not be provably safe.
 */
import { randomUUID } from 'node:crypto';
import { nextMetadataFileLocation } from '../../catalog/iceberg/warehouse-layout.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';
import { readManifestList, type ManifestFile } from '../spec/manifest-list.ts';
import { findSnapshot, schemaById, type Snapshot, type TableMetadata } from '../spec/table-metadata.ts';
import { uniqueKeysOf } from '../keys/unique-keys.ts';
import { KEYS_VERIFIED_SUMMARY, verifiedKeysSummary } from '../keys/verified-keys.ts';
import { writeManifestList } from '../write/manifest-writer.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { metadataDir } from './append-commit.ts';
import { stringifyMetadata, writeMetadataFile } from './metadata-json.ts';
import { dropRemovedFiles } from './row-delta-commit.ts';
import { assignRowLineage, lineageSnapshotFields } from './row-lineage.ts';
import { serializationFailure } from './snapshot-commit.ts';
import { readConcurrentChanges, readStagedDelta, validateStagedDelta } from './staged-conflicts.ts';

export interface StagedTable {
  /** the relation name (names a key constraint in a message) */
  readonly name: string;
  /** the relation's schema (namespace), for a 23505's fields; absent: keys not proven apart by bounds are 40001 */
  readonly schema?: string;
  /** the pointer when the transaction first wrote the table */
  readonly base: string;
  /** the transaction's last staged metadata file */
  readonly staged: string;
  /** the pointer now (≠ base) */
  readonly current: string;
}

/** metadata fields that define the table (not its history): must be equal for a re-apply */
const DEFINITION = ['format-version', 'table-uuid', 'location', 'last-column-id', 'schemas', 'current-schema-id', 'partition-specs',
  'default-spec-id', 'last-partition-id', 'sort-orders', 'default-sort-order-id', 'properties'] as const;

function definitionOf(md: TableMetadata): string {
  const raw = md.raw as Record<string, unknown>;
  return stringifyMetadata(Object.fromEntries(DEFINITION.map((k) => [k, raw[k] ?? null])));
}

/** snapshots after `baseId` (exclusive; null = from the first) up to `head`, oldest first; null when base is no ancestor */
function chainSince(md: TableMetadata, head: bigint | null, baseId: bigint | null): Snapshot[] | null {
  const out: Snapshot[] = [];
  for (let id = head; id !== baseId; ) {
    if (id === null) return null;
    const s = findSnapshot(md, id);
    if (s === null) return null;
    out.push(s);
    id = s.parentSnapshotId;
  }
  return out.reverse();
}

const num = (s: string | undefined): bigint => (s !== undefined && /^-?\d+$/.test(s) ? BigInt(s) : 0n);
const TOTALS = ['total-records', 'total-files-size', 'total-data-files', 'total-delete-files', 'total-position-deletes', 'total-equality-deletes'];

/**
 * the staged snapshot's summary with totals moved onto the new parent (its own change kept); the key proof
 * (keys/verified-keys.ts) is the new parent's to pass on, not the staged parent's: `keyProof` says what it is
 */
function rebasedSummary(s: Snapshot, stagedParent: Snapshot | null, newParent: Readonly<Record<string, string>>, keyProof: Readonly<Record<string, string>>): Record<string, string> {
  const { [KEYS_VERIFIED_SUMMARY]: _proof, ...own } = s.summary;
  const out: Record<string, string> = { ...own, ...keyProof };
  for (const k of TOTALS) {
    if (s.summary[k] === undefined) continue;
    out[k] = String(num(newParent[k]) + num(s.summary[k]) - num(stagedParent?.summary[k]));
  }
  return out;
}

/** writes the re-applied metadata file on top of `t.current` and returns its location; 40001 on a conflict */
export async function rebaseStagedSnapshots(io: IcebergWriteIO, t: StagedTable, attempt: number): Promise<string> {
  const [base, staged, current] = await Promise.all([t.base, t.staged, t.current].map((l) => loadTableMetadata(io, l)));
  if (definitionOf(base!) !== definitionOf(staged!) || definitionOf(base!) !== definitionOf(current!)) {
    throw serializationFailure(`The definition of table "${t.name}" changed during the transaction.`, true);
  }
  const md = current!;
  const mine = chainSince(staged!, staged!.currentSnapshotId, base!.currentSnapshotId);
  if (mine === null) throw serializationFailure('The staged snapshots do not descend from the transaction\'s base.', true);
  const since = chainSince(md, md.currentSnapshotId, base!.currentSnapshotId);
  if (since === null) throw serializationFailure(`Table "${t.name}" was rolled back during the transaction.`, true);
  const concurrent = await readConcurrentChanges(io, since);

  const raw = md.raw as Record<string, unknown>;
  const stagedRaw = ((staged!.raw as Record<string, unknown>)['snapshots'] as Record<string, unknown>[] | undefined) ?? [];
  const dir = metadataDir(md);
  let parent = findSnapshot(md, null);
  let parentSummary: Readonly<Record<string, string>> = parent?.summary ?? {};
  let parentManifests: ManifestFile[] = parent?.manifestList == null ? [] : await readManifestList(io, parent.manifestList);
  let sequenceNumber = md.lastSequenceNumber;
  let nextRowId = md.nextRowId;
  let parentId = parent?.snapshotId ?? null;
  const now = BigInt(Math.max(Date.now(), Number(md.lastUpdatedMs) + 1));
  const snapshots: Record<string, unknown>[] = [];
  const snapshotLog: Record<string, unknown>[] = [];
  const stagedFiles = new Set<string>();
  for (const [i, s] of mine.entries()) {
    const schema = schemaById(staged!, s.schemaId ?? staged!.currentSchemaId);
    const d = await readStagedDelta(io, s);
    await validateStagedDelta(io, md, schema, uniqueKeysOf(md, schema, t.name), d, concurrent, t.schema === undefined ? undefined : { staged: staged!, relation: { schema: t.schema, name: t.name } });
    // v3: an UPDATE / MERGE writes the _row_id of each row it rewrites; a row the transaction itself added
    // got its id from the staged next-row-id, which moves here, so its rewritten copy would keep a stale id
    if (md.formatVersion >= 3 && d.addedData.length > 0 && [...d.touched].some((p) => stagedFiles.has(p))) {
      throw serializationFailure('The transaction rewrote rows it added (v3 row ids) and the table changed since it started.', true);
    }
    for (const f of d.addedData) stagedFiles.add(f.filePath);
    sequenceNumber += 1n;
    const added = d.added.map((m): ManifestFile => ({
      ...m, sequenceNumber, minSequenceNumber: sequenceNumber,
      // v3: the table's next-row-id moved, so the new data manifests get their first_row_id again
      firstRowId: m.content === 0 ? null : m.firstRowId,
    }));
    const kept = await dropRemovedFiles(io, md, parentManifests, { snapshotId: s.snapshotId, schema, removed: d.removed, removedDeletes: d.removedDeletes }, sequenceNumber);
    const lineage = assignRowLineage(nextRowId === undefined ? md : { ...md, nextRowId }, [...added, ...kept]);
    const manifests = lineage?.manifests ?? [...added, ...kept];
    const listPath = `${dir}/snap-${s.snapshotId}-${attempt + 1}-${randomUUID()}.avro`;
    await io.write(listPath, writeManifestList(manifests, s.snapshotId, parentId, sequenceNumber, lineage?.firstRowId ?? null));
    const stagedParent = s.parentSnapshotId === null ? null : findSnapshot(staged!, s.parentSnapshotId);
    // the staged rows were key-checked against the concurrent commits (validateStagedDelta above)
    const keyProof = verifiedKeysSummary(md, schema, parentId === null ? null : { snapshotId: parentId, summary: parentSummary });
    const summary = rebasedSummary(s, stagedParent, parentSummary, keyProof);
    const ts = now + BigInt(i);
    const { 'parent-snapshot-id': _p, 'first-row-id': _f, 'added-rows': _a, ...rest } = stagedRaw.find((r) => BigInt(r['snapshot-id'] as bigint) === s.snapshotId) ?? {};
    snapshots.push({
      ...rest,
      'snapshot-id': s.snapshotId,
      ...(parentId === null ? {} : { 'parent-snapshot-id': parentId }),
      'sequence-number': sequenceNumber,
      'timestamp-ms': ts,
      'manifest-list': listPath,
      summary,
      ...lineageSnapshotFields(lineage),
    });
    snapshotLog.push({ 'timestamp-ms': ts, 'snapshot-id': s.snapshotId });
    if (lineage !== null) nextRowId = lineage.nextRowId;
    parentId = s.snapshotId;
    parentSummary = summary;
    parentManifests = manifests;
  }
  const last = now + BigInt(Math.max(0, mine.length - 1));
  const doc: Record<string, unknown> = {
    ...raw,
    ...(nextRowId === undefined || md.formatVersion < 3 ? {} : { 'next-row-id': nextRowId }),
    'last-sequence-number': sequenceNumber,
    'last-updated-ms': last,
    ...(parentId === null ? {} : { 'current-snapshot-id': parentId }),
    snapshots: [...((raw['snapshots'] as unknown[] | undefined) ?? []), ...snapshots],
    'snapshot-log': [...((raw['snapshot-log'] as unknown[] | undefined) ?? []), ...snapshotLog],
    'metadata-log': [...((raw['metadata-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': md.lastUpdatedMs, 'metadata-file': t.current }],
    refs: { ...((raw['refs'] as Record<string, unknown> | undefined) ?? {}), ...(parentId === null ? {} : { main: { 'snapshot-id': parentId, type: 'branch' } }) },
  };
  const location = nextMetadataFileLocation(md.location, t.current, md.properties['write.metadata.path'] === undefined ? {} : { metadataPath: md.properties['write.metadata.path'] });
  // another writer's V+1: a lost race, which the caller's retry loop re-reads
  if (!(await writeMetadataFile(io, location, doc))) throw serializationFailure();
  return location;
}
