/**
 * ThreadMemory: what one thread of the process holds — its V8 heap (in use, and in use after a full GC when
 * the process runs with --expose-gc: retained rather than garbage), its external and ArrayBuffer memory, and
 * its parquet-wasm linear memory, which grows to the largest decode or encode the thread ran and never shrinks.
 * A scan worker answers it as a merge task (exchange-task.ts), so a profile can tell the workers' share of the
 * process's RSS from the main thread's (test/memory/tpch-rss-profile.ts).
 */
import { threadId } from 'node:worker_threads';
import { wasmMemory } from 'parquet-wasm';

export interface ThreadMemory {
  readonly threadId: number;
  readonly heapUsed: number;
  /** heapUsed after a full GC; equals heapUsed when gc is not exposed */
  readonly heapUsedAfterGc: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
  readonly wasm: number;
}

/** what a merge task asks for to get its worker's ThreadMemory */
export interface ThreadMemoryRequest {
  readonly threadMemory: true;
}

export const isThreadMemoryRequest = (r: unknown): r is ThreadMemoryRequest =>
  typeof r === 'object' && r !== null && (r as Partial<ThreadMemoryRequest>).threadMemory === true;

/** this thread's memory (runs a full GC first when the process was started with --expose-gc) */
export function threadMemory(): ThreadMemory {
  const before = process.memoryUsage();
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const after = gc === undefined ? before : process.memoryUsage();
  return {
    threadId,
    heapUsed: before.heapUsed,
    heapUsedAfterGc: after.heapUsed,
    heapTotal: after.heapTotal,
    external: after.external,
    arrayBuffers: after.arrayBuffers,
    wasm: wasmMemory().buffer.byteLength,
  };
}
