/** GroupLookup: one group per distinct key (valueKey equality), also for rows that repeat the previous row's keys. */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { rowKey } from './batch-util.ts';
import { GroupLookup } from './group-lookup.ts';

function groupsOf(oids: number[], rows: unknown[][]): { ids: number[]; keys: unknown[][] } {
  const keys: unknown[][] = [];
  const fns = oids.map((_o, c) => (cols: readonly (readonly unknown[])[], i: number) => cols[c]![i]);
  const lookup = new GroupLookup<number>(fns, oids, (kv) => { keys.push(kv); return keys.length - 1; });
  const cols = oids.map((_o, c) => rows.map((r) => r[c]));
  return { ids: rows.map((_r, i) => lookup.find(cols, i)), keys };
}

function reference(oids: number[], rows: unknown[][]): number[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const k = rowKey(r, oids);
    let g = seen.get(k);
    if (g === undefined) { g = seen.size; seen.set(k, g); }
    return g;
  });
}

describe('GroupLookup', () => {
  it('runs of repeated keys (sorted input) get the groups rowKey gives, NaN, -0, NULL and numeric scales included', () => {
    const n1 = Numeric.parse('1.0'), n2 = Numeric.parse('1.00');
    const rows: unknown[][] = [
      [1, 'a', n1], [1, 'a', n1], [1, 'a', n2], [1, 'b', n2], [1, 'b', n2], [NaN, 'b', n1], [NaN, 'b', n1], [-0, null, null],
      [0, null, null], [0, null, undefined], [1, 'a', n1], [2, 'a', n1], [2, 'a', n1], [1, 'a', n2],
    ];
    const oids = [Oid.float8, Oid.text, Oid.numeric];
    const { ids, keys } = groupsOf(oids, rows);
    expect(ids).toEqual(reference(oids, rows));
    // a group keeps the key values of its first row
    expect(keys[0]).toEqual([1, 'a', n1]);
    expect(keys.length).toBe(new Set(ids).size);
    const one = groupsOf([Oid.int8], [[5n], [5n], [6n], [5n], [null], [null], [6n]].map((r) => r));
    expect(one.ids).toEqual([0, 0, 1, 0, 2, 2, 1]);
  });
});
