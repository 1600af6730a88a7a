/**
 * COPY FROM STDIN text/csv decoded on worker threads. The main thread frames the CopyData payloads into
 * chunks of whole records (copy-chunker.ts) and moves each chunk's bytes to a decode worker
 * (copy-decode-pool.ts), which splits and converts them into typed column buffers (copy-decode-task.ts) and
 * moves those back; results are taken in input order, so rows keep their order and an error is the first
 * one of the input, its line counted over the whole input. At most `maxInFlight` chunks are out at once:
 * when the workers are behind, the payload stream is not read (the wire then stops reading the socket).
 *
 *   CopyData ─▶ CopyChunker ─▶ chunk (moved) ─▶ decode worker ─▶ TypedBatch (moved back) ─▶ table writer
 *
 * Until the pool has loaded (≈ 1 s), and for small inputs, chunks are decoded on this thread by the same task.
 * @see https://www.postgresql.org/docs/current/sql-copy.html
 */
import type { OutputSettings } from '../../wire/handler.ts';
import { TypedBatch } from '../../iceberg/write/typed-columns.ts';
import type { CopyOptions } from './copy-options.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import { hasTypedSink } from './copy-column-sinks.ts';
import { CopyChunker } from './copy-chunker.ts';
import { decodeCopyChunk, rebaseCopyError, type CopyChunkResult, type CopyChunkTask } from './copy-decode-task.ts';
import { DECODE_THREADS, decodeChunkInWorker, decodePoolReady, warmDecodePool } from './copy-decode-pool.ts';
import { TYPED_BATCH_ROWS } from './copy-typed-decoder.ts';
import { takeSpareBuffers } from '../../iceberg/write/typed-buffer-pool.ts';

export interface ParallelDecodeOptions {
  /** first chunk size in bytes; later ones aim at TYPED_BATCH_ROWS rows each */
  readonly chunkBytes?: number;
  /** input bytes read before the decode workers are started (smaller COPYs stay on this thread) */
  readonly workerMinBytes?: number;
  /** tests: wait for the workers to load instead of decoding on this thread meanwhile */
  readonly waitForWorkers?: boolean;
  /** false: every chunk on this thread (tests compare the framing alone) */
  readonly workers?: boolean;
}

const FIRST_CHUNK_BYTES = 1024 * 1024;
const MIN_CHUNK_BYTES = 64 * 1024;
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
/** pooled buffers sent along with each chunk (≈ one decoded batch of TPC-H lineitem) */
const SPARE_BYTES = 4 * 1024 * 1024;
/**
 * 2 MiB of input (≈ 16k TPC-H lineitem rows) before the workers are started: smaller COPYs never pay their load
 * (≈ 0.6–1 s of CPU each); bigger ones start them early, since this thread decodes until they have loaded
 */
export const DECODE_WORKER_MIN_BYTES = 2 * 1024 * 1024;

/**
 * COPY uses the decode workers only when LAKEGATE_COPY_DECODE_WORKERS is `on` (read per COPY). Off by default:
 * on 2 cores (TPC-H lineitem SF 0.2, load ≈ 16) they took the main thread's CPU from 4.1 to 2.1 s but the
 * server's from 12.1 to 14.8 s — each thread loads tsx and the decoder (≈ 0.6–1 s) and the GC works harder —
 * so COPY got slower where the cores are all busy anyway.
 */
export function decodeWorkersEnabled(): boolean {
  const v = (process.env['LAKEGATE_COPY_DECODE_WORKERS'] ?? '').toLowerCase();
  return v === 'on' || v === '1' || v === 'true';
}

/** text/csv into columns that all have typed buffers: the workers can decode it */
export function parallelDecodable(options: CopyOptions, target: CopyTarget): boolean {
  return options.format !== 'binary' && target.columns.every((c) => hasTypedSink(c.type));
}

export async function* decodeCopyInParallel(
  data: AsyncIterable<Uint8Array>, options: CopyOptions, target: CopyTarget, settings: OutputSettings, o: ParallelDecodeOptions = {},
): AsyncIterable<TypedBatch> {
  const csv = options.format === 'csv';
  const chunker = new CopyChunker(csv, options.quote.charCodeAt(0), options.escape.charCodeAt(0), o.chunkBytes ?? FIRST_CHUNK_BYTES);
  const useWorkers = o.workers !== false;
  // LAKEGATE_COPY_DECODE_MIN_BYTES: another threshold (tests run small COPYs through the workers with 0)
  const envMin = Number(process.env['LAKEGATE_COPY_DECODE_MIN_BYTES'] ?? '');
  const workerMinBytes = o.workerMinBytes ?? (process.env['LAKEGATE_COPY_DECODE_MIN_BYTES'] !== undefined && envMin >= 0 ? envMin : DECODE_WORKER_MIN_BYTES);
  const maxInFlight = 2 * DECODE_THREADS;
  /** results in input order; a worker's as a promise */
  const queue: (CopyChunkResult | Promise<CopyChunkResult>)[] = [];
  /** the task of each queued result (a `values` result is decoded again here) and its byte count */
  const tasks: { task: CopyChunkTask; bytes: number }[] = [];
  let first = true;
  let seen = 0;
  let linesBefore = 0;
  let ended = false;
  let fixedChunk = o.chunkBytes !== undefined;

  const submit = async (bytes: Uint8Array, eof: boolean): Promise<void> => {
    const task: CopyChunkTask = { bytes, eof, header: options.header && first, options, target, settings };
    first = false;
    tasks.push({ task, bytes: bytes.byteLength });
    if (useWorkers && seen >= workerMinBytes) {
      const warm = warmDecodePool();
      if (o.waitForWorkers === true) await warm;
    }
    if (useWorkers && decodePoolReady()) {
      // the buffers the writer gave back go with the chunk (the worker's builders reuse them)
      const p = decodeChunkInWorker({ ...task, spare: takeSpareBuffers(SPARE_BYTES) });
      // a statement that fails or ends (`\.`) early abandons the chunks after it
      p.catch(() => undefined);
      queue.push(p);
    } else queue.push(decodeCopyChunk(task, true));
  };

  /** takes results in order until at most `keep` are queued; yields their batches */
  async function* drain(keep: number): AsyncIterable<TypedBatch> {
    while (queue.length > keep && !ended) {
      let r = await queue.shift()!;
      const { task, bytes } = tasks.shift()!;
      if (r.kind === 'values') r = decodeCopyChunk({ ...task, bytes: r.bytes }, true);
      if (r.kind === 'error') throw rebaseCopyError(r, target.table, linesBefore);
      if (r.kind !== 'rows') continue;
      linesBefore += r.lines;
      ended = r.ended;
      let rows = 0;
      for (const b of r.batches) {
        rows += b.length;
        yield new TypedBatch(b.length, b.columns);
      }
      // later chunks aim at one full batch each (TPC-H lineitem csv: ≈ 2 MiB)
      if (!fixedChunk && rows > 0) {
        const perRow = bytes / rows;
        chunker.setTarget(Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, Math.floor(perRow * TYPED_BATCH_ROWS * 0.98))));
        fixedChunk = true;
      }
    }
  }

  for await (const payload of data) {
    seen += payload.byteLength;
    const chunk = chunker.push(payload);
    if (chunk !== null) {
      await submit(chunk, false);
      yield* drain(maxInFlight - 1);
      if (ended) return;
    }
  }
  const last = chunker.end();
  if (last !== null) await submit(last, true);
  yield* drain(0);
}
