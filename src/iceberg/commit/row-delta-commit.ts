/**
 * The commit of one UPDATE / DELETE (a "row delta", as Iceberg Java's RowDelta + file removal): one new
 * snapshot that, together,
 *   - adds the manifests written beforehand: position delete files (content 1, one manifest per spec) and
 *     UPDATE's new data files (entries inherit snapshot id and sequence numbers, § Sequence Number
 *     Inheritance — so a position delete of sequence number N applies to data files of sequence ≤ N, and
 *     the new rows, also of sequence N, are not hit by it);
 *   - drops data files every live row of which the statement removed: each current data manifest holding
 *     one is rewritten with that entry DELETED (status 2, this snapshot's id) and the others EXISTING, both
 *     with their explicit sequence numbers;
 *   - (v3) removes the deletion vectors replaced by new ones, or of dropped data files: each delete manifest
 *     holding one is rewritten the same way (at most one DV per data file);
 *   - keeps every other manifest of the current snapshot.
 * v3 rewrites write each kept data file's inherited first_row_id (readManifest) explicitly (§ First Row ID Inheritance).
 * Optimistic concurrency (§ Optimistic Concurrency): per attempt, reload the current metadata; if other
 * commits happened since the snapshot the statement read, validate them: appends are fine (their files
 * were not read, new rows stay), but a commit that removed one of the data files we delete from, or added
 * delete files that may apply to one of them (same partition / referenced file, or a global equality
 * delete), is 40001 "could not serialize access due to concurrent update" — as is a history rewrite, a new
 * current schema or a new default spec when new rows were written. Lost CAS races retry on the winner.
 * Outside a transaction block such a 40001 (and a 23505 found only because the table moved: markKeyRaced)
 * makes the engine re-run the whole statement on the new snapshot (engine/autocommit-retry.ts); its errors
 * carry the table (commit-turns.ts markConflictTable), and each attempt first waits while a re-running
 * statement holds the table's turn, so the re-run commits next instead of starving.
 */
import { randomUUID } from 'node:crypto';
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import type { IcebergIO } from '../io.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';
import { readManifestList, type ManifestFile } from '../spec/manifest-list.ts';
import { DataFileContent, EntryStatus, readManifest, type DataFile } from '../spec/manifest.ts';
import { isUnpartitioned } from '../spec/partition-spec.ts';
import { currentSchema, findSnapshot, specById, type Snapshot, type TableMetadata } from '../spec/table-metadata.ts';
import { verifiedKeysSummary } from '../keys/verified-keys.ts';
import type { Schema } from '../spec/schema.ts';
import { partitionKey } from '../scan/table-scan.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import { existingFileRecord, writeManifestEntries, type ManifestEntryRecord } from '../write/manifest-writer.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { metadataDir } from './append-commit.ts';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { awaitTurn, isStagingCatalog, markConflictTable, markUncommitted } from './commit-turns.ts';
import { commitSnapshot, markKeyRaced, serializationFailure, withCommitRetries } from './snapshot-commit.ts';

/** a manifest written before the commit loop; its entries inherit the snapshot's sequence number */
export interface AddedManifest {
  readonly path: string;
  readonly length: bigint;
  readonly specId: number;
  readonly content: 0 | 1;
  readonly filesCount: number;
  readonly rowsCount: bigint;
  readonly partitions: ManifestFile['partitions'];
}

export interface RowDeltaChanges {
  /** 'replace': compaction (maintenance/rewrite-data-files.ts), rows unchanged, Iceberg's `replace` operation */
  readonly op: 'update' | 'delete' | 'replace' | 'append';
  readonly snapshotId: bigint;
  /** the snapshot the statement read */
  readonly baseSnapshotId: bigint;
  readonly schema: Schema;
  /** data files the statement deletes rows from (as read), by path */
  readonly touched: ReadonlyMap<string, DataFile>;
  /** paths of touched files to drop whole */
  readonly removed: ReadonlySet<string>;
  /** delete files to drop (v3: replaced or dangling deletion vectors), by dvKey */
  readonly removedDeletes?: ReadonlyMap<string, DataFile>;
  readonly added: readonly AddedManifest[];
  /** the default spec the new data files were written with (UPDATE), if any were */
  readonly dataSpecId: number | null;
  /** summary counters of the added files: added-data-files, added-records, added-delete-files, ... */
  readonly addedSummary: Readonly<Record<string, bigint>>;
  /** distinct partitions (spec + tuple) of all added and removed files */
  readonly changedPartitions: ReadonlySet<string>;
  readonly maxRetries?: number;
  /**
   * runs on every attempt, on the metadata the snapshot is built on, after the concurrency validation
   * (PRIMARY KEY / UNIQUE of the new rows: keys/key-check.ts); its error fails the commit
   */
  readonly validate?: (md: TableMetadata) => Promise<void>;
  /** the statement's abort signal: a cancel ends a wait for the table's turn (commit-turns.ts) with 57014 */
  readonly signal?: AbortSignal;
}

