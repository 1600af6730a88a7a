import { describe, expect, it } from 'vitest';
import { IntKeySet } from './int-key-set.ts';

/** what a JS Set says, for every probe in [lo, hi] */
function agreesWithSet(values: readonly number[], lo: number, hi: number): void {
  const k = IntKeySet.of(values);
  const s = new Set(values);
  for (let v = lo; v <= hi; v++) if (k.has(v) !== s.has(v)) throw new Error(`disagree at ${v}`);
  expect(k.size).toBe(s.size);
}

describe('IntKeySet', () => {
  it('dense keys become a bitmap and answer exactly, also at the range ends and beyond', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => 1_000_003 + i * 37);
    expect(IntKeySet.of(keys).dense).toBe(true);
    agreesWithSet(keys, 1_000_003 - 100, 1_000_003 + 5000 * 37 + 100);
    agreesWithSet([7, 7, 7], 0, 20);
    agreesWithSet([-5, -1, 0, 31, 32, 33, 63, 64], -40, 100);
  });

  it('a long key list is a bitmap up to 512 KiB however spread (a runtime key filter: q19 part keys)', () => {
    const keys = Array.from({ length: 486 }, (_, i) => 1 + ((i * 7919) % 200_000));
    expect(IntKeySet.of(keys).dense).toBe(true);
    agreesWithSet(keys, -5, 200_005);
    // a few keys as spread stay a Set, and so do long lists spanning more than 2^22
    expect(IntKeySet.of([1, 200_000]).dense).toBe(false);
    expect(IntKeySet.of(Array.from({ length: 100 }, (_, i) => i * 50_000)).dense).toBe(false);
  });

  it('sparse, huge or non-integral key lists keep a Set', () => {
    const sparse = [0, 2_000_000_000];
    expect(IntKeySet.of(sparse).dense).toBe(false);
    expect(IntKeySet.of(sparse).has(2_000_000_000)).toBe(true);
    expect(IntKeySet.of(sparse).has(1)).toBe(false);
    const wide = Array.from({ length: 100 }, (_, i) => i * 1_000_000);
    expect(IntKeySet.of(wide).dense).toBe(false);
    agreesWithSet(wide.slice(0, 3), -2, 2_000_002);
    expect(IntKeySet.of([1.5, 2]).dense).toBe(false);
    expect(IntKeySet.of([1.5, 2]).has(1.5)).toBe(true);
    expect(IntKeySet.of([]).has(0)).toBe(false);
  });

  it('int64 values beyond 2^31 as doubles (the small half of a long IN list)', () => {
    const base = 2 ** 40;
    const keys = [base, base + 1, base + 1000];
    expect(IntKeySet.of(keys).dense).toBe(true);
    agreesWithSet(keys, base - 10, base + 1010);
  });
});
