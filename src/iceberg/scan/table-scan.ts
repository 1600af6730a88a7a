/**
 * Scan planning (§ Scan Planning): a snapshot's manifests → live data files (status 2 skipped), each with
 * the delete files that apply to it, by data sequence number:
 *   position deletes: data_seq <= delete_seq, same spec and partition (or referenced_data_file = the file);
 *   equality deletes: data_seq <  delete_seq, same spec and partition, or any partition when the delete's
 *   spec is unpartitioned (a global delete);
 *   deletion vectors (v3, PUFFIN position deletes): data_seq <= dv_seq and referenced_data_file = the file,
 *   same spec and partition; an applicable DV supersedes the position delete files of that data file (it is
 *   then the task's only position delete).
 * v1 snapshots that list `manifests` inline (no manifest list) are read with sequence number 0.
 *
 * Pruning (issue #4), with an optional filter bound to field ids (bound-predicate.ts): data manifests are
 * skipped when their file counts are 0 or their partition field summaries cannot match the filter's
 * inclusive projection through the manifest's spec; data files when their partition tuple (projected through
 * the file's own spec: partition evolution) or their column metrics cannot match. Delete manifests and delete
 * files are never pruned here: a delete file only goes away with the data files it applies to.
 */
import { pgError } from '../../common/errors.ts';
import type { IcebergIO } from '../io.ts';
import type { TableMetadata, Snapshot } from '../spec/table-metadata.ts';
import { findSnapshot, specById } from '../spec/table-metadata.ts';
import type { ManifestFile } from '../spec/manifest-list.ts';
import { DataFileContent, type DataFile } from '../spec/manifest.ts';
import { cachedManifest, cachedManifestList, type ManifestCacheCounters } from './manifest-cache.ts';
import { isUnpartitioned, type PartitionSpec } from '../spec/partition-spec.ts';
import type { IcebergType, PrimitiveType } from '../spec/schema.ts';
import { indexById } from '../spec/schema.ts';
import type { ScanMetrics } from '../../catalog/table-source.ts';
import { TRUE, type BoundPredicate } from './bound-predicate.ts';
import { mightMatch } from './stats-evaluator.ts';
import { partitionTupleStats, projectedFields, projectPredicate, summaryStats, type ProjectedField } from './partition-projection.ts';
import { dataFileStats } from './data-file-stats.ts';
import { nameMappingOf, type NameMapping } from '../spec/name-mapping.ts';

export interface DeleteFileRef {
  readonly file: DataFile;
  readonly sequenceNumber: bigint;
}

export interface FileScanTask {
  readonly file: DataFile;
  readonly spec: PartitionSpec;
  readonly dataSequenceNumber: bigint;
  readonly positionDeletes: readonly DeleteFileRef[];
  readonly equalityDeletes: readonly DeleteFileRef[];
  /**
   * Parquet row groups to read (indexes, ascending), chosen from footer statistics; undefined = all. Kept on
   * the task so a worker reading it (readFileScanTask) honours the planner's choice.
   */
  readonly rowGroups?: readonly number[];
  /**
   * file row positions [from, to) to read, undefined = all: a big row group cut across scan workers
   * (parallel/row-group-splits.ts). Additive to `rowGroups`; rows outside are never returned.
   */
  readonly rowRange?: readonly [number, number];
  /** the table's `schema.name-mapping.default` (files without Parquet field ids); absent/null: ids by position */
  readonly nameMapping?: NameMapping | null;
}

/** Planning counters (the manifest and file part of ScanMetrics). */
export interface PlanCounters {
  manifestsTotal: number;
  manifestsScanned: number;
  filesTotal: number;
  filesPrunedByPartition: number;
  filesPrunedByStats: number;
}

export interface PlanOptions {
  /** rows must match this (inexact pruning: files that cannot match are left out) */
  readonly filter?: BoundPredicate;
}

