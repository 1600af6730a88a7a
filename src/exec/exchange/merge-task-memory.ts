/**
 * The memory budget of one merge task of a hash-partitioned final aggregate: the main thread reserves a share
 * of the query's lakegate.query_memory_limit for it (partitioned-final-aggregate.ts) and the worker enforces
 * the share with a MemoryPool of that size, whose 53200 names the setting's value, not the share.
 */
import { MemoryPool } from '../memory/memory-pool.ts';

/** a merge task's share is never smaller than this (a share of a nearly spent budget still merges a few groups) */
export const MIN_MERGE_SHARE_BYTES = 64 * 1024;

export interface MergeTaskMemory {
  /** bytes the merge may hold */
  readonly limit: number;
  /** the query's lakegate.query_memory_limit in bytes, for the error text */
  readonly setting: number;
}

/** worker: the pool a merge task accounts its groups in (unlimited when the request carries no budget) */
export function mergeTaskPool(m: MergeTaskMemory | undefined): MemoryPool | undefined {
  return m === undefined ? undefined : new MemoryPool(m.limit, undefined, m.setting);
}
