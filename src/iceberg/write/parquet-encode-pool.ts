/**
 * The worker threads that encode Parquet files for big writes (COPY FROM, INSERT … SELECT): one process-wide
 * piscina pool of parquet-encode.mjs, started on first use. Threads are unref'd when idle, so they keep
 * neither the process nor a test run alive; all but KEPT_THREADS end after IDLE_MS. Size: the cores left
 * after the thread that decodes (at least 1, at most 4).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ParquetEncodeOptions, TypedFileResult, TypedFileTask } from './parquet-encode.mjs';
import { typedFileBuffers } from './typed-file-ipc.mjs';

const WORKER_FILE = new URL('./parquet-encode.mjs', import.meta.url).href;
const IDLE_MS = 30_000;
/**
 * threads kept once started, however long idle: a thread started again costs ≈ 1.1 s inside the next big write
 * (its isolate, the encoder's modules, its code compiled again — session 19, a fresh server's COPY), which a
 * server loading a file every few minutes paid on every load. An idle thread holds ≈ 40 MB RSS (measured:
 * 145 → 105 MB when it ended)
 */
const KEPT_THREADS = 1;

export const ENCODE_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

let pool: Piscina | null = null;

function encodePool(): Piscina {
  if (pool === null) {
    pool = new Piscina({ filename: WORKER_FILE, minThreads: KEPT_THREADS, maxThreads: ENCODE_THREADS, idleTimeout: IDLE_MS, atomics: 'disabled' });
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

/**
 * encodes a file of typed buffers in a worker (Arrow, bounds, IPC and Parquet all there). The buffers are
 * moved to it (the task's views are detached here afterwards) and come back in `buffers` for reuse.
 */
export async function encodeTypedInWorker(task: TypedFileTask): Promise<TypedFileResult & { readonly buffers: readonly ArrayBuffer[] }> {
  const transferList = typedFileBuffers(task.batches);
  return await encodePool().run(task, { name: 'encodeTypedTask', transferList }) as TypedFileResult & { buffers: ArrayBuffer[] };
}

/**
 * merges a partition's held Parquet pieces into one row group on an encode thread (parquet-encode.mjs
 * mergePiecesTask); resolves to [merged], or the pieces as they were when the merge cannot take them. Pieces that
 * own their whole buffer are moved there (unusable here afterwards), others copied.
 */
export async function mergeInWorker(pieces: readonly Uint8Array[]): Promise<Uint8Array[]> {
  const transferList = [...new Set(pieces.filter((p) => p.byteOffset === 0 && p.byteLength === p.buffer.byteLength).map((p) => p.buffer as ArrayBuffer))];
  return await encodePool().run({ pieces }, { name: 'mergePiecesTask', transferList }) as Uint8Array[];
}

/** files handed to the encode threads and not finished (a partitioned write has one writer per partition) */
let encoding = 0;
/** writers waiting for a slot (typed files are never encoded on the writer's thread) */
const slotWaiters: (() => void)[] = [];

/** takes a slot when fewer than `limit` files are being encoded; false (nothing taken) otherwise */
export function tryEncodeSlot(limit: number): boolean {
  if (encoding >= limit) return false;
  encoding++;
  return true;
}

/** waits until fewer than `limit` files are being encoded, then takes a slot: a fast input is held back here */
export async function encodeSlot(limit: number): Promise<void> {
  while (encoding >= limit) await new Promise<void>((resolve) => slotWaiters.push(resolve));
  encoding++;
}

/** files being encoded by the encode threads now (0: they are idle) */
export function encodeSlotsInUse(): number {
  return encoding;
}

export function releaseEncodeSlot(): void {
  encoding--;
  slotWaiters.shift()?.();
}
