/**
 * What one staged snapshot of a transaction changed (StagedDelta), what the commits that landed since the
 * transaction started changed (ConcurrentChanges), and Iceberg's validations between them — the checks
 * Iceberg Java's MergingSnapshotProducer runs before re-applying a RowDelta / OverwriteFiles / DeleteFiles
 * on a refreshed base (validateDataFilesExist, validateNoNewDeletesForDataFiles, validateAddedDVs):
 *   - a data file the transaction deleted from (position deletes, a DV, or dropped whole) that a concurrent
 *     commit removed → 40001; one for which a concurrent commit added delete files → 40001 when they may
 *     hit the same rows: equality deletes in the same partition (or an unpartitioned spec), a DV (v3: one
 *     per data file), a file the transaction dropped whole, or position deletes of a position the
 *     transaction deleted too (read from both delete files: other rows of the same file do not conflict,
 *     finer than Iceberg Java's file-level validateNoNewDeletesForDataFiles, as PostgreSQL's row locks);
 *   - equality deletes written by the transaction would, at the later sequence number, also hit rows
 *     appended concurrently → 40001 whenever anything committed meanwhile;
 *   - new rows of a table with PRIMARY KEY / UNIQUE re-apply next to concurrently added rows when the files'
 *     key-column bounds prove the keys disjoint, else when reading the keys finds none of them in the live
 *     concurrently added files (keys/staged-keys.ts); a key found there is 23505, as in PostgreSQL.
 * Appends never conflict with appends, and rows appended concurrently stay next to the transaction's
 * deletes (READ COMMITTED: the DELETE did not see them), as for a single statement (row-delta-commit.ts).
 */
import type { IcebergIO } from '../io.ts';
import { DeleteLoader } from '../read/delete-loader.ts';
import { compareValues } from '../scan/bound-predicate.ts';
import { partitionKey } from '../scan/table-scan.ts';
import { readManifestList, type ManifestFile } from '../spec/manifest-list.ts';
import { DataFileContent, EntryStatus, readManifest, type DataFile } from '../spec/manifest.ts';
import { isUnpartitioned } from '../spec/partition-spec.ts';
import type { Schema } from '../spec/schema.ts';
import { specById, type Snapshot, type TableMetadata } from '../spec/table-metadata.ts';
import { decodeSingleValue } from '../spec/types.ts';
import type { UniqueKey } from '../keys/unique-keys.ts';
import { checkStagedKeys } from '../keys/staged-keys.ts';
import { dvKey } from './row-delta-commit.ts';
import { serializationFailure } from './snapshot-commit.ts';

export interface StagedDelta {
  readonly snapshot: Snapshot;
  /** manifests the snapshot wrote whose entries are all ADDED (new data / delete files): re-applied as they are */
  readonly added: readonly ManifestFile[];
  /** data files it dropped whole, by path */
  readonly removed: ReadonlySet<string>;
  /** delete files it dropped (replaced DVs), by dvKey */
  readonly removedDeletes: ReadonlyMap<string, DataFile>;
  /** data files it deleted rows from (paths), and the partitions of everything it deleted */
  readonly touched: ReadonlySet<string>;
  readonly touchedPartitions: ReadonlySet<string>;
  /** the data files it added (for the key-bounds check) */
  readonly addedData: readonly DataFile[];
  /** the position delete files / DVs it added (for the row-level check) */
  readonly addedPositionDeletes: readonly DataFile[];
  readonly equalityDeletes: boolean;
}

