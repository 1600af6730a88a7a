/**
 * Row ranges of a row group that may match a BoundPredicate, from the page index (page-index.ts): a page's
 * ColumnIndex min/max/null_pages/null_counts are statistics of the rows [first_row_index, next page's) and
 * go through the same inclusive evaluator as file and row-group statistics (scan/stats-evaluator.ts).
 * AND intersects the ranges of its arguments, OR unites them; a comparison on a column without a
 * ColumnIndex (or one the index cannot judge: char(n) padding, binary bounds without column orders) keeps
 * every row. Columns page independently, so `a = 1 AND b = 2` can rule out a row group whose statistics
 * alone cannot (a's page and b's page do not overlap). Rows outside the ranges certainly fail the filter.
 */
import type { PrimitiveType } from '../spec/schema.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { mightMatch, type FieldStats } from '../scan/stats-evaluator.ts';
import type { ThriftStruct } from './thrift-compact.ts';
import type { ColumnPageIndex } from './page-index.ts';
import { decodeStatValue } from './row-group-stats.ts';

/** half-open [start, end) row spans within a row group, ascending, disjoint and not adjacent */
export type RowRanges = readonly (readonly [number, number])[];

export interface PageColumn {
  readonly index: ColumnPageIndex;
  /** the leaf's Parquet SchemaElement (physical and logical type, to decode min/max) */
  readonly element: ThriftStruct;
}

export interface PageSelection {
  /** the rows that may match (empty: none can) */
  readonly ranges: RowRanges;
  /** pages of the filter's columns that have a ColumnIndex, and how many of them overlap `ranges` */
  readonly pagesTotal: number;
  readonly pagesScanned: number;
}

export function intersectRanges(a: RowRanges, b: RowRanges): RowRanges {
  const out: [number, number][] = [];
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const [s1, e1] = a[i]!;
    const [s2, e2] = b[j]!;
    const s = Math.max(s1, s2), e = Math.min(e1, e2);
    if (s < e) out.push([s, e]);
    if (e1 <= e2) i++;
    else j++;
  }
  return out;
}

export function unionRanges(a: RowRanges, b: RowRanges): RowRanges {
  const all = [...a, ...b].sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [s, e] of all) {
    const last = out[out.length - 1];
    if (last !== undefined && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

const BINARY = new Set(['string', 'binary', 'fixed', 'decimal']);

/** one selectPageRows call's inputs and what it learnt (module-level helpers below: no closures per call) */
interface PageContext {
  readonly rows: number;
  readonly all: RowRanges;
  readonly columnOf: (fieldId: number) => PageColumn | undefined;
  readonly columnOrders: boolean;
  /** the filter's columns that had a ColumnIndex, for the page counters */
  readonly used: Map<number, ColumnPageIndex>;
  /** decoded page statistics by field id, then page (a column's pages are judged by several leaves: a BETWEEN) */
  readonly memo: Map<number, (FieldStats | undefined)[]>;
}

function pageStats(ctx: PageContext, fieldId: number, col: PageColumn, t: PrimitiveType, p: number): FieldStats {
  let byPage = ctx.memo.get(fieldId);
  if (byPage === undefined) ctx.memo.set(fieldId, byPage = new Array<FieldStats | undefined>(col.index.firstRows.length));
  const hit = byPage[p];
  if (hit !== undefined) return hit;
  const pages = col.index.pages!;
  const first = col.index.firstRows[p]!;
  const valueCount = (col.index.firstRows[p + 1] ?? ctx.rows) - first;
  let s: FieldStats;
  if (pages.nullPages[p] === true) {
    s = { allNull: true, nullCount: valueCount, valueCount };
  } else {
    const lower = decodeStatValue(t, col.element, pages.minValues[p]!);
    const upper = decodeStatValue(t, col.element, pages.maxValues[p]!);
    const nullCount = pages.nullCounts?.[p];
    s = {
      ...(lower === undefined || upper === undefined ? {} : { lower, upper }),
      ...(nullCount === undefined ? {} : { nullCount, valueCount }),
    };
  }
  byPage[p] = s;
  return s;
}

function leafRanges(ctx: PageContext, b: Extract<BoundPredicate, { fieldId: number }>): RowRanges {
  if ('padded' in b && b.padded === true) return ctx.all;
  if (!ctx.columnOrders && BINARY.has(b.type.name)) return ctx.all;
  const col = ctx.columnOf(b.fieldId);
  if (col?.index.pages === undefined) return ctx.all;
  ctx.used.set(b.fieldId, col.index);
  const firstRows = col.index.firstRows, rows = ctx.rows;
  const out: [number, number][] = [];
  for (let p = 0; p < firstRows.length; p++) {
    if (!mightMatch(b, () => pageStats(ctx, b.fieldId, col, b.type, p))) continue;
    const s = firstRows[p]!, e = firstRows[p + 1] ?? rows;
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === s) last[1] = e; // pages ascend: extend the previous range
    else out.push([s, e]);
  }
  return out;
}

function rangesOf(ctx: PageContext, b: BoundPredicate): RowRanges {
  switch (b.kind) {
    case 'true': return ctx.all;
    case 'false': return [];
    // every argument is evaluated (no short cut) so that the page counters cover all filter columns
    case 'and': {
      let acc = ctx.all;
      for (const a of b.args) acc = intersectRanges(acc, rangesOf(ctx, a));
      return acc;
    }
    case 'or': {
      let acc: RowRanges = [];
      for (const a of b.args) acc = unionRanges(acc, rangesOf(ctx, a));
      return acc;
    }
    case 'compareFields': return ctx.all; // a column pair: one column's page bounds cannot decide it
    default: return leafRanges(ctx, b);
  }
}

/** pages of `index` that overlap `ranges` (both ascending: one merge pass) */
function pagesOverlapping(index: ColumnPageIndex, rows: number, ranges: RowRanges): number {
  const firstRows = index.firstRows;
  let n = 0, r = 0;
  for (let p = 0; p < firstRows.length; p++) {
    const s = firstRows[p]!, e = firstRows[p + 1] ?? rows;
    while (r < ranges.length && ranges[r]![1] <= s) r++;
    if (r < ranges.length && ranges[r]![0] < e) n++;
  }
  return n;
}

/**
 * The row ranges of a row group of `rows` rows that may match `filter`, or null when no filter column has a
 * ColumnIndex (nothing to learn). `columnOf` gives a field's page index in this row group; `columnOrders`:
 * the footer lists column orders (byte-array min/max are then in unsigned order).
 * Called once per row group a filtered scan reads: its helpers live at module level, since under tsx (esbuild
 * keepNames) each named closure made inside a call costs an Object.defineProperty of its name per call
 * (q17 SF 0.2: ~4 % of a scan thread in `__name` here).
 */
export function selectPageRows(filter: BoundPredicate, rows: number, columnOf: (fieldId: number) => PageColumn | undefined, columnOrders: boolean): PageSelection | null {
  const ctx: PageContext = { rows, all: rows > 0 ? [[0, rows]] : [], columnOf, columnOrders, used: new Map(), memo: new Map() };
  const out = rangesOf(ctx, filter);
  if (ctx.used.size === 0) return null;
  let pagesTotal = 0, pagesScanned = 0;
  for (const index of ctx.used.values()) {
    pagesTotal += index.firstRows.length;
    pagesScanned += pagesOverlapping(index, rows, out);
  }
  return { ranges: out, pagesTotal, pagesScanned };
}
