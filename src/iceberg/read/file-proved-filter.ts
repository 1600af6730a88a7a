/**
 * A pushed filter that a file's own metadata proves for every row. A month-partitioned lineitem holds each
 * l_shipdate month in its own files, so TPC-H q14's / q15's date range and q1's `l_shipdate <= …` hold for every
 * row of all (q1: all but one) of the files they read: judging them row by row, and decoding l_shipdate for it,
 * only confirms what the file's bounds already say. Such a file is read without the filter, and its chunks are
 * marked exact (exact-rows.ts), so the Filter above skips the pushed conjuncts too; filter columns nobody reads
 * on exact batches (ChunkFilter.unreadWhenExact) are then not decoded at all — all-NULL columns stand in, as
 * late materialization hands on for them (unread-nulls.ts). A file that proves only some conjuncts of the filter's
 * top-level AND is judged on the others alone (unprovedPart: TPC-H q6's year of l_shipdate, q12's l_receiptdate
 * range in most of its files).
 */
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { mustMatch } from '../scan/metadata-aggregate.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { ColumnChunk } from './parquet-reader.ts';
import { columnChunk } from './column-chunk.ts';
import { unreadNulls } from './unread-nulls.ts';

/**
 * whether every row of `task`'s file satisfies `filter` by the file's partition values and column statistics
 * (Iceberg's strict metrics evaluation: bounds of exact types, no NULLs / NaNs): a task's rows are a subset of
 * its file's, and deletes only drop rows
 */
export function fileProvesFilter(filter: BoundPredicate, task: FileScanTask): boolean {
  return mustMatch(filter, task.file, task.spec);
}

/**
 * `filter` without the conjuncts of its top-level AND that `task`'s file proves for every row (as
 * fileProvesFilter, one conjunct at a time): null when the file proves them all, `filter` itself when it proves
 * none. TPC-H q6's l_shipdate year holds for every row of each monthly file it reads, its l_discount and
 * l_quantity tests do not: the reader judges those two alone, and l_shipdate is not decoded for the filter. The
 * rows the rest keeps satisfy the whole filter, so a batch judged exactly on the rest is exact for all of it.
 */
export function unprovedPart(filter: BoundPredicate, task: FileScanTask): BoundPredicate | null {
  if (filter.kind !== 'and') return fileProvesFilter(filter, task) ? null : filter;
  const rest = filter.args.filter((c) => !mustMatch(c, task.file, task.spec));
  if (rest.length === filter.args.length) return filter;
  return rest.length === 0 ? null : rest.length === 1 ? rest[0]! : { kind: 'and', args: rest };
}

/**
 * the request indexes (< `width`, the projected fields) whose field nobody reads on exact batches, or an empty
 * list: then every column is read
 */
export function unreadRequestIndexes(fields: readonly { readonly id: number }[], unread: ReadonlySet<number> | undefined): number[] {
  if (unread === undefined || unread.size === 0) return [];
  const out: number[] = [];
  for (let i = 0; i < fields.length; i++) if (unread.has(fields[i]!.id)) out.push(i);
  return out;
}

/** `items` without those at `at` (`items` itself when there are none) */
export function withoutIndexes<T>(items: readonly T[], at: readonly number[]): readonly T[] {
  return at.length === 0 ? items : items.filter((_, i) => !at.includes(i));
}

/** `chunk` (read without the columns at `unreadAt`, ascending) with all-NULL columns put back in their places */
export function withUnreadColumns(chunk: ColumnChunk, unreadAt: readonly number[]): ColumnChunk {
  if (unreadAt.length === 0) return chunk;
  const width = chunk.columns.length + unreadAt.length;
  const columns: unknown[][] = new Array(width);
  let read = 0, skip = 0;
  for (let c = 0; c < width; c++) {
    if (skip < unreadAt.length && unreadAt[skip] === c) {
      columns[c] = unreadNulls(chunk.length);
      skip++;
    } else columns[c] = chunk.columns[read++]!;
  }
  return columnChunk(chunk.firstRowPosition, chunk.positions, chunk.length, columns);
}
