/**
 * unreadNulls: an all-NULL column of n rows that reads as NULL everywhere — by index, through the array methods
 * that skip holes, in copies — while holding one element.
 */
import { describe, expect, it } from 'vitest';
import { unreadNulls } from './unread-nulls.ts';

describe('unreadNulls', () => {
  it('reads as n NULLs whatever reads it', () => {
    const c = unreadNulls(8192);
    expect(c).toHaveLength(8192);
    expect(Array.isArray(c)).toBe(true);
    expect([c[0], c[4095], c[8191]]).toEqual([null, null, null]);
    expect(c.map((v) => v === null).every((x) => x)).toBe(true);
    expect(c.filter((v) => v === null)).toHaveLength(8192);
    expect([2, 7000].map((r) => c[r])).toEqual([null, null]);
    expect([...c.slice(10, 13)]).toEqual([null, null, null]);
    expect(c.indexOf(null)).toBe(0);
    expect(unreadNulls(0)).toHaveLength(0);
  });

  it('holds one element, not n (no backing store of n slots)', () => {
    expect(Object.keys(unreadNulls(8192))).toEqual(['8191']);
  });
});
