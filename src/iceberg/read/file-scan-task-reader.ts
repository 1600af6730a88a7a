/**
 * Reads one FileScanTask into lakegate Batches: the projected schema fields by field id (renames are free),
 * fields missing from the file from the identity partition value, v3 initial-default or NULL, then drops
 * rows hit by position deletes (file_path + pos) and equality deletes (tuple over equality_ids).
 * Only the task's `rowGroups` are read when the planner chose some (row-group pruning), and only its `rowRange`
 * when it is a piece of a row group cut across scan workers.
 */
import type { Batch } from '../../common/batch.ts';
import type { IcebergIO } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { NestedField } from '../spec/schema.ts';
import { fromAvroValue, fromJsonSingleValue } from '../spec/types.ts';
import { parquetReadOptions, readParquetColumns, type ColumnChunk, type ParquetColumnRequest, type ParquetReadOptions } from './parquet-reader.ts';
import { tupleKey, type DeleteLoader, type EqualityDeleteSet } from './delete-loader.ts';
import { rowLineageFiller } from '../lineage/row-lineage-columns.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import { compileRowTest, type RowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect, type ArrowRowSelect } from './arrow-row-filter.ts';
import type { ChunkFilter, LateHistory } from './late-materialization.ts';
import { isExact, markExact } from '../parallel/exact-rows.ts';
import { unprovedPart, unreadRequestIndexes, withUnreadColumns, withoutIndexes } from './file-proved-filter.ts';
import { attachLazyScaled, attachScaledLike, isSparseNumerics, scaledColumnOf, sparseLazyNumerics } from '../../common/pgtypes/numeric-column.ts';

/** The value a field takes in a file that lacks it (§ Column Projection). */
export function missingValueOf(field: NestedField, task: FileScanTask): unknown {
  const identity = task.spec.fields.find((p) => p.transform === 'identity' && p.sourceId === field.id);
  if (identity && task.file.partition.has(identity.fieldId)) return fromAvroValue(field.type, task.file.partition.get(identity.fieldId));
  if (field.initialDefault !== undefined) return fromJsonSingleValue(field.type, field.initialDefault);
  return null;
}

export interface FileScanTaskReadOptions {
  readonly signal?: AbortSignal;
  /** row groups / bytes / rows read are added here (a worker passes its own and sends it back) */
  readonly metrics?: ParquetReadOptions['metrics'];
  /**
   * UPDATE / DELETE (commit/row-id-scan.ts): two more trailing columns naming each row — its data file path
   * (text) and its 0-based row position in that file (int8, § Position Delete Files `pos`)
   */
  readonly rowIds?: boolean;
  /**
   * the pushed filters, applied by late materialization (late-materialization.ts): rows that certainly fail
   * them are dropped before the other columns are converted (the executor still evaluates WHERE)
   */
  readonly filter?: BoundPredicate;
  /** late materialization's record of the scan's row groups with matches (one per scan, across its files) */
  readonly lateHistory?: LateHistory;
  /**
   * field ids whose values no reader of an exactly judged batch looks at (late-materialization.ts
   * ChunkFilter.unreadWhenExact; filled by the scan worker's partial aggregate before the first batch is pulled)
   */
  readonly unreadWhenExact?: ReadonlySet<number>;
}

