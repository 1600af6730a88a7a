/**
 * PrunablePlan: a small snapshot's scan plan made once and pruned in memory per filter, with the answer of
 * planScan(filter) + Parquet row-group selection (iceberg-table-source.ts planPruned): same tasks, same
 * row groups, same counters.
 *
 * Why: plans are cached per filter *value*, so a parameterised lookup (`WHERE id = $1`, pgbench) planned the
 * scan again for nearly every execution — schemas indexed, manifests looked up, partition tuples and column
 * bounds decoded, footer statistics decoded — tens of µs for a one-file table. Here the manifests, the tasks
 * (their delete files never depend on the filter), the footers and every decoded statistic are kept; a
 * filter costs its mightMatch calls. Only for snapshots of at most MAX_FILES data files: bigger scans
 * amortise their planning, and the memory stays small.
 */
import type { IcebergIO } from '../io.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { findSnapshot, specById } from '../spec/table-metadata.ts';
import type { ManifestFile } from '../spec/manifest-list.ts';
import { DataFileContent, type DataFile } from '../spec/manifest.ts';
import type { IcebergType, PrimitiveType } from '../spec/schema.ts';
import { indexById } from '../spec/schema.ts';
import type { PartitionSpec } from '../spec/partition-spec.ts';
import { cachedManifest } from './manifest-cache.ts';
import { manifestsOfSnapshot, planScan, type FileScanTask, type PlanCounters, type ScanPlan } from './table-scan.ts';
import type { BoundPredicate } from './bound-predicate.ts';
import { mightMatch, type FieldStats, type StatsLookup } from './stats-evaluator.ts';
import { partitionTupleStats, projectedFields, projectPredicate, summaryStats, type ProjectedField } from './partition-projection.ts';
import { dataFileStats } from './data-file-stats.ts';
import { readParquetFooter, type ParquetFooter } from '../read/parquet-footer.ts';
import { rowGroupFieldStats } from '../read/row-group-stats.ts';

/** snapshots with more live data files are planned per filter as before */
export const PRUNABLE_MAX_FILES = 16;

interface KeptFile {
  readonly task: FileScanTask;
  readonly partitionStats: StatsLookup;
  readonly fileStats: StatsLookup;
  readonly footer: ParquetFooter;
  /** decoded row-group statistics by row group, then field id */
  readonly rowGroupStats: Map<number, FieldStats | undefined>[];
  /** per row group, a StatsLookup over rowGroupStats (made once: a closure per plan() costs, see rowGroups) */
  rowGroupLookups?: StatsLookup[];
}

interface KeptManifest {
  readonly mf: ManifestFile;
  /** data manifests: statistics of the partition summaries through the manifest's spec */
  readonly summary: StatsLookup | null;
  readonly files: readonly KeptFile[];
}

export class PrunablePlan {
  /** footer bytes the build fetched: reported once, by the first plan (as planPruned reports its own) */
  private unreportedFooterBytes: number;

  private constructor(
    private readonly base: ScanPlan,
    private readonly manifests: readonly KeptManifest[],
    private readonly specs: ReadonlyMap<number, { readonly spec: PartitionSpec; readonly fields: ProjectedField[] }>,
    private readonly typeOf: (fieldId: number) => PrimitiveType | undefined,
    /** the manifest list and manifests came through the manifest cache (its counters apply) */
    private readonly countsLookups: boolean,
    footerBytes: number,
  ) {
    this.unreportedFooterBytes = footerBytes;
  }

