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

/** where parseInto() adds the messages it completes (an array does) */
export interface MessageSink {
  push(m: FrontendMessage): unknown;
}
/** a partial message up to this length gets its whole buffer at once (bigger ones grow as their bytes arrive) */
const MAX_ASSEMBLY_BYTES = 1024 * 1024;

export class FrontendParser {
  private chunks: Buffer[] = [];
  /** bytes of chunks[0] already parsed */
  private offset = 0;
  private buffered = 0;
  /** total bytes of the message being assembled, once its header was seen */
  private needed = 0;
  private startupPhase = true;
  /**
   * borrowed chunks: the one message that spans reads, assembled in a buffer of its own size (allocated once its
   * header is known), so its bytes are copied once and its byte fields are views of that buffer
   */
  private assembly: Buffer | null = null;
  /** bytes of `assembly` filled so far */
  private assembled = 0;

  constructor(private readonly maxMessageLength = DEFAULT_MAX_MESSAGE_LENGTH) {}

  get inStartupPhase(): boolean {
    return this.startupPhase;
  }

  /** bytes received but not yet part of a complete message */
  get pendingBytes(): number {
    return this.buffered + this.assembled;
  }

  /**
   * Feeds one chunk; returns every message completed by it.
   * `borrowed`: the chunk's memory is reused once push returns (a socket read buffer): byte fields of the
   * messages and a partial message left over are copied; otherwise they are views of the chunk.
   * Throws a FATAL GatewayError (08P01) when the framing is broken; the stream cannot be resynchronised then.
   */
  push(chunk: Uint8Array, borrowed = false): FrontendMessage[] {
    const out: FrontendMessage[] = [];
    this.parseInto(chunk, borrowed, out);
    return out;
  }

  /**
   * push() into the caller's `out` (the connection's reused list of held messages: no array per read). The
   * messages completed by `chunk` are added in order; `borrowed` as for push().
   */
  parseInto(chunk: Uint8Array, borrowed: boolean, out: MessageSink): void {
    if (chunk.length === 0) return;
    if (this.assembly !== null) {
      // the rest of a message begun in earlier reads (a 64 KiB CopyData from pg-copy-streams spans two)
      const a = this.assembly;
      const take = Math.min(a.length - this.assembled, chunk.length);
      a.set(take === chunk.length ? chunk : chunk.subarray(0, take), this.assembled);
      this.assembled += take;
      if (this.assembled < a.length) return;
      this.assembly = null;
      this.assembled = 0;
      this.needed = 0;
      out.push(parseMessage(a, 0, a.length, false));
      if (take === chunk.length) return;
      chunk = chunk.subarray(take);
    }
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    this.buffered += chunk.length;
    for (;;) {
      const headerSize = this.startupPhase ? 4 : 5;
      if (this.needed === 0) {
        if (this.buffered < headerSize) break;
        const head = this.coalesce(headerSize);
        this.needed = this.startupPhase ? this.startupLength(head, this.offset) : this.messageLength(head, this.offset);
      }
      if (this.buffered < this.needed) break;
      const buf = this.coalesce(this.needed);
      const total = this.needed;
      this.needed = 0;
      out.push(this.startupPhase ? this.parseStartup(buf, this.offset, total) : parseMessage(buf, this.offset, total, borrowed));
      this.consume(total);
    }
    // a partial message stays for the next chunk: it must not point into memory the caller reuses
    if (borrowed && this.buffered > 0) this.keepPartial();
  }

  private startupLength(head: Buffer, at: number): number {
    const len = head.readInt32BE(at);
    if (len < 8 || len > MAX_STARTUP_PACKET_LENGTH) throw fatal('invalid length of startup packet');
    return len;
  }

  private messageLength(head: Buffer, at: number): number {
    const len = head.readInt32BE(at + 1);
    if (len < 4 || len > this.maxMessageLength) throw fatal('invalid message length');
    return len + 1;
  }

  /** Makes the first n buffered bytes contiguous in chunks[0] from `offset` (one copy only when needed). */
  private coalesce(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length - this.offset >= n) return first;
    this.flatten();
    return this.chunks[0]!;
  }

  /**
   * the partial message left of a borrowed chunk: once its length is known (typed phase) it moves into an
   * `assembly` buffer of that length, which later chunks fill; before that (a header cut short, the startup
   * packet) the few bytes are copied as they are
   */
  private keepPartial(): void {
    if (this.needed === 0 || this.startupPhase || this.needed > MAX_ASSEMBLY_BYTES) {
      this.flatten();
      return;
    }
    const a = Buffer.allocUnsafe(this.needed);
    let at = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k]!;
      const from = k === 0 ? this.offset : 0;
      c.copy(a, at, from);
      at += c.length - from;
    }
    this.assembly = a;
    this.assembled = at;
    this.chunks = [];
    this.offset = 0;
    this.buffered = 0;
  }

  /** All buffered bytes copied into one chunk of their own. */
  private flatten(): void {
    const first = this.chunks[0]!;
    this.chunks[0] = first.subarray(this.offset);
    this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    this.offset = 0;
  }

  /** n bytes parsed: move past them (no Buffer view per message) */
  private consume(n: number): void {
    this.buffered -= n;
    this.offset += n;
    if (this.offset === this.chunks[0]!.length) {
      this.chunks.shift();
      this.offset = 0;
    }
  }

  private parseStartup(buf: Buffer, start: number, len: number): StartupPacket {
    const r = new BufferReader(buf, start + 4, start + len);
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

/** Parses one complete typed message (type byte + length + body) at `start`; `copyBytes`: byte fields are copies, not views. */
function parseMessage(buf: Buffer, start: number, total: number, copyBytes: boolean): FrontendMessage {
  const code = buf[start]!;
  const r = new BufferReader(buf, start + 5, start + total, copyBytes);
  try {
    const msg = parseBody(code, r);
    if (msg.type !== 'Unknown') r.expectEnd();
    return msg;
  } catch (e) {
    if (GatewayError.is(e)) return { type: 'Malformed', code, error: e };
    throw e;
  }
}

// messages without a body, and the usual format-code lists, are shared: messages are read-only, and a round trip
// (Bind/Describe/Execute/Sync) then allocates only what varies
const SYNC: FrontendMessage = Object.freeze({ type: 'Sync' });
const FLUSH: FrontendMessage = Object.freeze({ type: 'Flush' });
const NO_FORMATS: readonly number[] = [];
const ALL_TEXT: readonly number[] = [0];
const ALL_BINARY: readonly number[] = [1];

/** Bind's parameter or result format codes: Int16 count, then the codes */
function formatCodes(r: BufferReader): readonly number[] {
  const n = r.i16();
  if (n === 0) return NO_FORMATS;
  if (n === 1) {
    const f = r.i16();
    return f === 0 ? ALL_TEXT : f === 1 ? ALL_BINARY : [f];
  }
  const codes: number[] = [];
  for (let i = 0; i < n; i++) codes.push(r.i16());
  return codes;
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
      const paramFormats = formatCodes(r);
      const np = r.i16();
      // sized up front: a growing [] takes 17 slots for pgbench's one key
      const params: (Uint8Array | null)[] = new Array(Math.max(0, np));
      for (let i = 0; i < np; i++) {
        const len = r.i32();
        params[i] = len === -1 ? null : r.bytes(len);
      }
      const resultFormats = formatCodes(r);
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
      return SYNC;
    case FrontendCode.Flush:
      return FLUSH;
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
