/** NormKeyColumn: typed while keys are numbers or NULL, a JS array from the first other key; the same reads either way. */
import { describe, expect, it } from 'vitest';
import { NormKeyColumn } from './norm-key-column.ts';

const readAll = (c: NormKeyColumn): unknown[] => Array.from({ length: c.length }, (_, g) => c.at(g));

describe('NormKeyColumn', () => {
  it('reads back numbers and NULLs through growth past spare-array sizes, then keeps them when another kind of key arrives', () => {
    const keys: unknown[] = [];
    for (let i = 0; i < 70_000; i++) keys.push(i % 7 === 0 ? null : i % 5 === 0 ? i + 0.5 : i % 3 === 0 ? -(2 ** 53) + i : i);
    const c = new NormKeyColumn();
    for (const k of keys) c.push(k);
    expect(c.length).toBe(keys.length);
    expect(readAll(c)).toEqual(keys);
    const more = ['NaN', 2n ** 60n, 'text', null, 3];
    for (const k of more) c.push(k);
    expect(readAll(c)).toEqual([...keys, ...more]);
  });

  it('starts as a JS array when the first key is not a number, and keeps 0 (never -0 after normalizing) as 0', () => {
    const c = new NormKeyColumn();
    for (const k of ['a', 0, null, 1.25]) c.push(k);
    expect(readAll(c)).toEqual(['a', 0, null, 1.25]);
    const d = new NormKeyColumn();
    d.push(0);
    expect(Object.is(d.at(0), 0)).toBe(true);
  });

  it('refuses reads after release (its typed keys went back to the spare arrays)', () => {
    const c = new NormKeyColumn();
    c.push(1);
    c.release();
    expect(() => c.at(0)).toThrow(/released/);
  });
});
