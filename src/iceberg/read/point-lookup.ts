/**
 * Point lookups on cached small files: a FileScanTask whose pushed filter has an equality (`col = v` or
 * `col IN (…)`) on an indexable column, over a small file whose row groups are all held decoded in the
 * file cache, is answered through the column's hash index (point-index.ts) — or, for a big row group sorted
 * by that column, a binary search (sorted-probe.ts) — instead of judging the filter on every row; a row group
 * without candidates needs only its key column cached. The other conjuncts are then judged on the few rows the index found. Anything else — an
 * uncached row group, equality deletes, row lineage columns, a file without field ids — answers null and
 * the caller reads the task as before (file-scan-task-reader.ts).
 *
 * The answer is the late-materialization path's (late-materialization.ts): the same rows in file order,
 * position deletes applied, and the same ScanMetrics counters (row groups, rows decoded, late rows, file
 * cache lookups), so EXPLAIN ANALYZE reads the same. `SET lakegate.point_index = off` (or the environment
 * LAKEGATE_POINT_INDEX=off) turns it off.
 */
import type { Batch } from '../../common/batch.ts';
import type { SessionView } from '../../catalog/session-view.ts';
import { settingFlagOn } from '../../common/env-settings.ts';
import type { IcebergIO } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { DataFile } from '../spec/manifest.ts';
import type { NestedField, PrimitiveType } from '../spec/schema.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { isRowLineageField } from '../lineage/row-lineage-columns.ts';
import type { DeleteLoader } from './delete-loader.ts';
import { missingValueOf } from './file-scan-task-reader.ts';
import { cachedRowGroup, fileCacheKey, isSmallFile, type CachedRowGroup } from './file-cache.ts';
import { cachedParquetFooter, readParquetFooter, type ParquetFooter } from './parquet-footer.ts';
import { valuesAtRows, type LateHistory, type LateMetrics } from './late-materialization.ts';
import type { CacheMetrics } from './parquet-source.ts';
import type { ParquetReadOptions } from './parquet-reader.ts';
import { INDEXABLE_TYPES, pointIndexOf, probePointIndex } from './point-index.ts';
import { probeSorted, SORTED_PROBE_MIN_ROWS } from './sorted-probe.ts';

/** the conjunct a lookup probes: the field and the values it equals */
export interface PointKey {
  readonly fieldId: number;
  readonly type: PrimitiveType;
  readonly values: readonly unknown[];
  /** the filter is this conjunct alone (no other test on the rows the index finds) */
  readonly only: boolean;
}

/**
 * an IN list longer than this is a join's runtime key filter (exec/runtime-key-filter.ts: thousands of keys),
 * not a lookup: the scan workers judge it on every row in parallel, as a bitmap or set. As a lookup it kept the
 * scan on this thread (iceberg-table-source.ts pointLookupHere) reading uncached files one by one, with a
 * probe per key per row group (TPC-H SF 1 q3's orders scan and q22's, with 30,000 and 19,000 customer keys)
 */
export const MAX_POINT_KEYS = 256;

/** The equality conjunct of a pushed (rows-bound) filter that an index can answer, or null. */
export function pointKeyOf(filter: BoundPredicate): PointKey | null {
  const conjuncts = filter.kind === 'and' ? filter.args : [filter];
  for (const c of conjuncts) {
    if (c.kind !== 'compare' && c.kind !== 'in') continue;
    if (c.kind === 'in' && c.values.length > MAX_POINT_KEYS) continue;
    if (c.padded === true || !INDEXABLE_TYPES.has(c.type.name)) continue;
    if (c.kind === 'compare' && c.op !== '=') continue;
    return { fieldId: c.fieldId, type: c.type, values: c.kind === 'in' ? c.values : [c.value], only: conjuncts.length === 1 };
  }
  return null;
}

export const POINT_INDEX_SETTING = 'lakegate.point_index';