/** identity of a delete-file entry: a Puffin file holds the DVs of many data files, one blob each */
export function dvKey(f: DataFile): string {
  return `${f.filePath}\u0000${f.contentOffset ?? ''}`;
}

/** the size a delete file adds to the summaries: a DV counts its blob (Java's ScanTaskUtil.contentSizeInBytes) */
const contentSize = (f: DataFile): bigint => (f.fileFormat === 'PUFFIN' && f.contentSizeInBytes !== null ? f.contentSizeInBytes : f.fileSizeInBytes);

const num = (s: string | undefined): bigint => (s !== undefined && /^-?\d+$/.test(s) ? BigInt(s) : 0n);

/** snapshots after `baseId` up to `current` (oldest first); null when base is not an ancestor */
export function snapshotsSince(md: TableMetadata, current: Snapshot, baseId: bigint): Snapshot[] | null {
  const out: Snapshot[] = [];
  for (let s: Snapshot | null = current; s !== null; s = s.parentSnapshotId === null ? null : findSnapshot(md, s.parentSnapshotId)) {
    if (s.snapshotId === baseId) return out.reverse();
    out.push(s);
    if (s.parentSnapshotId === null) break;
  }
  return null;
}

async function validateConcurrent(io: IcebergIO, md: TableMetadata, since: readonly Snapshot[], c: RowDeltaChanges): Promise<void> {
  const touchedPartitions = new Set([...c.touched.values()].map((f) => partitionKey(f)));
  for (const s of since) {
    if (s.summary['operation'] === 'append' || s.manifestList === null) continue;
    for (const mf of await readManifestList(io, s.manifestList)) {
      if (mf.addedSnapshotId !== s.snapshotId) continue;
      for (const e of (await readManifest(io, mf, true)).entries) {
        if (e.snapshotId !== s.snapshotId) continue;
        const f = e.dataFile;
        if (e.status === EntryStatus.DELETED && c.touched.has(f.filePath)) {
          throw serializationFailure(`Data file ${f.filePath} was removed by snapshot ${s.snapshotId}.`, true);
        }
        if (e.status !== EntryStatus.ADDED || f.content === DataFileContent.DATA) continue;
        const applies = f.content === DataFileContent.POSITION_DELETES
          ? (f.referencedDataFile !== null ? c.touched.has(f.referencedDataFile) : touchedPartitions.has(partitionKey(f)))
          : isUnpartitioned(specById(md, f.specId)) || touchedPartitions.has(partitionKey(f));
        if (applies) throw serializationFailure(`Snapshot ${s.snapshotId} added delete file ${f.filePath} for rows this statement changes.`, true);
      }
    }
  }
}

/** what dropRemovedFiles needs of a row delta (also a staged snapshot re-applied at COMMIT: rebase-staged.ts) */
export type FileRemovals = Pick<RowDeltaChanges, 'snapshotId' | 'schema' | 'removed' | 'removedDeletes'>;