export async function* readFileScanTask(
  io: IcebergIO,
  task: FileScanTask,
  fields: readonly NestedField[],
  deletes: DeleteLoader,
  options: FileScanTaskReadOptions = {},
): AsyncGenerator<Batch> {
  const { signal, metrics, rowIds = false } = options;
  const path = task.file.filePath;
  const deleted = new Set<number>();
  for (const d of task.positionDeletes) for (const p of await deletes.positionsFor(d.file, path)) deleted.add(p);
  const eqSets = await Promise.all(task.equalityDeletes.map((d) => deletes.equalitySet(d.file)));

  // equality columns are read even when not projected, then dropped
  const requests: ParquetColumnRequest[] = fields.map((f) => ({ fieldId: f.id, type: f.type, missingValue: missingValueOf(f, task) }));
  const indexOfId = new Map(fields.map((f, i) => [f.id, i]));
  for (const s of eqSets) {
    for (const id of s.fieldIds) {
      if (indexOfId.has(id)) continue;
      const field = deletes.fieldById(id);
      if (!field) continue;
      indexOfId.set(id, requests.length);
      requests.push({ fieldId: id, type: field.type, missingValue: missingValueOf(field, task) });
    }
  }
  const eqCols = eqSets.map((s) => s.fieldIds.map((id) => indexOfId.get(id)!));
  // conjuncts the file's metadata proves for every row are not judged; when it proves them all, its rows are exact
  // as they are (file-proved-filter.ts)
  const rest = options.filter === undefined ? undefined : unprovedPart(options.filter, task);
  const proved = rest === null;
  // filter columns too (a pushed filter may name a column the scan does not project)
  let chunkFilter: ChunkFilter | undefined;
  if (rest !== undefined && rest !== null) {
    for (const id of referencedFieldIds(rest)) {
      if (indexOfId.has(id)) continue;
      const field = fields.find((f) => f.id === id) ?? deletes.fieldById(id);
      if (!field) continue;
      indexOfId.set(id, requests.length);
      requests.push({ fieldId: id, type: field.type, missingValue: missingValueOf(field, task) });
    }
    chunkFilter = chunkFilterOf(rest, indexOfId, options.lateHistory);
  }

  const lineage = rowLineageFiller(requests, task);
  // only rows the filter alone decides: delete files and row ids read the columns of the rows they keep
  if (chunkFilter !== undefined && options.unreadWhenExact !== undefined && options.unreadWhenExact.size > 0 && deleted.size === 0 && eqSets.length === 0 && lineage === null && !rowIds) {
    chunkFilter = withUnreadWhenExact(chunkFilter, options.unreadWhenExact);
  }
  const kept: ChunkRows = { path, deleted, eqSets, eqCols, rowRange: task.rowRange, width: fields.length, rowIds };
  // a proved file's columns nobody reads on exact batches are not read at all (same conditions as unreadWhenExact above)
  const unreadAt = proved && deleted.size === 0 && eqSets.length === 0 && lineage === null && !rowIds ? unreadRequestIndexes(fields, options.unreadWhenExact) : [];
  const read = withoutIndexes(requests, unreadAt);
  // the options in one shape (parquetReadOptions: why)
  const readOptions = parquetReadOptions(task.rowGroups, task.rowRange, metrics, task.nameMapping, chunkFilter);
  for await (const piece of readParquetColumns({ io, size: Number(task.file.fileSizeInBytes) }, path, read, readOptions)) {
    signal?.throwIfAborted();
    const chunk = withUnreadColumns(piece, unreadAt);
    lineage?.(chunk); // v3 _row_id / _last_updated_sequence_number: inherited values (lineage/row-lineage-columns.ts)
    if (proved) markExact(chunk);
    const batch = batchOfChunk(chunk, kept);
    if (batch !== null) yield batch;
  }
}

/** late materialization's filter for `filter` over the requests at `indexOfId`, or undefined when it cannot run it */
function chunkFilterOf(filter: BoundPredicate, indexOfId: ReadonlyMap<number, number>, history: LateHistory | undefined): ChunkFilter | undefined {
  const test = compileRowTest(filter, indexOfId);
  if (test === null) return undefined;
  const columns = [...referencedFieldIds(filter)].flatMap((id) => indexOfId.get(id) ?? []);
  const lead = leadColumnOf(filter, indexOfId);
  return new ScanChunkFilter(columns, filter, lead === null ? undefined : [lead], history, compileArrowSelect(filter, indexOfId) ?? undefined, test, undefined);
}

/** `f` with `unreadWhenExact` set (the same class: one shape) */
function withUnreadWhenExact(f: ChunkFilter, unread: ReadonlySet<number>): ChunkFilter {
  return f instanceof ScanChunkFilter ? new ScanChunkFilter(f.columns, f.predicate, f.lead, f.history, f.selectArrow, f.test, unread) : { ...f, unreadWhenExact: unread };
}

/**
 * A ChunkFilter in one shape, every field set in the constructor (undefined when absent): built from optional
 * spreads it came in up to eight shapes by query (lead, history, selectArrow, unreadWhenExact), each new one a
 * "wrong map" deopt of the late-materialization steps that read it (readRowGroupLate, judgeBatch)
 */
class ScanChunkFilter implements ChunkFilter {
  constructor(
    readonly columns: readonly number[],
    readonly predicate: BoundPredicate,
    readonly lead: readonly number[] | undefined,
    readonly history: LateHistory | undefined,
    readonly selectArrow: ArrowRowSelect | undefined,
    readonly test: RowTest,
    readonly unreadWhenExact: ReadonlySet<number> | undefined,
  ) {}

  select(cols: readonly (readonly unknown[] | undefined)[], length: number): number[] {
    return selectRows(this.test, cols, length);
  }
}

/** the rows of `length` that `test` keeps (module level: a loop of its own, out of the select method) */
function selectRows(test: RowTest, cols: readonly (readonly unknown[] | undefined)[], length: number): number[] {
  const keep: number[] = [];
  for (let r = 0; r < length; r++) if (test(cols as readonly (readonly unknown[])[], r)) keep.push(r);
  return keep;
}

/** what readFileScanTask keeps of each chunk: the same for every chunk of a file */
export interface ChunkRows {
  readonly path: string;
  /** position-deleted rows of the file */
  readonly deleted: ReadonlySet<number>;
  readonly eqSets: readonly EqualityDeleteSet[];
  /** the request index of each equality set's columns */
  readonly eqCols: readonly (readonly number[])[];
  /** the task's file rows [from, to) when it is a piece of a row group (row-group-splits.ts) */
  readonly rowRange: readonly [number, number] | undefined;
  /** the projected fields' count: later columns (equality and filter columns) are dropped */
  readonly width: number;
  readonly rowIds: boolean;
}