export function pointIndexOn(session: Pick<SessionView, 'getSetting'> | undefined): boolean {
  return settingFlagOn(session?.getSetting(POINT_INDEX_SETTING, true), 'LAKEGATE_POINT_INDEX');
}

export interface PointLookupOptions {
  readonly metrics?: ParquetReadOptions['metrics'];
  /** the scan's late-materialization history (updated as late-materialization.ts does) */
  readonly lateHistory?: LateHistory;
}

type Metrics = NonNullable<PointLookupOptions['metrics']>;
const add = (m: Metrics | undefined, k: keyof LateMetrics | keyof CacheMetrics, n: number): void => {
  if (m) m[k] = (m[k] ?? 0) + n;
};

/**
 * The task's rows (projected `fields`) that may match `filter`, or null when the index cannot answer
 * (nothing was counted then). `key` is pointKeyOf(filter). A promise only when the footer or position
 * deletes must be read first.
 */
export function pointLookup(io: IcebergIO, task: FileScanTask, fields: readonly NestedField[], filter: BoundPredicate, key: PointKey, deletes: DeleteLoader, options: PointLookupOptions = {}): Batch[] | null | Promise<Batch[] | null> {
  const file = task.file;
  const size = Number(file.fileSizeInBytes);
  if (task.equalityDeletes.length > 0 || file.fileFormat !== 'PARQUET' || !isSmallFile(size) || fields.some(isRowLineageField)) return null;
  const uri = file.filePath;
  // the usual case answers synchronously: footer cached (planning read it) and no delete file to load
  const footer = cachedFooterOf(file);
  if (footer !== undefined && task.positionDeletes.length === 0) return lookupIn(footer, NO_DELETES, task, fields, filter, key, deletes, options);
  return (async () => {
    const deleted = new Set<number>();
    for (const d of task.positionDeletes) for (const p of await deletes.positionsFor(d.file, uri)) deleted.add(p);
    return lookupIn(footer ?? await readParquetFooter(io, uri, size), deleted, task, fields, filter, key, deletes, options);
  })();
}

const NO_DELETES: ReadonlySet<number> = new Set();

/** footers of small files found in the footer cache, by data file: a repeated lookup builds no cache key */
const footers = new WeakMap<DataFile, ParquetFooter>();

/** cachedParquetFooter of a data file (kept per DataFile object once found; footers of a path never change) */
export function cachedFooterOf(file: DataFile): ParquetFooter | undefined {
  let footer = footers.get(file);
  if (footer === undefined) {
    const size = Number(file.fileSizeInBytes);
    footer = cachedParquetFooter(file.filePath, size);
    if (footer !== undefined && isSmallFile(size)) footers.set(file, footer);
  }
  return footer;
}