/** reads what `s` (a snapshot of the staged chain) added and removed, from the manifests it wrote */
export async function readStagedDelta(io: IcebergIO, s: Snapshot): Promise<StagedDelta> {
  if (s.manifestList === null) throw serializationFailure('A staged snapshot has no manifest list.', true);
  const own = (await readManifestList(io, s.manifestList)).filter((m) => m.addedSnapshotId === s.snapshotId);
  const added: ManifestFile[] = [];
  const removed = new Set<string>();
  const removedDeletes = new Map<string, DataFile>();
  const touched = new Set<string>();
  const touchedPartitions = new Set<string>();
  const addedData: DataFile[] = [];
  const addedPositionDeletes: DataFile[] = [];
  let equalityDeletes = false;
  // a delete file without referenced_data_file covers several data files: every one it names is touched,
  // or the validations below would miss a concurrent removal of, or delete in, any of them
  const loader = new DeleteLoader(io, () => undefined);
  const touch = async (f: DataFile): Promise<void> => {
    for (const p of await loader.referencedPaths(f)) touched.add(p);
  };
  for (const mf of own) {
    const pure = (mf.existingFilesCount ?? 0) === 0 && (mf.deletedFilesCount ?? 0) === 0;
    if (pure) added.push(mf);
    for (const e of (await readManifest(io, mf, true)).entries) {
      const f = e.dataFile;
      if (pure) {
        if (f.content === DataFileContent.DATA) addedData.push(f);
        else if (f.content === DataFileContent.EQUALITY_DELETES) equalityDeletes = true;
        else {
          addedPositionDeletes.push(f);
          await touch(f);
          touchedPartitions.add(partitionKey(f));
        }
        continue;
      }
      // a rewritten manifest: its DELETED entries are the removals; EXISTING ones come from the parent
      if (e.status === EntryStatus.ADDED) throw serializationFailure('A staged manifest mixes added and rewritten entries.', true);
      if (e.status !== EntryStatus.DELETED || e.snapshotId !== s.snapshotId) continue;
      touchedPartitions.add(partitionKey(f));
      if (f.content === DataFileContent.DATA) {
        removed.add(f.filePath);
        touched.add(f.filePath);
      } else {
        removedDeletes.set(dvKey(f), f);
        if (f.content === DataFileContent.POSITION_DELETES) await touch(f);
      }
    }
  }
  return { snapshot: s, added, removed, removedDeletes, touched, touchedPartitions, addedData, addedPositionDeletes, equalityDeletes };
}

export interface ConcurrentChanges {
  readonly snapshots: readonly Snapshot[];
  /** data files removed by them, by path → the snapshot id */
  readonly removedData: ReadonlyMap<string, bigint>;
  readonly removedDeletes: ReadonlyMap<string, bigint>;
  readonly addedDeletes: readonly { readonly file: DataFile; readonly snapshotId: bigint }[];
  readonly addedData: readonly DataFile[];
}

/** the files the snapshots committed since the transaction's base added and removed (each read once) */
export async function readConcurrentChanges(io: IcebergIO, since: readonly Snapshot[]): Promise<ConcurrentChanges> {
  const removedData = new Map<string, bigint>();
  const removedDeletes = new Map<string, bigint>();
  const addedDeletes: { file: DataFile; snapshotId: bigint }[] = [];
  const addedData: DataFile[] = [];
  for (const s of since) {
    if (s.manifestList === null) throw serializationFailure('A concurrent snapshot has no manifest list.', true);
    for (const mf of await readManifestList(io, s.manifestList)) {
      if (mf.addedSnapshotId !== s.snapshotId) continue;
      for (const e of (await readManifest(io, mf, true)).entries) {
        if (e.snapshotId !== s.snapshotId) continue;
        const f = e.dataFile;
        if (e.status === EntryStatus.DELETED) {
          if (f.content === DataFileContent.DATA) removedData.set(f.filePath, s.snapshotId);
          else removedDeletes.set(dvKey(f), s.snapshotId);
        } else if (e.status === EntryStatus.ADDED) {
          if (f.content === DataFileContent.DATA) addedData.push(f);
          else addedDeletes.push({ file: f, snapshotId: s.snapshotId });
        }
      }
    }
  }
  return { snapshots: since, removedData, removedDeletes, addedDeletes, addedData };
}

/** what the key check reads when bounds do not settle it: the block's staged metadata and the relation's name */
export interface KeyProbeContext {
  readonly staged: TableMetadata;
  readonly relation: { readonly schema: string; readonly name: string };
}

/**
 * 40001 (final: retrying finds it again) when `d` cannot be re-applied after `c`; 23505 when a key it adds
 * was committed concurrently (with `probe`; without it, keys not proven apart by bounds are 40001)
 */
