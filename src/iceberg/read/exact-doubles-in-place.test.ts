/**
 * js-row-group-decode.ts exactDoublesInPlace, checking and turning each value in one pass: the doubles of every
 * int64 below 2^53 in magnitude, and — when a value past it comes after rows already turned — the words of those
 * rows put back, so the caller's fallback (the Decimal128 words) reads the values it decoded.
 */
import { describe, expect, it } from 'vitest';
import { exactDoublesInPlace } from './js-row-group-decode.ts';

const EXACT = [0n, 1n, -1n, 4294967295n, 4294967296n, -4294967296n, -4294967297n, 2n ** 53n - 1n, -(2n ** 53n), 123456789012345n, -98765432109876n];
const words = (vals: readonly bigint[]): Int32Array => new Int32Array(BigInt64Array.from(vals).buffer);
const values = (w: Int32Array): bigint[] => Array.from(new BigInt64Array(w.buffer, w.byteOffset, w.length >> 1));

describe('exactDoublesInPlace in one pass', () => {
  it('turns every value into its double over the same memory', () => {
    const w = words(EXACT);
    const f = exactDoublesInPlace(w)!;
    expect(f.buffer).toBe(w.buffer);
    expect(Array.from(f)).toEqual(EXACT.map(Number));
  });

  it('answers null with every value untouched when one past 2^53 comes after turned rows', () => {
    for (const bad of [2n ** 53n, -(2n ** 53n) - 1n, 2n ** 63n - 1n, -(2n ** 63n)]) {
      const vals = [...EXACT, bad, 5n];
      const w = words(vals);
      expect(exactDoublesInPlace(w)).toBeNull();
      expect(values(w)).toEqual(vals);
    }
  });

  it('at rows: null with the picked rows untouched when a later pick is past 2^53', () => {
    const vals = [0n, -12345678901234n, 0n, 2n ** 52n + 3n, 0n, -(2n ** 60n), 9n];
    const w = words(vals);
    expect(exactDoublesInPlace(w, [1, 3, 5, 6])).toBeNull();
    expect(values(w)).toEqual(vals);
    const ok = words(vals);
    const f = exactDoublesInPlace(ok, [1, 3, 6])!;
    expect([f[1], f[3], f[6]]).toEqual([-12345678901234, 2 ** 52 + 3, 9]);
  });
});
