/** The join hash table: integer keys in typed arrays, everything else in a Map, the same chains either way. */
import { describe, expect, it } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import type { Batch } from '../common/batch.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { compareValues } from '../functions/index.ts';
import { rowKey } from './batch-util.ts';
import { buildJoinHashTable, type JoinHashTable } from './join-hash-table.ts';
import type { Cols } from './expr/compile-expr.ts';
import { attachExactInt64, exactDoublesOf } from '../common/pgtypes/exact-int64-column.ts';

const col0 = (cols: Cols, i: number): unknown => cols[0]![i];
const batch = (vals: unknown[]): Batch => ({ columns: [vals], length: vals.length });

/** every built row with the probe value's key, via first/next */
function matches(t: JoinHashTable, probe: unknown): number[] {
  const first = t.prober([col0]);
  const out: number[] = [];
  for (let j = first([[probe]], 0); j >= 0; j = t.next[j]!) out.push(j);
  return out;
}

describe('buildJoinHashTable', () => {
  it('chains duplicate integer keys in row order and never matches NULL', () => {
    const t = buildJoinHashTable(batch([5, null, 7, 5, -3, 0, 5]), [col0], [Oid.int4], [Oid.int4]);
    expect(t.size).toBe(4);
    expect(matches(t, 5)).toEqual([0, 3, 6]);
    expect(matches(t, -3)).toEqual([4]);
    expect(matches(t, -0)).toEqual([5]);
    expect(matches(t, null)).toEqual([]);
    expect(matches(t, 8)).toEqual([]);
    expect([...t.heads()].sort()).toEqual([0, 2, 4, 5]);
  });

  it('meets int8 probes with int4 keys, and many colliding-looking keys stay apart', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => i * 4096 - 1_000_000);
    const t = buildJoinHashTable(batch(keys), [col0], [Oid.int4], [Oid.int8]);
    expect(t.size).toBe(5000);
    for (const i of [0, 1, 2499, 4999]) expect(matches(t, BigInt(keys[i]!))).toEqual([i]);
    expect(matches(t, 2n ** 60n)).toEqual([]);
    expect(matches(t, 4096 * 3 - 1_000_000 + 1)).toEqual([]);
  });

  it('falls back to valueKey for int8 beyond 2^53 and for other types', () => {
    const big = 2n ** 60n;
    const t = buildJoinHashTable(batch([1n, big, big + 1n, 1n]), [col0], [Oid.int8], [Oid.int8]);
    expect(matches(t, big)).toEqual([1]);
    expect(matches(t, big + 1n)).toEqual([2]);
    expect(matches(t, 1n)).toEqual([0, 3]);
    const s = buildJoinHashTable(batch(['a ', 'b', null, 'a']), [col0], [Oid.bpchar], [Oid.bpchar]);
    expect(matches(s, 'a')).toEqual([0, 3]);
    const d = buildJoinHashTable(batch([19000, Infinity, 19000]), [col0], [Oid.date], [Oid.date]);
    expect(matches(d, Infinity)).toEqual([1]);
    expect(matches(d, 19000)).toEqual([0, 2]);
  });
});

describe('two integer keys', () => {
  const cols01 = [(cols: Cols, i: number): unknown => cols[0]![i], (cols: Cols, i: number): unknown => cols[1]![i]];
  const pairs = (t: JoinHashTable, a: unknown, b: unknown): number[] => {
    const first = t.prober(cols01);
    const out: number[] = [];
    for (let j = first([[a], [b]], 0); j >= 0; j = t.next[j]!) out.push(j);
    return out;
  };
  it('pack into one number, NULL in either never matches', () => {
    const b: Batch = { columns: [[1, 1, 2, null, -5, 1], [2, 3, 1, 1, 7, 2]], length: 6 };
    const t = buildJoinHashTable(b, cols01, [Oid.int4, Oid.int4], [Oid.int4, Oid.int8]);
    expect(t.size).toBe(4);
    expect(pairs(t, 1, 2n)).toEqual([0, 5]);
    expect(pairs(t, 2, 1n)).toEqual([2]);
    expect(pairs(t, -5, 7n)).toEqual([4]);
    expect(pairs(t, null, 1n)).toEqual([]);
    expect(pairs(t, 1, 2n ** 40n)).toEqual([]);
  });
  it('keep neighbouring pairs apart at the ends of the packed range', () => {
    const h = 2 ** 25;
    const vals: [number, number][] = [[1, 1], [1, 2], [2, 1], [h - 1, h - 1], [h - 1, h - 2], [-h, -h], [-h, -h + 1], [0, 0]];
    const b: Batch = { columns: [vals.map((v) => v[0]), vals.map((v) => v[1])], length: vals.length };
    const t = buildJoinHashTable(b, cols01, [Oid.int4, Oid.int4], [Oid.int4, Oid.int4]);
    expect(t.size).toBe(vals.length);
    vals.forEach(([a, c], i) => expect(pairs(t, a, c)).toEqual([i]));
  });
  it('fall back to tuple keys past 2^25', () => {
    const b: Batch = { columns: [[1, 2 ** 25], [2, 5]], length: 2 };
    const t = buildJoinHashTable(b, cols01, [Oid.int4, Oid.int4], [Oid.int4, Oid.int4]);
    expect(pairs(t, 2 ** 25, 5)).toEqual([1]);
    expect(pairs(t, 1, 2)).toEqual([0]);
  });
});

