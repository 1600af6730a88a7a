/**
 * COPY … FROM STDIN decoders: text, csv and binary CopyData streams → rows of column values, with
 * PostgreSQL's errors (22P04 bad_copy_file_format, 22P02 from the type input functions) naming the line.
 * Streaming: input is decoded chunk by chunk and rows are handed out in batches.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9
 */
import type { OutputSettings } from '../../wire/handler.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import type { CopyOptions } from './copy-options.ts';
import { decodeCopyInTyped } from './copy-typed-decoder.ts';
import { decodeCopyInBinaryTyped } from './copy-binary-decoder.ts';

export interface CopyTarget {
  readonly table: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: SqlType }>;
}

/**
 * yields the rows (arrays of values in target column order) decoded from the CopyData payloads, in arrays
 * of rows. Every format goes through the typed decoders COPY itself uses (copy-typed-decoder.ts,
 * copy-binary-decoder.ts) and is materialized here.
 */
export async function* decodeCopyIn(data: AsyncIterable<Uint8Array>, options: CopyOptions, target: CopyTarget, settings: OutputSettings): AsyncIterable<unknown[][]> {
  const batches = options.format === 'binary' ? decodeCopyInBinaryTyped(data, target, settings) : decodeCopyInTyped(data, options, target, settings);
  for await (const batch of batches) yield rowsOfBatch(batch);
}
