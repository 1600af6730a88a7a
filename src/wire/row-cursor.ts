/**
 * RowCursor: the open row stream of a portal. Pulls batches from the handler's AsyncIterable, encodes
 * DataRows up to an Execute row limit, and keeps the iterator plus the partly sent batch for the next
 * Execute (PortalSuspended). Flushes to the socket per batch when the buffer is big, awaiting drain.
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
  private readonly iterator: AsyncIterator<Batch>;
  private batch: Batch | null = null;
  private offset = 0;
  private exhausted = false;
  /** rows sent over the cursor's whole life */
  total = 0;

  constructor(
    batches: AsyncIterable<Batch>,
    private readonly encoding: RowEncoding,
  ) {
    this.iterator = batches[Symbol.asyncIterator]();
  }

  get done(): boolean {
    return this.exhausted;
  }

  /** Sends up to maxRows rows (0 = all); returns the number sent by this call. */
  async send(sink: RowSink, maxRows: number): Promise<number> {
    let sent = 0;
    while (!this.exhausted && (maxRows <= 0 || sent < maxRows)) {
      if (this.batch === null || this.offset >= this.batch.length) {
        const next = await this.iterator.next();
        if (next.done) {
          this.exhausted = true;
          this.batch = null;
          break;
        }
        this.batch = next.value;
        this.offset = 0;
        continue;
      }
      const room = maxRows <= 0 ? Infinity : maxRows - sent;
      const to = Math.min(this.batch.length, this.offset + room);
      encodeDataRows(sink.w, this.batch, this.offset, to, this.encoding, sink.codec, sink.settings);
      sent += to - this.offset;
      this.offset = to;
      const flushing = sink.flushIfFull();
      if (flushing !== undefined) await flushing;
      if (sink.isClosed()) break;
    }
    this.total += sent;
    return sent;
  }

  /** Releases the handler's stream early (Close, error, disconnect). */
  async close(): Promise<void> {
    if (this.exhausted) return;
    this.exhausted = true;
    this.batch = null;
    await this.iterator.return?.();
  }
}
