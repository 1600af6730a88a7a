/**
 * DirectKeyIndex through GroupTable: one integer key column numbered by key − base once the span fits, the same
 * groups as the rowKey reference through entering, growing up and down, NULLs, leaving for hashing (fractions,
 * NaN, text-like keys, bigints past 2^53, a span too wide) and coming back; lookup in either mode; with exact doubles
 * (key-only int8 columns) every row's entry read first (readIds), the rows without a group numbered after.
 */
import { describe, expect, it } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import { rowKey } from './batch-util.ts';
import { DirectKeyIndex, DIRECT_MIN_GROUPS } from './direct-key-index.ts';
import { GroupTable } from './group-table.ts';
import { keyOnlyInt64Column } from '../common/pgtypes/exact-int64-column.ts';

function reference(oid: number, vals: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  return vals.map((v) => {
    const k = rowKey([v], [oid]);
    let g = seen.get(k);
    if (g === undefined) { g = seen.size; seen.set(k, g); }
    return g;
  });
}

/** feeds `vals` in batches; the ids, the table, and the index kinds it went through (H hash, D direct) */
function assignAll(oid: number, vals: readonly unknown[], batch: number): { ids: number[]; t: GroupTable; kinds: string } {
  const t = new GroupTable([oid]);
  const ids: number[] = [];
  let kinds = '';
  const out = new Int32Array(batch);
  for (let from = 0; from < vals.length; from += batch) {
    const part = vals.slice(from, from + batch);
    t.assign([part], part.length, out);
    ids.push(...out.subarray(0, part.length));
    const k = t.indexKind === 'direct' ? 'D' : 'H';
    if (!kinds.endsWith(k)) kinds += k;
  }
  return { ids, t, kinds };
}

let seed = 11;
const rnd = (m: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % m; };

