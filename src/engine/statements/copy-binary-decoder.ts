/**
 * COPY … FROM STDIN (FORMAT binary) decoded into typed column buffers (iceberg/write/typed-columns.ts), as
 * copy-typed-decoder.ts does for text and csv: fixed-size integers, dates, numerics within the column's scale
 * and ASCII strings go from the bytes straight into the builders (copy-column-sinks.ts `binary`); anything
 * else through binaryIn, then the column's typmod as PostgreSQL's receive functions apply it (numeric(p,s)
 * rounds and raises 22003, char(n) pads, varchar(n)/char(n) raise 22001). Errors name the line and column
 * (`COPY t, line N, column c`), as PostgreSQL's CONTEXT for binary input does.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.10
 */
import { GatewayError, pgError, toGatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { binaryIn, textIn } from '../../common/pgtypes/index.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { bitLengthCoerce, varbitLengthCoerce } from '../../common/pgtypes/bit-math.ts';
import type { OutputSettings } from '../../wire/handler.ts';
import { TypedBatch } from '../../iceberg/write/typed-columns.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import { charTypmod } from './copy-text-fields.ts';
import { CopyColumnSink } from './copy-column-sinks.ts';
import { TYPED_BATCH_ROWS } from './copy-typed-decoder.ts';

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

/** binaryIn, then the typmod the column's receive function applies */
function receive(type: SqlType, bytes: Uint8Array, settings: OutputSettings): unknown {
  const v = binaryIn(type.oid, bytes);
  // bit_recv / varbit_recv check the length against the typmod (n itself, not n + 4)
  if (type.oid === Oid.bit && v !== null) return bitLengthCoerce(v as string, type.typmod, false);
  if (type.oid === Oid.varbit && v !== null) return varbitLengthCoerce(v as string, type.typmod, false);
  if (type.typmod < 4 || v === null) return v;
  if (type.oid === Oid.numeric) return textIn(Oid.numeric, type.typmod, String(v), settings);
  return charTypmod(type, v);
}

/**
 * binary CopyData payloads → TypedBatches of `batchRows` rows (the last one shorter), columns in target
 * order. A tuple split across payloads waits for the next one; only the unread rest is carried over.
 */
export async function* decodeCopyInBinaryTyped(
  data: AsyncIterable<Uint8Array>, target: CopyTarget, settings: OutputSettings, batchRows = TYPED_BATCH_ROWS,
): AsyncIterable<TypedBatch> {
  const width = target.columns.length;
  const sinks = target.columns.map((c) => new CopyColumnSink(c.type, batchRows));
  let rows = 0;
  let line = 0;
  let rest: Uint8Array = new Uint8Array(0);
  let headerDone = false;
  let ended = false;
  const batch = (): TypedBatch => {
    const b = new TypedBatch(rows, sinks.map((s) => s.finish()));
    rows = 0;
    return b;
  };
  for await (const chunk of data) {
    if (ended) continue;
    let buf: Uint8Array = chunk;
    if (rest.length > 0) {
      buf = new Uint8Array(rest.length + chunk.length);
      buf.set(rest, 0);
      buf.set(chunk, rest.length);
    }
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let pos = 0;
    if (!headerDone) {
      if (buf.length < 19) {
        rest = buf.slice();
        continue;
      }
      if (!SIGNATURE.every((b, i) => buf[i] === b)) throw pgError(SqlState.bad_copy_file_format, 'COPY file signature not recognized');
      const extLen = view.getInt32(15);
      if (buf.length < 19 + extLen) {
        rest = buf.slice();
        continue;
      }
      pos = 19 + extLen;
      headerDone = true;
    }
    const out: TypedBatch[] = [];
    for (;;) {
      if (buf.length - pos < 2) break;
      const count = view.getInt16(pos);
      if (count === -1) {
        ended = true;
        break;
      }
      if (count !== width) {
        throw pgError(SqlState.bad_copy_file_format, `row field count is ${count}, expected ${width}`, { where: `COPY ${target.table}, line ${line + 1}` });
      }
      // the whole tuple must be here before any field is appended
      let p = pos + 2;
      let complete = true;
      for (let c = 0; c < count; c++) {
        if (buf.length - p < 4) {
          complete = false;
          break;
        }
        const len = view.getInt32(p);
        p += 4 + (len > 0 ? len : 0);
        if (p > buf.length) {
          complete = false;
          break;
        }
      }
      if (!complete) break;
      line++;
      p = pos + 2;
      for (let c = 0; c < count; c++) {
        const len = view.getInt32(p);
        p += 4;
        const sink = sinks[c]!;
        if (len === -1) {
          sink.appendNull();
          continue;
        }
        if (len < -1) {
          throw pgError(SqlState.bad_copy_file_format, 'invalid field size', { where: `COPY ${target.table}, line ${line}` });
        }
        if (!sink.binary(buf, view, p, p + len)) {
          try {
            sink.appendValue(receive(sink.type, buf.subarray(p, p + len), settings));
          } catch (e) {
            const err = toGatewayError(e);
            throw new GatewayError(err.code, err.message, { where: `COPY ${target.table}, line ${line}, column ${target.columns[c]!.name}` });
          }
        }
        p += len;
      }
      pos = p;
      if (++rows === batchRows) out.push(batch());
    }
    rest = ended ? new Uint8Array(0) : buf.slice(pos);
    for (const b of out) yield b;
  }
  if (!headerDone) throw pgError(SqlState.bad_copy_file_format, 'COPY file signature not recognized');
  // the end of the data between tuples is the end (PostgreSQL needs no trailer); inside one it is an error
  if (!ended && rest.length >= 2) throw pgError(SqlState.bad_copy_file_format, 'unexpected EOF in COPY data', { where: `COPY ${target.table}, line ${line + 1}` });
  if (rows > 0) yield batch();
}
