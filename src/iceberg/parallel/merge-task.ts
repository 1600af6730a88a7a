/**
 * A merge task: the second kind of work the scan worker pool runs (scan-worker.ts), for a hash-partitioned
 * final aggregate (exec/exchange/). The main thread sends one partition's partial groups from every scan task;
 * the worker merges and finalises them and sends the result columns back, buffers moved both ways. The
 * payload is opaque here (its shape belongs to exec/exchange/merge-partition.ts): iceberg/ does not import exec/.
 */
import type { PlainError } from './worker-errors.ts';

export interface MergeTaskRequest {
  readonly kind: 'merge-partition';
  /** exec/exchange MergeRequest */
  readonly payload: unknown;
  /** Int32 flag, non-zero once the query is canceled: the worker stops at its next look */
  readonly cancel: SharedArrayBuffer;
}

export type MergeTaskResult =
  | { readonly ok: true; readonly merged: unknown }
  | { readonly ok: false; readonly canceled: boolean; readonly error: PlainError | null };

export function isMergeTaskRequest(req: unknown): req is MergeTaskRequest {
  return typeof req === 'object' && req !== null && (req as Partial<MergeTaskRequest>).kind === 'merge-partition';
}