/**
 * The task's batch of `chunk`, or null when no row is left: rows hit by deletes or outside the task's row range
 * dropped, the projected columns only, row ids appended. Synchronous and out of readFileScanTask, an async
 * generator V8 re-optimizes whole on each of its deopts (why: late-batch-steps.ts).
 */
export function batchOfChunk(chunk: ColumnChunk, k: ChunkRows): Batch | null {
  let keep: number[] | null = null;
  const at = chunk.positions;
  // the reader may hand back whole batches around a row range's ends: rows outside it are another task's
  const outside = k.rowRange !== undefined && !withinRange(chunk, k.rowRange);
  const { deleted, eqSets, eqCols } = k;
  if (deleted.size > 0 || eqSets.length > 0 || outside) {
    const from = outside ? k.rowRange![0] : -Infinity, to = outside ? k.rowRange![1] : Infinity;
    keep = [];
    rows: for (let r = 0; r < chunk.length; r++) {
      const p = at === undefined ? chunk.firstRowPosition + r : at[r]!;
      if (p < from || p >= to || deleted.has(p)) continue;
      for (let s = 0; s < eqSets.length; s++) {
        if (eqSets[s]!.keys.has(tupleKey(eqCols[s]!.map((c) => chunk.columns[c]![r])))) continue rows;
      }
      keep.push(r);
    }
  }
  const rows = keep;
  if (rows !== null && rows.length === 0) return null;
  const length = rows === null ? chunk.length : rows.length;
  const cols = chunk.columns.slice(0, k.width); // a copy: the row-id columns may be appended
  const out = rows === null ? cols : cols.map((c) => pickRows(c, rows));
  if (k.rowIds) {
    const first = chunk.firstRowPosition;
    const pos = (r: number): number => (at === undefined ? first + r : at[r]!);
    out.push(new Array<unknown>(length).fill(k.path), Array.from({ length }, (_, i) => BigInt(pos(rows === null ? i : rows[i]!))));
  }
  const batch: Batch = { length, columns: out };
  // rows of a chunk whose pushed filter was judged exactly (late materialization) keep that verdict: deletes only drop rows
  return isExact(chunk) ? markExact(batch) : batch;
}

/** whether every row of `chunk` lies in the file rows [from, to) (positions ascend) */
function withinRange(chunk: ColumnChunk, [from, to]: readonly [number, number]): boolean {
  if (chunk.length === 0) return true;
  const at = chunk.positions;
  const first = at === undefined ? chunk.firstRowPosition : at[0]!;
  const last = at === undefined ? chunk.firstRowPosition + chunk.length - 1 : at[chunk.length - 1]!;
  return first >= from && last < to;
}

/**
 * rows `rows` of column `c`, keeping what its maker attached beside it: a decimal column's exact doubles
 * (numeric-column.ts; the vector kernels read them instead of each Numeric), lazy or not — so a worker's
 * partial aggregate keeps its decimals lazy over position deletes and deletion vectors too (partial-aggregate-
 * exec.ts scaledOnlyFields); a plain pick would hand on LAZY_NUMERIC placeholders without their doubles
 */
export function pickRows(c: readonly unknown[], rows: readonly number[]): unknown[] {
  const scaled = scaledColumnOf(c);
  // a sparse lazy column has no element to copy (any index read throws): its pick is sparse and lazy too
  const sparse = scaled !== undefined && isSparseNumerics(c);
  const out = sparse ? sparseLazyNumerics(rows.length) : rows.map((r) => c[r]);
  if (scaled !== undefined) {
    const f = new Float64Array(rows.length);
    for (let k = 0; k < rows.length; k++) f[k] = scaled.f[rows[k]!]!;
    if (sparse) attachLazyScaled(out, f, scaled.scale, true);
    else attachScaledLike(out, f, scaled);
  }
  return out;
}

const LEAD_TYPES = new Set(['int', 'long', 'date']);

/**
 * the request index of the column of the filter's selective integer conjunct — an IN list (a join's runtime key
 * filter) or `=` in its top-level AND next to conjuncts on other columns — or null (late-materialization.ts
 * decodes and judges it before the other filter columns)
 */
function leadColumnOf(filter: BoundPredicate, indexOfId: ReadonlyMap<number, number>): number | null {
  if (filter.kind !== 'and') return null;
  let lead: number | null = null;
  for (const c of filter.args) {
    if ((c.kind === 'in' || (c.kind === 'compare' && c.op === '=')) && LEAD_TYPES.has(c.type.name)) {
      const at = indexOfId.get(c.fieldId);
      if (at !== undefined && (lead === null || c.kind === 'in')) lead = at;
    }
  }
  if (lead === null) return null;
  // worth it only when some conjunct reads another column
  const ids = referencedFieldIds(filter);
  return ids.size > 1 ? lead : null;
}
