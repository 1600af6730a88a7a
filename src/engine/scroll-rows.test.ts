/** ScrollRows: FETCH directions over a materialised SCROLL cursor, answers from PostgreSQL 15 (1..5). */
import { describe, expect, it } from 'vitest';
import { batchOf, type Batch } from '../common/batch.ts';
import { RowStream } from './row-stream.ts';
import { ScrollRows, type FetchDirection } from './scroll-rows.ts';

async function* source(): AsyncIterable<Batch> {
  yield batchOf([[1, 2, 3]]);
  yield batchOf([[4, 5]]);
}

describe('ScrollRows', () => {
  it('moves like a PostgreSQL portal', async () => {
    const s = new ScrollRows(new RowStream(source()), 1);
    const steps: [FetchDirection, number, number[]][] = [
      ['FETCH_ABSOLUTE', -1, [5]], ['FETCH_BACKWARD', 1, [4]], ['FETCH_ABSOLUTE', 2, [2]], ['FETCH_RELATIVE', 2, [4]],
      ['FETCH_RELATIVE', -10, []], ['FETCH_FORWARD', 1, [1]], ['FETCH_FORWARD', 10, [2, 3, 4, 5]], ['FETCH_BACKWARD', 1, [5]],
      ['FETCH_BACKWARD', 2, [4, 3]], ['FETCH_BACKWARD', Infinity, [2, 1]], ['FETCH_ABSOLUTE', 1, [1]], ['FETCH_FORWARD', 0, [1]],
      ['FETCH_ABSOLUTE', 10, []], ['FETCH_BACKWARD', 1, [5]], ['FETCH_ABSOLUTE', 0, []], ['FETCH_FORWARD', 0, []],
    ];
    for (const [dir, count, expected] of steps) {
      const b = await s.fetch(dir, count);
      expect([dir, count, b.columns[0] ?? []]).toEqual([dir, count, expected]);
    }
  });
});
