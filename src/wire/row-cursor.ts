/**
 * RowCursor: the open row stream of a portal. Pulls batches from the handler's AsyncIterable (or takes them
 * from StatementResult.ready, without a promise per batch), encodes DataRows up to an Execute row limit,
 * and keeps the iterator plus the partly sent batch for the next Execute (PortalSuspended). Flushes to the
 * socket per batch when the buffer is big, awaiting drain.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY
 */
import type { Batch } from '../common/batch.ts';
import type { OutputSettings } from './handler.ts';
import type { BufferWriter } from './protocol/buffer-writer.ts';
import { encodeDataRows, type RowEncoding } from './encode/data-row-encoder.ts';
import type { ValueCodec } from './encode/value-codec.ts';

/** What the cursor needs from its connection. */
export interface RowSink {
  readonly w: BufferWriter;
  readonly codec: ValueCodec;
  readonly settings: OutputSettings;
  /** flushes when enough output is buffered, awaiting 'drain' when the socket is full; undefined: nothing to wait for */
  flushIfFull(): Promise<void> | undefined;
  /** true once the client is gone: stop producing */
  isClosed(): boolean;
}

export class RowCursor {
  /** the handler's stream, opened on the first pull (a ready result never opens it) */
  private iterator: AsyncIterator<Batch> | null = null;
  private batch: Batch | null = null;
  private offset = 0;
  /** next index into `ready` */
  private readyAt = 0;
  private exhausted = false;
  /** rows sent over the cursor's whole life */
  total = 0;

  constructor(
    private readonly batches: AsyncIterable<Batch>,
    private readonly encoding: RowEncoding,
    /** the batches already computed (StatementResult.ready): sent without a promise per batch */
    private readonly ready: readonly Batch[] | null = null,
  ) {}

  get done(): boolean {
    return this.exhausted;
  }

  /**
   * Sends up to maxRows rows (0 = all); returns the number sent by this call. A promise only when something
   * must be awaited: the next batch of a stream, or a full socket.
   */
  send(sink: RowSink, maxRows: number): number | Promise<number> {
    return this.ready === null ? this.sendStream(sink, maxRows) : this.sendReady(sink, maxRows, 0);
  }

  private sendReady(sink: RowSink, maxRows: number, sent: number): number | Promise<number> {
    const ready = this.ready!;
    while (!this.exhausted && (maxRows <= 0 || sent < maxRows)) {
      if (this.batch === null || this.offset >= this.batch.length) {
        if (this.readyAt >= ready.length) {
          this.exhausted = true;
          this.batch = null;
          break;
        }
        this.batch = ready[this.readyAt++]!;
        this.offset = 0;
        continue;
      }
      sent += this.encode(sink, maxRows <= 0 ? Infinity : maxRows - sent);
      const flushing = sink.flushIfFull();
      if (flushing !== undefined) return flushing.then(() => (sink.isClosed() ? this.sent(sent) : this.sendReady(sink, maxRows, sent)));
      if (sink.isClosed()) break;
    }
    return this.sent(sent);
  }

  private async sendStream(sink: RowSink, maxRows: number): Promise<number> {
    const iterator = (this.iterator ??= this.batches[Symbol.asyncIterator]());
    let sent = 0;
    while (!this.exhausted && (maxRows <= 0 || sent < maxRows)) {
      if (this.batch === null || this.offset >= this.batch.length) {
        const next = await iterator.next();
        if (next.done) {
          this.exhausted = true;
          this.batch = null;
          break;
        }
        this.batch = next.value;
        this.offset = 0;
        continue;
      }
      sent += this.encode(sink, maxRows <= 0 ? Infinity : maxRows - sent);
      const flushing = sink.flushIfFull();
      if (flushing !== undefined) await flushing;
      if (sink.isClosed()) break;
    }
    return this.sent(sent);
  }

  /** DataRows of the current batch from `offset`, at most `room` of them; returns how many */
  private encode(sink: RowSink, room: number): number {
    const batch = this.batch!;
    const to = Math.min(batch.length, this.offset + room);
    encodeDataRows(sink.w, batch, this.offset, to, this.encoding, sink.codec, sink.settings);
    const n = to - this.offset;
    this.offset = to;
    return n;
  }

  private sent(n: number): number {
    this.total += n;
    return n;
  }

  /** Releases the handler's stream early (Close, error, disconnect). */
  async close(): Promise<void> {
    if (this.exhausted) return;
    this.exhausted = true;
    this.batch = null;
    await this.iterator?.return?.();
  }
}
