/** Types of partition-split.mjs (plain JS so a worker thread loads it without tsx). */
import type { BufferColumn } from './typed-file-ipc.mjs';

export interface SplitField {
  /** the source column's position in the batch */
  readonly pos: number;
  /** the transform's name (identity, bucket, truncate, day, month, year) and parameter */
  readonly name: string;
  readonly param: number | undefined;
}

export interface SplitTask {
  readonly length: number;
  readonly columns: readonly BufferColumn[];
  readonly fields: readonly SplitField[];
}

export interface SplitResult {
  /** the rows grouped by partition: group g is rows [starts[g], starts[g + 1]) */
  readonly columns: readonly BufferColumn[];
  readonly starts: Int32Array;
  readonly count: number;
}

export function murmurLong(lo: number, hi: number): number;
export function murmurRange(data: Uint8Array, start: number, end: number): number;
export function monthOfDays(days: number): number;
export function int32PartitionFn(name: string, param: number | undefined, domain: 'int' | 'date'): ((v: number) => number) | null;
export function splitByPartition(task: SplitTask): SplitResult;
export function splitBuffers(columns: readonly BufferColumn[]): ArrayBuffer[];
export default function splitTask(task: SplitTask): unknown;
