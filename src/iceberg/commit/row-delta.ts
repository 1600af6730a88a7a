/**
 * IcebergRowDelta: one UPDATE / DELETE on an Iceberg table, merge-on-read (what Spark and Trino do for
 * row-level changes in format v2). scan() reads the statement's snapshot with each row's data file and
 * position; the executor marks rows deleted and hands over UPDATE's new rows; commit():
 *   - a data file every live row of which is deleted is dropped from the snapshot (no delete file: a
 *     DELETE without WHERE, or one covering whole files, is metadata-only);
 *   - other deleted rows go into position delete files (§ Position Delete Files: file_path, pos, sorted),
 *     one per partition of the data files they hit, in that partition's folder and spec, with
 *     referenced_data_file when it covers one data file;
 *   - new rows are written with the default spec, as INSERT does;
 * and everything is one snapshot (row-delta-commit.ts): operation `delete` for DELETE, `overwrite` for UPDATE;
 * by what was written when MERGE or ON CONFLICT add only rows (`append`) or only delete (`delete`), as Java's
 * BaseRowDelta.operation() decides.
 * Format v3 tables get deletion vectors instead of position delete files (row-delta-dvs.ts), replacing the
 * data file's previous DV in the same snapshot. v1 tables have no row-level deletes: 0A000.
 * v3 row lineage (§ Row Lineage, lineage/updated-row-lineage.ts): scan() also reads `_row_id` and
 * `_last_updated_sequence_number` (systemColumns); UPDATE's new versions are written with the old `_row_id`
 * and a null `_last_updated_sequence_number`, so they keep their id and inherit the commit's sequence number.
 */
import { randomUUID } from 'node:crypto';
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { ColumnDef, RowDelta, ScanContext, ScanPredicate } from '../../catalog/table-source.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import type { IcebergIO } from '../io.ts';
import { DeleteLoader } from '../read/delete-loader.ts';
import { DELETE_FILE_PATH_ID, DELETE_POS_ID } from '../read/delete-loader.ts';
import { addPlanCounters, type FileScanTask, type ScanPlan } from '../scan/table-scan.ts';
import { indexById, type NestedField, type Schema } from '../spec/schema.ts';
import type { Snapshot, TableMetadata } from '../spec/table-metadata.ts';
import type { DataFile } from '../spec/manifest.ts';
import { bindPartitionSpec, partitionKey, partitionPath } from '../transforms/partition-path.ts';
import { newFileRecord, partitionTupleOf, writeDataManifest, writeManifestEntries } from '../write/manifest-writer.ts';
import { ParquetDataWriter, type DataFileInfo } from '../write/parquet-data-writer.ts';
import { fieldSummaries, type ManifestPartitioning } from '../write/partition-avro.ts';
import { appendDataFiles, metadataDir, newSnapshotId } from './append-commit.ts';
import { commitRowDelta, dvKey, type AddedManifest } from './row-delta-commit.ts';
import { currentDv, writeDeletionVectors, type DeletedRows } from './row-delta-dvs.ts';
import { readTaskWithRowIds } from './row-id-scan.ts';
import { lineageColumnsOf, updatedLineage, updatedLineageValues } from '../lineage/updated-row-lineage.ts';
import { dataLocation, openDataWriter, type IcebergTableWriter, type OpenDataWriter } from './table-writer.ts';
import { KeyCheck } from '../keys/key-check.ts';
import { GatewayError } from '../../common/errors.ts';
import { isUncommitted, markConflictTable, markUncommitted } from './commit-turns.ts';
import { markKeyRaced } from './snapshot-commit.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';

/** the table a row delta reads: one pinned snapshot (IcebergTableSource satisfies it) */
export interface RowDeltaTable {
  readonly io: IcebergIO;
  readonly metadata: TableMetadata;
  readonly schema: Schema;
  readonly snapshot: Snapshot | null;
  /** the snapshot's files, pruned by `filters` (partition values, column bounds, row-group statistics) */
  planFiles(filters?: readonly ScanPredicate[]): Promise<ScanPlan>;
  /** pushed filters bound for row filtering (late materialization); without it rows are not filtered */
  bindFilters?(filters: readonly ScanPredicate[], options: { readonly rows: true }): BoundPredicate;
}