describe('DirectKeyIndex', () => {
  it('fits a span of a few entries per group, not a sparse or tiny one, nor keys past ±2^52', () => {
    expect(DirectKeyIndex.fits(1, 4000, 1000)).toBe(true);
    expect(DirectKeyIndex.fits(1, 4_000_000, 1000)).toBe(false);
    expect(DirectKeyIndex.fits(1, 10, DIRECT_MIN_GROUPS - 1)).toBe(false);
    expect(DirectKeyIndex.fits(2 ** 53 - 5000, 2 ** 53 - 1, 5000)).toBe(false);
  });

  it('numbers TPC-H-like order keys (file-clustered, 4x sparse) as rowKey does, by int8 bigints and int4 numbers', () => {
    const orderKey = (i: number): number => Math.floor(i / 8) * 32 + (i % 8) + 1;
    const files: number[][] = Array.from({ length: 12 }, () => []);
    for (let o = 0; o < 20_000; o++) for (let l = rnd(4); l >= 0; l--) files[rnd(12)]!.push(orderKey(o));
    const keys = files.flat();
    for (const [oid, vals] of [[Oid.int8, keys.map(BigInt)], [Oid.int4, keys]] as const) {
      const { ids, t, kinds } = assignAll(oid, vals, 1000);
      expect(ids).toEqual(reference(oid, vals));
      expect(kinds).toMatch(/^H?D$/);
      // about 4 bytes per key of the span (80k) and the groups' hashes
      expect(t.indexBytes).toBeLessThan(80_000 * 4 * 2 + 4 * 2 * 20_000);
      // the first value seen is what the group shows
      expect(t.values[0]![ids[5]!]).toBe(vals[5]);
      const probe = [vals[7], 0, -5, 99_999_999, null, 2.5, vals[100]];
      const out = new Int32Array(probe.length);
      t.lookup([probe], probe.length, out);
      expect([...out]).toEqual([ids[7], -1, -1, -1, -1, -1, ids[100]]);
    }
  });

  it('grows below and above, keeps NULL as one group, and agrees with rowKey through leaving and coming back', () => {
    // dense keys (direct), keys below and above (growth), NULLs, then keys over a span too wide for the groups
    // (hashing), then enough groups for that span (direct again), then a fraction / NaN / huge key (hashing for good)
    const dense = Array.from({ length: 3000 }, () => 10_000 + rnd(4000));
    const below = Array.from({ length: 500 }, () => 9_000 + rnd(1000));
    const above = Array.from({ length: 500 }, () => 14_000 + rnd(2000));
    const nulls = [null, 10_001, null, undefined];
    const wide = [-0, 0, ...Array.from({ length: 40_000 }, () => rnd(400_000) - 100_000)];
    const odd = [2.5, NaN, 2 ** 60, 10_002];
    const vals = [...dense, ...below, ...nulls, ...above, ...wide, ...odd, ...dense];
    for (const batch of [64, 1000]) {
      const { ids, kinds } = assignAll(Oid.float8, vals, batch);
      expect(ids).toEqual(reference(Oid.float8, vals));
      expect(kinds).toMatch(/^H?DHDH$/);
    }
    const asInt8 = vals.map((v) => (typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : v === 2 ** 60 ? 2n ** 60n + 1n : v))
      .filter((v) => typeof v === 'bigint' || v === null);
    const { ids, t, kinds } = assignAll(Oid.int8, asInt8, 333);
    expect(ids).toEqual(reference(Oid.int8, asInt8));
    expect(kinds).toMatch(/^H?DHDH$/);
    const probe = [asInt8[0], 2n ** 60n + 1n, 2n ** 60n, null];
    const out = new Int32Array(probe.length);
    t.lookup([probe], probe.length, out);
    expect([...out]).toEqual([ids[0], ids[asInt8.indexOf(2n ** 60n + 1n)], -1, -1]);
  });

  it('does not take a bigint past 2^53 for the rounded key next to it', () => {
    const base = 2 ** 52 - 1000;
    const vals: unknown[] = Array.from({ length: 2000 }, (_v, i) => BigInt(base + (i % 1000)));
    vals.push(2n ** 53n + 1n, 2n ** 53n, 2n ** 53n + 2n);
    const { ids, kinds } = assignAll(Oid.int8, vals, 100);
    expect(ids).toEqual(reference(Oid.int8, vals));
    expect(kinds).toBe('HDH');
  });

  it('agrees with rowKey over random runs of dense windows, far keys on either side and NULLs (fuzz)', () => {
    for (let round = 0; round < 12; round++) {
      const vals: unknown[] = [];
      let center = rnd(100_000) - 50_000;
      for (let seg = 0; seg < 8; seg++) {
        const width = 200 + rnd(6000);
        const len = rnd(5000);
        for (let i = 0; i < len; i++) vals.push(rnd(50) === 0 ? null : BigInt(center + rnd(width)));
        // a jump: far below or above, or a window next to the last one
        const r = rnd(3);
        center = r === 0 ? center - 1_000_000 - rnd(1_000_000) : r === 1 ? center + 1_000_000 + rnd(1_000_000) : center + width;
      }
      const { ids } = assignAll(Oid.int8, vals, 1 + rnd(3000));
      expect(ids).toEqual(reference(Oid.int8, vals));
    }
  });

  it('readIds gives each row its key\'s group, -1 for keys without one, NULL rows (double 0, itself a key), fractions and keys outside', () => {
    const d = DirectKeyIndex.build({ at: (g: number) => [0, 5, 9, 300][g] }, 4, 0, 300);
    const xf = Float64Array.from([5, 9, 0, 0, 7, 300, -1, 1e9, 2.5, 5, 300]);
    const xn = Uint8Array.from([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]);
    const out = new Int32Array(xf.length).fill(77);
    d.readIds(xf, xn, xf.length, out);
    expect([...out]).toEqual([1, 2, 0, -1, -1, 3, -1, -1, -1, 1, -1]);
    d.readIds(xf, null, 3, out);
    expect([...out.subarray(0, 4)]).toEqual([1, 2, 0, -1]);
  });

  it('numbers key-only int8 columns (exact doubles, entries read before new groups are added) as rowKey does: new keys repeated apart in a batch, NULLs, growth, leaving and coming back (fuzz)', () => {
    for (let round = 0; round < 10; round++) {
      const keys: (number | null)[] = [];
      let center = 1_000 + rnd(50_000);
      for (let seg = 0; seg < 10; seg++) {
        // the first segment dense enough for the direct index
        const width = seg === 0 ? 4000 : 300 + rnd(5000);
        const len = seg === 0 ? 6000 : rnd(6000);
        // unsorted within a segment: a new key comes back later in the same batch, not only on the next row
        for (let i = 0; i < len; i++) keys.push(rnd(40) === 0 ? null : rnd(30) === 0 ? 0 : center + rnd(width));
        const r = rnd(4);
        center = r === 0 ? Math.max(0, center - 2_000 - rnd(20_000)) : r === 1 ? center + 3_000_000 + rnd(1_000_000) : center + width;
      }
      const ref = reference(Oid.int8, keys.map((k) => (k === null ? null : BigInt(k))));
      const batch = 1 + rnd(4000);
      const t = new GroupTable([Oid.int8]);
      const out = new Int32Array(batch);
      const ids: number[] = [];
      let kinds = '';
      for (let from = 0; from < keys.length; from += batch) {
        const part = keys.slice(from, from + batch);
        const xn = Uint8Array.from(part, (k) => (k === null ? 1 : 0));
        const col = keyOnlyInt64Column(Float64Array.from(part, (k) => k ?? 0), part.length, xn);
        t.assign([col], part.length, out);
        ids.push(...out.subarray(0, part.length));
        const k = t.indexKind === 'direct' ? 'D' : 'H';
        if (!kinds.endsWith(k)) kinds += k;
      }
      expect(ids).toEqual(ref);
      expect(kinds).toContain('D');
      // the groups show their keys (BigInt(key), made again when read) and NULL
      for (let i = 0; i < keys.length; i += 97) expect(t.keyAt(0, ids[i]!)).toBe(keys[i] === null ? null : BigInt(keys[i]!));
    }
  });

  it('stays within a bounded index for a sparse key (hashing)', () => {
    const vals = Array.from({ length: 5000 }, (_v, i) => i * 1_000_003);
    const { ids, t, kinds } = assignAll(Oid.int8, vals, 500);
    expect(ids).toEqual(reference(Oid.int8, vals));
    expect(kinds).toBe('H');
    expect(t.indexBytes).toBeLessThan(5000 * 64);
  });
});
