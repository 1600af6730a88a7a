/**
 * Sends one StatementResult: rows (optional RowDescription, DataRows, CommandComplete), a command tag,
 * EmptyQueryResponse, or a COPY exchange (CopyOutResponse + CopyData… + CopyDone, or CopyInResponse and
 * the client's CopyData stream fed to the handler).
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-COPY
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { StatementResult } from './handler.ts';
import { rowEncoding } from './encode/data-row-encoder.ts';
import {
  CommandComplete,
  CopyData,
  CopyDone,
  CopyInResponse,
  CopyOutResponse,
  EmptyQueryResponse,
  ErrorResponse,
  RowDescription,
} from './protocol/backend-serializer.ts';
import { FrontendCode } from './protocol/message-codes.ts';
import { RowCursor } from './row-cursor.ts';
import type { WireIO } from './wire-io.ts';

/**
 * Simple-query flavour: the whole result, with RowDescription for row results, text format. A promise only
 * when something must be awaited: rows computed at once (StatementResult.ready) that fit the socket, a
 * command tag and an empty query are sent here and now.
 */
export function sendStatementResult(io: WireIO, result: StatementResult): Promise<void> | undefined {
  switch (result.kind) {
    case 'rows':
      return result.ready === undefined ? sendStreamedRows(io, result) : sendReadyRows(io, result, result.ready);
    case 'command':
      CommandComplete(io.w, result.tag);
      return undefined;
    case 'empty':
      EmptyQueryResponse(io.w);
      return undefined;
    case 'copyOut':
      return sendCopyOut(io, result);
    case 'copyIn':
      return receiveCopyIn(io, result);
  }
}

type RowsResult = Extract<StatementResult, { kind: 'rows' }>;

/** rows the handler computed at once: they hold no stream, so nothing needs closing whatever happens */
function sendReadyRows(io: WireIO, result: RowsResult, ready: NonNullable<RowsResult['ready']>): Promise<void> | undefined {
  RowDescription(io.w, result.columns);
  const cursor = new RowCursor(result.batches, rowEncoding(result.columns, result.binary === true ? [1] : []), ready);
  const n = cursor.send(io, 0);
  if (typeof n !== 'number') return n.then((sent) => (io.isClosed() ? undefined : CommandComplete(io.w, result.tag(sent))));
  if (!io.isClosed()) CommandComplete(io.w, result.tag(n));
  return undefined;
}

async function sendStreamedRows(io: WireIO, result: RowsResult): Promise<void> {
  RowDescription(io.w, result.columns);
  const cursor = new RowCursor(result.batches, rowEncoding(result.columns, result.binary === true ? [1] : []), null);
  try {
    let n = cursor.send(io, 0);
    if (typeof n !== 'number') n = await n;
    if (!io.isClosed()) CommandComplete(io.w, result.tag(n));
  } finally {
    if (!cursor.done) await cursor.close();
  }
}

export async function sendCopyOut(io: WireIO, result: Extract<StatementResult, { kind: 'copyOut' }>): Promise<void> {
  CopyOutResponse(io.w, result.format, result.columnCount);
  for await (const chunk of result.data) {
    CopyData(io.w, chunk);
    await io.flushIfFull();
    if (io.isClosed()) return;
  }
  CopyDone(io.w);
  CommandComplete(io.w, result.tag(result.rowCount()));
}

export async function receiveCopyIn(io: WireIO, result: Extract<StatementResult, { kind: 'copyIn' }>): Promise<void> {
  CopyInResponse(io.w, result.format, result.columnCount);
  await io.flush();
  const state = { desynchronized: null as GatewayError | null };
  try {
    CommandComplete(io.w, await result.consume(copyInStream(io, state)));
  } catch (e) {
    if (!state.desynchronized) throw e;
    // as PostgreSQL: the ERROR, then FATAL because message boundaries can no longer be trusted
    ErrorResponse(io.w, state.desynchronized);
    throw new GatewayError(SqlState.protocol_violation, 'terminating connection because protocol synchronization was lost', { severity: 'FATAL' });
  }
}

/** CopyData payloads until CopyDone; CopyFail → 57014; anything but Flush/Sync → 08P01. */
async function* copyInStream(io: WireIO, state: { desynchronized: GatewayError | null }): AsyncGenerator<Uint8Array> {
  for (;;) {
    const m = await io.nextMessage();
    if (m === null) throw new GatewayError(SqlState.connection_exception, 'unexpected EOF on client connection with an open transaction', { severity: 'FATAL' });
    switch (m.type) {
      case 'CopyData':
        yield m.data;
        break;
      case 'CopyDone':
        return;
      case 'CopyFail':
        throw new GatewayError(SqlState.query_canceled, `COPY from stdin failed: ${m.message}`);
      case 'Flush':
      case 'Sync':
        break;
      case 'Terminate':
        throw new GatewayError(SqlState.connection_exception, 'terminating connection during COPY from stdin', { severity: 'FATAL' });
      default: {
        const code = 'code' in m ? m.code : (FrontendCode[m.type as keyof typeof FrontendCode] ?? 0);
        const hex = code.toString(16).toUpperCase().padStart(2, '0');
        state.desynchronized = new GatewayError(SqlState.protocol_violation, `unexpected message type 0x${hex} during COPY from stdin`);
        throw state.desynchronized;
      }
    }
  }
}
