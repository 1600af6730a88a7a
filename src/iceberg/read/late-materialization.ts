/**
 * Late materialization of one row group under pushed filters: decode the columns the filter reads first,
 * evaluate it on them, and decode the other requested columns only when some row may match — converting
 * just those rows to JS values. A row group without matches costs its filter columns alone (the point
 * lookup `WHERE o_orderkey = k` over files that each span the whole key range reads one column chunk per
 * file instead of nine). parquet-wasm 0.8 reads whole column chunks of a row group (no row selection, page
 * index or bloom filters through its API), so the saving is in the chunks not fetched, the pages not
 * decoded and the values not converted. Once most row groups of a scan had matches, each row group is
 * decoded in one read and only the conversion stays late (LateHistory).
 *
 * With the page index's row ranges (page-index-pruner.ts), batches outside them are not evaluated at all.
 * With the JS decoder, a runtime key filter's column (ChunkFilter.lead) is decoded and judged before the other
 * filter columns, which are then decoded only at the rows it kept (leadFirst).
 *
 * The chunks yielded hold only the rows that may match, with their file row positions (`positions`) for
 * position deletes. The filter is inexact (catalog/table-source.ts): the executor evaluates WHERE again.
 */
import { pgError } from '../../common/errors.ts';
import { settingFlagOn } from '../../common/env-settings.ts';
import type { ScanMetrics } from '../../catalog/table-source.ts';
import type { SessionView } from '../../catalog/session-view.ts';
import { arrowColumns, chunkOfPart, judgeBatch, latePhases, selection, type BatchAt } from './late-batch-steps.ts';
import { ROWS_PER_BATCH, type DecodedRowGroup } from './row-group-decode.ts';
import type { ColumnChunk, ParquetColumnRequest } from './parquet-reader.ts';
import type { ParquetSource } from './parquet-source.ts';
import type { ArrowRowSelect } from './arrow-row-filter.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import type { RowRanges } from './page-row-ranges.ts';

export { valuesAtRows } from './late-batch-steps.ts';

/** A filter over decoded chunks, for readParquetColumns' late materialization. */
export interface ChunkFilter {
  /** indexes (into the requested columns) of the columns the filter reads */
  readonly columns: readonly number[];
  /** ascending indexes (< length) of the rows that may match; `cols[c]` holds the values of each c in `columns` */
  select(cols: readonly (readonly unknown[] | undefined)[], length: number): number[];
  /** row groups this scan filtered so far and how many had matches (shared by the files of one scan) */
  readonly history?: LateHistory;
  /**
   * the same filter on the Arrow data of the filter columns (arrow-row-filter.ts; `data[c]` for c in
   * `columns`), or null when it cannot judge them: then `select` runs on JS values
   */
  readonly selectArrow?: ArrowRowSelect;
  /** the filter as a BoundPredicate, for page-index pruning (page-index-pruner.ts); absent: no page index used */
  readonly predicate?: BoundPredicate;
  /**
   * indexes (into the requested columns) of the column of a selective conjunct of the filter's top-level AND
   * (an integer IN list — a join's runtime key filter — or `=`): with a page-selective source it is decoded and
   * judged first, and the other filter columns only at the rows it kept (staged first phase)
   */
  readonly lead?: readonly number[];
  /**
   * field ids of filter columns nobody reads from a batch the Arrow pass judged whole (`exact`): the scan worker's
   * partial aggregate skips the conjuncts that read them on such batches (exec/partial/run-fragment.ts), so
   * their values are never converted — an all-NULL column stands in (TPC-H q1's l_shipdate: 98 % of the rows)
   */
  readonly unreadWhenExact?: ReadonlySet<number>;
}

export interface LateHistory {
  rowGroups: number;
  matched: number;
}

/**
 * Whether to decode the other columns in the same read as the filter columns. A second read has a fixed cost
 * (measured: +29 % CPU over 80 files of 2,000 rows that all had matches; -23 % when a few had), which pays only
 * when row groups without matches are common: so one read once most row groups of the scan had matches.
 */
function oneReadFor(h: LateHistory | undefined): boolean {
  return h !== undefined && h.rowGroups >= 2 && h.matched * 2 > h.rowGroups;
}

