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

  it('selectAll picks the indices `has` accepts, in order, for bitmaps and Sets (keys within and beyond int32)', () => {
    const vals = Int32Array.from([0, 5, -3, 2 ** 31 - 1, -(2 ** 31), 7, 5, 1000, 64, 63, 65, 100_000, -1]);
    const lists = [
      [5, 7, 63, 64, 1000], // a small bitmap
      [-3, -1, 0, 100_000], // a bitmap from a negative key
      [-(2 ** 31), 2 ** 31 - 1], // a Set: spread over the whole int32 range
      [2 ** 33, 2 ** 33 + 5], // an int64 list's keys beyond int32 (a promoted column): none of the values
      [-(2 ** 33), -(2 ** 33) + 64], // …below it, where `vals[i] - lo` exceeds 2^32: never a hit by wrapping
      [],
    ];
    for (const keys of lists) {
      const set = IntKeySet.of(keys);
      const rows = new Int32Array(vals.length);
      const n = set.selectAll(vals, vals.length, rows);
      const want = [...vals.keys()].filter((i) => set.has(vals[i]!));
      expect([...rows.subarray(0, n)], JSON.stringify(keys)).toEqual(want);
      expect(want, JSON.stringify(keys)).toEqual([...vals.keys()].filter((i) => keys.includes(vals[i]!)));
    }
    // only the first `length` values
    const set = IntKeySet.of([5, 7]);
    expect(set.selectAll(vals, 2, new Int32Array(2))).toBe(1);
  });
});
