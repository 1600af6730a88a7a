/**
 * The live rows of one snapshot whose key a statement's new rows also have (key-check.ts), found without
 * reading the table: the new keys become a pruning predicate — their values as an IN list (up to
 * IN_LIST_MAX distinct values per key column), else their range — so the scan planner (scan/table-scan.ts)
 * keeps only the data files whose partition values and column bounds can hold one of them, and Parquet
 * row-group statistics (read/row-group-stats.ts) only their row groups; then the normal reader
 * (read/file-scan-task-reader.ts, delete files applied, the predicate applied by late materialization and the
 * page index) reads just the key columns of those, and each row left is probed against the new keys. Rows the statement itself deletes (UPDATE, MERGE) are passed over by their
 * (data file, position).
 */
import type { IcebergIO } from '../io.ts';
import { readFileScanTask } from '../read/file-scan-task-reader.ts';
import { DeleteLoader } from '../read/delete-loader.ts';
import { readParquetFooter } from '../read/parquet-footer.ts';
import { selectRowGroups } from '../read/row-group-stats.ts';
import { and, normalizeValue, TRUE, type BoundPredicate } from '../scan/bound-predicate.ts';
import { planScan, type FileScanTask } from '../scan/table-scan.ts';
import { indexById, type NestedField, type PrimitiveType } from '../spec/schema.ts';
import { findSnapshot, type TableMetadata } from '../spec/table-metadata.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { KeyCollector } from './key-collector.ts';

/** distinct new values per key column sent to the planner as an IN list (more: their range) */
export const IN_LIST_MAX = 4096;

/** what a probe read, for tests and reports */
export interface KeyProbeStats {
  filesTotal: number;
  filesRead: number;
  rowGroupsRead: number;
  rowsRead: number;
}

const ORDERED = new Set(['int', 'long', 'float', 'double', 'decimal', 'date', 'time', 'timestamp', 'timestamptz', 'string', 'binary', 'uuid']);

/** a pruning predicate the live rows with one of the new keys satisfy (TRUE when none can be said) */
export function keyPredicate(keys: KeyCollector): BoundPredicate {
  const parts: BoundPredicate[] = [];
  keys.key.columns.forEach((c, k) => {
    const type = c.field.type;
    // char(n), json, jsonb: the SQL `=` is not the stored value's order (bound-predicate.ts `comparable`)
    if (c.sqlType.oid === Oid.bpchar || c.sqlType.oid === Oid.json || c.sqlType.oid === Oid.jsonb || !ORDERED.has(type.name) || type.name === 'uuid') return;
    const values = keys.distinctValues(k, IN_LIST_MAX);
    if (values !== null) {
      const normalized = values.map((v) => normalizeValue(type, v));
      if (normalized.some((v) => v === undefined)) return;
      parts.push({ kind: 'in', fieldId: c.field.id, type, values: normalized });
      return;
    }
    const range = keys.range(k);
    if (range === null) return;
    parts.push({ kind: 'compare', op: '>=', fieldId: c.field.id, type, value: range[0] });
    parts.push({ kind: 'compare', op: '<=', fieldId: c.field.id, type, value: range[1] });
  });
  return parts.length === 0 ? TRUE : and(parts);
}

export interface ProbeOptions {
  readonly signal?: AbortSignal;
  /** rows the statement deletes: (data file path) → positions */
  readonly deleted?: ReadonlyMap<string, readonly bigint[]>;
  /** look only in these data files (by path): a re-applied transaction's keys against concurrently added files */
  readonly onlyFiles?: ReadonlySet<string>;
}

/**
 * marks in each collector the new keys live rows of `md`'s current snapshot have (KeyCollector.probe);
 * collectors whose statement added no keyed row are passed over
 */
export async function probeExistingKeys(io: IcebergIO, md: TableMetadata, collectors: readonly KeyCollector[], options: ProbeOptions = {}): Promise<KeyProbeStats> {
  const stats: KeyProbeStats = { filesTotal: 0, filesRead: 0, rowGroupsRead: 0, rowsRead: 0 };
  const snapshot = findSnapshot(md, null);
  if (snapshot === null || snapshot.summary['total-records'] === '0') return stats;
  const byId = new Map<number, NestedField>();
  for (const s of md.schemas) for (const [id, f] of indexById(s)) byId.set(id, f);
  const deletes = new DeleteLoader(io, (id) => byId.get(id));
  const deleted = options.deleted;
  const deletedSets = new Map<string, Set<bigint>>();
  if (deleted !== undefined) for (const [p, list] of deleted) deletedSets.set(p, new Set(list));
  for (const keys of collectors) {
    keys.clearExisting();
    if (keys.keyed === 0) continue;
    const filter = keyPredicate(keys);
    const plan = await planScan(io, md, snapshot.snapshotId, { filter });
    stats.filesTotal += plan.counters.filesTotal;
    const fields = keys.key.columns.map((c) => byId.get(c.field.id) ?? c.field);
    const typeOf = (id: number): PrimitiveType | undefined => {
      const f = byId.get(id);
      return f?.type.kind === 'primitive' ? f.type : undefined;
    };
    for (const planned of plan.tasks) {
      options.signal?.throwIfAborted();
      if (options.onlyFiles !== undefined && !options.onlyFiles.has(planned.file.filePath)) continue;
      let task: FileScanTask = planned;
      if (filter.kind !== 'true') {
        const footer = await readParquetFooter(io, task.file.filePath, Number(task.file.fileSizeInBytes));
        const rowGroups = selectRowGroups(footer, filter, typeOf);
        if (rowGroups.length === 0) continue;
        if (rowGroups.length < footer.rowGroups.length) task = { ...task, rowGroups };
        stats.rowGroupsRead += rowGroups.length;
      }
      stats.filesRead++;
      const skip = deletedSets.get(task.file.filePath);
      const width = fields.length;
      const row = new Array<unknown>(width);
      // the key predicate also drives late materialization: the page index skips pages without a new key
      const read = { ...(options.signal === undefined ? {} : { signal: options.signal }), rowIds: skip !== undefined, ...(filter.kind === 'true' ? {} : { filter }) };
      for await (const b of readFileScanTask(io, task, fields, deletes, read)) {
        stats.rowsRead += b.length;
        const cols = b.columns;
        const pos = skip === undefined ? null : cols[width + 1]!;
        for (let i = 0; i < b.length; i++) {
          if (pos !== null && skip!.has(pos[i] as bigint)) continue;
          for (let k = 0; k < width; k++) row[k] = cols[k]![i];
          keys.probe(row);
        }
      }
    }
  }
  return stats;
}