export interface ScanPlan {
  readonly snapshot: Snapshot | null;
  readonly tasks: readonly FileScanTask[];
  /** counters for EXPLAIN / tests */
  readonly manifestsRead: number;
  readonly deleteFilesSeen: number;
  readonly counters: PlanCounters;
  /** manifest lists and manifests this planning looked up in the manifest cache (manifest-cache.ts) */
  readonly cache: ManifestCacheCounters;
}

function emptyCounters(): PlanCounters {
  return { manifestsTotal: 0, manifestsScanned: 0, filesTotal: 0, filesPrunedByPartition: 0, filesPrunedByStats: 0 };
}

/** adds planning counters to scan metrics */
export function addPlanCounters(m: ScanMetrics, c: PlanCounters): void {
  m.manifestsTotal += c.manifestsTotal;
  m.manifestsScanned += c.manifestsScanned;
  m.filesTotal += c.filesTotal;
  m.filesPrunedByPartition += c.filesPrunedByPartition;
  m.filesPrunedByStats += c.filesPrunedByStats;
}

/** primitive types of the fields a filter names, by id */
function filterTypes(b: BoundPredicate, out = new Map<number, PrimitiveType>()): Map<number, PrimitiveType> {
  if (b.kind === 'and' || b.kind === 'or') for (const a of b.args) filterTypes(a, out);
  else if ('fieldId' in b) out.set(b.fieldId, b.type);
  return out;
}

export async function manifestsOfSnapshot(io: IcebergIO, md: TableMetadata, snap: Snapshot, cache?: ManifestCacheCounters): Promise<ManifestFile[]> {
  if (snap.manifestList !== null) return cachedManifestList(io, snap.manifestList, cache);
  // v1 deprecated form: a list of manifest paths, no manifest list (content = data, seq = 0)
  return (snap.manifests ?? []).map((path) => ({
    manifestPath: path, manifestLength: 0n, partitionSpecId: md.defaultSpecId, content: 0,
    sequenceNumber: 0n, minSequenceNumber: 0n, addedSnapshotId: snap.snapshotId,
    addedFilesCount: null, existingFilesCount: null, deletedFilesCount: null,
    addedRowsCount: null, existingRowsCount: null, deletedRowsCount: null,
    partitions: null, keyMetadata: null, firstRowId: null,
  }));
}

/** Stable key for (spec id, partition tuple) equality; raw Avro values (bigint, bytes) included. */
export function partitionKey(file: DataFile): string {
  const parts: string[] = [String(file.specId)];
  for (const [id, v] of [...file.partition].sort((a, b) => a[0] - b[0])) {
    const s = v === null || v === undefined ? 'N'
      : typeof v === 'bigint' ? `${v}`
      : v instanceof Uint8Array ? `x${Buffer.from(v).toString('hex')}`
      : JSON.stringify(v);
    parts.push(`${id}=${s}`);
  }
  return parts.join('|');
}

