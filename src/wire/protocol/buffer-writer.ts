/**
 * BufferWriter: one growable output buffer per connection. Backend messages are written straight into it
 * (no per-message allocation) and the connection hands the bytes to the socket in one write at flush points
 * (ReadyForQuery, PortalSuspended, Flush, large batches).
 * @see https://www.postgresql.org/docs/current/protocol-message-formats.html
 */
/**
 * Strings of up to this many UTF-16 units are copied unit by unit while they are ASCII: Buffer#write's call into
 * C++ costs ≈ 65 ns whatever the length, the loop ≈ 2.5 ns per character, so the loop wins below ≈ 24 characters
 * (session 25 microbenchmark: 1 character 64 → 7 ns, 10 characters 68 → 24 ns, 32 characters 73 → 86 ns). Most
 * values and every command tag of a round trip are that short (`SELECT 1`, `1`, numbers, dates).
 */
export const SHORT_ASCII = 16;

/** `s` written at `pos` when it is short and ASCII: the bytes written; -1 (nothing meaningful written) otherwise */
function shortAscii(buf: Buffer, pos: number, s: string): number {
  const n = s.length;
  if (n > SHORT_ASCII) return -1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return -1;
    buf[pos + i] = c;
  }
  return n;
}

export class BufferWriter {
  private buf: Buffer;
  private pos = 0;
  private messageStart = -1;

  constructor(initialSize = 16 * 1024) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  /** bytes written and not yet taken */
  get length(): number {
    return this.pos;
  }

  private ensure(extra: number): void {
    const need = this.pos + extra;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Starts a typed message: the type byte and a length placeholder patched by endMessage. */
  startMessage(code: number): this {
    this.ensure(5);
    this.buf[this.pos] = code;
    this.messageStart = this.pos + 1;
    this.pos += 5;
    return this;
  }

  /** Drops a message started but not ended (a value failed to encode): the stream stays well-formed. */
  abortMessage(): void {
    if (this.messageStart < 0) return;
    this.pos = this.messageStart - 1;
    this.messageStart = -1;
  }

  endMessage(): this {
    this.buf.writeInt32BE(this.pos - this.messageStart, this.messageStart);
    this.messageStart = -1;
    return this;
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }

  i16(v: number): this {
    this.ensure(2);
    this.buf.writeInt16BE((v << 16) >> 16, this.pos);
    this.pos += 2;
    return this;
  }

  /** also takes uint32 values such as OIDs (same bytes) */
  i32(v: number): this {
    this.ensure(4);
    this.buf.writeInt32BE(v | 0, this.pos);
    this.pos += 4;
    return this;
  }

  /** UTF-8 text without terminator */
  string(s: string): this {
    this.ensure(s.length * 3);
    const n = shortAscii(this.buf, this.pos, s);
    this.pos += n >= 0 ? n : this.buf.write(s, this.pos, 'utf8');
    return this;
  }

  /** UTF-8 text + NUL (the protocol's String type) */
  cstring(s: string): this {
    this.ensure(s.length * 3 + 1);
    const n = shortAscii(this.buf, this.pos, s);
    this.pos += n >= 0 ? n : this.buf.write(s, this.pos, 'utf8');
    this.buf[this.pos++] = 0;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** Int32 byte length followed by the UTF-8 text: a DataRow column value, encoded in place. */
  lengthPrefixedString(s: string): this {
    this.ensure(4 + s.length * 3);
    let n = shortAscii(this.buf, this.pos + 4, s);
    if (n < 0) n = this.buf.write(s, this.pos + 4, 'utf8');
    this.buf.writeInt32BE(n, this.pos);
    this.pos += 4 + n;
    return this;
  }

  lengthPrefixedBytes(b: Uint8Array): this {
    this.ensure(4 + b.length);
    this.buf.writeInt32BE(b.length, this.pos);
    this.buf.set(b, this.pos + 4);
    this.pos += 4 + b.length;
    return this;
  }

  /**
   * The written bytes without copying (a view of the backing buffer), for a socket write. Call release()
   * right after: the view stays valid only until the next write into this writer.
   */
  peek(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  /**
   * Resets after peek(). `reusable`: the consumer is done with the view (the socket handed the bytes to the
   * kernel at once); otherwise the view now belongs to the consumer and writing continues in a new buffer.
   */
  release(reusable: boolean): void {
    this.pos = 0;
    this.messageStart = -1;
    if (!reusable) this.buf = Buffer.allocUnsafe(16 * 1024);
    else if (this.buf.length > 4 * 1024 * 1024) this.buf = Buffer.allocUnsafe(64 * 1024); // give back big spikes
  }

  /** Copies out the written bytes and resets; the backing buffer is reused. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    if (this.buf.length > 4 * 1024 * 1024) this.buf = Buffer.allocUnsafe(64 * 1024); // give back big spikes
    return out;
  }
}
