/** The join hash table: integer keys in typed arrays, everything else in a Map, the same chains either way. */
import { describe, expect, it } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import type { Batch } from '../common/batch.ts';
import { buildJoinHashTable, type JoinHashTable } from './join-hash-table.ts';
import type { Cols } from './expr/compile-expr.ts';

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
    const t = buildJoinHashTable(batch([5, null, 7, 5, -3, 0, 5]), [col0], [Oid.int4], [Oid.int4], 64);
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
    const t = buildJoinHashTable(batch(keys), [col0], [Oid.int4], [Oid.int8], 64);
    expect(t.size).toBe(5000);
    for (const i of [0, 1, 2499, 4999]) expect(matches(t, BigInt(keys[i]!))).toEqual([i]);
    expect(matches(t, 2n ** 60n)).toEqual([]);
    expect(matches(t, 4096 * 3 - 1_000_000 + 1)).toEqual([]);
  });

  it('falls back to valueKey for int8 beyond 2^53 and for other types', () => {
    const big = 2n ** 60n;
    const t = buildJoinHashTable(batch([1n, big, big + 1n, 1n]), [col0], [Oid.int8], [Oid.int8], 64);
    expect(matches(t, big)).toEqual([1]);
    expect(matches(t, big + 1n)).toEqual([2]);
    expect(matches(t, 1n)).toEqual([0, 3]);
    const s = buildJoinHashTable(batch(['a ', 'b', null, 'a']), [col0], [Oid.bpchar], [Oid.bpchar], 64);
    expect(matches(s, 'a')).toEqual([0, 3]);
    const d = buildJoinHashTable(batch([19000, Infinity, 19000]), [col0], [Oid.date], [Oid.date], 64);
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
    const t = buildJoinHashTable(b, cols01, [Oid.int4, Oid.int4], [Oid.int4, Oid.int8], 64);
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
    const t = buildJoinHashTable(b, cols01, [Oid.int4, Oid.int4], [Oid.int4, Oid.int4], 64);
    expect(t.size).toBe(vals.length);
    vals.forEach(([a, c], i) => expect(pairs(t, a, c)).toEqual([i]));
  });
  it('fall back to tuple keys past 2^25', () => {
    const b: Batch = { columns: [[1, 2 ** 25], [2, 5]], length: 2 };
    const t = buildJoinHashTable(b, cols01, [Oid.int4, Oid.int4], [Oid.int4, Oid.int4], 64);
    expect(pairs(t, 2 ** 25, 5)).toEqual([1]);
    expect(pairs(t, 1, 2)).toEqual([0]);
  });
});
