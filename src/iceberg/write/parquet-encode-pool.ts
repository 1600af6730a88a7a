/**
 * The worker threads that encode Parquet files for big writes (COPY FROM, INSERT … SELECT): one process-wide
 * piscina pool of parquet-encode.mjs, started on first use. Threads are unref'd when idle and end after
 * IDLE_MS, so they keep neither the process nor a test run alive. Size: the cores left after the thread
 * that decodes (at least 1, at most 4).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ParquetEncodeOptions } from './parquet-encode.mjs';

const WORKER_FILE = new URL('./parquet-encode.mjs', import.meta.url).href;
const IDLE_MS = 30_000;

export const ENCODE_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

let pool: Piscina | null = null;

function encodePool(): Piscina {
  if (pool === null) {
    pool = new Piscina({ filename: WORKER_FILE, minThreads: 0, maxThreads: ENCODE_THREADS, idleTimeout: IDLE_MS, atomics: 'disabled' });
    pool.on('error', (e: unknown) => process.emitWarning(`parquet encode pool: ${String(e)}`));
  }
  return pool;
}

/** starts the threads (loading parquet-wasm) ahead of the first file */
export function warmEncodePool(): void {
  const p = encodePool();
  for (let i = 0; i < ENCODE_THREADS; i++) p.run(null).catch(() => undefined);
}

/** encodes in a worker; `ipc`'s buffer is moved to it (unusable here afterwards) */
export async function encodeInWorker(ipc: Uint8Array, options: ParquetEncodeOptions): Promise<Uint8Array> {
  const transferList = ipc.byteOffset === 0 && ipc.byteLength === ipc.buffer.byteLength ? [ipc.buffer as ArrayBuffer] : [];
  return await encodePool().run({ ipc, options }, { transferList }) as Uint8Array;
}
