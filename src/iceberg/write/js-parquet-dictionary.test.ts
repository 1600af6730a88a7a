/**
 * The JS Parquet writer's dictionaries and page bounds against a plain Map / sort reference: codes in order of first
 * appearance through FixedDictionary's direct-index window (values inside and outside it, decimals that do not fit
 * 32 bits, a second dictionary with another base after `release`), BytesDictionary's recent-code guesses (values
 * sharing length, first and last byte), and page min / max by dictionary rank equal to comparing values.
 */
import { describe, expect, it } from 'vitest';
import { BytesDictionary, FixedDictionary, compareBytes, compareWords } from './js-parquet-dictionary.mjs';
import { dictMinMax, dictionaryRanks } from './js-parquet-dictionary-bounds.mjs';

/** codes of values (as keys) in order of first appearance */
function referenceCodes(keys: readonly string[]): number[] {
  const seen = new Map<string, number>();
  return keys.map((k) => {
    if (!seen.has(k)) seen.set(k, seen.size);
    return seen.get(k)!;
  });
}

/** decimals as 4 little-endian 32-bit words each (two's complement 128 bit) */
function decimalWords(values: readonly bigint[]): Int32Array {
  const w = new Int32Array(values.length * 4);
  values.forEach((v, i) => {
    for (let k = 0; k < 4; k++) w[i * 4 + k] = Number(BigInt.asIntN(32, v >> BigInt(32 * k)));
  });
  return w;
}

function fixedCodes(dict: FixedDictionary, w: Int32Array, kw: number): number[] {
  const rows = w.length / kw;
  const codes = new Int32Array(rows);
  const at = dict.add(w, kw, null, 0, rows, codes, 0);
  dict.release();
  expect(at).toBe(rows);
  return [...codes];
}

describe('FixedDictionary', () => {
  it('codes values inside and outside the direct window in order of first appearance', () => {
    const values = [100, 101, 100, 100 + 40_000, 100 - 40_000, 2 ** 31 - 1, -(2 ** 31), 101, 100 + 32_767, 100 - 32_768, 100 + 40_000, 7, 7];
    const w = Int32Array.from(values);
    const dict = new FixedDictionary(1, 4, 1 << 20);
    expect(fixedCodes(dict, w, 1)).toEqual(referenceCodes(values.map(String)));
    expect([...dict.entries.subarray(0, dict.size)]).toEqual([...new Set(values)]);
  });

  it('codes wide decimals (hashed) and narrow ones (direct) alike, and a released window serves the next dictionary', () => {
    const values = [5n, -3n, 5n, 2n ** 40n, -(2n ** 40n), -3n, 2n ** 100n, 2n ** 40n, 0n, -1n, -1n];
    const first = new FixedDictionary(4, 16, 1 << 20);
    expect(fixedCodes(first, decimalWords(values), 4)).toEqual(referenceCodes(values.map(String)));
    // another column far from the first one's base: no stale codes from the shared window
    const dates = [20_000, 20_001, 19_999, 20_000];
    expect(fixedCodes(new FixedDictionary(1, 4, 1 << 20), Int32Array.from(dates), 1)).toEqual([0, 1, 2, 0]);
    const again = [-3n, 5n, -3n];
    expect(fixedCodes(new FixedDictionary(4, 16, 1 << 20), decimalWords(again), 4)).toEqual([0, 1, 0]);
  });

  it('gives up at its limit, in the window as in the table', () => {
    const dict = new FixedDictionary(1, 4, 4 * 3);
    const codes = new Int32Array(8);
    expect(dict.add(Int32Array.from([1, 2, 1, 3, 4]), 1, null, 0, 5, codes, 0)).toBe(-1);
    dict.release();
    expect(fixedCodes(new FixedDictionary(1, 4, 1 << 20), Int32Array.from([9, 1, 9]), 1)).toEqual([0, 1, 0]);
  });
});

function utf8Column(values: readonly string[]): { offsets: Int32Array; data: Uint8Array } {
  const bytes = values.map((v) => new TextEncoder().encode(v));
  const offsets = new Int32Array(values.length + 1);
  bytes.forEach((b, i) => { offsets[i + 1] = offsets[i]! + b.length; });
  const data = new Uint8Array(offsets[values.length]!);
  bytes.forEach((b, i) => data.set(b, offsets[i]!));
  return { offsets, data };
}