/** pointLookup over the file's footer, with its deleted row positions */
function lookupIn(footer: ParquetFooter, deleted: ReadonlySet<number>, task: FileScanTask, fields: readonly NestedField[], filter: BoundPredicate, key: PointKey, deletes: DeleteLoader, options: PointLookupOptions): Batch[] | null {
  const uri = task.file.filePath, size = Number(task.file.fileSizeInBytes);
  const layout = layoutOf(footer);
  const { nameById, starts } = layout;
  const keyName = nameById?.get(key.fieldId);
  if (nameById === null || keyName === undefined) return null;
  const columns = requestsOf(layout, nameById, fields, filter, key, deletes);
  if (columns === null) return null;
  const { requests, filterNames, otherNames } = columns;
  const fileKey = fileCacheKey(uri, size);
  const groups = task.rowGroups ?? layout.allRowGroups;
  // every row group must be cached with its key column and probed by a sorted search or the index, and one with
  // candidate rows with every column asked: else the usual read
  const entries: { rg: number; entry: CachedRowGroup; rows: number[] }[] = [];
  for (const rg of groups) {
    const entry = cachedRowGroup(fileKey, rg);
    const keyData = entry?.columns.get(keyName);
    if (entry === undefined || keyData === undefined) return null;
    // a big row group sorted by the key: binary search, no index in the cache (sorted-probe.ts)
    let rows = footer.rowGroups[rg]!.numRows >= SORTED_PROBE_MIN_ROWS ? probeSorted(keyData, key.type, key.values) : null;
    if (rows === null) {
      const index = pointIndexOf(fileKey, rg, entry, keyName, key.type, uri);
      if (index === undefined) return null;
      rows = probePointIndex(index, key.values);
    }
    if (rows.length > 0) {
      for (let i = 0; i < filterNames.length; i++) if (!entry.columns.has(filterNames[i]!)) return null;
      for (let i = 0; i < otherNames.length; i++) if (!entry.columns.has(otherNames[i]!)) return null;
    }
    entries.push({ rg, entry, rows });
  }
  const test = key.only ? null : compileRowTest(filter, columns.columnOfField);
  const m = options.metrics;
  if (m) m.rowGroupsTotal += footer.rowGroups.length;
  const out: Batch[] = [];
  for (const { rg, entry, rows: candidates } of entries) {
    const rows = footer.rowGroups[rg]!.numRows;
    // late materialization's counters and history for this row group (both phases answered by the cache)
    const h = options.lateHistory;
    const oneRead = h !== undefined && h.rowGroups >= 2 && h.matched * 2 > h.rowGroups && otherNames.length > 0;
    const firstLookups = filterNames.length + (oneRead ? otherNames.length : 0);
    if (m) {
      m.rowGroupsScanned++;
      m.rowsDecoded += rows;
    }
    add(m, 'fileCacheLookups', firstLookups);
    add(m, 'fileCacheHits', firstLookups);
    const picked = pick(entry, candidates, requests, nameById, test, task, uri);
    add(m, 'lateRowGroups', 1);
    add(m, 'lateRowsTotal', rows);
    if (h) {
      h.rowGroups++;
      if (picked.length > 0) h.matched++;
    }
    if (picked.length === 0) continue;
    add(m, 'lateRowGroupsMatched', 1);
    add(m, 'lateRowsMaterialized', picked.length);
    if (!oneRead) {
      add(m, 'fileCacheLookups', otherNames.length);
      add(m, 'fileCacheHits', otherNames.length);
    }
    const base = starts[rg]!;
    const kept = deleted.size === 0 ? picked : picked.filter((r) => !deleted.has(base + r));
    if (kept.length === 0) continue;
    out.push({ length: kept.length, columns: fields.map((f) => columnAt(entry, nameById.get(f.id), f, kept, task, uri)) });
  }
  return out;
}

/** the columns a lookup reads: what readFileScanTask requests — projected fields, then filter fields not projected */
interface Requests {
  readonly requests: readonly NestedField[];
  /** Parquet names of the filter's columns, and of the other requested columns */
  readonly filterNames: readonly string[];
  readonly otherNames: readonly string[];
  /** position in `requests` by field id (the row test's columns) */
  readonly columnOfField: ReadonlyMap<number, number>;
}

/**
 * Requests by file layout, projected fields and the filter's field ids (the key's id alone when the filter is
 * the key's conjunct), derived once: a repeated lookup builds no arrays or sets. Null: a filter field is unknown.
 */
const requestsKept = new WeakMap<FileLayout, WeakMap<readonly NestedField[], Map<number | string, Requests | null>>>();

function requestsOf(layout: FileLayout, nameById: ReadonlyMap<number, string>, fields: readonly NestedField[], filter: BoundPredicate, key: PointKey, deletes: DeleteLoader): Requests | null {
  const filterIds = key.only ? null : referencedFieldIds(filter);
  const idsKey = filterIds === null ? key.fieldId : [...filterIds].sort((a, b) => a - b).join(',');
  let byFields = requestsKept.get(layout);
  if (byFields === undefined) requestsKept.set(layout, (byFields = new WeakMap()));
  let byIds = byFields.get(fields);
  if (byIds === undefined) byFields.set(fields, (byIds = new Map()));
  let kept = byIds.get(idsKey);
  if (kept === undefined && !byIds.has(idsKey)) {
    kept = buildRequests(nameById, fields, filterIds ?? new Set([key.fieldId]), deletes);
    byIds.set(idsKey, kept);
  }
  return kept ?? null;
}

