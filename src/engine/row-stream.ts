/**
 * RowStream: reads a stream of batches n rows at a time — SQL cursors (FETCH/MOVE) and anything else that
 * needs to stop mid-batch and resume later.
 */
import type { Batch } from '../common/batch.ts';

export class RowStream {
  private readonly iterator: AsyncIterator<Batch>;
  private pending: Batch | null = null;
  private offset = 0;
  private done = false;

  constructor(source: AsyncIterable<Batch>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  get exhausted(): boolean {
    return this.done && this.pending === null;
  }

  /** up to `limit` rows (Infinity = all), as batches in order */
  async take(limit: number): Promise<Batch[]> {
    const out: Batch[] = [];
    let remaining = limit;
    while (remaining > 0) {
      const batch = await this.current();
      if (batch === null) break;
      const available = batch.length - this.offset;
      const n = Math.min(available, remaining);
      out.push(this.offset === 0 && n === batch.length ? batch : slice(batch, this.offset, n));
      this.offset += n;
      remaining -= n;
      if (this.offset >= batch.length) this.pending = null;
    }
    return out;
  }

  /** skips up to `limit` rows and returns how many were skipped */
  async skip(limit: number): Promise<number> {
    let skipped = 0;
    while (skipped < limit) {
      const batch = await this.current();
      if (batch === null) break;
      const n = Math.min(batch.length - this.offset, limit - skipped);
      this.offset += n;
      skipped += n;
      if (this.offset >= batch.length) this.pending = null;
    }
    return skipped;
  }

  async close(): Promise<void> {
    this.done = true;
    this.pending = null;
    await this.iterator.return?.();
  }

  private async current(): Promise<Batch | null> {
    while (this.pending === null) {
      if (this.done) return null;
      const next = await this.iterator.next();
      if (next.done === true) {
        this.done = true;
        return null;
      }
      if (next.value.length > 0) {
        this.pending = next.value;
        this.offset = 0;
      }
    }
    return this.pending;
  }
}

export function slice(batch: Batch, start: number, count: number): Batch {
  return { length: count, columns: batch.columns.map((c) => c.slice(start, start + count)) };
}