describe('keys of other types or more columns', () => {
  const cols3 = [0, 1, 2].map((c) => (cols: Cols, i: number): unknown => cols[c]![i]);
  const OIDS = [Oid.int8, Oid.text, Oid.numeric];
  /** the built rows equal to probe row i by compareValues, NULL matching nothing: the brute-force answer */
  const brute = (build: unknown[][], row: unknown[]): number[] =>
    build.flatMap((r, j) => (r.every((v, c) => v !== null && row[c] !== null && compareValues(OIDS[c]!, v, row[c]) === 0) ? [j] : []));
  const rowsOf = (n: number, seed: number): unknown[][] => {
    let s = seed;
    const rnd = (m: number): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return (s >>> 8) % m; };
    return Array.from({ length: n }, () => [
      rnd(9) === 0 ? null : BigInt(rnd(4)) * (2n ** 60n) + BigInt(rnd(3)),
      rnd(9) === 0 ? null : ['a', 'b', 'ab', ''][rnd(4)]!,
      rnd(9) === 0 ? null : Numeric.parse(['1', '1.0', '2.50', '2.5', '-0'][rnd(5)]!),
    ]);
  };
  const asBatch = (rows: unknown[][]): Batch => ({ columns: [0, 1, 2].map((c) => rows.map((r) => r[c])), length: rows.length });

  it('chain every equal built row in row order and never match NULL, probed a batch at a time', () => {
    const build = rowsOf(400, 3);
    const probe = rowsOf(300, 11);
    const t = buildJoinHashTable(asBatch(build), cols3, OIDS, OIDS);
    const firsts = t.batchProber(cols3)(asBatch(probe).columns, probe.length);
    probe.forEach((row, i) => {
      const got: number[] = [];
      for (let j = firsts[i]!; j >= 0; j = t.next[j]!) got.push(j);
      expect(got).toEqual(brute(build, row));
    });
    const distinct = new Set(build.filter((r) => r.every((v) => v !== null)).map((r) => rowKey(r, OIDS)));
    expect(t.size).toBe(distinct.size);
    expect([...t.heads()].length).toBe(distinct.size);
    // the row prober agrees
    const first = t.prober(cols3);
    probe.slice(0, 20).forEach((row, i) => expect(first(asBatch(probe).columns, i)).toBe(firsts[i]));
  });
});

describe('batch probing of integer keys', () => {
  it('gives every probe row the same first row as the row prober', () => {
    const build: Batch = { columns: [[3, 1, null, 3, 2 ** 40, -7, 1]], length: 7 };
    const t = buildJoinHashTable(build, [col0], [Oid.int8], [Oid.int8]);
    const probe = [1n, 3n, null, 2n ** 40n, -7n, 2n ** 60n, 4n, 1n];
    const firsts = t.batchProber([col0])([probe], probe.length);
    expect([...firsts.subarray(0, probe.length)]).toEqual([1, 0, -1, 4, 5, -1, -1, 1]);
    const first = t.prober([col0]);
    probe.forEach((_, i) => expect(first([probe], i)).toBe(firsts[i]));
  });
});