function buildRequests(nameById: ReadonlyMap<number, string>, fields: readonly NestedField[], filterIds: ReadonlySet<number>, deletes: DeleteLoader): Requests | null {
  const requests: NestedField[] = [...fields];
  for (const id of filterIds) {
    if (requests.some((f) => f.id === id)) continue;
    const field = deletes.fieldById(id);
    if (field === undefined) return null;
    requests.push(field);
  }
  const filterNames = new Set<string>(), otherNames = new Set<string>();
  for (const f of requests) {
    const name = nameById.get(f.id);
    if (name !== undefined) (filterIds.has(f.id) ? filterNames : otherNames).add(name);
  }
  for (const n of filterNames) otherNames.delete(n);
  return { requests, filterNames: [...filterNames], otherNames: [...otherNames], columnOfField: new Map(requests.map((f, i) => [f.id, i])) };
}

interface FileLayout {
  /** Parquet column name by field id; null when a top-level column has no field id (name mapping applies) */
  readonly nameById: ReadonlyMap<number, string> | null;
  /** file row position of each row group's first row */
  readonly starts: readonly number[];
  /** every row group's index */
  readonly allRowGroups: readonly number[];
}

const layouts = new WeakMap<ParquetFooter, FileLayout>();

/** what a lookup needs of a footer, derived once per (cached) footer */
function layoutOf(footer: ParquetFooter): FileLayout {
  let layout = layouts.get(footer);
  if (layout === undefined) {
    const nameById = new Map<number, string>();
    for (const f of footer.topLevel) if (f.fieldId !== null) nameById.set(f.fieldId, f.name);
    const starts: number[] = [];
    for (let rg = 0, at = 0; rg < footer.rowGroups.length; rg++) {
      starts.push(at);
      at += footer.rowGroups[rg]!.numRows;
    }
    layout = { nameById: footer.topLevel.some((f) => f.fieldId === null) ? null : nameById, starts, allRowGroups: footer.rowGroups.map((_r, i) => i) };
    layouts.set(footer, layout);
  }
  return layout;
}

/** the candidates (row offsets in the row group) that pass the rest of the filter */
function pick(entry: CachedRowGroup, candidates: number[], requests: readonly NestedField[], nameById: ReadonlyMap<number, string>, test: ReturnType<typeof compileRowTest>, task: FileScanTask, uri: string): number[] {
  if (test === null || candidates.length === 0) return candidates;
  const cols = requests.map((f) => columnAt(entry, nameById.get(f.id), f, candidates, task, uri));
  return candidates.filter((_r, i) => test(cols, i));
}

/** values of one column at row offsets `rows` (ascending) of a cached row group */
function columnAt(entry: CachedRowGroup, name: string | undefined, field: NestedField, rows: readonly number[], task: FileScanTask, uri: string): unknown[] {
  const data = name === undefined ? undefined : entry.columns.get(name);
  if (data === undefined) return new Array<unknown>(rows.length).fill(missingValueOf(field, task));
  const out: unknown[] = [];
  let b = 0, start = 0;
  for (let i = 0; i < rows.length && b < entry.batchLengths.length;) {
    const len = entry.batchLengths[b]!;
    const local: number[] = [];
    for (; i < rows.length && rows[i]! < start + len; i++) local.push(rows[i]! - start);
    if (local.length > 0) for (const v of valuesAtRows(data[b]!, field.type, uri, local, len)) out.push(v);
    start += len;
    b++;
  }
  return out;
}
