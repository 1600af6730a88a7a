/**
 * Fixture builders for protocol tests: one function per frontend message, producing the exact bytes a
 * client sends. Used by the split-buffer parser tests, raw-socket tests and the fuzz test.
 * @see https://www.postgresql.org/docs/current/protocol-message-formats.html
 */
import { FrontendCode, StartupCode } from '../protocol/message-codes.ts';

class Builder {
  private parts: Buffer[] = [];
  i16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    this.parts.push(b);
    return this;
  }
  i32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v | 0);
    this.parts.push(b);
    return this;
  }
  cstring(s: string): this {
    this.parts.push(Buffer.from(s, 'utf8'), Buffer.from([0]));
    return this;
  }
  bytes(b: Uint8Array): this {
    this.parts.push(Buffer.from(b));
    return this;
  }
  /** typed message: code + length + body */
  message(code: number): Buffer {
    const body = Buffer.concat(this.parts);
    const head = Buffer.alloc(5);
    head[0] = code;
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  }
  /** untyped startup packet: length + body */
  packet(): Buffer {
    const body = Buffer.concat(this.parts);
    const head = Buffer.alloc(4);
    head.writeInt32BE(body.length + 4);
    return Buffer.concat([head, body]);
  }
}

const b = (): Builder => new Builder();

export const fe = {
  startup(parameters: Record<string, string>, version: number = StartupCode.ProtocolVersion3): Buffer {
    const w = b().i32(version);
    for (const [k, v] of Object.entries(parameters)) w.cstring(k).cstring(v);
    return w.cstring('').packet();
  },
  sslRequest: (): Buffer => b().i32(StartupCode.SSLRequest).packet(),
  gssencRequest: (): Buffer => b().i32(StartupCode.GSSENCRequest).packet(),
  cancelRequest: (pid: number, secret: number): Buffer => b().i32(StartupCode.CancelRequest).i32(pid).i32(secret).packet(),
  query: (sql: string): Buffer => b().cstring(sql).message(FrontendCode.Query),
  parse(name: string, sql: string, paramTypes: number[] = []): Buffer {
    const w = b().cstring(name).cstring(sql).i16(paramTypes.length);
    for (const t of paramTypes) w.i32(t);
    return w.message(FrontendCode.Parse);
  },
  bind(portal: string, statement: string, params: (Uint8Array | string | null)[] = [], paramFormats: number[] = [], resultFormats: number[] = []): Buffer {
    const w = b().cstring(portal).cstring(statement).i16(paramFormats.length);
    for (const f of paramFormats) w.i16(f);
    w.i16(params.length);
    for (const p of params) {
      if (p === null) w.i32(-1);
      else {
        const bytes = typeof p === 'string' ? Buffer.from(p) : p;
        w.i32(bytes.length).bytes(bytes);
      }
    }
    w.i16(resultFormats.length);
    for (const f of resultFormats) w.i16(f);
    return w.message(FrontendCode.Bind);
  },
  describe: (target: 'S' | 'P', name: string): Buffer => b().bytes(Buffer.from(target)).cstring(name).message(FrontendCode.Describe),
  execute: (portal: string, maxRows = 0): Buffer => b().cstring(portal).i32(maxRows).message(FrontendCode.Execute),
  close: (target: 'S' | 'P', name: string): Buffer => b().bytes(Buffer.from(target)).cstring(name).message(FrontendCode.Close),
  sync: (): Buffer => b().message(FrontendCode.Sync),
  flush: (): Buffer => b().message(FrontendCode.Flush),
  terminate: (): Buffer => b().message(FrontendCode.Terminate),
  copyData: (data: Uint8Array | string): Buffer => b().bytes(typeof data === 'string' ? Buffer.from(data) : data).message(FrontendCode.CopyData),
  copyDone: (): Buffer => b().message(FrontendCode.CopyDone),
  copyFail: (message: string): Buffer => b().cstring(message).message(FrontendCode.CopyFail),
  password: (password: string): Buffer => b().cstring(password).message(FrontendCode.PasswordMessage),
  saslInitialResponse(mechanism: string, data: string): Buffer {
    const bytes = Buffer.from(data);
    return b().cstring(mechanism).i32(bytes.length).bytes(bytes).message(FrontendCode.PasswordMessage);
  },
  saslResponse: (data: string): Buffer => b().bytes(Buffer.from(data)).message(FrontendCode.PasswordMessage),
};

/** Splits a backend byte stream into [type char, body] pairs (for raw-socket assertions). */
export function splitBackendMessages(buf: Buffer): Array<{ type: string; body: Buffer }> {
  const out: Array<{ type: string; body: Buffer }> = [];
  let pos = 0;
  while (pos + 5 <= buf.length) {
    const len = buf.readInt32BE(pos + 1);
    if (pos + 1 + len > buf.length) break;
    out.push({ type: String.fromCharCode(buf[pos]!), body: buf.subarray(pos + 5, pos + 1 + len) });
    pos += 1 + len;
  }
  return out;
}
