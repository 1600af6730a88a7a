/** GroupTable: group ids with the equality of compareValues (valueKey), checked against a Map of rowKey strings. */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { rowKey } from './batch-util.ts';
import { GroupTable, type GroupTableOptions } from './group-table.ts';
import { attachExactInt64, exactDoublesOf, KEY_ONLY_INT64, keyOnlyInt64Column } from '../common/pgtypes/exact-int64-column.ts';

/** the ids of every row of `rows` (row-major), fed in batches of `batch` */
function assignAll(oids: number[], rows: unknown[][], batch = 7, options?: GroupTableOptions): { ids: number[]; t: GroupTable } {
  const t = new GroupTable(oids, options);
  const ids: number[] = [];
  const out = new Int32Array(batch);
  for (let from = 0; from < rows.length; from += batch) {
    const part = rows.slice(from, from + batch);
    t.assign(oids.map((_, c) => part.map((r) => r[c])), part.length, out);
    ids.push(...out.subarray(0, part.length));
  }
  return { ids, t };
}

/** the reference: ids in first-seen order of rowKey (the key the string-keyed paths use) */
function reference(oids: number[], rows: unknown[][]): number[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const k = rowKey(r, oids);
    let g = seen.get(k);
    if (g === undefined) { g = seen.size; seen.set(k, g); }
    return g;
  });
}

/** a deterministic mix of ints, bigints, text, numerics and NULLs over few distinct values */
function mixedRows(n: number, seed = 1): unknown[][] {
  let s = seed;
  const rnd = (m: number): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % m; };
  const rows: unknown[][] = [];
  for (let i = 0; i < n; i++) {
    const a = rnd(10) === 0 ? null : rnd(50) - 25;
    const b = rnd(10) === 0 ? null : BigInt(rnd(40)) * 1000000007n;
    const c = rnd(10) === 0 ? null : ['x', 'y', 'xy', '', 'Ω', 'x '][rnd(6)]!;
    const d = rnd(10) === 0 ? null : Numeric.parse(['1', '1.0', '1.00', '2.5', '2.50', '-0.0', '0', '1e20'][rnd(8)]!);
    rows.push([a, b, c, d]);
  }
  return rows;
}

