/**
 * sortedIntegerKeys / anyKeyWithin against the linear test they replace (`values.some(v within [lo, hi])`) on
 * random lists (fixed seed): int and long keys, negative values, bigints beyond 2^53, number and bigint bounds,
 * open bounds; then mightMatch of an IN predicate over file stats, long list vs the same list's linear form.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../common/prng.ts';
import type { BoundPredicate } from './bound-predicate.ts';
import { markIntKeyList } from './int-key-list.ts';
import { anyKeyWithin, sortedIntegerKeys } from './sorted-in-keys.ts';
import { mightMatch } from './stats-evaluator.ts';

const linear = (values: readonly (number | bigint)[], lo: number | bigint | undefined, hi: number | bigint | undefined): boolean =>
  values.some((v) => (lo === undefined || v >= lo) && (hi === undefined || v <= hi));

describe('sorted integer IN keys', () => {
  it('agrees with the linear test on random int and long lists and bounds', () => {
    const rnd = mulberry32(44);
    const int = (): number => Math.floor(rnd() * 20_000) - 10_000;
    const long = (): bigint => (rnd() < 0.2 ? (rnd() < 0.5 ? -1n : 1n) * (2n ** 53n + BigInt(Math.floor(rnd() * 1000))) : BigInt(int()));
    let checked = 0;
    for (let trial = 0; trial < 40; trial++) {
      const isLong = trial % 2 === 1;
      const n = 64 + Math.floor(rnd() * 500);
      const values: (number | bigint)[] = Array.from({ length: n }, () => (isLong ? long() : int()));
      const sorted = sortedIntegerKeys(values)!;
      expect(sorted).not.toBeNull();
      expect(sortedIntegerKeys(values)).toBe(sorted); // cached per array
      for (let q = 0; q < 200; q++) {
        const a = isLong ? long() : int();
        const w = Math.floor(rnd() * 50);
        const lo = rnd() < 0.1 ? undefined : a;
        const hiRaw = typeof a === 'bigint' ? a + BigInt(w) : a + w;
        // bounds of the other numeric kind (a long column's stats are bigints; an int list against them)
        const hi = rnd() < 0.1 ? undefined : rnd() < 0.3 && typeof hiRaw === 'number' ? BigInt(hiRaw) : hiRaw;
        expect(anyKeyWithin(sorted, lo, hi), `${String(lo)}..${String(hi)}`).toBe(linear(values, lo, hi));
        checked++;
      }
    }
    expect(checked).toBe(8000);
  });

  it('keeps the linear path for short, mixed, fractional or out-of-range lists, and unknown bounds', () => {
    expect(sortedIntegerKeys(Array.from({ length: 10 }, (_v, i) => i))).toBeNull();
    expect(sortedIntegerKeys([...Array.from({ length: 100 }, (_v, i) => i), 1n])).toBeNull();
    expect(sortedIntegerKeys([...Array.from({ length: 100 }, (_v, i) => i), 0.5])).toBeNull();
    expect(sortedIntegerKeys([...Array.from({ length: 100 }, (_v, i) => BigInt(i)), 2n ** 64n])).toBeNull();
    const s = sortedIntegerKeys(Array.from({ length: 100 }, (_v, i) => i))!;
    expect(anyKeyWithin(s, 'a', undefined)).toBeNull();
    expect(anyKeyWithin(s, Number.NaN, 5)).toBeNull();
    expect(anyKeyWithin(s, 99, 99)).toBe(true);
    expect(anyKeyWithin(s, 100, undefined)).toBe(false);
    expect(anyKeyWithin(s, undefined, -1)).toBe(false);
  });

  it('mightMatch of a long IN list equals the OR of its equalities over file bounds', () => {
    const rnd = mulberry32(7);
    const long = { kind: 'primitive', name: 'long' } as const;
    const values = Array.from({ length: 300 }, () => BigInt(Math.floor(rnd() * 1_000_000) * 7 - 3_000_000));
    const seen = new Set<boolean>();
    for (let q = 0; q < 300; q++) {
      const near = values[Math.floor(rnd() * values.length)]! - BigInt(Math.floor(rnd() * 40));
      const lo = rnd() < 0.5 ? near : BigInt(Math.floor(rnd() * 8_000_000) - 4_000_000);
      const hi = lo + BigInt(Math.floor(rnd() * 40));
      const stats = { lower: lo, upper: hi, nullCount: 0, valueCount: 10 };
      const p: BoundPredicate = { kind: 'in', fieldId: 1, type: long, values };
      const ors: BoundPredicate = { kind: 'or', args: values.map((value) => ({ kind: 'compare', op: '=', fieldId: 1, type: long, value })) };
      const want = mightMatch(ors, () => stats);
      expect(mightMatch(p, () => stats)).toBe(want);
      seen.add(want);
    }
    expect(seen).toEqual(new Set([true, false]));
    // a file of nulls only never matches
    expect(mightMatch({ kind: 'in', fieldId: 1, type: long, values }, () => ({ nullCount: 10, valueCount: 10 }))).toBe(false);
  });

  it('sorts a marked key list without checking its keys again, with the same answer', () => {
    const values = Array.from({ length: 500 }, (_v, i) => ((i * 7919) % 1000) - 500);
    expect(markIntKeyList(values)).toBe(true);
    expect([...sortedIntegerKeys(values)!]).toEqual([...values].sort((a, b) => a - b));
  });
});
