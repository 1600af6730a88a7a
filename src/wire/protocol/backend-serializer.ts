/**
 * Backend serializer: typed server messages → bytes, written straight into a BufferWriter.
 * One function per message, named after the message in the spec.
 * @see https://www.postgresql.org/docs/current/protocol-message-formats.html
 * @see https://www.postgresql.org/docs/current/protocol-error-fields.html
 */
import type { GatewayError } from '../../common/errors.ts';
import type { ResultColumn } from '../handler.ts';
import type { BufferWriter } from './buffer-writer.ts';
import { AuthCode, BackendCode, ErrorField } from './message-codes.ts';

export function AuthenticationOk(w: BufferWriter): void {
  w.startMessage(BackendCode.Authentication).i32(AuthCode.Ok).endMessage();
}

export function AuthenticationCleartextPassword(w: BufferWriter): void {
  w.startMessage(BackendCode.Authentication).i32(AuthCode.CleartextPassword).endMessage();
}

export function AuthenticationSASL(w: BufferWriter, mechanisms: readonly string[]): void {
  w.startMessage(BackendCode.Authentication).i32(AuthCode.SASL);
  for (const m of mechanisms) w.cstring(m);
  w.u8(0).endMessage();
}

export function AuthenticationSASLContinue(w: BufferWriter, data: string): void {
  w.startMessage(BackendCode.Authentication).i32(AuthCode.SASLContinue).string(data).endMessage();
}

export function AuthenticationSASLFinal(w: BufferWriter, data: string): void {
  w.startMessage(BackendCode.Authentication).i32(AuthCode.SASLFinal).string(data).endMessage();
}

export function ParameterStatus(w: BufferWriter, name: string, value: string): void {
  w.startMessage(BackendCode.ParameterStatus).cstring(name).cstring(value).endMessage();
}

export function BackendKeyData(w: BufferWriter, processId: number, secretKey: number): void {
  w.startMessage(BackendCode.BackendKeyData).i32(processId).i32(secretKey).endMessage();
}

export function ReadyForQuery(w: BufferWriter, status: 'I' | 'T' | 'E'): void {
  w.startMessage(BackendCode.ReadyForQuery).u8(status.charCodeAt(0)).endMessage();
}

/**
 * The bytes of RowDescription messages whose columns are all text (0) or all binary (1), by columns array:
 * a cached plan hands out the same array on every execution, so Describe / a simple query copies the message
 * instead of encoding it again.
 */
const rowDescriptions = [new WeakMap<readonly ResultColumn[], Buffer>(), new WeakMap<readonly ResultColumn[], Buffer>()] as const;

/** formats: one per column, or one for all, or none (all text), as Bind gives them */
export function RowDescription(w: BufferWriter, columns: readonly ResultColumn[], formats: readonly number[] = []): void {
  const uniform = formats.length === 0 ? 0 : formats.length === 1 ? formats[0]! : -1;
  if (uniform !== 0 && uniform !== 1) {
    encodeRowDescription(w, columns, formats);
    return;
  }
  const cached = rowDescriptions[uniform].get(columns);
  if (cached !== undefined) {
    w.bytes(cached);
    return;
  }
  const start = w.length;
  encodeRowDescription(w, columns, formats);
  rowDescriptions[uniform].set(columns, Buffer.from(w.peek().subarray(start)));
}

function encodeRowDescription(w: BufferWriter, columns: readonly ResultColumn[], formats: readonly number[]): void {
  w.startMessage(BackendCode.RowDescription).i16(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    w.cstring(c.name).i32(c.tableOid).i16(c.columnAttr).i32(c.typeOid).i16(c.typeSize).i32(c.typeMod);
    w.i16(formatOf(formats, i));
  }
  w.endMessage();
}

export function formatOf(formats: readonly number[], i: number): number {
  return formats.length === 0 ? 0 : formats.length === 1 ? formats[0]! : (formats[i] ?? 0);
}

