import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.ts';

describe('LruCache', () => {
  it('evicts the least recently used; using the newest key again keeps the order', () => {
    const c = new LruCache<string, number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('b')).toBe(2);
    expect(c.get('b')).toBe(2);
    c.set('c', 3); // a is the oldest
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBe(2); // b is now newer than c
    expect(c.get('b')).toBe(2);
    c.set('d', 4); // c is the oldest
    expect(c.get('c')).toBeUndefined();
    expect([c.get('b'), c.get('d')]).toEqual([2, 4]);
  });

  it('a get of an older key moves it ahead of the one used before it', () => {
    const c = new LruCache<string, number>(3);
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect(c.get('a')).toBe(1);
    expect(c.get('a')).toBe(1);
    c.set('d', 4); // b is the oldest
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c'), c.get('d')]).toEqual([1, 3, 4]);
    c.clear();
    expect(c.get('a')).toBeUndefined();
    c.set('a', 5);
    expect(c.get('a')).toBe(5);
  });
});
