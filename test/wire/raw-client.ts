/** A raw-socket client for protocol tests: send exact bytes, read backend messages. */
import { connect, type Socket } from 'node:net';
import { fe, splitBackendMessages } from '../../src/wire/testing/test-buffers.ts';

export interface BackendMessage {
  readonly type: string;
  readonly body: Buffer;
}

export class RawClient {
  private buf = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = connect(port, host, () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  /** StartupMessage as user `u`, read until the first ReadyForQuery. */
  static async ready(port: number, params: Record<string, string> = {}): Promise<RawClient> {
    const c = await RawClient.open(port);
    c.send(fe.startup({ user: 'raw', database: 'lakegate', ...params }));
    await c.until('Z');
    return c;
  }

  send(...chunks: Buffer[]): void {
    for (const ch of chunks) this.socket.write(ch);
  }

  /** Raw bytes received so far (consumed). */
  async bytes(n: number, timeoutMs = 3000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.buf.length < n && !this.closed && Date.now() < deadline) await this.wait(deadline);
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(out.length);
    return out;
  }

  /** Reads messages up to and including the `count`-th message of type `type`. */
  async until(type: string, count = 1, timeoutMs = 5000): Promise<BackendMessage[]> {
    const out: BackendMessage[] = [];
    let seen = 0;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const msgs = splitBackendMessages(this.buf);
      let used = 0;
      for (const m of msgs) {
        used += 5 + m.body.length;
        out.push(m);
        if (m.type === type && ++seen === count) {
          this.buf = this.buf.subarray(used);
          return out;
        }
      }
      this.buf = this.buf.subarray(used);
      if (this.closed || Date.now() > deadline) throw new Error(`no '${type}' (got ${out.map((m) => m.type).join('')}, closed=${this.closed})`);
      await this.wait(deadline);
    }
  }

  private wait(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  waitClosed(timeoutMs = 3000): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.socket.once('close', () => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  end(): void {
    this.socket.destroy();
  }
}

export const types = (msgs: readonly BackendMessage[]): string => msgs.map((m) => m.type).join('');

/** Error/notice fields of an ErrorResponse body as a map (S, C, M, …). */
export function errorFields(m: BackendMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of m.body.toString('utf8').split('\0')) if (f) out[f[0]!] = f.slice(1);
  return out;
}