/** § Position Delete Files: file_path (2147483546), pos (2147483545), both required */
const POSITION_DELETE_SCHEMA: Schema = {
  kind: 'struct', schemaId: 0, identifierFieldIds: [],
  fields: [
    { id: DELETE_FILE_PATH_ID, name: 'file_path', required: true, type: { kind: 'primitive', name: 'string' } },
    { id: DELETE_POS_ID, name: 'pos', required: true, type: { kind: 'primitive', name: 'long' } },
  ],
};

/** spec id + partition tuple, for changed-partition-count and grouping delete files */
const changedKey = (p: ManifestPartitioning, tuple: readonly unknown[]): string => `${p.specId}:${partitionKey(p.fields, tuple)}`;

/**
 * file_path bounds in full, not truncated to 16 characters (Java's MetricsConfig.forPositionDelete: Full), so
 * readers can tell which data files a delete file covers (lower = upper: exactly one)
 */
function withFullPathBounds(rec: Record<string, unknown>, sortedPaths: readonly string[]): Record<string, unknown> {
  const set = (list: unknown, path: string): { key: number; value: Buffer }[] => [
    ...(list as { key: number; value: Buffer }[]).filter((e) => e.key !== DELETE_FILE_PATH_ID),
    { key: DELETE_FILE_PATH_ID, value: Buffer.from(path, 'utf8') },
  ];
  return { ...rec, lower_bounds: set(rec['lower_bounds'], sortedPaths[0]!), upper_bounds: set(rec['upper_bounds'], sortedPaths.at(-1)!) };
}

interface DeleteGroup {
  readonly partitioning: ManifestPartitioning;
  readonly tuple: readonly unknown[];
  readonly files: DataFile[];
}

export class IcebergRowDelta implements RowDelta {
  private readonly deleted = new Map<string, bigint[]>();
  private readonly live = new Map<string, number>();
  private readonly tasks = new Map<string, FileScanTask>();
  /** files scan() read only some rows of (pushed filters) */
  private readonly partial = new Set<string>();
  private newRows: OpenDataWriter | null = null;
  private deletes: DeleteLoader | null = null;
  /** v3: the row lineage fields scan() reads after the table's (none when the table is v2) */
  private readonly lineage: readonly NestedField[];
  readonly systemColumns?: readonly ColumnDef[];
  /** PRIMARY KEY / UNIQUE of the new rows (keys/key-check.ts); made with the first new row, null: no keys */
  private keys: KeyCheck | null | undefined = undefined;
  /** the committed snapshot's sequence number (after commit) */
  private sequenceNumber: bigint | null = null;
  /** the statement's abort signal (from scan()): a cancel ends the wait for a commit turn */
  private signal: AbortSignal | undefined;
  /** delete files and manifests commit() wrote: removed with the new rows' files when the commit fails before its swap */
  private readonly written: string[] = [];

  constructor(private readonly writer: IcebergTableWriter, private readonly table: RowDeltaTable, private readonly op: 'update' | 'delete') {
    // v1 has no delete files or sequence numbers
    const v = table.metadata.formatVersion;
    if (v !== 2 && v !== 3) throw pgError(SqlState.feature_not_supported, `${op.toUpperCase()} on Iceberg format version ${v} tables is not supported`, { detail: 'Row-level changes are written as position delete files (v2) or deletion vectors (v3).' });
    const l = lineageColumnsOf(table.metadata, table.schema);
    this.lineage = l.fields;
    if (l.fields.length > 0) this.systemColumns = l.columns;
  }

