/**
 * A runtime key filter's integer key list (int-key-list.ts): marked only when every value is an integer of one
 * representation; bound to an Iceberg int / long field as the same array, with the same answer as the value-by-value
 * binding of an unmarked copy; keyed in the plan cache by a digest of its content, not by its text.
 */
import { describe, expect, it } from 'vitest';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { bindPredicates, predicateKey, type BindColumn } from './bound-predicate.ts';
import { int64KeysSplit, intKeyListDigest, intKeyListRepr, intKeyListWords, markIntKeyList, markIntKeyListWords } from './int-key-list.ts';
import { sortedIntegerKeys } from './sorted-in-keys.ts';
import { fromWireFilter, toWireFilter } from '../parallel/filter-wire.ts';
import { mulberry32 } from '../../common/prng.ts';

const LONG: PrimitiveType = { kind: 'primitive', name: 'long' };
const INT: PrimitiveType = { kind: 'primitive', name: 'int' };
const columns: BindColumn[] = [
  { field: { id: 1, name: 'k8', required: true, type: LONG }, comparable: true },
  { field: { id: 2, name: 'k4', required: true, type: INT }, comparable: true },
];
const inOf = (column: number, values: readonly unknown[]): ScanPredicate => ({ kind: 'in', column, values });
const bigints = (n: number, f: (i: number) => number): bigint[] => Array.from({ length: n }, (_, i) => BigInt(f(i)));

