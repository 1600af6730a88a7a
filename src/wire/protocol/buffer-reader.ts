/**
 * BufferReader: reads the body of one framed frontend message. Every read is bounds-checked and
 * a short or malformed body raises 08P01 (PostgreSQL's "invalid message format").
 * @see https://www.postgresql.org/docs/current/protocol-message-types.html
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

export class BufferReader {
  private pos: number;

  constructor(
    private readonly buf: Buffer,
    start = 0,
    private readonly end: number = buf.length,
    /** bytes() returns copies: the buffer is reused after parsing (a borrowed socket read buffer) */
    private readonly copyBytes = false,
  ) {
    this.pos = start;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  private need(n: number): void {
    if (n < 0 || this.pos + n > this.end) throw invalidFormat();
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  i16(): number {
    this.need(2);
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  i32(): number {
    this.need(4);
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** NUL-terminated UTF-8 string */
  cstring(): string {
    // the unnamed portal or statement (most Bind / Execute messages): no search, no decode
    if (this.pos < this.end && this.buf[this.pos] === 0) {
      this.pos++;
      return '';
    }
    const zero = this.buf.indexOf(0, this.pos);
    if (zero < 0 || zero >= this.end) throw new GatewayError(SqlState.protocol_violation, 'invalid string in message');
    const s = this.buf.toString('utf8', this.pos, zero);
    this.pos = zero + 1;
    return s;
  }

  /** n bytes as a view (no copy), or as a copy when the buffer is borrowed */
  bytes(n: number): Uint8Array {
    this.need(n);
    const b = this.copyBytes ? copyOf(this.buf, this.pos, n) : this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  rest(): Uint8Array {
    return this.bytes(this.remaining);
  }

  /** PostgreSQL's pq_getmsgend: trailing garbage is a protocol violation. */
  expectEnd(): void {
    if (this.pos !== this.end) throw invalidFormat();
  }
}

/** bytes copied byte by byte up to this length: Buffer.from(buf.subarray(…)) makes a view first (a Bind's key) */
const SMALL_COPY = 32;

/** a copy of buf[at, at + n) */
function copyOf(buf: Buffer, at: number, n: number): Buffer {
  if (n > SMALL_COPY) return Buffer.from(buf.subarray(at, at + n));
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = buf[at + i]!;
  return b;
}

export function invalidFormat(): GatewayError {
  return new GatewayError(SqlState.protocol_violation, 'invalid message format');
}
