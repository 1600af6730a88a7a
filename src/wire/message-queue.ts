/**
 * MessageQueue: parsed frontend messages waiting for the connection's single processing loop.
 * The loop pulls one message at a time (so COPY-in and auth can pull from the same stream);
 * the socket is paused while too many messages are queued (input backpressure).
 */
import type { FrontendMessage } from './protocol/frontend-messages.ts';

const HIGH_WATER = 1024;
const LOW_WATER = 64;

export class MessageQueue {
  private items: FrontendMessage[] = [];
  private head = 0;
  private waiter: ((m: FrontendMessage | null) => void) | null = null;
  private ended = false;
  private paused = false;
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
    if (!this.paused && this.items.length - this.head >= HIGH_WATER) {
      this.paused = true;
      this.pause();
    }
  }

  /** The next message, or null once the connection ended. */
  next(): Promise<FrontendMessage | null> {
    if (this.head < this.items.length) {
      const m = this.items[this.head++]!;
      this.pulled++;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      }
      if (this.paused && this.items.length - this.head <= LOW_WATER) {
        this.paused = false;
        this.resume();
      }
      return Promise.resolve(m);
    }
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** messages already received and not yet pulled */
  get size(): number {
    return this.items.length - this.head;
  }

  end(): void {
    this.ended = true;
    this.items = [];
    this.head = 0;
    const w = this.waiter;
    this.waiter = null;
    w?.(null);
  }
}