  /**
   * the live rows with their ids; pushed filters (a join's runtime key filter on the target: MERGE, ON CONFLICT,
   * UPDATE … FROM) prune files and row groups and skip rows, so a key lookup reads only what may match
   */
  async *scan(ctx: Pick<ScanContext, 'signal' | 'filters' | 'metrics'>): AsyncIterable<Batch> {
    const t = this.table;
    this.signal = ctx.signal;
    const filters = ctx.filters !== undefined && ctx.filters.length > 0 ? ctx.filters : undefined;
    const plan = await t.planFiles(filters);
    const metrics = ctx.metrics;
    if (metrics !== undefined) addPlanCounters(metrics, plan.counters);
    const rowFilter = filters === undefined || t.bindFilters === undefined ? undefined : t.bindFilters(filters, { rows: true });
    const byId = new Map<number, NestedField>();
    for (const s of t.metadata.schemas) for (const [id, f] of indexById(s)) byId.set(id, f);
    for (const [id, f] of indexById(t.schema)) byId.set(id, f);
    const deletes = new DeleteLoader(t.io, (id) => byId.get(id));
    this.deletes = deletes;
    for (const task of plan.tasks) {
      ctx.signal.throwIfAborted();
      this.tasks.set(task.file.filePath, task);
      if (metrics !== undefined) metrics.filesScanned++;
      // some rows not read: the file's live count comes from its metadata at commit (liveRows)
      if (task.rowGroups !== undefined || (rowFilter !== undefined && rowFilter.kind !== 'true')) this.partial.add(task.file.filePath);
      for await (const b of readTaskWithRowIds(t.io, task, [...t.schema.fields, ...this.lineage], deletes, ctx.signal, rowFilter)) {
        this.live.set(task.file.filePath, (this.live.get(task.file.filePath) ?? 0) + b.length);
        yield b;
      }
    }
  }

  delete(file: string, pos: bigint): void {
    let list = this.deleted.get(file);
    if (list === undefined) this.deleted.set(file, (list = []));
    list.push(pos);
  }

  async insert(batch: Batch, previous?: Batch): Promise<void> {
    const schema = this.lineage.length === 0 ? this.table.schema : { ...this.table.schema, fields: [...this.table.schema.fields, ...this.lineage] };
    this.newRows ??= openDataWriter(this.writer, this.table.metadata, schema);
    if (this.keys === undefined) this.keys = KeyCheck.of(this.writer.io, this.table.metadata, this.table.schema, { schema: this.writer.id.namespace.join('.'), name: this.writer.id.name });
    this.keys?.observe(batch);
    await this.newRows.files.add(this.lineage.length === 0 ? batch : updatedLineage(batch, this.lineage, previous));
  }

  /** UPDATE … RETURNING `_row_id`, `_last_updated_sequence_number`: the old id, the commit's sequence number */
  updatedSystemValues(previous: readonly unknown[]): readonly unknown[] {
    return updatedLineageValues(this.lineage, previous, this.sequenceNumber);
  }