describe('GroupTable', () => {
  const OIDS4 = [Oid.int4, Oid.int8, Oid.text, Oid.numeric];

  it('gives the same groups as rowKey over mixed types with NULLs, across batches and table growth', () => {
    const rows = mixedRows(5000);
    const { ids, t } = assignAll(OIDS4, rows, 333, { capacity: 16 });
    expect(ids).toEqual(reference(OIDS4, rows));
    expect(t.size).toBe(new Set(ids).size);
  });

  it('stays exact when every hash collides (one probe chain through a tiny table)', () => {
    const rows = mixedRows(1500, 7);
    const { ids } = assignAll(OIDS4, rows, 64, { capacity: 16, hashKey: () => 0 });
    expect(ids).toEqual(reference(OIDS4, rows));
  });

  it('groups NULLs together, int4 with int8 values, -0 with +0, every NaN together, and keeps the first value', () => {
    const { ids, t } = assignAll([Oid.float8], [[-0], [0], [NaN], [null], [0 / 0], [null], [1.5], [-0]]);
    expect(ids).toEqual([0, 0, 1, 2, 1, 2, 3, 0]);
    expect(Object.is(t.values[0]![0], -0)).toBe(true);
    const ints = assignAll([Oid.int8], [[5n], [5], [2n ** 60n], [2n ** 60n], [2n ** 60n + 1n], [-(2n ** 53n) + 1n], [-(2 ** 53) + 1]]);
    expect(ints.ids).toEqual([0, 0, 1, 1, 2, 3, 3]);
  });

  it('puts numeric 1.0 and 1.00 in one group shown as the first seen, bpchar ignoring trailing blanks, text by code units', () => {
    const nums = assignAll([Oid.numeric], ['1.0', '1.00', '1', '1.5', '1.50', '-0.00', '0'].map((x) => [Numeric.parse(x)]));
    expect(nums.ids).toEqual([0, 0, 0, 1, 1, 2, 2]);
    expect(nums.t.values[0]!.map(String)).toEqual(['1.0', '1.5', '0.00']);
    expect(assignAll([Oid.bpchar], [['ab'], ['ab  '], ['ab'], ['a b']]).ids).toEqual([0, 0, 0, 1]);
    expect(assignAll([Oid.text], [['ab'], ['ab  '], ['AB'], ['ab'], ['é'], ['e\u0301']]).ids).toEqual([0, 1, 2, 0, 3, 4]);
  });

  it('one key column (its own loop) agrees with rowKey, with lookup, and under forced collisions', () => {
    for (const [c, oid] of [[0, Oid.int4], [1, Oid.int8], [2, Oid.text], [3, Oid.numeric]] as const) {
      const rows = mixedRows(2000, 5 + c).map((r) => [r[c]]);
      for (const options of [{ capacity: 16 }, { capacity: 16, hashKey: () => 3 }]) {
        const { ids, t } = assignAll([oid], rows, 97, options);
        expect(ids).toEqual(reference([oid], rows));
        const out = new Int32Array(rows.length);
        t.lookup([rows.map((r) => r[0])], rows.length, out);
        expect([...out]).toEqual(rows.map((r, i) => (r[0] === null ? -1 : ids[i])));
      }
    }
  });

  it('one number key column: slot-side keys stay exact through growth, NULLs, bigints, NaN, -0, floats, beyond int32', () => {
    let x = 7;
    const rnd = (m: number): number => { x = (Math.imul(x, 1103515245) + 12345) >>> 0; return (x >>> 8) % m; };
    // many distinct integers first (the table grows many times with only number keys), then other keys mixed in
    const ints: unknown[][] = Array.from({ length: 5000 }, () => [rnd(3000) * 7919 - 1_000_000]);
    const mixed: unknown[][] = Array.from({ length: 3000 }, () => {
      const r = rnd(10);
      const big = [-2147483648, 2147483647, 2 ** 31, 2 ** 40 + rnd(3), -(2 ** 31) - 1][rnd(5)]!;
      return [r === 0 ? null : r === 1 ? BigInt(rnd(3000) * 7919 - 1_000_000) : r === 2 ? 2n ** 60n + BigInt(rnd(3)) : r === 3 ? NaN : r === 4 ? -0 : r === 5 ? rnd(50) + 0.5 : r === 6 ? big : rnd(3000) * 7919 - 1_000_000];
    });
    const rows = [...ints, ...mixed];
    for (const oid of [Oid.int8, Oid.float8]) {
      for (const options of [{ capacity: 16 }, { capacity: 16, hashKey: () => 3 }]) {
        const { ids } = assignAll([oid], rows, 250, options);
        expect(ids).toEqual(reference([oid], rows));
      }
    }
  });

  it('keeps working after a batch too big to keep its scratch arrays', () => {
    const n = 70_000;
    const a = Array.from({ length: n }, (_, i) => i % 1000);
    const b = Array.from({ length: n }, (_, i) => String(i % 7));
    const t = new GroupTable([Oid.int4, Oid.text]);
    const out = new Int32Array(n);
    t.assign([a, b], n, out);
    expect(t.size).toBe(7000);
    expect(out[7001]).toBe(out[1]);
    const probe = new Int32Array(3);
    t.lookup([[1, 1000, 1], ['1', '1', '7']], 3, probe);
    expect([...probe]).toEqual([out[1], -1, -1]);
  });

  it('gives rows repeating the previous key the same groups as rowKey (runs of sorted input, NaN, -0, NULL, Numeric)', () => {
    // runs of equal keys as sorted input has them, over one and two key columns, with values === cannot see as equal
    const n1 = Numeric.parse('1.0'), n2 = Numeric.parse('1.00');
    const vals: unknown[] = [5n, 5n, 5n, 6n, 6n, NaN, NaN, -0, 0, 0, null, null, undefined, n1, n1, n2, 5n, 7n, 7n, 7n];
    const rows1 = vals.map((v) => [v]);
    for (const batch of [3, 8, 64]) {
      const oid = [Oid.int8];
      const mixed = vals.map((v) => [v]);
      expect(assignAll(oid, mixed.filter((r) => typeof r[0] === 'bigint' || r[0] === null), batch).ids)
        .toEqual(reference(oid, mixed.filter((r) => typeof r[0] === 'bigint' || r[0] === null)));
      expect(assignAll([Oid.float8], rows1.filter((r) => typeof r[0] === 'number' || r[0] === null), batch).ids)
        .toEqual(reference([Oid.float8], rows1.filter((r) => typeof r[0] === 'number' || r[0] === null)));
      expect(assignAll([Oid.numeric], [[n1], [n1], [n2], [null], [n2], [n1]], batch).ids).toEqual([0, 0, 0, 1, 0, 0]);
      // two columns: a run breaks when either column changes
      const two = [[1, 'a'], [1, 'a'], [1, 'b'], [1, 'b'], [2, 'b'], [NaN, 'b'], [NaN, 'b'], [1, 'a'], [null, null], [null, null], [-0, 'a'], [0, 'a']];
      const sorted = Array.from({ length: 40 }, (_v, i) => [Math.floor(i / 5), 'k' + Math.floor(i / 10)]);
      for (const rows of [two, sorted, [...sorted, ...two, ...sorted]]) {
        expect(assignAll([Oid.int4, Oid.text], rows, batch).ids).toEqual(reference([Oid.int4, Oid.text], rows));
      }
    }
  });

  it('gives back the first bigint of each group (not kept: made again from its key) by keyAt, keysOf, keySlice and values', () => {
    const big = 2n ** 60n + 3n;
    // one column by hashing, then by the direct index (past DIRECT_MIN_GROUPS dense keys), then two columns
    const dense = Array.from({ length: 600 }, (_, i) => [BigInt(1000 + (i * 7) % 300)]);
    for (const rows of [[[5n], [null], [-0], [big], [5n], [7], [-(2n ** 53n) + 1n]], dense]) {
      const { t } = assignAll([Oid.int8], rows, 64);
      const firsts: unknown[] = [];
      const seen = new Set<string>();
      for (const r of rows) { const k = rowKey(r, [Oid.int8]); if (!seen.has(k)) { seen.add(k); firsts.push(r[0]); } }
      expect(t.size).toBe(firsts.length);
      for (let g = 0; g < t.size; g++) {
        expect(t.keyAt(0, g)).toBe(firsts[g]);
        expect(t.keysOf(g)).toEqual([firsts[g]]);
      }
      expect(t.keySlice(0, 1, t.size)).toEqual(firsts.slice(1));
      expect(t.values[0]).toEqual(firsts);
    }
    const { t } = assignAll([Oid.int8, Oid.text], [[1n, 'a'], [2n, 'b'], [1n, 'a'], [big, null], [3, 'c']]);
    expect(t.size).toBe(4);
    expect([0, 1, 2, 3].map((g) => t.keysOf(g))).toEqual([[1n, 'a'], [2n, 'b'], [big, null], [3, 'c']]);
    // values filled in once stays right as groups are added after it
    expect(t.values[0]).toEqual([1n, 2n, big, 3]);
    t.assign([[4n, 1n], ['d', 'a']], 2, new Int32Array(2));
    expect(t.values[0]).toEqual([1n, 2n, big, 3, 4n]);
    expect(t.keySlice(1, 0, 5)).toEqual(['a', 'b', null, 'c', 'd']);
  });

  it('gives back the first number of each group of an int4 / float8 key (kept as its key: -0 and NaN kept apart) by keyAt, keySlice and values', () => {
    // by hashing (few groups), then by the direct index (past DIRECT_MIN_GROUPS dense keys), then two columns
    const dense = Array.from({ length: 900 }, (_, i) => [i % 3 === 0 ? null : 1000 + ((i * 7) % 400)]);
    const odd = [[-0], [0], [NaN], [null], [1.5], [0 / 0], [-0], [2 ** 53 + 2], [-7], [0]];
    for (const [oid, rows] of [[Oid.int4, dense], [Oid.float8, odd], [Oid.float8, [...dense, ...odd]], [Oid.int4, [...odd.slice(0, 2), ...dense]]] as const) {
      const { t } = assignAll([oid], rows as unknown[][], 64);
      const firsts: unknown[] = [];
      const seen = new Set<string>();
      for (const r of rows) { const k = rowKey(r, [oid]); if (!seen.has(k)) { seen.add(k); firsts.push(r[0]); } }
      expect(t.size).toBe(firsts.length);
      for (let g = 0; g < t.size; g++) expect(Object.is(t.keyAt(0, g), firsts[g])).toBe(true);
      const slice = t.keySlice(0, 1, t.size);
      slice.forEach((v, g) => expect(Object.is(v, firsts[g + 1])).toBe(true));
      t.values[0]!.forEach((v, g) => expect(Object.is(v, firsts[g])).toBe(true));
    }
    const { t } = assignAll([Oid.int4, Oid.float8], [[1, -0], [2, 0.5], [1, 0], [null, NaN], [-0, 0]]);
    expect([0, 1, 2, 3].map((g) => t.keysOf(g))).toEqual([[1, -0], [2, 0.5], [null, NaN], [-0, 0]]);
    expect(Object.is(t.keyAt(1, 0), -0)).toBe(true);
    expect(Object.is(t.keyAt(0, 3), -0)).toBe(true);
    const out = new Int32Array(2);
    t.assign([[0, 3], [-0, 4]], 2, out);
    expect([...out]).toEqual([3, 4]);
    expect(t.keysOf(4)).toEqual([3, 4]);
    expect(Object.is(t.keyAt(1, 3), 0)).toBe(true);
  });

  it('keeps the bigint first values of an int8 column with exact doubles under a key type that is not int8', () => {
    const col = [5n, 7n, 5n, null];
    attachExactInt64(col, new Float64Array([5, 7, 5, 0]), new Uint8Array([0, 0, 0, 1]));
    const t = new GroupTable([Oid.numeric]);
    t.assign([col], 4, new Int32Array(4));
    expect([0, 1, 2].map((g) => t.keyAt(0, g))).toEqual([5n, 7n, null]);
    expect(t.values[0]).toEqual([5n, 7n, null]);
  });

  it('reads an int8 column\'s attached exact doubles as its keys: the same groups and first values as the bigints', () => {
    // runs, NULLs, dense keys past DIRECT_MIN_GROUPS (direct index), then keys far off (back to hashing)
    const vals: (bigint | null)[] = [];
    for (let i = 0; i < 2000; i++) vals.push(i % 13 === 0 ? null : BigInt(3 * Math.floor(i / 3) % 700 - 50));
    vals.splice(900, 0, 2n ** 52n, -(2n ** 53n) + 1n);
    const plain = new GroupTable([Oid.int8]), fast = new GroupTable([Oid.int8]);
    const a = new Int32Array(256), b = new Int32Array(256);
    let kinds = '';
    for (let from = 0; from < vals.length; from += 256) {
      const col = vals.slice(from, from + 256), n = col.length;
      const withDoubles = col.slice();
      const nulls = new Uint8Array(n).map((_, i) => (col[i] === null ? 1 : 0));
      const f = exactDoublesOf(BigInt64Array.from(col, (v) => v ?? 0n), n, nulls)!;
      attachExactInt64(withDoubles, f, nulls);
      plain.assign([col], n, a);
      fast.assign([withDoubles], n, b);
      expect(Array.from(b.subarray(0, n))).toEqual(Array.from(a.subarray(0, n)));
      kinds += fast.indexKind[0];
    }
    expect(kinds).toMatch(/^h+d+h+$/);
    expect(fast.size).toBe(plain.size);
    expect(fast.keySlice(0, 0, fast.size)).toEqual(plain.keySlice(0, 0, plain.size));
    expect(fast.values[0]!.every((v) => v === null || typeof v === 'bigint')).toBe(true);
  });

  it('finds groups added by the direct index after leaving it (their hashes made on leaving), and keeps first values past int8 runs', () => {
    // 600 dense int8 keys (direct index, no hash kept per group), a key far off (back to hashing), then every key
    // again: each must find its group by hash; a NULL and a numeric-valued int8 group after hundreds of bigint ones
    const dense = Array.from({ length: 600 }, (_, i) => [BigInt(5000 + i * 3)]);
    const rows: unknown[][] = [...dense, [null], [2n ** 40n], ...dense.slice().reverse(), [7], [null], [BigInt(5000)]];
    for (const batch of [64, 1000]) {
      const { ids, t } = assignAll([Oid.int8], rows, batch);
      expect(ids).toEqual(reference([Oid.int8], rows));
      expect(t.indexKind).toBe('hash');
      const firsts = [...dense.map((r) => r[0]), null, 2n ** 40n, 7];
      expect(t.keySlice(0, 0, t.size)).toEqual(firsts);
      expect(t.keySlice(0, 598, 602)).toEqual(firsts.slice(598, 602));
      expect(t.values[0]).toEqual(firsts);
      const found = new Int32Array(3);
      t.lookup([[BigInt(5000 + 3 * 599), 2n ** 40n, 12n]], 3, found);
      expect(Array.from(found)).toEqual([599, 601, -1]);
    }
  });

  it('groups a key-only int8 column (placeholders, exact doubles attached) without reading its entries: the bigints\' groups and first values', () => {
    // the same walk as above — runs, NULLs, the direct index, then hashing — over keyOnlyInt64Column batches
    // (partial/lazy-scan-rows.ts); reading any placeholder throws, keeping one as a first value would show here
    const vals: (bigint | null)[] = [];
    for (let i = 0; i < 2000; i++) vals.push(i % 13 === 0 ? null : BigInt(3 * Math.floor(i / 3) % 700 - 50));
    vals.splice(900, 0, 2n ** 52n, -(2n ** 53n) + 1n, 0n, -0n);
    const plain = new GroupTable([Oid.int8]), lazy = new GroupTable([Oid.int8]);
    const a = new Int32Array(256), b = new Int32Array(256);
    let kinds = '';
    for (let from = 0; from < vals.length; from += 256) {
      const col = vals.slice(from, from + 256), n = col.length;
      const nulls = new Uint8Array(n).map((_, i) => (col[i] === null ? 1 : 0));
      const keyOnly = keyOnlyInt64Column(exactDoublesOf(BigInt64Array.from(col, (v) => v ?? 0n), n, nulls)!, n, nulls);
      expect(keyOnly.every((v, i) => (col[i] === null ? v === null : v === KEY_ONLY_INT64))).toBe(true);
      plain.assign([col], n, a);
      lazy.assign([keyOnly], n, b);
      expect(Array.from(b.subarray(0, n))).toEqual(Array.from(a.subarray(0, n)));
      kinds += lazy.indexKind[0];
    }
    expect(kinds).toMatch(/^h+d+h+$/);
    expect(lazy.size).toBe(plain.size);
    expect(lazy.keySlice(0, 0, lazy.size)).toEqual(plain.keySlice(0, 0, plain.size));
    expect(lazy.keysOf(lazy.size - 1)).toEqual(plain.keysOf(plain.size - 1));
    expect(lazy.values[0]).toEqual(plain.values[0]);
    expect(() => String(KEY_ONLY_INT64)).toThrow(/key-only int8/);
  });

  it('reads attached exact doubles of an int8 column among several keys: the same groups, keys and lookups', () => {
    const n = 3000;
    const ints = Array.from({ length: n }, (_, i) => (i % 17 === 0 ? null : BigInt((i * 7919) % 1013) - 400n));
    const texts = Array.from({ length: n }, (_, i) => (i % 29 === 0 ? null : `t${i % 3}`));
    const withDoubles = ints.slice();
    const nulls = Uint8Array.from(ints, (v) => (v === null ? 1 : 0));
    attachExactInt64(withDoubles, exactDoublesOf(BigInt64Array.from(ints, (v) => v ?? 0n), n, nulls)!, nulls);
    const plain = new GroupTable([Oid.int8, Oid.text]), fast = new GroupTable([Oid.int8, Oid.text]);
    const a = new Int32Array(n), b = new Int32Array(n);
    plain.assign([ints, texts], n, a);
    fast.assign([withDoubles, texts], n, b);
    expect(Array.from(b)).toEqual(Array.from(a));
    expect(fast.size).toBeGreaterThan(1000);
    expect(fast.keySlice(0, 0, fast.size)).toEqual(plain.keySlice(0, 0, plain.size));
    // the int8 keys meet int4 numbers and bigints of other batches, as valueKey has them
    const probe = [Number(ints[1]), ints[2], null], probeText = [texts[1], texts[2], texts[3]];
    const l = new Int32Array(3);
    fast.lookup([probe, probeText], 3, l);
    expect(Array.from(l)).toEqual([b[1], b[2], -1]);
  });

  it('puts every row in group 0 without key columns', () => {
    const { ids, t } = assignAll([], [[], [], []]);
    expect(ids).toEqual([0, 0, 0]);
    expect(t.size).toBe(1);
    expect(new GroupTable([]).size).toBe(0);
  });

  it('lookup finds existing groups only and never a key with a NULL', () => {
    const oids = [Oid.int4, Oid.text];
    const { t } = assignAll(oids, [[1, 'a'], [2, 'b'], [null, 'c'], [3, null]], 7, { capacity: 16, hashKey: (k) => (k === null ? 0 : 1) });
    const probe = [[2, 'b'], [1, 'a'], [null, 'c'], [3, null], [1, 'b'], [4, 'a']];
    const out = new Int32Array(probe.length);
    t.lookup(oids.map((_, c) => probe.map((r) => r[c])), probe.length, out);
    expect([...out]).toEqual([1, 0, -1, -1, -1, -1]);
    expect(t.size).toBe(4);
  });
});
