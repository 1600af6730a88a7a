import { describe, expect, it } from 'vitest';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { NumericSum } from './numeric-sum.ts';

/** the reference: fold with Numeric.add (numeric_add's scale and special-value rules) */
function fold(xs: readonly Numeric[]): Numeric | null {
  let acc: Numeric | null = null;
  for (const x of xs) acc = acc === null ? x : acc.add(x);
  return acc;
}

function sumOf(xs: readonly Numeric[]): Numeric | null {
  const s = new NumericSum();
  for (const x of xs) s.add(x);
  return s.result();
}

describe('NumericSum', () => {
  it('equals Numeric.add folding, digits and scale, across spills and rescales', () => {
    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    for (let trial = 0; trial < 50; trial++) {
      const xs: Numeric[] = [];
      for (let i = 0; i < 400; i++) {
        const big = rnd() < 0.1;
        const mag = big ? BigInt(Math.floor(rnd() * 1e15)) * 100000n + 99999n : BigInt(Math.floor(rnd() * 1e12));
        xs.push(Numeric.of(rnd() < 0.4 ? -mag : mag, Math.floor(rnd() * 5)));
      }
      const got = sumOf(xs)!, want = fold(xs)!;
      expect(got.toString()).toBe(want.toString());
    }
  });

  it('keeps the largest scale even when the sum is an integer', () => {
    expect(sumOf([Numeric.parse('1.50'), Numeric.parse('-0.5'), Numeric.parse('1')])!.toString()).toBe('2.00');
    expect(sumOf([Numeric.parse('0')])!.toString()).toBe('0');
  });

  it('adds across the 2^52 spill point exactly', () => {
    const x = Numeric.of(2n ** 39n + 1n, 2);
    const xs = Array.from({ length: 20000 }, () => x);
    expect(sumOf(xs)!.toString()).toBe(fold(xs)!.toString());
    const ys = xs.map((v, i) => (i % 3 === 0 ? v.neg() : v));
    expect(sumOf(ys)!.toString()).toBe(fold(ys)!.toString());
  });

  it('NaN and infinities as numeric_sum', () => {
    const one = Numeric.ONE;
    expect(sumOf([one, Numeric.NaN])).toBe(Numeric.NaN);
    expect(sumOf([Numeric.POSITIVE_INFINITY, one])).toBe(Numeric.POSITIVE_INFINITY);
    expect(sumOf([Numeric.NEGATIVE_INFINITY, one])).toBe(Numeric.NEGATIVE_INFINITY);
    expect(sumOf([Numeric.POSITIVE_INFINITY, Numeric.NEGATIVE_INFINITY])).toBe(Numeric.NaN);
    expect(sumOf([])).toBeNull();
  });

  it('integers and merge', () => {
    const a = new NumericSum(), b = new NumericSum();
    a.addInteger(5); a.add(Numeric.parse('0.25')); a.addInteger(2n ** 62n);
    b.add(Numeric.parse('1.125')); b.addInteger(-3);
    a.merge(b);
    expect(a.result()!.toString()).toBe((2n ** 62n + 3n).toString() + '.375');
    expect(a.count).toBe(5);
  });
});

describe('NumericSum.addScaled (vector kernels)', () => {
  it('sums exactly as add(Numeric) does, across scales, signs and the 2^53 edge', () => {
    const values: [number, number][] = [
      [1, 0], [-250, 2], [2 ** 53 - 1, 2], [-(2 ** 53 - 1), 4], [2 ** 40, 0], [2 ** 40 - 1, 3], [-0, 2], [123456789, 6],
      [2 ** 52, 2], [2 ** 52, 2], [7, 1], [-(2 ** 40), 0],
    ];
    for (let r = 0; r < 200; r++) values.push([Math.floor(Math.sin(r) * 2 ** (r % 53)), r % 5]);
    const a = new NumericSum();
    const b = new NumericSum();
    for (const [u, s] of values) {
      a.addScaled(u, s);
      b.add(Numeric.of(BigInt(u), s));
      expect(a.result()!.toString()).toBe(b.result()!.toString());
    }
    expect(a.count).toBe(values.length);
  });
});
