/**
 * ScanPool: the piscina worker pool that decodes Parquet for scans (issue #4 item 2). Threads start on the
 * first parallel scan, not at server start (a worker costs ~0.5–3 s of CPU to load tsx, apache-arrow,
 * parquet-wasm and the AWS SDK), and live until close(). One pool serves the whole process: the server
 * acquires it at start with its `workers` setting and releases it on stop; the last release destroys it, so
 * no thread outlives the servers (vitest exits).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ScanTaskRequest, ScanTaskResult } from './scan-task.ts';
import type { MergeTaskRequest, MergeTaskResult } from './merge-task.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import { columnBytes } from '../read/column-bytes.ts';
import { isMissingParts, ScanRequestSender, type MissingParts } from './scan-request-wire.ts';

const WORKER_FILE = new URL('./scan-pool-worker.mjs', import.meta.url).href;

/** Scans of fewer rows than this stay on the main thread: the hand-off costs more than the decode saves. */
export const DEFAULT_MIN_PARALLEL_ROWS = 200_000;
/**
 * ...unless their columns are wide: a scan of at least MIN_WIDE_ROWS rows whose read columns hold this many decoded
 * bytes (read/column-bytes.ts) goes to the pool too. TPC-H SF 1's customer is one file of 150k rows: decoded
 * on the main thread, it was 26 % of q10's and ~35 % of q22's main thread.
 */
export const DEFAULT_MIN_PARALLEL_BYTES = 2 * 1024 * 1024;
/** scans of fewer rows stay on the main thread however wide (small tables, point lookups: pgbench's 1,000 rows) */
export const MIN_WIDE_ROWS = 65_536;

export interface ScanPoolOptions {
  /** worker threads; default os.availableParallelism() */
  readonly size?: number;
  /** scans whose files hold fewer rows (manifest record counts) read on the main thread ... */
  readonly minRows?: number;
  /** ... unless they hold MIN_WIDE_ROWS rows or more and their read columns this many decoded bytes */
  readonly minBytes?: number;
}

/** the tasks' files' rows (manifest record counts) */
function rowsOf(tasks: readonly FileScanTask[]): number {
  let rows = 0;
  for (const t of tasks) rows += Number(t.file.recordCount);
  return rows;
}

export class ScanPool {
  readonly size: number;
  readonly minRows: number;
  readonly minBytes: number;
  #piscina: Piscina | null = null;
  #closed = false;
  readonly #requests: ScanRequestSender;

  constructor(options: ScanPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    this.minRows = options.minRows ?? DEFAULT_MIN_PARALLEL_ROWS;
    this.minBytes = options.minBytes ?? DEFAULT_MIN_PARALLEL_BYTES;
    this.#requests = new ScanRequestSender(this.size);
  }

  /**
   * Whether reading `tasks` is worth the hand-off to the pool (else the main thread reads them): enough rows, or
   * enough of them over wide columns — the decoded bytes of the columns `fieldIds()` names (all when absent;
   * read/column-bytes.ts: manifest column sizes, else cached footers), a measure of the decode work that the row
   * count alone misses. mayBeWorth first (no footer needed).
   */
  worth(tasks: readonly FileScanTask[], fieldIds?: () => Iterable<number>): boolean {
    const rows = rowsOf(tasks);
    if (rows >= this.minRows) return true;
    if (rows < MIN_WIDE_ROWS) return false;
    const ids = fieldIds === undefined ? undefined : [...fieldIds()];
    let bytes = 0;
    for (const t of tasks) bytes += columnBytes(t, ids);
    return bytes >= this.minBytes;
  }

  /** at least minRows rows: worth() whatever the columns */
  enoughRows(tasks: readonly FileScanTask[]): boolean {
    return rowsOf(tasks) >= this.minRows;
  }

  /** false when worth() is false whatever the columns (too few rows): a synchronous first test */
  mayBeWorth(tasks: readonly FileScanTask[]): boolean {
    return rowsOf(tasks) >= Math.min(this.minRows, MIN_WIDE_ROWS);
  }

  /** true once threads were started (and until close) */
  get started(): boolean {
    return this.#piscina !== null;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** threads currently running a task (tests check that cancellation leaves none busy) */
  get busyThreads(): number {
    return this.#piscina === null ? 0 : this.#piscina.threads.length - this.#piscina.idleThreads;
  }

  #pool(): Piscina {
    if (this.#closed) throw new Error('scan worker pool is closed');
    if (this.#piscina === null) {
      const pool = new Piscina({
        filename: WORKER_FILE,
        minThreads: this.size,
        maxThreads: this.size,
        // tasks are coarse (a file each) and may await I/O after a task ends (S3 sockets): no Atomics.wait loop
        atomics: 'disabled',
      });
      // piscina emits 'error' for a result that arrives after its task was aborted or the pool destroyed
      // (a canceled scan's late answer); unhandled, that event would crash the server
      pool.on('error', (e: unknown) => {
        if (!(e instanceof Error && e.message.startsWith('Unexpected message from Worker'))) process.emitWarning(`scan worker pool: ${String(e)}`);
      });
      this.#piscina = pool;
    }
    return this.#piscina;
  }

  /**
   * Runs a scan task; the scan's shared parts go with its first tasks only (scan-request-wire.ts), and a task whose
   * worker lacks them is sent again whole.
   */
  run(req: ScanTaskRequest, signal: AbortSignal): Promise<ScanTaskResult> {
    const pool = this.#pool();
    const first = pool.run(this.#requests.wire(req), { signal }) as Promise<ScanTaskResult | MissingParts>;
    return first.then((r) => (isMissingParts(r) ? pool.run(this.#requests.whole(req), { signal }) as Promise<ScanTaskResult> : r));
  }

  /** Runs a merge task (merge-task.ts); the buffers in `transferList` are moved to the worker, not copied. */
  runMerge(req: MergeTaskRequest, transferList: readonly ArrayBufferLike[], signal: AbortSignal): Promise<MergeTaskResult> {
    return this.#pool().run(req, { signal, transferList: transferList as ArrayBuffer[] }) as Promise<MergeTaskResult>;
  }

  /** Starts every thread and waits until each has loaded the worker code; resolves to the milliseconds taken. */
  async warm(): Promise<number> {
    const t0 = performance.now();
    const pool = this.#pool();
    await Promise.all(Array.from({ length: this.size }, () => pool.run(null)));
    return performance.now() - t0;
  }

  /** Terminates the threads (running tasks are aborted). */
  async close(): Promise<void> {
    this.#closed = true;
    const p = this.#piscina;
    this.#piscina = null;
    await p?.destroy();
  }
}

let shared: { pool: ScanPool; users: number } | null = null;

/**
 * Takes a share of the process-wide pool, creating it with `options` if there is none (a later caller's
 * options do not resize an existing pool). The returned function releases the share; the last release
 * closes the pool. size 0 = no pool: scans stay on the main thread.
 */
export function acquireSharedScanPool(options: ScanPoolOptions): () => Promise<void> {
  if (options.size === 0) return async () => {};
  if (shared === null) shared = { pool: new ScanPool(options), users: 0 };
  const entry = shared;
  entry.users++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--entry.users > 0) return;
    if (shared === entry) shared = null;
    await entry.pool.close();
  };
}

/** The process-wide pool, or null when no server enabled workers. */
export function sharedScanPool(): ScanPool | null {
  return shared?.pool ?? null;
}