export async function planScan(io: IcebergIO, md: TableMetadata, snapshotId?: bigint | null, options: PlanOptions = {}): Promise<ScanPlan> {
  const counters = emptyCounters();
  const cache: ManifestCacheCounters = { manifestCacheLookups: 0, manifestCacheHits: 0 };
  const snapshot = findSnapshot(md, snapshotId);
  if (snapshot === null) return { snapshot, tasks: [], manifestsRead: 0, deleteFilesSeen: 0, counters, cache };
  const manifests = await manifestsOfSnapshot(io, md, snapshot, cache);
  counters.manifestsTotal = manifests.length;
  const filter = options.filter ?? TRUE;
  const pruning = filter.kind !== 'true';
  // partition source ids resolve in any schema (a partition source may have been dropped since)
  const sourceTypes = new Map<number, IcebergType>();
  for (const s of md.schemas) for (const [id, f] of indexById(s)) sourceTypes.set(id, f.type);
  for (const s of md.schemas.filter((x) => x.schemaId === md.currentSchemaId)) for (const [id, f] of indexById(s)) sourceTypes.set(id, f.type);
  const projections = new Map<number, { fields: ProjectedField[]; filter: BoundPredicate }>();
  const projectionFor = (specId: number): { fields: ProjectedField[]; filter: BoundPredicate } => {
    let p = projections.get(specId);
    if (p === undefined) {
      const fields = projectedFields(specById(md, specId), (id) => sourceTypes.get(id));
      p = { fields, filter: projectPredicate(filter, fields) };
      projections.set(specId, p);
    }
    return p;
  };
  const types = filterTypes(filter);

  const data: { file: DataFile; seq: bigint }[] = [];
  const posByPartition = new Map<string, DeleteFileRef[]>();
  const eqByPartition = new Map<string, DeleteFileRef[]>();
  const globalEq: DeleteFileRef[] = [];
  const dvByDataFile = new Map<string, DeleteFileRef[]>();
  let deleteFilesSeen = 0;
  for (const mf of manifests) {
    if (mf.content === 0 && mf.addedFilesCount === 0 && mf.existingFilesCount === 0) continue;
    if (mf.content === 0 && pruning) {
      const p = projectionFor(mf.partitionSpecId);
      if (!mightMatch(p.filter, summaryStats(mf.partitions, specById(md, mf.partitionSpecId), p.fields))) {
        const files = (mf.addedFilesCount ?? 0) + (mf.existingFilesCount ?? 0);
        counters.filesTotal += files;
        counters.filesPrunedByPartition += files;
        continue;
      }
    }
    counters.manifestsScanned++;
    const parsed = await cachedManifest(io, mf, cache);
    for (const e of parsed.entries) {
      const f = e.dataFile;
      if (f.content === DataFileContent.DATA) {
        counters.filesTotal++;
        if (pruning) {
          const p = projectionFor(f.specId);
          if (!mightMatch(p.filter, partitionTupleStats(f.partition, p.fields))) {
            counters.filesPrunedByPartition++;
            continue;
          }
          if (!mightMatch(filter, dataFileStats(f, (id) => types.get(id)))) {
            counters.filesPrunedByStats++;
            continue;
          }
        }
        if (f.fileFormat !== 'PARQUET') throw pgError('0A000', `Iceberg data file format ${f.fileFormat} is not supported`, { detail: f.filePath });
        data.push({ file: f, seq: e.sequenceNumber });
        continue;
      }
      deleteFilesSeen++;
      const ref = { file: f, sequenceNumber: e.sequenceNumber };
      if (f.fileFormat === 'PUFFIN' && f.content === DataFileContent.POSITION_DELETES && f.referencedDataFile !== null) {
        push(dvByDataFile, f.referencedDataFile, ref);
        continue;
      }
      if (f.fileFormat !== 'PARQUET') throw pgError('0A000', `Iceberg ${f.fileFormat} delete files are not supported`, { detail: f.filePath });
      if (f.content === DataFileContent.POSITION_DELETES) {
        push(posByPartition, partitionKey(f), ref);
      } else if (isUnpartitioned(specById(md, f.specId))) {
        globalEq.push(ref);
      } else {
        push(eqByPartition, partitionKey(f), ref);
      }
    }
  }

  const nameMapping = nameMappingOf(md.properties);
  const tasks = data.map(({ file, seq }): FileScanTask => {
    const key = partitionKey(file);
    const dv = (dvByDataFile.get(file.filePath) ?? []).filter((d) => seq <= d.sequenceNumber && partitionKey(d.file) === key);
    if (dv.length > 1) throw pgError('XX001', `data file "${file.filePath}" has ${dv.length} deletion vectors (at most one is allowed)`);
    const positionDeletes = dv.length === 1 ? dv : (posByPartition.get(key) ?? []).filter(
      (d) => seq <= d.sequenceNumber && (d.file.referencedDataFile === null || d.file.referencedDataFile === file.filePath),
    );
    const equalityDeletes = [...(eqByPartition.get(key) ?? []), ...globalEq].filter((d) => seq < d.sequenceNumber);
    return { file, spec: specById(md, file.specId), dataSequenceNumber: seq, positionDeletes, equalityDeletes, ...(nameMapping === null ? {} : { nameMapping }) };
  });
  return { snapshot, tasks, manifestsRead: manifests.length, deleteFilesSeen, counters, cache };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
