/**
 * The per-batch steps of late materialization (late-materialization.ts readRowGroupLate), as small synchronous
 * functions at module level.
 *
 * Why not inline in readRowGroupLate: that function is an async generator, and V8 compiles a generator whole —
 * its resume points, every closure and every callee it inlines. Every deoptimization of it (a scan worker sees a
 * few "wrong map" deopts per ten runs of a query shape) re-optimizes all of it: 160–1,400 ms of background
 * compile each, 35 % of a scan worker's recompiles in TPC-H q6 at SF 1 (session 25). Out here the generator is
 * a short driver, and these loops are optimized on their own (too big to be inlined into it).
 */
import type { Data } from 'apache-arrow';
import type { IcebergType } from '../spec/schema.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { fastPrimitiveValues } from './arrow-fast-columns.ts';
import { unreadNulls } from './unread-nulls.ts';
import type { DecodedRowGroup } from './row-group-decode.ts';
import type { ColumnChunk, ParquetColumnRequest } from './parquet-reader.ts';
import type { ChunkFilter, Selected } from './late-materialization.ts';
import { markExact } from '../parallel/exact-rows.ts';
import { columnChunk, positionsOf } from './column-chunk.ts';

/** one batch of a decoded row group with its first row (data null: nothing decoded, constants only) */
export interface BatchAt {
  readonly start: number;
  readonly length: number;
  readonly data: readonly Data[] | null;
}

/** which requests each phase answers (readRowGroupLate's first step) */
export interface LatePhases {
  /** Parquet names of the filter's columns present in the file */
  readonly filterNames: Set<string>;
  /** request indexes answered by phase 1 (the filter's columns, or their constants when the file lacks them) */
  readonly first: readonly number[];
  /** position in `first` by request index */
  readonly firstAt: ReadonlyMap<number, number>;
  /** Parquet names of the other requested columns present in the file (phase 2) */
  readonly otherNames: Set<string>;
}

export function latePhases(columns: readonly ParquetColumnRequest[], filter: ChunkFilter, nameById: ReadonlyMap<number, string>): LatePhases {
  const filterNames = new Set<string>();
  for (const c of filter.columns) {
    const n = nameById.get(columns[c]!.fieldId);
    if (n !== undefined) filterNames.add(n);
  }
  const first: number[] = [];
  for (let i = 0; i < columns.length; i++) {
    if (filter.columns.includes(i) || filterNames.has(nameById.get(columns[i]!.fieldId) ?? '\0')) first.push(i);
  }
  const firstAt = new Map<number, number>();
  for (let k = 0; k < first.length; k++) firstAt.set(first[k]!, k);
  const otherNames = new Set<string>();
  for (let i = 0; i < columns.length; i++) {
    const n = nameById.get(columns[i]!.fieldId);
    if (n !== undefined && !firstAt.has(i)) otherNames.add(n);
  }
  return { filterNames, first, firstAt, otherNames };
}

/** JS values of rows `rows` (ascending) of an Arrow chunk of `length` rows */
export function valuesAtRows(d: Data, t: IcebergType, uri: string, rows: readonly number[], length: number): unknown[] {
  if (rows.length === length) return arrowDataToValues(d, t, uri);
  // the common primitives convert just those rows (arrow-fast-columns.ts); the rest convert whole and pick
  const fast = t.kind === 'primitive' ? fastPrimitiveValues(d, t, rows) : null;
  if (fast !== null) return fast;
  const all = arrowDataToValues(d, t, uri);
  return rows.map((r) => all[r]);
}

/** the Arrow column of each filter-phase request (by request index; undefined for the others and missing ones) */
export function arrowColumns(columns: readonly ParquetColumnRequest[], first: readonly number[], p1: DecodedRowGroup, data: readonly Data[]): (Data | undefined)[] {
  const out: (Data | undefined)[] = new Array(columns.length);
  for (const c of first) {
    const idx = p1.colIndex.get(columns[c]!.fieldId);
    if (idx !== undefined) out[c] = data[idx];
  }
  return out;
}

/**
 * a Selected in its one shape (every field present: `deferred` undefined when none): judged, re-cut and converted
 * selections came in three shapes, a "wrong map" deopt of chunkOfPart / readRowGroupLate per new one
 */
export function selection(start: number, length: number, rows: readonly number[], vals: readonly unknown[][], exact: boolean, deferred: ReadonlyMap<number, () => unknown[]> | undefined): Selected {
  return { start, length, rows, vals, exact, deferred };
}

