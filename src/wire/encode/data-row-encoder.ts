/**
 * DataRow encoding, the hot path: Batch (columnar JS values) → DataRow messages written directly into the
 * connection's BufferWriter. Per column, text (textOut with the session's OutputSettings) or binary
 * (binaryOut), as the portal's result format codes say. No per-row arrays are built.
 * @see https://www.postgresql.org/docs/current/protocol-message-formats.html (DataRow)
 */
import type { Batch } from '../../common/batch.ts';
import type { OutputSettings, ResultColumn } from '../handler.ts';
import type { BufferWriter } from '../protocol/buffer-writer.ts';
import { formatOf } from '../protocol/backend-serializer.ts';
import { BackendCode } from '../protocol/message-codes.ts';
import type { ValueCodec } from './value-codec.ts';

/** Precomputed per-portal encoding plan: type OIDs and formats by column. */
export interface RowEncoding {
  readonly oids: Int32Array;
  /** 1 = binary per column */
  readonly binary: Uint8Array;
}

/**
 * Encodings for all-text / all-binary results, by columns array: the handler returns the same array for
 * every execution of a cached plan, so the typed arrays are built once per plan, not per statement.
 */
const uniform = [new WeakMap<readonly ResultColumn[], RowEncoding>(), new WeakMap<readonly ResultColumn[], RowEncoding>()] as const;

export function rowEncoding(columns: readonly ResultColumn[], formats: readonly number[]): RowEncoding {
  const format = formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : -1;
  if (format !== 0 && format !== 1) return buildRowEncoding(columns, formats);
  let enc = uniform[format].get(columns);
  if (enc === undefined) uniform[format].set(columns, (enc = buildRowEncoding(columns, formats)));
  return enc;
}

function buildRowEncoding(columns: readonly ResultColumn[], formats: readonly number[]): RowEncoding {
  const oids = new Int32Array(columns.length);
  const binary = new Uint8Array(columns.length);
  for (let i = 0; i < columns.length; i++) {
    oids[i] = columns[i]!.typeOid;
    binary[i] = formatOf(formats, i) === 1 ? 1 : 0;
  }
  return { oids, binary };
}

/** Writes rows [from, to) of the batch as DataRow messages. */
export function encodeDataRows(
  w: BufferWriter,
  batch: Batch,
  from: number,
  to: number,
  enc: RowEncoding,
  codec: ValueCodec,
  settings: OutputSettings,
): void {
  const cols = batch.columns;
  const n = enc.oids.length;
  try {
    for (let r = from; r < to; r++) {
      w.startMessage(BackendCode.DataRow).i16(n);
      for (let c = 0; c < n; c++) {
        const v = cols[c]?.[r] ?? null;
        if (v === null) w.i32(-1);
        else if (enc.binary[c] === 1) w.lengthPrefixedBytes(codec.binaryOut(enc.oids[c]!, v));
        else w.lengthPrefixedString(codec.textOut(enc.oids[c]!, v, settings));
      }
      w.endMessage();
    }
  } catch (e) {
    w.abortMessage(); // the rows before stay; the half-written one goes
    throw e;
  }
}