  /**
   * The plan of `snapshotId`, or null when it has more than PRUNABLE_MAX_FILES data files (or none:
   * planScan answers an empty snapshot at once). `typeOf` gives the primitive type of a field of the
   * source's schema (the types filters are bound with). Throws what planScan / readParquetFooter throw.
   */
  static async build(io: IcebergIO, md: TableMetadata, snapshotId: bigint | null, typeOf: (fieldId: number) => PrimitiveType | undefined): Promise<PrunablePlan | null> {
    const snapshot = findSnapshot(md, snapshotId);
    if (snapshot === null) return null;
    const base = await planScan(io, md, snapshotId);
    if (base.tasks.length === 0 || base.tasks.length > PRUNABLE_MAX_FILES) return null;
    // as planScan: partition source ids resolve in any schema, the current one winning
    const sourceTypes = new Map<number, IcebergType>();
    for (const s of md.schemas) for (const [id, f] of indexById(s)) sourceTypes.set(id, f.type);
    for (const s of md.schemas.filter((x) => x.schemaId === md.currentSchemaId)) for (const [id, f] of indexById(s)) sourceTypes.set(id, f.type);
    const specs = new Map<number, { spec: PartitionSpec; fields: ProjectedField[] }>();
    const specOf = (specId: number): { spec: PartitionSpec; fields: ProjectedField[] } => {
      let s = specs.get(specId);
      if (s === undefined) {
        const spec = specById(md, specId);
        specs.set(specId, (s = { spec, fields: projectedFields(spec, (id) => sourceTypes.get(id)) }));
      }
      return s;
    };
    let footerBytes = 0;
    const manifests: KeptManifest[] = [];
    let next = 0;
    for (const mf of await manifestsOfSnapshot(io, md, snapshot)) {
      if (mf.content === 0 && mf.addedFilesCount === 0 && mf.existingFilesCount === 0) continue;
      const files: KeptFile[] = [];
      for (const e of (await cachedManifest(io, mf)).entries) {
        if (e.dataFile.content !== DataFileContent.DATA) continue;
        // planScan's tasks follow the same manifests and entries in the same order
        const task = base.tasks[next++];
        if (task === undefined || task.file !== e.dataFile) return null;
        const f: DataFile = e.dataFile;
        const footer = await readParquetFooter(io, f.filePath, Number(f.fileSizeInBytes), (n) => { footerBytes += n; });
        files.push({
          task,
          partitionStats: partitionTupleStats(f.partition, specOf(f.specId).fields),
          fileStats: dataFileStats(f, typeOf),
          footer,
          rowGroupStats: footer.rowGroups.map(() => new Map()),
        });
      }
      const summary = mf.content === 0 ? summaryStats(mf.partitions, specOf(mf.partitionSpecId).spec, specOf(mf.partitionSpecId).fields) : null;
      manifests.push({ mf, summary, files });
    }
    if (next !== base.tasks.length) return null;
    return new PrunablePlan(base, manifests, specs, typeOf, base.cache.manifestCacheLookups > 0, footerBytes);
  }

  /** the plan for `filter` (not TRUE): planScan's pruning, then row groups by footer statistics */
  plan(filter: BoundPredicate): { plan: ScanPlan; footerBytes: number } {
    const counters: PlanCounters = { manifestsTotal: this.base.counters.manifestsTotal, manifestsScanned: 0, filesTotal: 0, filesPrunedByPartition: 0, filesPrunedByStats: 0 };
    const projected = new Map<number, BoundPredicate>();
    const tasks: FileScanTask[] = [];
    for (const m of this.manifests) {
      if (m.summary !== null && !mightMatch(this.partitionFilter(filter, projected, m.mf.partitionSpecId), m.summary)) {
        const files = (m.mf.addedFilesCount ?? 0) + (m.mf.existingFilesCount ?? 0);
        counters.filesTotal += files;
        counters.filesPrunedByPartition += files;
        continue;
      }
      counters.manifestsScanned++;
      for (const f of m.files) {
        counters.filesTotal++;
        if (!mightMatch(this.partitionFilter(filter, projected, f.task.file.specId), f.partitionStats)) {
          counters.filesPrunedByPartition++;
          continue;
        }
        if (!mightMatch(filter, f.fileStats)) {
          counters.filesPrunedByStats++;
          continue;
        }
        const rowGroups = this.rowGroups(f, filter);
        // as planPruned: a file none of whose row groups can match counts as pruned by statistics
        if (rowGroups.length === f.footer.rowGroups.length) tasks.push(f.task);
        else if (rowGroups.length === 0) counters.filesPrunedByStats++;
        else tasks.push({ ...f.task, rowGroups });
      }
    }
    const lookups = this.countsLookups ? (this.base.snapshot?.manifestList == null ? 0 : 1) + counters.manifestsScanned : 0;
    const footerBytes = this.unreportedFooterBytes;
    this.unreportedFooterBytes = 0;
    return {
      plan: { snapshot: this.base.snapshot, tasks, manifestsRead: this.base.manifestsRead, deleteFilesSeen: this.base.deleteFilesSeen, counters, cache: { manifestCacheLookups: lookups, manifestCacheHits: lookups } },
      footerBytes,
    };
  }

  /** `filter` projected onto a partition spec's fields, memoized in `projected` for one plan() */
  private partitionFilter(filter: BoundPredicate, projected: Map<number, BoundPredicate>, specId: number): BoundPredicate {
    let p = projected.get(specId);
    if (p === undefined) projected.set(specId, (p = projectPredicate(filter, this.specs.get(specId)!.fields)));
    return p;
  }

  /**
   * selectRowGroups (read/row-group-stats.ts) over statistics decoded once per row group and field. The
   * lookups are made once per file (functions made per call cost a defineProperty each under tsx's keepNames).
   */
  private rowGroups(f: KeptFile, filter: BoundPredicate): number[] {
    const lookups = (f.rowGroupLookups ??= f.rowGroupStats.map((memo, rg): StatsLookup => (id) => {
      if (memo.has(id)) return memo.get(id);
      const t = this.typeOf(id);
      const s = t === undefined ? undefined : rowGroupFieldStats(f.footer, rg, id, t);
      memo.set(id, s);
      return s;
    }));
    const out: number[] = [];
    for (let rg = 0; rg < lookups.length; rg++) if (mightMatch(filter, lookups[rg]!)) out.push(rg);
    return out;
  }
}