  async commit(): Promise<void> {
    const t = this.table;
    const written = this.newRows === null ? [] : await this.newRows.files.close();
    if (this.deleted.size === 0 && written.length === 0) return;
    // a table without a snapshot has no rows to delete: MERGE's / ON CONFLICT's new rows are a plain append
    if (t.snapshot === null) return this.commitAppend(written);
    const touched = new Map<string, DataFile>();
    const removed = new Set<string>();
    const groups = new Map<string, DeleteGroup>();
    const changed = new Set<string>();
    const v3 = t.metadata.formatVersion >= 3;
    const dvRows: DeletedRows[] = [];
    const removedDeletes = new Map<string, DataFile>();
    for (const [path, positions] of this.deleted) {
      const task = this.tasks.get(path)!;
      touched.set(path, task.file);
      const partitioning = { specId: task.spec.specId, fields: bindPartitionSpec(task.spec, t.schema) };
      const tuple = partitionTupleOf(task.file, partitioning);
      const key = changedKey(partitioning, tuple);
      changed.add(key);
      if (positions.length === (this.partial.has(path) ? await this.liveRows(task) : this.live.get(path))) {
        removed.add(path);
        // the file's DV goes with it (no dangling DVs)
        const dv = currentDv(task);
        if (dv !== null) removedDeletes.set(dvKey(dv), dv);
        continue;
      }
      if (v3) { dvRows.push({ task, partitioning, tuple, positions }); continue; }
      let g = groups.get(key);
      if (g === undefined) groups.set(key, (g = { partitioning, tuple, files: [] }));
      g.files.push(task.file);
    }
    const dir = metadataDir(t.metadata);
    const added: AddedManifest[] = [];
    const summary: Record<string, bigint> = {};
    const bump = (k: string, v: bigint): void => { summary[k] = (summary[k] ?? 0n) + v; };
    // position delete files: one per partition, one delete manifest per spec
    const bySpec = new Map<number, { partitioning: ManifestPartitioning; files: (DataFileInfo & { partition: readonly unknown[]; referenced: string | null; paths: string[] })[] }>();
    for (const g of groups.values()) {
      const info = await this.writePositionDeletes(g);
      this.written.push(info.path);
      let s = bySpec.get(g.partitioning.specId);
      if (s === undefined) bySpec.set(g.partitioning.specId, (s = { partitioning: g.partitioning, files: [] }));
      s.files.push({ ...info, partition: g.tuple, referenced: g.files.length === 1 ? g.files[0]!.filePath : null, paths: g.files.map((f) => f.filePath).sort() });
      bump('added-delete-files', 1n); bump('added-position-delete-files', 1n); bump('added-position-deletes', BigInt(info.recordCount)); bump('added-files-size', BigInt(info.fileSizeInBytes));
    }
    if (dvRows.length > 0) {
      const dvs = await writeDeletionVectors(this.writer.io, t.metadata, t.schema, this.deletes!, dvRows, dir, bump);
      this.written.push(dvs.file, ...dvs.manifests.map((m) => m.path));
      added.push(...dvs.manifests);
      for (const d of dvs.replaced) removedDeletes.set(dvKey(d), d);
    }
    for (const [specId, s] of bySpec) {
      const bytes = writeManifestEntries(t.schema, s.partitioning, 'deletes', s.files.map((f) => ({
        status: 1, snapshotId: null, sequenceNumber: null, fileSequenceNumber: null, dataFile: withFullPathBounds(newFileRecord(f, s.partitioning, 1, f.referenced), f.paths),
      })));
      const path = `${dir}/${randomUUID()}-m0.avro`;
      this.written.push(path);
      await this.writer.io.write(path, bytes);
      added.push({
        path, length: BigInt(bytes.byteLength), specId, content: 1, filesCount: s.files.length,
        rowsCount: s.files.reduce((n, f) => n + BigInt(f.recordCount), 0n), partitions: fieldSummaries(s.partitioning, s.files.map((f) => f.partition)),
      });
    }
    // UPDATE's new rows: one data manifest in the default spec
    const dataPart = this.newRows?.partitioning ?? null;
    if (written.length > 0 && dataPart !== null) {
      const bytes = writeDataManifest(t.schema, written, dataPart, t.metadata.formatVersion);
      const path = `${dir}/${randomUUID()}-m0.avro`;
      this.written.push(path);
      await this.writer.io.write(path, bytes);
      const rows = written.reduce((n, f) => n + BigInt(f.recordCount), 0n);
      added.push({ path, length: BigInt(bytes.byteLength), specId: dataPart.specId, content: 0, filesCount: written.length, rowsCount: rows, partitions: fieldSummaries(dataPart, written.map((f) => f.partition ?? [])) });
      bump('added-data-files', BigInt(written.length)); bump('added-records', rows);
      bump('added-files-size', written.reduce((n, f) => n + BigInt(f.fileSizeInBytes), 0n));
      for (const f of written) changed.add(changedKey(dataPart, f.partition ?? []));
    }
    const keys = written.length > 0 ? this.keys ?? null : null;
    try {
      this.sequenceNumber = await commitRowDelta(this.writer.catalog, this.writer.io, this.writer.id, {
        op: operationOf(this.op, this.deleted.size > 0, written.length > 0), snapshotId: newSnapshotId(), baseSnapshotId: t.snapshot.snapshotId, schema: t.schema, touched, removed, removedDeletes, added,
        dataSpecId: written.length > 0 ? dataPart?.specId ?? null : null, addedSummary: summary, changedPartitions: changed,
        ...(this.writer.maxRetries === undefined ? {} : { maxRetries: this.writer.maxRetries }),
        // the rows this statement deletes do not hold their keys any more
        ...(keys === null ? {} : { validate: (md: TableMetadata) => keys.validate(md, { deleted: this.deleted }) }),
        ...(this.signal === undefined ? {} : { signal: this.signal }),
      });
    } catch (e) {
      // a key violation, a lost race (the statement may re-run: engine/autocommit-retry.ts), a cancel while
      // waiting for the turn: nothing of this attempt was committed, so its files are not left as orphans
      if (isUncommitted(e)) await this.discard();
      throw e;
    }
    await this.writer.afterCommit?.();
  }

