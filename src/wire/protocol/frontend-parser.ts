/**
 * FrontendParser: bytes from the socket → typed client messages. Split-safe: partial messages are kept
 * across chunks, and several messages in one chunk all come out. The declared length is checked before
 * anything is buffered for it, so a bogus length costs nothing (08P01 `invalid message length`).
 * Starts in the startup phase (untyped packets) and switches to typed messages after StartupMessage.
 * @see https://www.postgresql.org/docs/current/protocol-message-formats.html
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { BufferReader } from './buffer-reader.ts';
import type { FrontendMessage, StartupPacket } from './frontend-messages.ts';
import { FrontendCode, MAX_STARTUP_PACKET_LENGTH, StartupCode } from './message-codes.ts';

export const DEFAULT_MAX_MESSAGE_LENGTH = 64 * 1024 * 1024;

export class FrontendParser {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** total bytes of the message being assembled, once its header was seen */
  private needed = 0;
  private startupPhase = true;

  constructor(private readonly maxMessageLength = DEFAULT_MAX_MESSAGE_LENGTH) {}

  get inStartupPhase(): boolean {
    return this.startupPhase;
  }

  /** bytes received but not yet part of a complete message */
  get pendingBytes(): number {
    return this.buffered;
  }

  /**
   * Feeds one chunk; returns every message completed by it.
   * Throws a FATAL GatewayError (08P01) when the framing is broken; the stream cannot be resynchronised then.
   */
  push(chunk: Uint8Array): FrontendMessage[] {
    const out: FrontendMessage[] = [];
    if (chunk.length === 0) return out;
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    this.buffered += chunk.length;
    for (;;) {
      const headerSize = this.startupPhase ? 4 : 5;
      if (this.needed === 0) {
        if (this.buffered < headerSize) break;
        const head = this.coalesce(headerSize);
        this.needed = this.startupPhase ? this.startupLength(head) : this.messageLength(head);
      }
      if (this.buffered < this.needed) break;
      const buf = this.coalesce(this.needed);
      const total = this.needed;
      this.needed = 0;
      out.push(this.startupPhase ? this.parseStartup(buf, total) : parseMessage(buf, total));
      this.consume(total);
    }
    return out;
  }

  private startupLength(head: Buffer): number {
    const len = head.readInt32BE(0);
    if (len < 8 || len > MAX_STARTUP_PACKET_LENGTH) throw fatal('invalid length of startup packet');
    return len;
  }

  private messageLength(head: Buffer): number {
    const len = head.readInt32BE(1);
    if (len < 4 || len > this.maxMessageLength) throw fatal('invalid message length');
    return len + 1;
  }

  /** Makes the first n buffered bytes contiguous in chunks[0] (one concat only when needed). */
  private coalesce(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length >= n) return first;
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }

  private consume(n: number): void {
    const first = this.chunks[0]!;
    this.buffered -= n;
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
  }

  private parseStartup(buf: Buffer, len: number): StartupPacket {
    const r = new BufferReader(buf, 4, len);
    const code = r.i32();
    switch (code) {
      case StartupCode.SSLRequest:
        return { type: 'SSLRequest' };
      case StartupCode.GSSENCRequest:
        return { type: 'GSSENCRequest' };
      case StartupCode.CancelRequest: {
        if (len !== 16) throw fatal('invalid length of startup packet');
        return { type: 'CancelRequest', processId: r.i32(), secretKey: r.i32() };
      }
      default: {
        const parameters: Record<string, string> = {};
        if (code >> 16 === 3) {
          try {
            for (;;) {
              const name = r.cstring();
              if (name === '') break;
              parameters[name] = r.cstring();
            }
          } catch {
            throw fatal('invalid startup packet layout: expected terminator as last byte');
          }
        }
        this.startupPhase = false;
        return { type: 'StartupMessage', protocolVersion: code >>> 0, parameters };
      }
    }
  }
}

function fatal(message: string): GatewayError {
  return new GatewayError(SqlState.protocol_violation, message, { severity: 'FATAL' });
}

/** Parses one complete typed message (type byte + length + body). */
function parseMessage(buf: Buffer, total: number): FrontendMessage {
  const code = buf[0]!;
  const r = new BufferReader(buf, 5, total);
  try {
    const msg = parseBody(code, r);
    if (msg.type !== 'Unknown') r.expectEnd();
    return msg;
  } catch (e) {
    if (GatewayError.is(e)) return { type: 'Malformed', code, error: e };
    throw e;
  }
}

function parseBody(code: number, r: BufferReader): FrontendMessage {
  switch (code) {
    case FrontendCode.Query:
      return { type: 'Query', sql: r.cstring() };
    case FrontendCode.Parse: {
      const name = r.cstring();
      const sql = r.cstring();
      const n = r.i16();
      const paramTypes: number[] = [];
      for (let i = 0; i < n; i++) paramTypes.push(r.u32());
      return { type: 'Parse', name, sql, paramTypes };
    }
    case FrontendCode.Bind: {
      const portal = r.cstring();
      const statement = r.cstring();
      const nf = r.i16();
      const paramFormats: number[] = [];
      for (let i = 0; i < nf; i++) paramFormats.push(r.i16());
      const np = r.i16();
      const params: (Uint8Array | null)[] = [];
      for (let i = 0; i < np; i++) {
        const len = r.i32();
        params.push(len === -1 ? null : r.bytes(len));
      }
      const nr = r.i16();
      const resultFormats: number[] = [];
      for (let i = 0; i < nr; i++) resultFormats.push(r.i16());
      return { type: 'Bind', portal, statement, paramFormats, params, resultFormats };
    }
    case FrontendCode.Describe:
    case FrontendCode.Close: {
      const t = r.u8();
      if (t !== 0x53 && t !== 0x50) {
        const what = code === FrontendCode.Describe ? 'Describe' : 'Close';
        throw new GatewayError(SqlState.protocol_violation, `invalid ${what} message subtype ${t}`);
      }
      const target = t === 0x53 ? 'S' : 'P';
      const name = r.cstring();
      return code === FrontendCode.Describe ? { type: 'Describe', target, name } : { type: 'Close', target, name };
    }
    case FrontendCode.Execute:
      return { type: 'Execute', portal: r.cstring(), maxRows: r.i32() };
    case FrontendCode.Sync:
      return { type: 'Sync' };
    case FrontendCode.Flush:
      return { type: 'Flush' };
    case FrontendCode.Terminate:
      return { type: 'Terminate' };
    case FrontendCode.CopyData:
      return { type: 'CopyData', data: r.rest() };
    case FrontendCode.CopyDone:
      return { type: 'CopyDone' };
    case FrontendCode.CopyFail:
      return { type: 'CopyFail', message: r.cstring() };
    case FrontendCode.PasswordMessage:
      return { type: 'PasswordMessage', data: r.rest() };
    case FrontendCode.FunctionCall:
      r.rest();
      return { type: 'FunctionCall' };
    default:
      return { type: 'Unknown', code };
  }
}
