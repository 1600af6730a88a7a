import { describe, expect, it } from 'vitest';
import { Decimal, makeData, makeVector } from 'apache-arrow';
import { LazyDecimalData } from './lazy-decimal-data.ts';

const type = new Decimal(2, 15, 128);

/** the Decimal128 words of unscaled values (sign-extended) */
function wordsOf(values: readonly bigint[]): number[] {
  return values.flatMap((v) => {
    const u = BigInt.asUintN(128, v);
    return [0, 1, 2, 3].map((k) => Number((u >> BigInt(32 * k)) & 0xffffffffn));
  });
}

/** int64 unscaled values as the page decoder leaves them: two int32 words each (low first) */
function int64Words(values: readonly bigint[]): Int32Array {
  return new Int32Array(new BigInt64Array(values).buffer);
}

const values = [0n, 1n, -1n, 12345n, -987654321n, 2n ** 40n + 7n, -(2n ** 52n), 2n ** 53n - 1n];

describe('LazyDecimalData', () => {
  it('makes the Decimal128 words of int64 sources, exact doubles and doubles made on demand, from any start row', () => {
    const doubles = new Float64Array(values.map(Number));
    let made = 0;
    const sources = [int64Words(values), doubles, () => { made++; return doubles; }];
    for (const src of sources) {
      for (const start of [0, 3]) {
        const n = values.length - start;
        const d = new LazyDecimalData(type, n, undefined, 0, src, start);
        expect(d.length).toBe(n);
        expect([...(d.values as Uint32Array)]).toEqual(wordsOf(values.slice(start)));
      }
    }
    expect(made).toBe(2); // once per chunk: the words are kept after the first read
  });

  it('keeps assigned words and reads as a Decimal vector with its NULLs', () => {
    const bm = new Uint8Array([0b11111101]); // row 1 NULL
    const d = new LazyDecimalData(type, 8, bm, 1, int64Words(values), 0);
    const v = makeVector(d);
    expect(v.get(1)).toBeNull();
    expect(v.nullCount).toBe(1);
    expect([...(v.get(4) as Uint32Array)]).toEqual(wordsOf([values[4]!]));
    const other = new Uint32Array(32).fill(7);
    (d as { values: Uint32Array }).values = other;
    expect(d.values).toBe(other);
    // slices read the words through the accessor too
    expect([...(d.slice(2, 2).values as Uint32Array)].slice(0, 8)).toEqual([...other.subarray(0, 8)]);
  });

  it('holds its words in a field of the class, not in an own accessor (an own accessor made V8 switch each chunk to a dictionary-mode object)', () => {
    const d = new LazyDecimalData(type, 8, undefined, 0, int64Words(values), 0);
    expect(Object.getOwnPropertyDescriptor(d, 'values')).toBeUndefined();
    // the same own properties, in the same order, for every chunk: one hidden class
    const e = new LazyDecimalData(type, 2, new Uint8Array([1]), 1, new Float64Array(2), 0);
    expect(Object.keys(e)).toEqual(Object.keys(d));
    // and the plain Data fields of makeData's Decimal chunks come first, in their order
    const plain = Object.keys(makeData({ type, length: 1, nullCount: 0 })).filter((k) => k !== 'values');
    expect(Object.keys(d).slice(0, plain.length)).toEqual(plain);
  });
});
