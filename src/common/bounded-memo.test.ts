import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.ts';

describe('BoundedMemo', () => {
  it('makes a value once per key, null included', () => {
    const memo = new BoundedMemo<string, number | null>(8);
    let made = 0;
    const make = (k: string): number | null => (made++, k === 'none' ? null : k.length);
    expect(memo.get('abc', make)).toBe(3);
    expect(memo.get('abc', make)).toBe(3);
    expect(memo.get('none', make)).toBeNull();
    expect(memo.get('none', make)).toBeNull();
    expect(made).toBe(2);
  });

  it('starts over past its limit, so it never holds more than `limit` entries', () => {
    const memo = new BoundedMemo<number, number>(3);
    let made = 0;
    const make = (k: number): number => (made++, k * 2);
    for (const k of [1, 2, 3]) memo.get(k, make);
    expect(memo.size).toBe(3);
    expect(memo.get(4, make)).toBe(8);
    expect(memo.size).toBe(1);
    expect(memo.get(1, make)).toBe(2);
    expect(made).toBe(5);
  });
});