export type LateMetrics = Pick<ScanMetrics, 'lateRowGroups' | 'lateRowGroupsMatched' | 'lateRowsTotal' | 'lateRowsMaterialized'>;

export interface LateRowGroupRead {
  readonly source: ParquetSource;
  readonly rg: number;
  readonly rows: number;
  /** file row position of the row group's first row */
  readonly position: number;
  readonly columns: readonly ParquetColumnRequest[];
  /** Parquet column name of each field id present in the file */
  readonly nameById: ReadonlyMap<number, string>;
  readonly idByName: ReadonlyMap<string, number>;
  readonly filter: ChunkFilter;
  readonly uri: string;
  readonly metrics?: LateMetrics;
  /**
   * the rows (within the row group) that may match by the page index (page-row-ranges.ts): batches outside
   * them are not evaluated; absent: every row
   */
  readonly rowRanges?: RowRanges;
  /**
   * the rows [start, end) of the row group this read is for (a piece of a row group cut across scan workers:
   * row-group-splits.ts; `rowRanges` lies within it): a page-selective source decodes only their pages
   */
  readonly span?: readonly [number, number];
}

/**
 * row group `rg`'s columns `names`, whole — or, with a span, only the pages holding its rows when the source can
 * (the JS decoder: other rows hold placeholders, which the span's reader never evaluates or returns)
 */
export async function decodeSpan(source: ParquetSource, rg: number, names: readonly string[], idByName: ReadonlyMap<string, number>, span: readonly [number, number] | undefined): Promise<DecodedRowGroup> {
  if (span === undefined || source.pageSelective !== true || source.decodeAt === undefined) return source.decode(rg, names, idByName);
  const at = new Int32Array(span[1] - span[0]);
  for (let i = 0; i < at.length; i++) at[i] = span[0] + i;
  return (await source.decodeAt(rg, names, idByName, at, span)) ?? source.decode(rg, names, idByName);
}

const add = (m: LateMetrics | undefined, k: keyof LateMetrics, n: number): void => {
  if (m) m[k] = (m[k] ?? 0) + n;
};

const mismatch = (uri: string, rg: number) => pgError('XX001', `could not read Parquet file "${uri}": row group ${rg} row count mismatch`);

/** batches of a decoded row group with their first row (or constant-only batches when nothing is decoded) */
function batchesOf(decoded: DecodedRowGroup | null, rows: number): BatchAt[] {
  const out: BatchAt[] = [];
  let start = 0;
  if (decoded === null) {
    for (; start < rows; start += ROWS_PER_BATCH) out.push({ start, length: Math.min(ROWS_PER_BATCH, rows - start), data: null });
    return out;
  }
  for (const b of decoded.batches) {
    out.push({ start, length: b.length, data: b.columns });
    start += b.length;
  }
  return out;
}

/** phase 1's answer for one batch: the rows (batch-local, ascending) that may match and their filter-column values */
export interface Selected {
  readonly start: number;
  readonly length: number;
  readonly rows: readonly number[];
  /** values of the phase-1 columns (`first` order) at `rows` (fresh arrays: they become the chunk's columns) */
  readonly vals: readonly unknown[][];
  /** the Arrow pass judged the whole filter on this batch (`complete`): every row in `rows` satisfies it exactly */
  readonly exact?: boolean;
  /**
   * `vals` indexes left unconverted (an empty array in `vals`) because the batch is exact and their column is
   * unread on exact batches (ChunkFilter.unreadWhenExact), with the conversion, for a batch that loses its
   * verdict (recut)
   */
  readonly deferred?: ReadonlyMap<number, () => unknown[]>;
}

/** `x` with its deferred columns converted (a re-cut selection carries no verdict: its columns must be real) */
function converted(x: Selected): Selected {
  if (x.deferred === undefined) return x;
  const vals = x.vals.map((v, k) => x.deferred!.get(k)?.() ?? v);
  return selection(x.start, x.length, x.rows, vals, false, undefined);
}

