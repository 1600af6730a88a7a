/**
 * ByteChannel: the body of a file being written while it is produced (a streaming Parquet file,
 * parquet-splice.ts), handed to the store as an AsyncIterable (ObjectStore.put streams it to a temp file or an
 * S3 multipart upload). `push` resolves once at most `highWater` bytes wait for or are being written to the store, so a slow store
 * holds the producer back instead of letting chunks pile up in memory. `fail` ends the body with an error: the
 * store then drops what it wrote (LocalFsStore removes its temp file, S3 aborts the upload).
 */
export class ByteChannel implements AsyncIterable<Uint8Array> {
  private readonly chunks: Uint8Array[] = [];
  private queued = 0;
  private ended = false;
  private error: { e: unknown } | null = null;
  /** the consumer waiting for a chunk */
  private wakeConsumer: (() => void) | null = null;
  /** producers waiting for room */
  private wakeProducers: (() => void)[] = [];

  constructor(private readonly highWater = 256 * 1024) {}

  /** queues a chunk (not copied: it must not change afterwards); waits while the queue is over the high water mark */
  async push(chunk: Uint8Array): Promise<void> {
    this.check();
    if (this.ended) throw new Error('ByteChannel: push after end');
    this.chunks.push(chunk);
    this.queued += chunk.byteLength;
    this.wake();
    while (this.queued > this.highWater && this.error === null) await new Promise<void>((r) => this.wakeProducers.push(r));
    this.check();
  }

  private check(): void {
    if (this.error !== null) throw this.error.e;
  }

  /** no more chunks: the consumer ends after the queued ones */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** ends the body with an error (the consumer throws it) and rejects waiting and later pushes */
  fail(e: unknown): void {
    this.error ??= { e };
    this.chunks.length = 0;
    this.queued = 0;
    this.wake();
  }

  private wake(): void {
    const c = this.wakeConsumer;
    this.wakeConsumer = null;
    c?.();
    if (this.queued <= this.highWater || this.error !== null) for (const p of this.wakeProducers.splice(0)) p();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      this.check();
      const chunk = this.chunks.shift();
      if (chunk !== undefined) {
        yield chunk;
        // counted until the consumer is back for the next one: a chunk being written is still held in memory
        this.queued -= chunk.byteLength;
        this.wake();
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((r) => {
        this.wakeConsumer = r;
      });
    }
  }
}
