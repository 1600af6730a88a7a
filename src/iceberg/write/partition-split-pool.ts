/**
 * The worker thread that splits a partitioned COPY's typed batches by partition (partition-split.mjs): one
 * process-wide piscina pool of one thread, started on first use, unref'd when idle and ended after IDLE_MS. Its
 * own thread, not the encode pool's: a split waiting behind a file's encoding (hundreds of ms) would stall the
 * thread that decodes input, which waits for each split in order.
 */
import { Piscina } from 'piscina';
import type { SplitResult, SplitTask } from './partition-split.mjs';
import { splitBuffers } from './partition-split.mjs';

const WORKER_FILE = new URL('./partition-split.mjs', import.meta.url).href;
const IDLE_MS = 30_000;

let pool: Piscina | null = null;

function splitPool(): Piscina {
  if (pool === null) {
    pool = new Piscina({ filename: WORKER_FILE, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS, atomics: 'disabled' });
    pool.on('error', (e: unknown) => process.emitWarning(`partition split pool: ${String(e)}`));
  }
  return pool;
}

/** splits a typed batch by partition on the split thread; the batch's buffers are moved there (unusable here afterwards) */
export async function splitInWorker(task: SplitTask): Promise<SplitResult> {
  return await splitPool().run(task, { transferList: splitBuffers(task.columns) }) as SplitResult;
}