describe('integer key lists', () => {
  it('are marked only when every value is a safe integer number, or every one a 64-bit bigint', () => {
    expect(markIntKeyList([1, 2, 3])).toBe(true);
    expect(markIntKeyList([1n, -5n, 2n ** 63n - 1n])).toBe(true);
    const refused: unknown[][] = [[], [1, 2n], [1n, 2], [1, 2.5], [1, NaN], [1, null], [null, 1], [2 ** 53], [2n ** 63n], ['1']];
    for (const v of refused) {
      expect(markIntKeyList(v)).toBe(false);
      expect(intKeyListRepr(v)).toBeUndefined();
    }
    const marked = [4n, 5n];
    markIntKeyList(marked);
    expect(intKeyListRepr(marked)).toBe('bigint');
    // the marker is the array's identity: a copy is not marked
    expect(intKeyListRepr([...marked])).toBeUndefined();
  });

  it('bind to their own field type as the same array, equal to the value-by-value binding', () => {
    const keys = bigints(5_000, (i) => i * 7 + 1);
    markIntKeyList(keys);
    const bound = bindPredicates([inOf(0, keys)], columns, { rows: true });
    expect(bound.kind === 'in' ? bound.values : null).toBe(keys);
    expect(bound).toEqual(bindPredicates([inOf(0, [...keys])], columns, { rows: true }));
    const ints = Array.from({ length: 5_000 }, (_, i) => i * 3);
    markIntKeyList(ints);
    const b4 = bindPredicates([inOf(1, ints)], columns);
    expect(b4.kind === 'in' ? b4.values : null).toBe(ints);
  });

  it('of the other representation are converted value by value (bigints against an int field)', () => {
    const keys = bigints(100, (i) => i);
    markIntKeyList(keys);
    const bound = bindPredicates([inOf(1, keys)], columns);
    expect(bound.kind === 'in' ? bound.values : null).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('key the plan cache by their content', () => {
    const a = bigints(30_000, (i) => i * 5);
    const b = bigints(30_000, (i) => i * 5);
    const c = bigints(30_000, (i) => i * 5 + 1);
    const d = [...a];
    d[29_999] = 1n;
    for (const x of [a, b, c, d]) markIntKeyList(x);
    const key = (v: readonly unknown[]) => predicateKey(bindPredicates([inOf(0, v)], columns));
    expect(key(a)).toBe(key(b));
    expect(key(a)).not.toBe(key(c));
    expect(key(a)).not.toBe(key(d));
    const shorter = a.slice(0, 29_999);
    markIntKeyList(shorter);
    expect(key(a)).not.toBe(key(shorter));
    // a digest, not 30,000 values of text
    expect(key(a).length).toBeLessThan(300);
    expect(key(a)).toContain(intKeyListDigest(a)!);
    // the same keys as numbers are another list (Float64 words, not int64 ones)
    const n = Array.from({ length: 30_000 }, (_, i) => i * 5);
    markIntKeyList(n);
    expect(intKeyListDigest(n)).not.toBe(intKeyListDigest(a));
    // short lists too
    const s1 = [3n, 1n, 2n], s2 = [3n, 1n, 2n], s3 = [3n, 1n, 4n];
    for (const x of [s1, s2, s3]) markIntKeyList(x);
    expect(intKeyListDigest(s1)).toBe(intKeyListDigest(s2));
    expect(intKeyListDigest(s1)).not.toBe(intKeyListDigest(s3));
  });

  it('travel to the scan workers as the same values (filter-wire.ts packs them without checking each)', () => {
    const big = bigints(1_000, (i) => i * 11 - 5_000);
    const small = Array.from({ length: 1_000 }, (_, i) => i * 13 - 4_000);
    markIntKeyList(big); markIntKeyList(small);
    for (const [column, v] of [[0, big], [1, small]] as const) {
      const bound = bindPredicates([inOf(column, v)], columns);
      const back = fromWireFilter(toWireFilter(bound));
      expect(back).toEqual(bound);
    }
  });

  it('arrive in a scan worker marked with the typed words they travelled as, in shared memory', () => {
    const big = bigints(1_000, (i) => i * 11 - 5_000);
    markIntKeyList(big);
    const bound = bindPredicates([inOf(0, big)], columns);
    const wire = toWireFilter(bound) as { values: { $inI64: BigInt64Array } };
    // passed by reference to every task of the scan, not copied into each task message
    expect(wire.values.$inI64.buffer).toBeInstanceOf(SharedArrayBuffer);
    const back = fromWireFilter(structuredClone(wire));
    const values = back.kind === 'in' ? back.values : [];
    expect(values).toEqual(big);
    expect(intKeyListRepr(values)).toBe('bigint');
    expect(intKeyListWords(values)).toEqual(BigInt64Array.from(big));
    // the sorted copy made from the words equals the one made from the values
    const copy = [...big];
    expect(sortedIntegerKeys(values)).toEqual(sortedIntegerKeys(copy));
  });

  it('made from typed words must hold the words\' keys; number words only safe integers', () => {
    expect(markIntKeyListWords([1n, 2n], BigInt64Array.of(1n, 2n))).toBe(true);
    expect(markIntKeyListWords([1n], BigInt64Array.of(1n, 2n))).toBe(false);
    expect(markIntKeyListWords([1.5], Float64Array.of(1.5))).toBe(false);
    expect(markIntKeyListWords([2 ** 53], Float64Array.of(2 ** 53))).toBe(false);
    const ok = [3, -4];
    expect(markIntKeyListWords(ok, Float64Array.of(3, -4))).toBe(true);
    expect(intKeyListRepr(ok)).toBe('number');
  });

  it('split at ±2^53 from their words exactly as Number() per key did', () => {
    const rnd = mulberry32(7);
    const edges = [0n, 1n, -1n, 2n ** 31n, -(2n ** 31n), 2n ** 32n - 1n, 2n ** 32n, -(2n ** 32n), 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n,
      -(2n ** 53n), -(2n ** 53n) - 1n, -(2n ** 53n) + 1n, 2n ** 63n - 1n, -(2n ** 63n)];
    const keys = [...edges, ...Array.from({ length: 2_000 }, () => BigInt(Math.floor((rnd() - 0.5) * 2 ** 53)) * (rnd() < 0.1 ? 1025n : 1n))];
    markIntKeyList(keys);
    const split = int64KeysSplit(keys)!;
    // the old split: a key is small when it lies in [-2^53, 2^53), then as Number(key)
    const small = keys.filter((v) => v >= -(2n ** 53n) && v < 2n ** 53n);
    expect([...split.small]).toEqual(small.map(Number));
    expect(split.big).toEqual(keys.filter((v) => !small.includes(v)));
    expect(split.small.every((x, i) => BigInt(x) === small[i])).toBe(true);
    // only for marked bigint lists
    const ints = [1, 2, 3];
    markIntKeyList(ints);
    expect(int64KeysSplit(ints)).toBeUndefined();
    expect(int64KeysSplit([1n, 2n])).toBeUndefined();
  });
});