describe('probing with an int8 column\'s attached exact doubles', () => {
  it('finds the same first rows as from the bigints, NULLs never matching, in dense and hashed tables', () => {
    const probe = [1n, 3n, null, 2n ** 40n, -7n, 4n, 1n, 0n, null, 2n ** 52n];
    const nulls = Uint8Array.from(probe, (v) => (v === null ? 1 : 0));
    const withDoubles = probe.slice();
    attachExactInt64(withDoubles, exactDoublesOf(BigInt64Array.from(probe, (v) => v ?? 0n), probe.length, nulls)!, nulls);
    // the doubles are what is read: a column whose bigints disagree with them shows it
    const lying = probe.map((v) => (v === null ? null : v + 1n));
    attachExactInt64(lying, exactDoublesOf(BigInt64Array.from(probe, (v) => v ?? 0n), probe.length, nulls)!, nulls);
    for (const keys of [[3, 1, null, 3, 2 ** 40, -7, 1, 0], [3, 1, null, 3, 4, -7, 1, 0]]) {
      const t = buildJoinHashTable(batch(keys), [col0], [Oid.int8], [Oid.int8]);
      const want = [...t.batchProber([col0])([probe], probe.length).subarray(0, probe.length)];
      expect([...t.batchProber([col0], [0])([withDoubles], probe.length).subarray(0, probe.length)]).toEqual(want);
      expect([...t.batchProber([col0], [0])([lying], probe.length).subarray(0, probe.length)]).toEqual(want);
      // a computed key (-1) reads the row function
      expect([...t.batchProber([col0], [-1])([lying], probe.length).subarray(0, probe.length)]).not.toEqual(want);
    }
  });
});

describe('building from an int8 column\'s attached exact doubles', () => {
  it('reads the doubles for a plain key column (NULLs never entered), in dense and hashed tables; a computed key reads the bigints', () => {
    for (const keys of [[3n, 1n, null, 3n, 2n ** 40n, -7n, 1n, 0n], [3n, 1n, null, 3n, 4n, -7n, 1n, 0n]]) {
      const nulls = Uint8Array.from(keys, (v) => (v === null ? 1 : 0));
      const doubles = exactDoublesOf(BigInt64Array.from(keys, (v) => v ?? 0n), keys.length, nulls)!;
      // bigints that disagree with the attached doubles: the table must have been built from the doubles
      const lying = keys.map((v) => (v === null ? null : v + 100n));
      attachExactInt64(lying, doubles, nulls);
      const plain = buildJoinHashTable(batch(keys), [col0], [Oid.int8], [Oid.int8]);
      const fast = buildJoinHashTable({ columns: [lying], length: keys.length }, [col0], [Oid.int8], [Oid.int8], [0]);
      expect(fast.size).toBe(plain.size);
      const probe = [1n, 3n, null, 2n ** 40n, -7n, 4n, 0n, 101n, 2n ** 60n];
      const want = [...plain.batchProber([col0])([probe], probe.length).subarray(0, probe.length)];
      expect([...fast.batchProber([col0])([probe], probe.length).subarray(0, probe.length)]).toEqual(want);
      expect([...fast.next]).toEqual([...plain.next]);
      const computed = buildJoinHashTable({ columns: [lying], length: keys.length }, [col0], [Oid.int8], [Oid.int8], [-1]);
      expect([...computed.batchProber([col0])([probe], probe.length).subarray(0, probe.length)]).not.toEqual(want);
    }
  });
});

describe('32-bit and wider integer keys', () => {
  it('an all-int32 build side does not match wider probe keys that agree in the low 32 bits', () => {
    const build: Batch = { columns: [[5n, -1n, 2147483647n, -2147483648n, 0n, 5n]], length: 6 };
    const t = buildJoinHashTable(build, [col0], [Oid.int8], [Oid.int8]);
    expect(t.bytes).toBeLessThan(16 * 16 + 6 * 4);
    const probe = [5n, 2n ** 32n + 5n, -1n, 2n ** 32n - 1n, 2147483647n, 2147483648n, -2147483648n, -2147483649n, 0n, 2n ** 32n, 2n ** 60n, null];
    const firsts = t.batchProber([col0])([probe], probe.length);
    expect([...firsts.subarray(0, probe.length)]).toEqual([0, -1, 1, -1, 2, -1, 3, -1, 4, -1, -1, -1]);
    expect(matches(t, 5n)).toEqual([0, 5]);
    expect(matches(t, 2n ** 32n + 5n)).toEqual([]);
  });

  it('a build side with one key past 32 bits keeps every key exact', () => {
    const keys = [1, 2 ** 32 + 1, -(2 ** 40), 2 ** 31, 1, -(2 ** 31) - 1];
    const t = buildJoinHashTable(batch(keys), [col0], [Oid.int8], [Oid.int8]);
    expect(t.size).toBe(5);
    expect(matches(t, 1n)).toEqual([0, 4]);
    expect(matches(t, BigInt(2 ** 32 + 1))).toEqual([1]);
    expect(matches(t, BigInt(-(2 ** 40)))).toEqual([2]);
    expect(matches(t, 2n ** 31n)).toEqual([3]);
    expect(matches(t, -(2n ** 31n) - 1n)).toEqual([5]);
    expect(matches(t, 2n ** 31n - 1n)).toEqual([]);
    expect([...t.heads()].sort()).toEqual([0, 1, 2, 3, 5]);
  });

  it('a build side of NULLs only matches nothing', () => {
    const t = buildJoinHashTable(batch([null, null]), [col0], [Oid.int4], [Oid.int4]);
    expect(t.size).toBe(0);
    expect(matches(t, 0)).toEqual([]);
  });
});

