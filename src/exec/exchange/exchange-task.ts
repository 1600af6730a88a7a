/**
 * The merge task a scan worker runs for a hash-partitioned final aggregate (iceberg/parallel/merge-task.ts
 * carries the payload opaquely): partial states of one partition merged (merge-partition.ts), or one
 * partition's rows aggregated (aggregate-partition.ts); or, for a memory profile, the worker's own memory
 * (thread-memory.ts).
 */
import { aggregatePartition, type AggregateRowsRequest } from './aggregate-partition.ts';
import { mergePartition, type MergedPartition, type MergeRequest } from './merge-partition.ts';
import { isThreadMemoryRequest, threadMemory, type ThreadMemoryRequest } from './thread-memory.ts';

export type ExchangeTaskRequest = MergeRequest | AggregateRowsRequest | ThreadMemoryRequest;

const isRows = (r: ExchangeTaskRequest): r is AggregateRowsRequest => (r as Partial<AggregateRowsRequest>).rows === true;

/** Runs one merge task; null once `canceled()`. Buffers to move go to `transfer`. */
export async function runExchangeTask(req: ExchangeTaskRequest, canceled: () => boolean, transfer: ArrayBufferLike[]): Promise<MergedPartition | null> {
  if (isThreadMemoryRequest(req)) return { count: 0, columns: [], thread: threadMemory() };
  return isRows(req) ? aggregatePartition(req, canceled, transfer) : mergePartition(req, canceled, transfer);
}
