import { describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { compareKeys, type KeySpec } from './sort-compare.ts';
import { sortByKeyRanks } from './sort-key-ranks.ts';

interface Entry { readonly key: readonly unknown[]; readonly row: number }

/** a small deterministic generator (xorshift) so a failure is reproducible */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

/** the reference: Array.prototype.sort (stable) with compareKeys */
function reference(specs: readonly KeySpec[], entries: readonly Entry[]): number[] {
  return [...entries].sort((a, b) => compareKeys(specs, a.key, b.key)).map((e) => e.row);
}

function check(specs: readonly KeySpec[], keyOf: (i: number) => unknown[], n: number): void {
  const entries: Entry[] = [];
  for (let i = 0; i < n; i++) entries.push({ key: keyOf(i), row: i });
  const expected = reference(specs, entries);
  expect(sortByKeyRanks(specs, entries.slice()).map((e) => e.row)).toEqual(expected);
}

const spec = (oid: number, descending = false, nullsFirst = descending): KeySpec => ({ oid, descending, nullsFirst });

describe('sortByKeyRanks', () => {
  it('orders as compareKeys does, stably, over every direction and NULL placement (TPC-H Q16 shape)', () => {
    const r = rng(7);
    const brands = ['Brand#13', 'Brand#21', 'Brand#45', 'Brand#5 ', 'Brand#5'];
    for (const [desc, nf] of [[false, false], [false, true], [true, true], [true, false]] as const) {
      const specs = [spec(Oid.int8, desc, nf), spec(Oid.bpchar), spec(Oid.text, !desc, nf), spec(Oid.int4)];
      check(specs, () => [
        r() < 0.1 ? null : BigInt(Math.floor(r() * 5)),
        brands[Math.floor(r() * brands.length)],
        r() < 0.05 ? null : `TYPE ${Math.floor(r() * 7)}`,
        Math.floor(r() * 3),
      ], 2000);
    }
  });

  it('gives values that compare equal one rank: bpchar blanks, numeric scales, floats with NaN and -0', () => {
    const r = rng(11);
    const nums = [Numeric.parse('1.0'), Numeric.parse('1.00'), Numeric.parse('2.5'), Numeric.NaN, Numeric.parse('-3')];
    const floats = [0, -0, Number.NaN, 1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    check([spec(Oid.numeric), spec(Oid.float8, true), spec(Oid.bpchar)], () => [
      nums[Math.floor(r() * nums.length)], floats[Math.floor(r() * floats.length)], r() < 0.5 ? 'ab' : 'ab   ',
    ], 1500);
  });

  it('compares rank by rank when the ranks cannot be packed into one double', () => {
    const r = rng(3);
    const specs = [spec(Oid.int4), spec(Oid.float8), spec(Oid.text, true), spec(Oid.int8), spec(Oid.float8, true, false)];
    check(specs, (i) => [i % 10, r() * 1e6, `s${Math.floor(r() * 1e6)}`, BigInt(i % 97), r() < 0.2 ? null : r()], 5000);
  });

  it('sorts a nearly unique leading key by the comparator (no ranks to gain), in the same order', () => {
    const r = rng(5);
    check([spec(Oid.float8, true), spec(Oid.text)], () => [Math.floor(r() * 3000), r() < 0.5 ? 'a' : 'b'], 4000);
  });

  it('keeps the input order when every key is equal or there is one row', () => {
    check([spec(Oid.int4)], () => [1], 50);
    check([spec(Oid.int4)], () => [null], 3);
    check([spec(Oid.int4)], () => [5], 1);
  });
});