/** DataRow with already-encoded values (tests, small paths); the hot path is encode/data-row-encoder. */
export function DataRow(w: BufferWriter, values: readonly (Uint8Array | string | null)[]): void {
  w.startMessage(BackendCode.DataRow).i16(values.length);
  for (const v of values) {
    if (v === null) w.i32(-1);
    else if (typeof v === 'string') w.lengthPrefixedString(v);
    else w.lengthPrefixedBytes(v);
  }
  w.endMessage();
}

export function CommandComplete(w: BufferWriter, tag: string): void {
  w.startMessage(BackendCode.CommandComplete).cstring(tag).endMessage();
}

export function EmptyQueryResponse(w: BufferWriter): void {
  w.startMessage(BackendCode.EmptyQueryResponse).endMessage();
}

function noticeFields(w: BufferWriter, e: GatewayError, severity: string): void {
  const field = (code: number, value: string | undefined): void => {
    if (value !== undefined) w.u8(code).cstring(value);
  };
  field(ErrorField.Severity, severity);
  field(ErrorField.SeverityNonLocalized, severity);
  field(ErrorField.Code, e.code);
  field(ErrorField.Message, e.message);
  field(ErrorField.Detail, e.detail);
  field(ErrorField.Hint, e.hint);
  field(ErrorField.Position, e.position === undefined ? undefined : String(e.position));
  field(ErrorField.Where, e.where);
  field(ErrorField.SchemaName, e.schema);
  field(ErrorField.TableName, e.table);
  field(ErrorField.ColumnName, e.column);
  field(ErrorField.DataTypeName, e.dataType);
  field(ErrorField.ConstraintName, e.constraint);
  w.u8(0);
}

export function ErrorResponse(w: BufferWriter, e: GatewayError): void {
  w.startMessage(BackendCode.ErrorResponse);
  noticeFields(w, e, e.severity);
  w.endMessage();
}

export function NoticeResponse(w: BufferWriter, e: GatewayError): void {
  w.startMessage(BackendCode.NoticeResponse);
  noticeFields(w, e, e.severity === 'ERROR' || e.severity === 'FATAL' ? 'NOTICE' : e.severity);
  w.endMessage();
}

export function ParseComplete(w: BufferWriter): void {
  w.startMessage(BackendCode.ParseComplete).endMessage();
}

export function BindComplete(w: BufferWriter): void {
  w.startMessage(BackendCode.BindComplete).endMessage();
}

export function CloseComplete(w: BufferWriter): void {
  w.startMessage(BackendCode.CloseComplete).endMessage();
}

export function ParameterDescription(w: BufferWriter, typeOids: readonly number[]): void {
  w.startMessage(BackendCode.ParameterDescription).i16(typeOids.length);
  for (const oid of typeOids) w.i32(oid | 0);
  w.endMessage();
}

export function NoData(w: BufferWriter): void {
  w.startMessage(BackendCode.NoData).endMessage();
}

export function PortalSuspended(w: BufferWriter): void {
  w.startMessage(BackendCode.PortalSuspended).endMessage();
}

function copyResponse(w: BufferWriter, code: number, format: 0 | 1, columnCount: number): void {
  w.startMessage(code).u8(format).i16(columnCount);
  for (let i = 0; i < columnCount; i++) w.i16(format);
  w.endMessage();
}

export function CopyInResponse(w: BufferWriter, format: 0 | 1, columnCount: number): void {
  copyResponse(w, BackendCode.CopyInResponse, format, columnCount);
}

export function CopyOutResponse(w: BufferWriter, format: 0 | 1, columnCount: number): void {
  copyResponse(w, BackendCode.CopyOutResponse, format, columnCount);
}

export function CopyData(w: BufferWriter, data: Uint8Array): void {
  w.startMessage(BackendCode.CopyData).bytes(data).endMessage();
}

export function CopyDone(w: BufferWriter): void {
  w.startMessage(BackendCode.CopyDone).endMessage();
}

/** newestMinor: the newest 3.x minor version we support; unrecognized: `_pq_.` options we ignored */
export function NegotiateProtocolVersion(w: BufferWriter, newestMinor: number, unrecognized: readonly string[]): void {
  w.startMessage(BackendCode.NegotiateProtocolVersion).i32((3 << 16) | newestMinor).i32(unrecognized.length);
  for (const o of unrecognized) w.cstring(o);
  w.endMessage();
}
