/**
 * MessageQueue: parsed frontend messages waiting for the connection's single processing loop.
 * The loop pulls one message at a time (so COPY-in and auth can pull from the same stream);
 * the socket is paused while too many messages are queued (input backpressure).
 */
import type { FrontendMessage } from './protocol/frontend-messages.ts';

const HIGH_WATER = 1024;
const LOW_WATER = 64;
/**
 * CopyData bytes queued before the socket is paused, whatever their count: a client sending 256 KiB CopyData
 * messages (pg-copy-streams from a file) would otherwise queue 1024 of them, 256 MiB, while the table's writer
 * is slower than the network (a partitioned COPY of TPC-H lineitem SF 1 held that much input)
 */
export const HIGH_WATER_BYTES = 8 * 1024 * 1024;
const LOW_WATER_BYTES = 1024 * 1024;

const payloadBytes = (m: FrontendMessage): number => (m.type === 'CopyData' ? m.data.byteLength : 0);

export class MessageQueue {
  private items: FrontendMessage[] = [];
  private head = 0;
  private waiter: ((m: FrontendMessage | null) => void) | null = null;
  private ended = false;
  private paused = false;
  /** CopyData bytes in `items` */
  private bytes = 0;
  /** messages pushed so far, over the connection's life */
  received = 0;
  /** messages handed out by next() so far: the one just returned was the `pulled`-th received */
  pulled = 0;

  constructor(
    private readonly pause: () => void,
    private readonly resume: () => void,
  ) {}

  push(msg: FrontendMessage): void {
    if (this.ended) return;
    this.received++;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      this.pulled++;
      w(msg);
      return;
    }
    this.items.push(msg);
    this.bytes += payloadBytes(msg);
    if (!this.paused && (this.items.length - this.head >= HIGH_WATER || this.bytes >= HIGH_WATER_BYTES)) {
      this.paused = true;
      this.pause();
    }
  }

  /** The next message, or null once the connection ended. */
  next(): Promise<FrontendMessage | null> {
    if (this.head < this.items.length) return Promise.resolve(this.take()!);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /**
   * The next message if one is already queued, else undefined: the loop takes pipelined messages (Parse,
   * Bind, Describe, Execute, Sync in one packet) without a promise and a microtask turn each.
   */
  take(): FrontendMessage | undefined {
    if (this.head >= this.items.length) return undefined;
    const m = this.items[this.head++]!;
    this.pulled++;
    this.bytes -= payloadBytes(m);
    if (this.head === this.items.length) {
      this.items.length = 0; // the array is reused: a round trip's three or four messages allocate nothing
      this.head = 0;
    }
    if (this.paused && this.items.length - this.head <= LOW_WATER && this.bytes <= LOW_WATER_BYTES) {
      this.paused = false;
      this.resume();
    }
    return m;
  }

  /** the next message if one is already queued, without taking it */
  peek(): FrontendMessage | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** messages already received and not yet pulled */
  get size(): number {
    return this.items.length - this.head;
  }

  /** end() was called: no message will come */
  get isEnded(): boolean {
    return this.ended;
  }

  end(): void {
    this.ended = true;
    this.bytes = 0;
    this.items = [];
    this.head = 0;
    const w = this.waiter;
    this.waiter = null;
    w?.(null);
  }
}