describe('dense integer keys (indexed by key − min)', () => {
  it('chains duplicates, skips NULLs and matches nothing outside the key range', () => {
    const keys = [-3, 4, null, 4, -3, 10, 0, 4];
    const t = buildJoinHashTable(batch(keys), [col0], [Oid.int4], [Oid.int8]);
    expect(t.size).toBe(4);
    expect(matches(t, -3n)).toEqual([0, 4]);
    expect(matches(t, 4)).toEqual([1, 3, 7]);
    expect(matches(t, -0)).toEqual([6]);
    expect(matches(t, 10n)).toEqual([5]);
    for (const miss of [-4n, 11n, 1n, 2n ** 32n - 3n, -(2n ** 60n), null]) expect(matches(t, miss)).toEqual([]);
    expect([...t.heads()].sort((a, b) => a - b)).toEqual([0, 1, 5, 6]);
  });

  it('uses an index no bigger than a hash table: a quarter-dense range (TPC-H order keys) as much as a full one', () => {
    const orderKey = (i: number): number => Math.floor(i / 8) * 32 + (i % 8) + 1;
    const keys = Array.from({ length: 4000 }, (_, i) => BigInt(orderKey(3999 - i)));
    const t = buildJoinHashTable(batch(keys), [col0], [Oid.int8], [Oid.int8]);
    expect(t.size).toBe(4000);
    expect(t.bytes).toBeLessThanOrEqual(4 * (4 * 4000 + 1024) + 4000 * 4);
    const probe = Array.from({ length: 16100 }, (_, k) => BigInt(k));
    const firsts = t.batchProber([col0])([probe], probe.length);
    const want = new Map(keys.map((k, j) => [k, j]));
    probe.forEach((k, i) => expect(firsts[i]).toBe(want.get(k) ?? -1));
  });
});

describe('probing two int8 key columns through their attached exact doubles', () => {
  it('packs the pairs as the bigints would: NULL in either column and keys past ±2^25 never match', () => {
    const col1 = (cols: Cols, i: number): unknown => cols[1]![i];
    const a = [1n, 2n, null, 1n, 2n ** 25n, -(2n ** 25n), 7n, 3n];
    const b = [10n, 20n, 10n, null, 1n, 4n, -(2n ** 25n) - 1n, 30n];
    const build: Batch = { columns: [[1n, 2n, 1n, -(2n ** 25n), 3n], [10n, 20n, 11n, 4n, 30n]], length: 5 };
    const t = buildJoinHashTable(build, [col0, col1], [Oid.int8, Oid.int8], [Oid.int8, Oid.int8]);
    const want = [...t.batchProber([col0, col1])([a, b], a.length).subarray(0, a.length)];
    expect(want).toEqual([0, 1, -1, -1, -1, 3, -1, 4]);
    // columns whose bigints disagree with their attached doubles: the doubles are what is read
    const attach = (vals: (bigint | null)[]): unknown[] => {
      const nulls = Uint8Array.from(vals, (v) => (v === null ? 1 : 0));
      const lying = vals.map((v) => (v === null ? null : v + 1000n));
      attachExactInt64(lying, exactDoublesOf(BigInt64Array.from(vals, (v) => v ?? 0n), vals.length, nulls)!, nulls);
      return lying;
    };
    const la = attach(a), lb = attach(b);
    expect([...t.batchProber([col0, col1], [0, 1])([la, lb], a.length).subarray(0, a.length)]).toEqual(want);
    // one computed key: both read from the row functions
    expect([...t.batchProber([col0, col1], [0, -1])([la, lb], a.length).subarray(0, a.length)]).not.toEqual(want);
  });
});
