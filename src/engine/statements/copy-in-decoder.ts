/**
 * COPY … FROM STDIN decoders: text, csv and binary CopyData streams → rows of column values, with
 * PostgreSQL's errors (22P04 bad_copy_file_format, 22P02 from the type input functions) naming the line.
 * Streaming: input is decoded chunk by chunk and rows are handed out in batches.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9
 */
import { GatewayError, pgError, toGatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { OutputSettings } from '../../wire/handler.ts';
import { binaryIn } from '../../common/pgtypes/index.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import type { CopyOptions } from './copy-options.ts';
import { decodeCopyInTyped } from './copy-typed-decoder.ts';

export interface CopyTarget {
  readonly table: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: SqlType }>;
}

/**
 * yields the rows (arrays of values in target column order) decoded from the CopyData payloads, in arrays
 * of rows. text and csv go through the typed decoder (copy-typed-decoder.ts, which COPY itself uses) and
 * are materialized here; binary is decoded value by value.
 */
export async function* decodeCopyIn(data: AsyncIterable<Uint8Array>, options: CopyOptions, target: CopyTarget, settings: OutputSettings): AsyncIterable<unknown[][]> {
  if (options.format === 'binary') {
    yield* decodeBinary(data, target);
    return;
  }
  for await (const batch of decodeCopyInTyped(data, options, target, settings)) yield rowsOfBatch(batch);
}

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

async function* decodeBinary(data: AsyncIterable<Uint8Array>, target: CopyTarget): AsyncIterable<unknown[][]> {
  let buf: Uint8Array = new Uint8Array(0);
  let pos = 0;
  let headerDone = false;
  let line = 0;
  const where = () => `COPY ${target.table}, line ${line}`;
  for await (const chunk of data) {
    const merged = new Uint8Array(buf.length - pos + chunk.length);
    merged.set(buf.subarray(pos), 0);
    merged.set(chunk, buf.length - pos);
    buf = merged;
    pos = 0;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (!headerDone) {
      if (buf.length < 19) continue;
      if (!SIGNATURE.every((b, i) => buf[i] === b)) throw pgError(SqlState.bad_copy_file_format, 'COPY file signature not recognized');
      const extLen = view.getInt32(15);
      if (buf.length < 19 + extLen) continue;
      pos = 19 + extLen;
      headerDone = true;
    }
    const out: unknown[][] = [];
    for (;;) {
      if (buf.length - pos < 2) break;
      const count = view.getInt16(pos);
      if (count === -1) {
        if (out.length > 0) yield out;
        return;
      }
      if (count !== target.columns.length) {
        line++;
        throw pgError(SqlState.bad_copy_file_format, `row field count is ${count}, expected ${target.columns.length}`, { where: where() });
      }
      let p = pos + 2;
      const row = new Array<unknown>(count);
      let complete = true;
      for (let c = 0; c < count; c++) {
        if (buf.length - p < 4) {
          complete = false;
          break;
        }
        const len = view.getInt32(p);
        p += 4;
        if (len === -1) {
          row[c] = null;
          continue;
        }
        if (buf.length - p < len) {
          complete = false;
          break;
        }
        try {
          row[c] = binaryIn(target.columns[c]!.type.oid, buf.subarray(p, p + len));
        } catch (e) {
          // PostgreSQL's CONTEXT for binary input names the line (tuple) and column, not the bytes
          const err = toGatewayError(e);
          throw new GatewayError(err.code, err.message, { where: `COPY ${target.table}, line ${line + 1}, column ${target.columns[c]!.name}` });
        }
        p += len;
      }
      if (!complete) break;
      pos = p;
      line++;
      out.push(row);
    }
    if (out.length > 0) yield out;
  }
  if (!headerDone) throw pgError(SqlState.bad_copy_file_format, 'COPY file signature not recognized');
}