  /** removes every file this statement wrote (none is referenced by a snapshot: the commit failed before its swap) */
  private async discard(): Promise<void> {
    await this.newRows?.files.abort();
    const del = this.writer.io.delete?.bind(this.writer.io);
    if (del !== undefined) await Promise.allSettled(this.written.splice(0).map((p) => del(p)));
  }

  /** commit() on a table without a snapshot: the new rows as one append (keys validated as an INSERT's) */
  private async commitAppend(written: Awaited<ReturnType<OpenDataWriter['files']['close']>>): Promise<void> {
    const keys = this.keys ?? null;
    try {
      const r = await appendDataFiles(this.writer.catalog, this.writer.io, this.writer.id, this.table.schema, written, {
        partitioning: this.newRows!.partitioning,
        ...(this.writer.maxRetries === undefined ? {} : { maxRetries: this.writer.maxRetries }),
        ...(keys === null ? {} : { validate: (md: TableMetadata) => keys.validate(md) }),
        ...(this.signal === undefined ? {} : { signal: this.signal }),
      });
      this.sequenceNumber = r?.sequenceNumber ?? null;
    } catch (e) {
      throw await this.appendFailed(e);
    }
    await this.writer.afterCommit?.();
  }

  /**
   * an append onto an empty table that failed: a 23505 or 40001 came before the catalog swap (the new rows' files are
   * removed). A table that gained a snapshot meanwhile is the race of the row delta's own commit (a concurrent
   * INSERT of the key ON CONFLICT meant to insert): marked as commitRowDelta marks it, so an autocommit statement
   * re-runs and takes its conflict branch
   */
  private async appendFailed(e: unknown): Promise<unknown> {
    if (e instanceof GatewayError && e.code === SqlState.query_canceled) {
      await this.discard(); // cancelled while waiting for the table's append turn: nothing was swapped
      return e;
    }
    if (!(e instanceof GatewayError) || (e.code !== SqlState.unique_violation && e.code !== SqlState.serialization_failure)) return e;
    await this.discard();
    markUncommitted(e);
    const uuid = this.table.metadata.tableUuid;
    if (e.code === SqlState.unique_violation && await this.tableMoved()) markKeyRaced(e);
    return uuid === null ? e : markConflictTable(e, uuid);
  }

  /** whether the table this statement read without a snapshot has one now */
  private async tableMoved(): Promise<boolean> {
    const { metadataLocation } = await this.writer.catalog.loadTableLocation(this.writer.id);
    return (await loadTableMetadata(this.writer.io, metadataLocation)).currentSnapshotId !== null;
  }

  /**
   * the live rows of a file scan() read only partly: its record count less the positions its delete files
   * (position deletes, DVs) remove; -1 (never "every row deleted") when equality deletes apply
   */
  private async liveRows(task: FileScanTask): Promise<number> {
    if (task.equalityDeletes.length > 0) return -1;
    const path = task.file.filePath;
    const gone = new Set<number>();
    for (const d of task.positionDeletes) for (const p of await this.deletes!.positionsFor(d.file, path)) gone.add(p);
    return Number(task.file.recordCount) - gone.size;
  }

  /** one position delete file for a partition: (file_path, pos) sorted, in the partition's data folder */
  private async writePositionDeletes(g: DeleteGroup): Promise<DataFileInfo> {
    const folder = g.partitioning.fields.length === 0 ? dataLocation(this.table.metadata) : `${dataLocation(this.table.metadata)}/${partitionPath(g.partitioning.fields, g.tuple)}`;
    const w = new ParquetDataWriter(this.writer.io, folder, POSITION_DELETE_SCHEMA, { relationName: this.writer.id.name, targetFileSizeBytes: Number.MAX_SAFE_INTEGER });
    const paths = g.files.map((f) => f.filePath).sort();
    for (const p of paths) {
      const pos = this.deleted.get(p)!.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      await w.add({ length: pos.length, columns: [new Array<unknown>(pos.length).fill(p), pos] });
    }
    const files = await w.close();
    return files[0]!;
  }
}

/** Java's BaseRowDelta.operation(): only new data files → append, only deletes → delete, both → overwrite */
function operationOf(op: 'update' | 'delete', deletes: boolean, adds: boolean): 'update' | 'delete' | 'append' {
  if (op === 'delete' || !adds) return 'delete';
  return deletes ? 'update' : 'append';
}
