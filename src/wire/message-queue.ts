/**
 * MessageQueue: parsed frontend messages waiting for the connection's single processing loop.
 * The loop pulls one message at a time (so COPY-in and auth can pull from the same stream);
 * the socket is paused while too many messages are queued (input backpressure).
 */
import type { FrontendMessage } from './protocol/frontend-messages.ts';

const HIGH_WATER = 1024;
const LOW_WATER = 64;
/** slots an emptied queue keeps for the next messages (more came in a burst: the array is dropped) */
const SLOTS_KEPT = 64;
/**
 * CopyData bytes queued before the socket is paused, whatever their count: a client sending 256 KiB CopyData
 * messages (pg-copy-streams from a file) would otherwise queue 1024 of them, 256 MiB, while the table's writer
 * is slower than the network (a partitioned COPY of TPC-H lineitem SF 1 held that much input)
 */
export const HIGH_WATER_BYTES = 8 * 1024 * 1024;
const LOW_WATER_BYTES = 1024 * 1024;

const payloadBytes = (m: FrontendMessage): number => (m.type === 'CopyData' ? m.data.byteLength : 0);

export class MessageQueue {
  /**
   * queued messages are items[head..tail); slots are cleared as they are taken and the array keeps its length, so a
   * round trip's three or four messages reuse the same slots. (`items.length = 0` would not: V8 trims an emptied
   * array's backing store once it has 16 or more slots, and the next push allocates a new one — every round trip.)
   */
  private items: (FrontendMessage | undefined)[] = [];
  private head = 0;
  private tail = 0;
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
    if (this.tail < this.items.length) this.items[this.tail] = msg;
    else this.items.push(msg);
    this.tail++;
    this.bytes += payloadBytes(msg);
    if (!this.paused && (this.tail - this.head >= HIGH_WATER || this.bytes >= HIGH_WATER_BYTES)) {
      this.paused = true;
      this.pause();
    }
  }

  /** The next message, or null once the connection ended. */
  next(): Promise<FrontendMessage | null> {
    if (this.head < this.tail) return Promise.resolve(this.take()!);
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
    if (this.head >= this.tail) return undefined;
    const m = this.items[this.head]!;
    this.items[this.head++] = undefined; // a taken message is not kept alive by the queue
    this.pulled++;
    this.bytes -= payloadBytes(m);
    if (this.head === this.tail) {
      this.head = this.tail = 0;
      // a burst (a pipeline, COPY data) does not keep its slots for the connection's life
      if (this.items.length > SLOTS_KEPT) this.items = [];
    }
    if (this.paused && this.tail - this.head <= LOW_WATER && this.bytes <= LOW_WATER_BYTES) {
      this.paused = false;
      this.resume();
    }
    return m;
  }

  /** the next message if one is already queued, without taking it */
  peek(): FrontendMessage | undefined {
    return this.head < this.tail ? this.items[this.head] : undefined;
  }

  /** messages already received and not yet pulled */
  get size(): number {
    return this.tail - this.head;
  }

  /** end() was called: no message will come */
  get isEnded(): boolean {
    return this.ended;
  }

  end(): void {
    this.ended = true;
    this.bytes = 0;
    this.items = [];
    this.head = this.tail = 0;
    const w = this.waiter;
    this.waiter = null;
    w?.(null);
  }
}