/** the selections of `sel` re-cut along another batching (phase 2's decode came in other batch sizes) */
export function recut(sel: readonly Selected[], batches: readonly { start: number; length: number }[], width: number): Selected[] {
  const out: Selected[] = [];
  let s = 0, at = 0;
  for (const b of batches) {
    const rows: number[] = [];
    const vals: unknown[][] = Array.from({ length: width }, () => []);
    const end = b.start + b.length;
    while (s < sel.length) {
      const x = sel[s]!;
      for (; at < x.rows.length && x.start + x.rows[at]! < end; at++) {
        rows.push(x.start + x.rows[at]! - b.start);
        for (let k = 0; k < width; k++) vals[k]!.push(x.vals[k]![at]);
      }
      if (at < x.rows.length) break;
      s++;
      at = 0;
    }
    out.push(selection(b.start, b.length, rows, vals, false, undefined));
  }
  return out;
}

/** the row-group-local rows of `sel` (ascending), `n` of them */
function pickedRows(sel: readonly Selected[], n: number): Int32Array {
  const out = new Int32Array(n);
  let k = 0;
  for (const x of sel) for (const r of x.rows) out[k++] = x.start + r;
  return out;
}

/**
 * The staged first phase (ChunkFilter.lead, page-selective sources only): the lead column decoded and judged
 * alone, then the other filter columns decoded only at the rows it kept (their pages, and in dictionary pages
 * their indices: decodeAt). Returns both as one decoded row group, with the lead's verdict per batch start
 * (1 = still in question; batches without one kept no row), or null when the filter has no lead here.
 * TPC-H q19: l_partkey against ~500 keys keeps 0.3 % of lineitem; l_quantity, l_shipmode and l_shipinstruct
 * are then read at ~60 rows a page.
 */
async function leadFirst(r: LateRowGroupRead, first: readonly number[], filterNames: ReadonlySet<string>): Promise<{ p1: DecodedRowGroup; masks: Map<number, Int32Array> } | null> {
  const { filter, columns, nameById, idByName, rg, rows } = r;
  if (filter.lead === undefined || filter.selectArrow === undefined) return null;
  const leadNames = new Set<string>();
  for (const c of filter.lead) {
    const n = nameById.get(columns[c]!.fieldId);
    if (n !== undefined) leadNames.add(n);
  }
  const rest = [...filterNames].filter((n) => !leadNames.has(n));
  if (leadNames.size === 0 || rest.length === 0) return null;
  const pa = await decodeSpan(r.source, rg, [...leadNames], idByName, r.span);
  // per batch start, the rows (batch-local, ascending) the lead kept: the later pass judges only those
  const masks = new Map<number, Int32Array>();
  let kept = 0;
  for (const b of batchesOf(pa, rows)) {
    // a batch of another piece of a row group cut across workers (a placeholder: decodeSpan)
    if (r.span !== undefined && (b.start + b.length <= r.span[0] || b.start >= r.span[1])) continue;
    if (b.data === null) return null;
    // the other filter columns are absent: only the lead's conjuncts judge (the answer is never complete)
    const res = filter.selectArrow(arrowColumns(columns, first, pa, b.data), b.length);
    if (res !== null && res.rows.length === 0) continue;
    const keep = new Int32Array(res === null ? b.length : res.rows.length);
    if (res === null) for (let i = 0; i < b.length; i++) keep[i] = i;
    else keep.set(res.rows);
    masks.set(b.start, keep);
    kept += keep.length;
  }
  const at = new Int32Array(kept);
  let k = 0;
  for (const [start, keep] of masks) for (let i = 0; i < keep.length; i++) at[k++] = start + keep[i]!;
  const pb = kept === 0 ? null : (await r.source.decodeAt!(rg, rest, idByName, at, r.span)) ?? await r.source.decode(rg, rest, idByName);
  const p1 = pb === null ? pa : joinColumns(pa, leadNames.size, pb);
  return p1 === null ? null : { p1, masks };
}

/** the columns of `b` after those of `a` (`aWidth` of them) in one decoded row group, or null when their batches differ */
function joinColumns(a: DecodedRowGroup, aWidth: number, b: DecodedRowGroup): DecodedRowGroup | null {
  if (a.batches.length !== b.batches.length || a.batches.some((x, i) => x.length !== b.batches[i]!.length)) return null;
  const colIndex = new Map(a.colIndex);
  for (const [id, i] of b.colIndex) colIndex.set(id, aWidth + i);
  // the field order of assembleRowGroup's (row-group-decode.ts): one shape for a decoded row group
  return { batches: a.batches.map((x, i) => ({ length: x.length, columns: [...x.columns, ...b.batches[i]!.columns] })), colIndex };
}