export async function validateStagedDelta(io: IcebergIO, md: TableMetadata, schema: Schema, keys: readonly UniqueKey[], d: StagedDelta, c: ConcurrentChanges, probe?: KeyProbeContext): Promise<void> {
  if (c.snapshots.length === 0) return;
  if (d.equalityDeletes) throw serializationFailure('The transaction wrote equality deletes and the table changed since it started.', true);
  for (const p of d.touched) {
    const by = c.removedData.get(p);
    if (by !== undefined) throw serializationFailure(`Data file ${p} was removed by snapshot ${by}.`, true);
  }
  for (const k of d.removedDeletes.keys()) {
    const by = c.removedDeletes.get(k);
    if (by !== undefined) throw serializationFailure(`A delete file this transaction replaces was removed by snapshot ${by}.`, true);
  }
  if (d.touched.size > 0 || d.touchedPartitions.size > 0) {
    const loader = new DeleteLoader(io, (id) => schema.fields.find((f) => f.id === id));
    for (const { file: f, snapshotId } of c.addedDeletes) {
      const conflict = (): Error => serializationFailure(`Snapshot ${snapshotId} added delete file ${f.filePath} for rows this transaction changes.`, true);
      if (f.content !== DataFileContent.POSITION_DELETES) {
        if (isUnpartitioned(specById(md, f.specId)) || d.touchedPartitions.has(partitionKey(f))) throw conflict();
        continue;
      }
      const paths = f.referencedDataFile !== null ? (d.touched.has(f.referencedDataFile) ? [f.referencedDataFile] : [])
        : d.touchedPartitions.has(partitionKey(f)) ? [...d.touched] : [];
      for (const p of paths) if (await positionsOverlap(loader, d, f, p)) throw conflict();
    }
  }
  if (keys.length > 0 && d.addedData.length > 0 && c.addedData.length > 0 && !keysDisjoint(schema, keys, d.addedData, c.addedData)) {
    if (probe === undefined) throw serializationFailure('Rows with possibly equal keys were added concurrently; the transaction must be retried.', true);
    // bounds overlap (interleaved ids): read the keys (keys/staged-keys.ts) — none shared re-applies, one shared is 23505
    await checkStagedKeys(io, { current: md, staged: probe.staged, schema, relation: probe.relation, keys, added: d.addedData, concurrent: c.addedData });
  }
}

/**
 * Whether a concurrent position delete `f` on data file `path` collides with what the transaction did to
 * that file: rows both deleted (or one deleted and the other rewrote — an UPDATE's old row) are a conflict;
 * different rows of one file are not (v2: two position delete files may apply to one data file, so both
 * stay). A file the transaction dropped whole, and deletion vectors (one per data file, v3) always are.
 */
async function positionsOverlap(loader: DeleteLoader, d: StagedDelta, f: DataFile, path: string): Promise<boolean> {
  if (d.removed.has(path) || f.fileFormat === 'PUFFIN') return true;
  const theirs = await loader.positionsFor(f, path);
  if (theirs.length === 0) return false;
  const mine = new Set<number>();
  for (const own of d.addedPositionDeletes) {
    if (own.referencedDataFile !== null && own.referencedDataFile !== path) continue;
    if (own.fileFormat === 'PUFFIN') return true;
    for (const p of await loader.positionsFor(own, path)) mine.add(p);
  }
  // no position of the file deleted by the transaction: apart, unless it replaced a DV of the file
  if (mine.size === 0) return [...d.removedDeletes.values()].some((x) => x.referencedDataFile === path);
  return theirs.some((p) => mine.has(p));
}

/** true when, for every key, no file of `a` can share a key with a file of `b` (some key column's bounds do not overlap) */
function keysDisjoint(schema: Schema, keys: readonly UniqueKey[], a: readonly DataFile[], b: readonly DataFile[]): boolean {
  for (const key of keys) {
    for (const x of a) {
      for (const y of b) {
        if (!key.columns.some((col) => boundsApart(schema, col.field.id, x, y))) return false;
      }
    }
  }
  return true;
}

function boundsApart(schema: Schema, fieldId: number, x: DataFile, y: DataFile): boolean {
  const field = schema.fields.find((f) => f.id === fieldId);
  if (field === undefined || field.type.kind !== 'primitive') return false;
  const t = field.type;
  const decode = (m: ReadonlyMap<number, Uint8Array>, f: DataFile): unknown => {
    const bytes = m.get(fieldId);
    // a file whose key column is all NULL has no bounds, and NULL keys never collide: apart
    if (bytes === undefined) return f.nullValueCounts.get(fieldId) === f.recordCount ? null : undefined;
    return decodeSingleValue(t, bytes);
  };
  const [xl, xu, yl, yu] = [decode(x.lowerBounds, x), decode(x.upperBounds, x), decode(y.lowerBounds, y), decode(y.upperBounds, y)];
  if (xl === null || yl === null) return true;
  if (xl === undefined || xu === undefined || yl === undefined || yu === undefined) return false;
  return compareValues(t, xu, yl) < 0 || compareValues(t, yu, xl) < 0;
}