/**
 * Phase 1 on one batch: the rows (batch-local, ascending) that may match with their filter-column values, or
 * null when none may. `mask`: the rows a staged lead conjunct kept (only those are judged).
 */
export function judgeBatch(columns: readonly ParquetColumnRequest[], filter: ChunkFilter, uri: string, first: readonly number[], p1: DecodedRowGroup | null, b: BatchAt, mask: Int32Array | undefined): Selected | null {
  // on the Arrow buffers when the filter can: only the rows that may match become JS values
  const arrow = filter.selectArrow === undefined || b.data === null || p1 === null ? null : filter.selectArrow(arrowColumns(columns, first, p1, b.data), b.length, mask);
  let sel: readonly number[];
  let vals: unknown[][];
  let deferred: Map<number, () => unknown[]> | undefined;
  if (arrow !== null) {
    sel = arrow.rows;
    const picks = sel, data = b.data, unread = arrow.complete ? filter.unreadWhenExact : undefined;
    vals = first.map((c, k) => {
      const req = columns[c]!;
      const idx = p1!.colIndex.get(req.fieldId);
      if (idx === undefined || data === null) return new Array<unknown>(picks.length).fill(req.missingValue);
      const convert = (): unknown[] => valuesAtRows(data[idx]!, req.type, uri, picks, b.length);
      if (unread === undefined || !unread.has(req.fieldId)) return convert();
      (deferred ??= new Map()).set(k, convert);
      return [];
    });
    if (!arrow.complete && sel.length > 0) {
      // conjuncts the Arrow pass could not judge: the whole filter on the values of the rows it kept
      const cols: (readonly unknown[] | undefined)[] = new Array(columns.length);
      first.forEach((c, k) => { cols[c] = vals[k]; });
      const at = filter.select(cols, sel.length);
      if (at.length < sel.length) {
        const from = sel;
        sel = at.map((j) => from[j]!);
        vals = vals.map((v) => at.map((j) => v[j]));
      }
    }
  } else {
    const cols: (unknown[] | undefined)[] = new Array(columns.length);
    for (const c of first) {
      const req = columns[c]!;
      const idx = p1?.colIndex.get(req.fieldId);
      cols[c] = idx === undefined || b.data === null ? new Array<unknown>(b.length).fill(req.missingValue) : arrowDataToValues(b.data[idx]!, req.type, uri);
    }
    sel = filter.select(cols, b.length);
    vals = first.map((c) => {
      const col = cols[c]!;
      return sel.length === b.length ? col : sel.map((s) => col[s]);
    });
  }
  if (sel.length === 0) return null;
  return selection(b.start, b.length, sel, vals, arrow?.complete === true, deferred);
}

/**
 * Phase 2 on one batch: the chunk of part `x`'s rows — phase 1's values for the filter's columns, the picked rows
 * of batch `b` of `p2` for the others. `position`: the file row position of the row group's first row. `unread`:
 * request indexes phase 2 did not decode, nobody reading them on exact batches (all NULL; `x` is exact then).
 */
export function chunkOfPart(columns: readonly ParquetColumnRequest[], firstAt: ReadonlyMap<number, number>, p2: DecodedRowGroup | null, b: BatchAt, x: Selected, uri: string, position: number, unread: ReadonlySet<number> | null = null): ColumnChunk {
  const local = x.rows, n = local.length;
  const out = columns.map((req, c) => {
    const at = firstAt.get(c);
    if (at !== undefined) {
      const later = x.deferred?.get(at);
      // deferred only on exact batches, which an aligned part stays: the column nobody reads is all NULL
      return later === undefined ? x.vals[at]! : x.exact === true ? unreadNulls(n) : later();
    }
    if (unread !== null && unread.has(c)) return unreadNulls(n);
    const idx = p2?.colIndex.get(req.fieldId);
    if (idx === undefined || b.data === null) return new Array<unknown>(n).fill(req.missingValue);
    return valuesAtRows(b.data[idx]!, req.type, uri, local, b.length);
  });
  const base = position + b.start;
  const chunk = columnChunk(base, n === b.length ? undefined : positionsOf(local, base), n, out);
  // re-cut selections carry no verdict (recut): only an aligned batch the Arrow pass judged whole is marked
  return x.exact === true ? markExact(chunk) : chunk;
}