/** the current snapshot's manifests with the removed files' entries DELETED (rewritten manifests) */
export async function dropRemovedFiles(io: IcebergWriteIO, md: TableMetadata, manifests: readonly ManifestFile[], c: FileRemovals, sequenceNumber: bigint): Promise<ManifestFile[]> {
  const removedDeletes = c.removedDeletes ?? new Map<string, DataFile>();
  if (c.removed.size === 0 && removedDeletes.size === 0) return [...manifests];
  const isGone = (content: number, f: DataFile): boolean => (content === 0 ? c.removed.has(f.filePath) : removedDeletes.has(dvKey(f)));
  const found = new Set<string>();
  const out: ManifestFile[] = [];
  const v3 = md.formatVersion >= 3;
  for (const mf of manifests) {
    if (mf.content === 0 ? c.removed.size === 0 : removedDeletes.size === 0) { out.push(mf); continue; }
    const parsed = await readManifest(io, mf);
    if (!parsed.entries.some((e) => isGone(mf.content, e.dataFile))) { out.push(mf); continue; }
    const spec = specById(md, parsed.specId);
    const partitioning = { specId: spec.specId, fields: bindPartitionSpec(spec, c.schema) };
    const entries: ManifestEntryRecord[] = [];
    let existing = 0; let deleted = 0; let existingRows = 0n; let deletedRows = 0n; let minSeq: bigint | null = null;
    for (const e of parsed.entries) {
      const f = e.dataFile;
      const gone = isGone(mf.content, f);
      if (gone) { found.add(mf.content === 0 ? f.filePath : dvKey(f)); deleted++; deletedRows += f.recordCount; } else {
        existing++; existingRows += f.recordCount;
        if (minSeq === null || e.sequenceNumber < minSeq) minSeq = e.sequenceNumber;
      }
      entries.push({
        status: gone ? EntryStatus.DELETED : EntryStatus.EXISTING, snapshotId: gone ? c.snapshotId : e.snapshotId,
        sequenceNumber: e.sequenceNumber, fileSequenceNumber: e.fileSequenceNumber, dataFile: existingFileRecord(f, partitioning, v3 ? f.firstRowId : null),
      });
    }
    const bytes = writeManifestEntries(c.schema, partitioning, mf.content === 0 ? 'data' : 'deletes', entries, md.formatVersion);
    const path = `${metadataDir(md)}/${randomUUID()}-m1.avro`;
    await io.write(path, bytes);
    out.push({
      ...mf, manifestPath: path, manifestLength: BigInt(bytes.byteLength), sequenceNumber, minSequenceNumber: minSeq ?? sequenceNumber,
      addedSnapshotId: c.snapshotId, addedFilesCount: 0, existingFilesCount: existing, deletedFilesCount: deleted,
      addedRowsCount: 0n, existingRowsCount: existingRows, deletedRowsCount: deletedRows,
    });
  }
  if (found.size !== c.removed.size + removedDeletes.size) throw serializationFailure('A file this statement deletes from or replaces is no longer in the table.', true);
  return out;
}

/** returns the new snapshot's sequence number */
export async function commitRowDelta(catalog: IcebergCatalog, io: IcebergWriteIO, id: TableIdentifier, c: RowDeltaChanges): Promise<bigint> {
  let uuid: string | null = null;
  try {
    return await withCommitRetries((attempt) => commitAttempt(catalog, io, id, c, attempt, (u) => { uuid = u; }), c.maxRetries);
  } catch (e) {
    // commitSnapshot's swap is an attempt's last step, so a conflict thrown here left nothing committed: an
    // autocommit statement may re-run (engine/autocommit-retry.ts), taking its turn on the table
    if (!(e instanceof GatewayError)) throw e;
    // a cancel is thrown only while waiting for the turn, before anything was written to the catalog
    if (e.code === SqlState.query_canceled) throw markUncommitted(e);
    if (e.code !== SqlState.serialization_failure && e.code !== SqlState.unique_violation) throw e;
    markUncommitted(e);
    throw uuid !== null ? markConflictTable(e, uuid) : e;
  }
}

