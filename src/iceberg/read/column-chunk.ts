/**
 * A ColumnChunk (parquet-reader.ts) in its one shape: every field present, in one order, `positions` undefined
 * when the rows are contiguous. Chunks with and without positions, built by optional spreads, were two shapes
 * for every reader of a chunk (readFileScanTask, withUnreadColumns, batchOfChunk, a worker's fragment), and a
 * "wrong map" deopt of each when a query brought the shape its optimized code had not met (a scan worker's
 * shapes die between queries: the maps no live object holds are collected at its major GCs).
 */
import type { ColumnChunk } from './parquet-reader.ts';

export function columnChunk(firstRowPosition: number, positions: readonly number[] | undefined, length: number, columns: unknown[][]): ColumnChunk {
  return { firstRowPosition, positions, length, columns };
}

/** the file row positions of batch-local rows `local` of a batch starting at file row `base` */
export function positionsOf(local: readonly number[], base: number): number[] {
  const out = new Array<number>(local.length);
  for (let k = 0; k < local.length; k++) out[k] = base + local[k]!;
  return out;
}
