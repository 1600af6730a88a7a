/**
 * The worker threads that decode COPY FROM STDIN text/csv chunks (copy-decode-task.ts): one process-wide
 * piscina pool of copy-decode-worker.mjs, started by the first big COPY. A thread costs ≈ 0.6–1 s of CPU to
 * load tsx and the decoder, so the main thread decodes the first chunks itself until the pool is warm
 * (`decodePoolReady`). Threads are unref'd when idle and end after IDLE_MS. Size: every core (the main thread
 * only frames chunks and routes rows; the Parquet encode threads share the cores).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { CopyChunkResult, CopyChunkTask } from './copy-decode-task.ts';

const WORKER_FILE = new URL('./copy-decode-worker.mjs', import.meta.url).href;
const IDLE_MS = 30_000;

const envThreads = Number(process.env['LAKEGATE_COPY_DECODE_THREADS'] ?? '');
export const DECODE_THREADS = envThreads >= 1 ? Math.floor(envThreads) : Math.max(1, Math.min(4, availableParallelism()));

let pool: Piscina | null = null;
let warming: Promise<void> | null = null;
let ready = false;

function decodePool(): Piscina {
  if (pool === null) {
    pool = new Piscina({ filename: WORKER_FILE, minThreads: 0, maxThreads: DECODE_THREADS, idleTimeout: IDLE_MS, atomics: 'disabled' });
    pool.on('error', (e: unknown) => process.emitWarning(`copy decode pool: ${String(e)}`));
  }
  return pool;
}

/** starts the threads (loading tsx and the decoder); resolves once every one has loaded */
export function warmDecodePool(): Promise<void> {
  if (warming === null) {
    const p = decodePool();
    warming = Promise.all(Array.from({ length: DECODE_THREADS }, () => p.run(null))).then(() => {
      ready = true;
    });
    warming.catch(() => undefined);
  }
  return warming;
}

/** true once the threads have loaded (until then chunks are decoded on the main thread) */
export function decodePoolReady(): boolean {
  if (ready && (pool?.threads.length ?? 0) === 0) {
    // the idle threads ended: the next warmDecodePool starts them again
    ready = false;
    warming = null;
  }
  return ready;
}

/** decodes a chunk in a worker; its buffer is moved there (detached here afterwards) */
export async function decodeChunkInWorker(task: CopyChunkTask): Promise<CopyChunkResult> {
  const buffer = task.bytes.buffer as ArrayBuffer;
  return await decodePool().run(task, { transferList: [buffer, ...(task.spare ?? [])] }) as CopyChunkResult;
}
