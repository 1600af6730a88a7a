/**
 * One chunk of COPY FROM STDIN text/csv input (whole records, copy-chunker.ts) → TypedBatches: the task of a
 * decode worker (copy-decode-worker.mjs), also run on the main thread while the workers start. The rules and
 * errors are CopyTypedDecoder's; line numbers count from the chunk's first record, and an error is returned
 * (not thrown) with its line, so the main thread can name the line of the whole input (rebaseCopyError).
 * A chunk in which a column had to hold JS values (a date `infinity`, a numeric NaN: not transferable as
 * buffers) comes back undecoded, for the main thread.
 */
import { isUtf8 } from 'node:buffer';
import { GatewayError, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { OutputSettings } from '../../wire/handler.ts';
import type { TypedColumn } from '../../iceberg/write/typed-columns.ts';
import { fromPlainError, toPlainError, type PlainError } from '../../iceberg/parallel/worker-errors.ts';
import type { CopyOptions } from './copy-options.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import { CopyTypedDecoder, TYPED_BATCH_ROWS } from './copy-typed-decoder.ts';
import { giveBuffers } from '../../iceberg/write/typed-buffer-pool.ts';

export interface CopyChunkTask {
  /** whole records (the last one may lack its newline when `eof`) */
  readonly bytes: Uint8Array;
  /** the last chunk of the input */
  readonly eof: boolean;
  /** the chunk starts with the header line to skip */
  readonly header: boolean;
  readonly options: CopyOptions;
  readonly target: CopyTarget;
  readonly settings: OutputSettings;
  /** buffers of earlier batches the writer is done with, for this thread's pool (typed-buffer-pool.ts): reused, not allocated */
  readonly spare?: readonly ArrayBuffer[];
}

export interface ChunkBatch {
  readonly length: number;
  readonly columns: readonly TypedColumn[];
}

export type CopyChunkResult =
  /** `lines`: records read (header, end marker included); `ended`: `\.` was read */
  | { readonly kind: 'rows'; readonly lines: number; readonly ended: boolean; readonly batches: readonly ChunkBatch[] }
  /** `line`: the chunk's line the error names in `where` as `COPY t, line N…` (null: it names none) */
  | { readonly kind: 'error'; readonly line: number | null; readonly error: PlainError }
  /** a column holds JS values: the main thread decodes this chunk (`task` with its bytes given back) */
  | { readonly kind: 'values'; readonly bytes: Uint8Array };

/** `allowValues` false (a worker): a chunk with a JS-values column comes back as `values` */
export function decodeCopyChunk(task: CopyChunkTask, allowValues: boolean): CopyChunkResult {
  const { bytes } = task;
  if (task.spare !== undefined) giveBuffers(task.spare);
  // one batch for the chunk: records ≤ newlines (+ the last one without); at least TYPED_BATCH_ROWS, so the
  // buffers have the sizes of the ones before and come from the pool
  let capacity = 1;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) capacity++;
  capacity = Math.max(capacity, TYPED_BATCH_ROWS);
  const decoder = new CopyTypedDecoder({ ...task.options, header: task.header }, task.target, task.settings, capacity);
  try {
    if (!isUtf8(bytes)) throw pgError(SqlState.character_not_in_repertoire, 'invalid byte sequence for encoding "UTF8"');
    const pos = decoder.decode(bytes, 0, false);
    if (!decoder.finished && pos < bytes.length) {
      if (!task.eof) throw new GatewayError(SqlState.internal_error, 'COPY chunk does not end with a whole record');
      // the last record without its newline (copy-typed-decoder.ts's decodeCopyInTyped does the same)
      const tail = new Uint8Array(bytes.length - pos + 1);
      tail.set(bytes.subarray(pos));
      tail[tail.length - 1] = 10;
      decoder.decode(tail, 0, true);
    }
    const batches: ChunkBatch[] = decoder.take().map((b) => ({ length: b.length, columns: b.typed }));
    const last = decoder.finish(false);
    if (last !== null) batches.push({ length: last.length, columns: last.typed });
    if (!allowValues && batches.some((b) => b.columns.some((c) => c.kind === 'values'))) return { kind: 'values', bytes };
    return { kind: 'rows', lines: decoder.lines, ended: decoder.finished, batches };
  } catch (e) {
    const error = toPlainError(e);
    const prefix = `COPY ${task.target.table}, line ${decoder.lines}`;
    const named = error.where !== undefined && (error.where === prefix || error.where.startsWith(`${prefix},`));
    return { kind: 'error', line: named ? decoder.lines : null, error };
  }
}

/** the error of a chunk whose first record is line `linesBefore + 1` of the input */
export function rebaseCopyError(r: Extract<CopyChunkResult, { kind: 'error' }>, table: string, linesBefore: number): GatewayError {
  const { error } = r;
  if (r.line === null || error.where === undefined) return fromPlainError(error);
  const suffix = error.where.slice(`COPY ${table}, line ${r.line}`.length);
  return fromPlainError({ ...error, where: `COPY ${table}, line ${linesBefore + r.line}${suffix}` });
}

/** the ArrayBuffers of a result (moved back from the worker, not copied) */
export function chunkResultBuffers(r: CopyChunkResult): ArrayBuffer[] {
  if (r.kind === 'error') return [];
  if (r.kind === 'values') return [r.bytes.buffer as ArrayBuffer];
  const out = new Set<ArrayBuffer>();
  for (const b of r.batches) {
    for (const c of b.columns) {
      if (c.kind === 'values') continue;
      if (c.validity !== null) out.add(c.validity.buffer as ArrayBuffer);
      if (c.kind === 'decimal') out.add(c.words.buffer as ArrayBuffer);
      else if (c.kind === 'utf8') {
        out.add(c.offsets.buffer as ArrayBuffer);
        out.add(c.data.buffer as ArrayBuffer);
      } else out.add(c.values.buffer as ArrayBuffer);
    }
  }
  return [...out];
}