describe('BytesDictionary', () => {
  it('codes values that share length, first and last byte (one recent slot) by their bytes', () => {
    const values = ['abc', 'aXc', 'abc', '', 'aXc', 'ayc', '', 'abc', 'DELIVER IN PERSON', 'DELIVER IN PERSON', 'é', 'ab', 'abc'];
    const { offsets, data } = utf8Column(values);
    const dict = new BytesDictionary(1 << 20);
    const codes = new Int32Array(values.length);
    expect(dict.add(offsets, data, null, 0, values.length, codes, 0)).toBe(values.length);
    expect([...codes]).toEqual(referenceCodes(values));
    expect(dict.size).toBe(new Set(values).size);
  });
});

describe('dictMinMax', () => {
  it('gives the same page bounds by rank as by comparing entries, for decimals and strings', () => {
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    const decimals = Array.from({ length: 4000 }, () => BigInt(next() % 50) * (next() % 3 === 0 ? -1n : 1n) * (next() % 5 === 0 ? 2n ** 70n : 1n));
    const fixed = new FixedDictionary(4, 16, 1 << 20);
    const fixedCodesArr = Int32Array.from(fixedCodes(fixed, decimalWords(decimals), 4));
    const fixedLayout = { physical: 7, kw: 4 };
    const fixedRanks = dictionaryRanks(fixedLayout, fixed, decimals.length);
    expect(fixedRanks).not.toBeNull();
    const words = (c: number): bigint => decimals[fixedCodesArr.indexOf(c)]!;

    const strings = Array.from({ length: 4000 }, () => ['AIR', 'REG AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB', '', 'Ä'][next() % 9]!);
    const { offsets, data } = utf8Column(strings);
    const bytes = new BytesDictionary(1 << 20);
    const stringCodes = new Int32Array(strings.length);
    bytes.add(offsets, data, null, 0, strings.length, stringCodes, 0);
    const bytesLayout = { physical: 6, kw: 0 };
    const bytesRanks = dictionaryRanks(bytesLayout, bytes, strings.length);
    expect(bytesRanks).not.toBeNull();
    const text = (c: number): string => strings[stringCodes.indexOf(c)]!;
    const byteOrder = (a: string, b: string): number => {
      const x = new TextEncoder().encode(a);
      const y = new TextEncoder().encode(b);
      return compareBytes(x, 0, x.length, y, 0, y.length);
    };

    for (const [from, to] of [[0, 1], [0, 4000], [13, 29], [1000, 3000], [3990, 4000]] as const) {
      const page = decimals.slice(from, to);
      const min = page.reduce((a, b) => (b < a ? b : a));
      const max = page.reduce((a, b) => (b > a ? b : a));
      for (const ranks of [fixedRanks, null]) {
        const [lo, hi] = dictMinMax(fixedLayout, fixed, ranks, fixedCodesArr, from, to);
        expect([words(lo), words(hi)]).toEqual([min, max]);
      }
      const sorted = strings.slice(from, to).sort(byteOrder);
      for (const ranks of [bytesRanks, null]) {
        const [lo, hi] = dictMinMax(bytesLayout, bytes, ranks, stringCodes, from, to);
        expect([text(lo), text(hi)]).toEqual([sorted[0], sorted[sorted.length - 1]]);
      }
    }
    expect(compareWords(Int32Array.from([0, 1]), 0, Int32Array.from([-1, 0]), 0, 2)).toBe(1);
  });

  it('keeps comparing entries for single-word values and for dictionaries not much smaller than the chunk', () => {
    const ints = new FixedDictionary(1, 4, 1 << 20);
    fixedCodes(ints, Int32Array.from([3, 1, 2]), 1);
    expect(dictionaryRanks({ physical: 1, kw: 1 }, ints, 1000)).toBeNull();
    const wide = new FixedDictionary(4, 16, 1 << 20);
    fixedCodes(wide, decimalWords([1n, 2n, 3n]), 4);
    expect(dictionaryRanks({ physical: 7, kw: 4 }, wide, 40)).toBeNull();
  });
});
