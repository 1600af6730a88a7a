import { describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { keyPartition } from './key-partition.ts';

describe('keyPartition', () => {
  it('sends keys equal as group keys to the same partition', () => {
    for (const parts of [2, 3, 7]) {
      const same = (a: readonly unknown[], oa: readonly number[], b: readonly unknown[], ob: readonly number[]): void => {
        expect(keyPartition(a, oa, parts)).toBe(keyPartition(b, ob, parts));
      };
      for (let i = -50; i < 50; i++) same([i], [Oid.int4], [BigInt(i)], [Oid.int8]);
      same([Numeric.parse('1.50')], [Oid.numeric], [Numeric.parse('1.5')], [Oid.numeric]);
      same([0], [Oid.float8], [-0], [Oid.float8]);
      same([NaN], [Oid.float8], [0 / 0], [Oid.float8]);
      same(['ab  '], [Oid.bpchar], ['ab'], [Oid.bpchar]);
      same([null, 'x'], [Oid.int4, Oid.text], [undefined, 'x'], [Oid.int4, Oid.text]);
      same([2n ** 60n], [Oid.int8], [2n ** 60n], [Oid.int8]);
    }
  });

  it('spreads consecutive keys evenly and stays in range', () => {
    const parts = 4;
    const counts = new Array<number>(parts).fill(0);
    for (let i = 0; i < 40_000; i++) counts[keyPartition([BigInt(i * 4)], [Oid.int8], parts)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    const text = new Array<number>(parts).fill(0);
    for (let i = 0; i < 4000; i++) text[keyPartition([`customer#${i}`, i % 3], [Oid.text, Oid.int4], parts)]!++;
    for (const c of text) expect(Math.abs(c - 1000)).toBeLessThan(150);
    expect(keyPartition([1], [Oid.int4], 1)).toBe(0);
  });

  it('tells a NULL from a value and column order apart', () => {
    const a = new Set<number>();
    for (let i = 0; i < 64; i++) a.add(keyPartition([i, null], [Oid.int4, Oid.int4], 16) * 100 + keyPartition([null, i], [Oid.int4, Oid.int4], 16));
    expect(a.size).toBeGreaterThan(16);
  });
});
