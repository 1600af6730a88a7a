/**
 * spare-arrays: a big aggregate's typed arrays handed back serve the next aggregate of the same shape, so its
 * run faults no fresh pages in. The shape here is TPC-H Q18's GROUP BY l_orderkey at SF 1 (1.5M groups): the
 * direct index's 8M entries, the keys, counts and sums by group (2M-entry capacities) and the sums' scales.
 */
import { describe, expect, it, vi } from 'vitest';
import { dropSpareArrays, giveBack, spareArrayBytes, takeFloat64, takeInt32 } from './spare-arrays.ts';

const GROUP_CAPACITY = 1 << 21;
const DIRECT_ENTRIES = 1 << 23;

describe('spare arrays', () => {
  it('keeps every array of a Q18-sized aggregate (88 MB) for the next one, zeroed or filled as asked', () => {
    const ids = takeInt32(DIRECT_ENTRIES, 0);
    const keys = takeFloat64(GROUP_CAPACITY);
    const counts = takeFloat64(GROUP_CAPACITY);
    const sums = takeFloat64(GROUP_CAPACITY);
    const scales = takeInt32(GROUP_CAPACITY, -1);
    ids[5] = 7;
    sums[9] = 1.5;
    scales[3] = 2;
    // handed back in the order an aggregate's release does: its states first, then its group table
    for (const a of [counts, sums, scales, ids, keys]) giveBack(a);
    expect(spareArrayBytes()).toBe(DIRECT_ENTRIES * 4 + GROUP_CAPACITY * (8 * 3 + 4));

    // the next aggregate takes the very same arrays (none dropped, so none mapped fresh), reset as asked; arrays
    // of one kind and length are interchangeable (identity compared with ===: a failing toBe would diff 8M entries)
    const ids2 = takeInt32(DIRECT_ENTRIES, 0);
    const scales2 = takeInt32(GROUP_CAPACITY, -1);
    const f64 = [takeFloat64(GROUP_CAPACITY), takeFloat64(GROUP_CAPACITY), takeFloat64(GROUP_CAPACITY)];
    expect(ids2 === ids && scales2 === scales).toBe(true);
    expect(new Set(f64).size === 3 && f64.every((x) => x === counts || x === sums || x === keys)).toBe(true);
    expect([ids2[5], scales2[3], sums[9]]).toEqual([0, -1, 0]);
    expect(spareArrayBytes()).toBe(0);
  });
});

describe('spare arrays when idle', () => {
  it('are dropped once no aggregate gave any back for 30 s', () => {
    vi.useFakeTimers();
    try {
      dropSpareArrays();
      giveBack(new Float64Array(1 << 16));
      vi.advanceTimersByTime(20_000);
      giveBack(new Int32Array(1 << 16));
      vi.advanceTimersByTime(20_000); // 40 s after the first, 20 s after the last give-back: kept
      expect(spareArrayBytes()).toBe((1 << 16) * 12);
      vi.advanceTimersByTime(10_001);
      expect(spareArrayBytes()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
