import { describe, expect, it } from 'vitest';
import { columnChunk, positionsOf } from './column-chunk.ts';
import { selection } from './late-batch-steps.ts';
import { recut } from './late-materialization.ts';
import { emptyReadMetrics } from '../parallel/scan-task.ts';

// V8 gives objects with other keys, or the same keys in another order, other maps: the readers of these objects
// stay monomorphic only while every maker builds one shape
describe('one shape per scan object', () => {
  it('chunks with and without positions have the same keys in the same order', () => {
    const whole = columnChunk(10, undefined, 2, [[1, 2]]);
    const picked = columnChunk(10, positionsOf([0, 3], 10), 2, [[1, 2]]);
    expect(Object.keys(whole)).toEqual(Object.keys(picked));
    expect(picked.positions).toEqual([10, 13]);
    expect(whole.positions).toBeUndefined();
  });

  it('judged and re-cut selections have the same keys in the same order', () => {
    const judged = selection(0, 4, [1, 3], [['a', 'b']], true, undefined);
    const [cut] = recut([judged], [{ start: 0, length: 4 }], 1);
    expect(Object.keys(cut!)).toEqual(Object.keys(judged));
    expect(cut).toMatchObject({ start: 0, length: 4, rows: [1, 3], vals: [['a', 'b']], exact: false });
  });

  it("a worker's read metrics start with every counter at 0", () => {
    const m = emptyReadMetrics();
    expect(Object.values(m).every((v) => v === 0)).toBe(true);
    expect(Object.keys(m)).toEqual(Object.keys(emptyReadMetrics()));
    expect(Object.keys(m)).toHaveLength(14);
  });
});
