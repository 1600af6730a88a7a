/** filledArray: n copies of the value, a new array each call (changing one changes no other), any n */
import { describe, expect, it } from 'vitest';
import { filledArray } from './filled-array.ts';

describe('filledArray', () => {
  it('gives n copies, fresh each time, for short, template-sized and longer arrays', () => {
    const mark = {};
    for (const n of [0, 1, 7, 8192, 9000, 70_000]) {
      const a = filledArray(mark, n), b = filledArray(mark, n);
      expect(a.length).toBe(n);
      expect(a.every((v) => v === mark)).toBe(true);
      expect(a).not.toBe(b);
      if (n > 0) {
        a[0] = 'changed';
        expect(b[0]).toBe(mark);
        expect(filledArray(mark, n)[0]).toBe(mark);
      }
    }
    expect(filledArray(null, 3)).toEqual([null, null, null]);
  });
});