export async function* readRowGroupLate(r: LateRowGroupRead): AsyncGenerator<ColumnChunk> {
  // a short driver: the per-batch work is in late-batch-steps.ts (why: see there)
  const { columns, filter, nameById, idByName, uri, rg, rows, metrics } = r;
  const { filterNames, first, firstAt, otherNames } = latePhases(columns, filter, nameById);
  // most row groups had matches: every column in one read, only the conversion to JS values is late — unless
  // the source decodes just the pages holding the picked rows (the JS decoder), which a single read cannot
  const selective = r.source.pageSelective === true && r.source.decodeAt !== undefined;
  const oneRead = !selective && oneReadFor(filter.history) && filterNames.size > 0 && otherNames.size > 0;
  // most row groups had matches: both phases' chunks fetched in one read (the decoding stays per phase)
  if (selective && r.source.prefetch !== undefined && oneReadFor(filter.history) && filterNames.size > 0 && otherNames.size > 0) {
    await r.source.prefetch(rg, [...filterNames, ...otherNames]);
  }
  const staged = selective ? await leadFirst(r, first, filterNames) : null;
  const p1 = staged !== null ? staged.p1 : filterNames.size === 0 ? null : await decodeSpan(r.source, rg, [...filterNames, ...(oneRead ? otherNames : [])], idByName, r.span);
  const { selected, picked } = selectRows(r, first, p1, staged?.masks ?? null);
  // a piece of a row group cut across workers counts its rows, and the row group once (the piece at its start)
  const span = r.span;
  add(metrics, 'lateRowGroups', span === undefined || span[0] === 0 ? 1 : 0);
  add(metrics, 'lateRowsTotal', span === undefined ? rows : span[1] - span[0]);
  if (filter.history) {
    filter.history.rowGroups++;
    if (picked > 0) filter.history.matched++;
  }
  if (picked === 0) return;
  add(metrics, 'lateRowGroupsMatched', span === undefined || span[0] === 0 ? 1 : 0);
  add(metrics, 'lateRowsMaterialized', picked);

  // phase 2: the other columns, only the picked rows converted (and, page-selective, only their pages decoded)
  // — but not those nobody reads on exact batches when every batch came out exact (unreadInPhase2)
  const unread = unreadInPhase2(columns, filter, firstAt, selected);
  let p2 = await decodePhase2(r, oneRead ? p1 : null, selected, picked, namesWithout(otherNames, unread, columns, nameById));
  let batches = batchesOf(p2, rows);
  let parts = partsFor(selected, batches, first.length, uri, rg, rows);
  let skip = unread;
  if (skip !== null && parts.some((x) => x !== undefined && x.rows.length > 0 && x.exact !== true)) {
    // re-cut parts lost their verdict (partsFor): their rows need every column after all
    skip = null;
    p2 = await decodePhase2(r, oneRead ? p1 : null, selected, picked, otherNames);
    batches = batchesOf(p2, rows);
    parts = partsFor(selected, batches, first.length, uri, rg, rows);
  }
  for (let i = 0; i < batches.length; i++) {
    const x = parts[i];
    if (x === undefined || x.rows.length === 0) continue;
    yield chunkOfPart(columns, firstAt, p2, batches[i]!, x, uri, r.position, skip);
  }
}

/**
 * The request indexes of phase-2 columns (not the filter's) that nobody reads on exact batches
 * (ChunkFilter.unreadWhenExact), when every batch phase 1 kept rows of was judged exactly — or null. Those are
 * not decoded: all-NULL columns stand in (chunkOfPart). TPC-H q6: l_shipdate, whose year every file it reads
 * proves (file-proved-filter.ts unprovedPart), is read by no one once l_discount and l_quantity are judged.
 */
function unreadInPhase2(columns: readonly ParquetColumnRequest[], filter: ChunkFilter, firstAt: ReadonlyMap<number, number>, selected: readonly Selected[]): ReadonlySet<number> | null {
  const unread = filter.unreadWhenExact;
  if (unread === undefined || unread.size === 0 || !selected.every((x) => x.exact === true)) return null;
  let out: Set<number> | null = null;
  for (let c = 0; c < columns.length; c++) if (!firstAt.has(c) && unread.has(columns[c]!.fieldId)) (out ??= new Set()).add(c);
  return out;
}