async function commitAttempt(catalog: IcebergCatalog, io: IcebergWriteIO, id: TableIdentifier, c: RowDeltaChanges, attempt: number, seen: (uuid: string) => void): Promise<bigint> {
  let base = await catalog.loadTableLocation(id);
  let md = await loadTableMetadata(io, base.metadataLocation);
  if (md.tableUuid !== null) {
    seen(md.tableUuid);
    // a re-running statement holds the table (commit-turns.ts): let it commit first, then read what it left;
    // a write staged in a transaction block publishes nothing now, so it does not wait
    if (!isStagingCatalog(catalog) && await awaitTurn(md.tableUuid, c.signal)) {
      base = await catalog.loadTableLocation(id);
      md = await loadTableMetadata(io, base.metadataLocation);
    }
  }
  const parent = findSnapshot(md, null);
  if (parent === null) throw serializationFailure('The table has no current snapshot any more.', true);
  const moved = parent.snapshotId !== c.baseSnapshotId;
  if (moved) {
    const since = snapshotsSince(md, parent, c.baseSnapshotId);
    if (since === null) throw serializationFailure('The table was rolled back during the statement.', true);
    await validateConcurrent(io, md, since, c);
  }
  if (c.validate !== undefined) {
    try {
      await c.validate(md);
    } catch (e) {
      // a key another writer added meanwhile: a re-run of the statement may take another branch (ON CONFLICT)
      throw moved && e instanceof GatewayError && e.code === SqlState.unique_violation ? markKeyRaced(e) : e;
    }
  }
  if (c.dataSpecId !== null && (md.currentSchemaId !== c.schema.schemaId || md.defaultSpecId !== c.dataSpecId)) {
    throw serializationFailure('The table schema or partitioning changed during the statement.', true);
  }
  if (parent.manifestList === null) throw serializationFailure('The current snapshot has no manifest list.', true);
  const sequenceNumber = md.lastSequenceNumber + 1n;
  const kept = await dropRemovedFiles(io, md, await readManifestList(io, parent.manifestList), c, sequenceNumber);
  const added: ManifestFile[] = c.added.map((m) => ({
    manifestPath: m.path, manifestLength: m.length, partitionSpecId: m.specId, content: m.content,
    sequenceNumber, minSequenceNumber: sequenceNumber, addedSnapshotId: c.snapshotId,
    addedFilesCount: m.filesCount, existingFilesCount: 0, deletedFilesCount: 0,
    addedRowsCount: m.rowsCount, existingRowsCount: 0n, deletedRowsCount: 0n,
    partitions: m.partitions, keyMetadata: null, firstRowId: null,
  }));
  let deletedFiles = 0n; let deletedRecords = 0n; let removedSize = 0n;
  for (const p of c.removed) {
    const f = c.touched.get(p)!;
    deletedFiles++; deletedRecords += f.recordCount; removedSize += f.fileSizeInBytes;
  }
  let removedDvs = 0n; let removedDeleteFiles = 0n; let removedPosDeletes = 0n;
  for (const f of (c.removedDeletes ?? new Map<string, DataFile>()).values()) {
    if (f.fileFormat === 'PUFFIN') removedDvs++;
    removedDeleteFiles++; removedPosDeletes += f.recordCount; removedSize += contentSize(f);
  }
  const a = c.addedSummary;
  const get = (k: string): bigint => a[k] ?? 0n;
  const ps = parent.summary;
  const counters: [string, bigint][] = [
    ['added-data-files', get('added-data-files')], ['deleted-data-files', deletedFiles],
    ['added-records', get('added-records')], ['deleted-records', deletedRecords],
    ['added-files-size', get('added-files-size')], ['removed-files-size', removedSize],
    ['added-dvs', get('added-dvs')], ['removed-dvs', removedDvs],
    ['added-delete-files', get('added-delete-files')], ['added-position-delete-files', get('added-position-delete-files')],
    ['removed-delete-files', removedDeleteFiles],
    ['added-position-deletes', get('added-position-deletes')], ['removed-position-deletes', removedPosDeletes],
  ];
  const summary: Record<string, string> = {
    operation: c.op === 'update' ? 'overwrite' : c.op === 'replace' ? 'replace' : c.op === 'append' ? 'append' : 'delete',
    ...Object.fromEntries(counters.filter(([, v]) => v !== 0n).map(([k, v]) => [k, String(v)])),
    'changed-partition-count': String(c.changedPartitions.size),
    'total-records': String(num(ps['total-records']) + get('added-records') - deletedRecords),
    'total-files-size': String(num(ps['total-files-size']) + get('added-files-size') - removedSize),
    'total-data-files': String(num(ps['total-data-files']) + get('added-data-files') - deletedFiles),
    'total-delete-files': String(num(ps['total-delete-files']) + get('added-delete-files') - removedDeleteFiles),
    'total-position-deletes': String(num(ps['total-position-deletes']) + get('added-position-deletes') - removedPosDeletes),
    'total-equality-deletes': String(num(ps['total-equality-deletes'])),
    'engine-name': 'lakegate',
    // new rows were key-checked against the parent (row-delta.ts), deletes and rewrites add no key
    ...verifiedKeysSummary(md, currentSchema(md), parent),
  };
  await commitSnapshot(catalog, io, id, base.metadataLocation, md, {
    snapshotId: c.snapshotId, sequenceNumber, parent, manifests: [...added, ...kept], summary, schemaId: c.schema.schemaId,
  }, attempt);
  return sequenceNumber;
}
