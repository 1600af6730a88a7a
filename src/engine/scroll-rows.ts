/**
 * ScrollRows: the rows of a SCROLL cursor, materialised as they are first read so that FETCH can move
 * backwards (PRIOR, BACKWARD n, ABSOLUTE, RELATIVE, FIRST, LAST) — PostgreSQL keeps such a portal's rows
 * in a tuplestore when the plan cannot scan backwards; here every SCROLL cursor does.
 * Positions follow PostgreSQL's portal: 0 is before the first row, n is on row n, total + 1 is after the last.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/tcop/pquery.c (DoPortalRunFetch)
 */
import { batchFromRows, rowsOfBatch, type Batch } from '../common/batch.ts';
import type { RowStream } from './row-stream.ts';

/** FETCH_FORWARD / FETCH_BACKWARD with this count (or more) mean ALL */
export const FETCH_ALL_COUNT = 2147483647;

export type FetchDirection = 'FETCH_FORWARD' | 'FETCH_BACKWARD' | 'FETCH_ABSOLUTE' | 'FETCH_RELATIVE';

export class ScrollRows {
  private readonly rows: unknown[][] = [];
  private complete = false;
  /** 0 = before the first row; rows.length + 1 (once complete) = after the last */
  position = 0;

  constructor(private readonly stream: RowStream, private readonly columnCount: number) {}

  /** runs one FETCH (or MOVE, which only moves): the rows it returns, in fetch order */
  async fetch(direction: FetchDirection, count: number): Promise<Batch> {
    const out: unknown[][] = [];
    switch (direction) {
      case 'FETCH_FORWARD':
        if (count === 0) return this.batch(await this.current());
        for (let i = 0; i < count; i++) {
          if (!(await this.has(this.position + 1))) { this.position = (await this.total()) + 1; break; }
          this.position++;
          out.push(this.rows[this.position - 1]!);
        }
        return this.batch(out);
      case 'FETCH_BACKWARD':
        if (count === 0) return this.batch(await this.current());
        for (let i = 0; i < count; i++) {
          if (this.position - 1 < 1) { this.position = 0; break; }
          this.position--;
          out.push(this.rows[this.position - 1]!);
        }
        return this.batch(out);
      case 'FETCH_ABSOLUTE': {
        const target = count >= 0 ? count : (await this.total()) + 1 + count;
        return this.batch(await this.moveTo(target));
      }
      case 'FETCH_RELATIVE':
        if (count === 0) return this.batch(await this.current());
        return this.batch(await this.moveTo(this.position + count));
    }
  }

  async close(): Promise<void> {
    await this.stream.close();
  }

  /** ABSOLUTE / RELATIVE: lands on row `target` and returns it, or before the first / after the last row */
  private async moveTo(target: number): Promise<unknown[][]> {
    if (target < 1) { this.position = 0; return []; }
    if (!(await this.has(target))) { this.position = (await this.total()) + 1; return []; }
    this.position = target;
    return [this.rows[target - 1]!];
  }

  private async current(): Promise<unknown[][]> {
    return this.position >= 1 && (await this.has(this.position)) ? [this.rows[this.position - 1]!] : [];
  }

  /** reads on until row n (1-based) is materialised; false when the query has fewer rows */
  private async has(n: number): Promise<boolean> {
    while (this.rows.length < n && !this.complete) {
      const want = Math.max(n - this.rows.length, 1000);
      const before = this.rows.length;
      for (const b of await this.stream.take(want)) for (const r of rowsOfBatch(b)) this.rows.push(r);
      if (this.rows.length - before < want) this.complete = true;
    }
    return this.rows.length >= n;
  }

  private async total(): Promise<number> {
    await this.has(Infinity);
    return this.rows.length;
  }

  private batch(rows: unknown[][]): Batch {
    return batchFromRows(rows, this.columnCount);
  }
}