/** `names` without the Parquet names of the requests at `skip` */
function namesWithout(names: ReadonlySet<string>, skip: ReadonlySet<number> | null, columns: readonly ParquetColumnRequest[], nameById: ReadonlyMap<number, string>): ReadonlySet<string> {
  if (skip === null) return names;
  const out = new Set(names);
  for (const c of skip) {
    const n = nameById.get(columns[c]!.fieldId);
    if (n !== undefined) out.delete(n);
  }
  return out;
}

/** phase 2's decode of `names` (`whole`: the one read's, when it already holds them), or null when there are none */
async function decodePhase2(r: LateRowGroupRead, whole: DecodedRowGroup | null, selected: readonly Selected[], picked: number, names: ReadonlySet<string>): Promise<DecodedRowGroup | null> {
  if (names.size === 0) return null;
  if (whole !== null) return whole;
  const { rg, idByName, span, rows } = r;
  const selective = r.source.pageSelective === true && r.source.decodeAt !== undefined;
  // every row of a whole row group picked (TPC-H q1: 80 of its 81 files): decoded whole, without a picks list
  // (a row group's worth of row numbers made per read; decodeAt would then decode whole too)
  const p2 = selective && !(span === undefined && picked === rows) ? await r.source.decodeAt!(rg, [...names], idByName, pickedRows(selected, picked), span) : null;
  return p2 ?? await r.source.decode(rg, [...names], idByName);
}

/** phase 1 over every batch of `p1` (the batches the page index or a staged lead rule out are skipped) */
function selectRows(r: LateRowGroupRead, first: readonly number[], p1: DecodedRowGroup | null, masks: Map<number, Int32Array> | null): { selected: Selected[]; picked: number } {
  const selected: Selected[] = [];
  let picked = 0, seen = 0, range = 0;
  const ranges = r.rowRanges;
  for (const b of batchesOf(p1, r.rows)) {
    seen += b.length;
    if (ranges !== undefined) {
      // the page index ruled out every row of this batch: nothing to evaluate
      while (range < ranges.length && ranges[range]![1] <= b.start) range++;
      if (range >= ranges.length || ranges[range]![0] >= b.start + b.length) continue;
    }
    // staged: a batch without rows past the lead conjunct has nothing to judge; the others start from its mask
    const mask = masks?.get(b.start);
    if (masks !== null && mask === undefined) continue;
    const x = judgeBatch(r.columns, r.filter, r.uri, first, p1, b, mask);
    if (x === null) continue;
    selected.push(x);
    picked += x.rows.length;
  }
  if (seen !== r.rows) throw mismatch(r.uri, r.rg);
  return { selected, picked };
}

/** phase 1's selections per phase-2 batch (both decode batches of ROWS_PER_BATCH from the row group's start: re-cut only if they differ) */
function partsFor(selected: readonly Selected[], batches: readonly BatchAt[], width: number, uri: string, rg: number, rows: number): readonly (Selected | undefined)[] {
  if (batches.reduce((n, b) => n + b.length, 0) !== rows) throw mismatch(uri, rg);
  const byStart = new Map(selected.map((x) => [x.start, x]));
  const aligned = selected.every((x) => batches.some((b) => b.start === x.start && b.length === x.length));
  return aligned ? batches.map((b) => byStart.get(b.start)) : recut(selected.map(converted), batches, width);
}

/**
 * `SET lakegate.late_materialization = off` switches it off (differential tests, diagnosis). A custom
 * (placeholder) setting, as PostgreSQL allows any dotted name: PostgreSQL's boolean spellings are read.
 */
export const LATE_MATERIALIZATION_SETTING = 'lakegate.late_materialization';

/** the server-wide default: environment LAKEGATE_LATE_MATERIALIZATION=off (benchmark A/B runs) */
const ENV = 'LAKEGATE_LATE_MATERIALIZATION';

export function lateMaterializationOn(session: Pick<SessionView, 'getSetting'> | undefined): boolean {
  return settingFlagOn(session?.getSetting(LATE_MATERIALIZATION_SETTING, true), ENV);
}
