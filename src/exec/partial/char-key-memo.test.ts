/**
 * CharKeyMemo against the GroupTable it stands in front of: every batch must get the group ids, the groups'
 * order and the first values the table alone gives — one-character keys, NULL, char(n)'s blank (equal to the
 * empty string), Latin-1 letters, and a value past them (multi-character, beyond Latin-1) that switches it off.
 */
import { describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { GroupTable } from '../group-table.ts';
import { CharKeyMemo } from './char-key-memo.ts';

/** batches of rows over `values`, deterministic */
function batches(values: readonly (string | null)[], width: number, count: number, size: number, seed: number): (string | null)[][][] {
  let x = seed;
  const next = (): number => { x = (x * 1103515245 + 12345) % 2147483648; return x; };
  return Array.from({ length: count }, () => Array.from({ length: width }, () => Array.from({ length: size }, () => values[next() % values.length]!)));
}

/** the ids of each batch and the table's groups, with or without the memo */
function run(oids: readonly number[], input: readonly (readonly (readonly unknown[])[])[], memo: boolean): { ids: number[][]; groups: unknown[][]; memoUsed: boolean[] } {
  const table = new GroupTable(oids);
  const m = memo ? CharKeyMemo.tryCreate(oids, oids.map((_o, c) => c)) : null;
  const ids: number[][] = [];
  const memoUsed: boolean[] = [];
  for (const cols of input) {
    const n = cols[0]!.length;
    const out = new Int32Array(n);
    const used = m !== null && m.assign(cols, n, out, (c, k, o) => table.assign(c, k, o));
    if (!used) table.assign(cols, n, out);
    memoUsed.push(used);
    ids.push([...out]);
  }
  return { ids, groups: table.values.map((c) => [...c]), memoUsed };
}

describe('CharKeyMemo', () => {
  it.each([
    ['char(1), char(1)', [Oid.bpchar, Oid.bpchar], ['A', 'N', 'R', 'F', 'O', null, ' ', '', 'é', 'ÿ']],
    ['text', [Oid.text], ['a', 'b', null, 'Z', '\u0000']],
    ['varchar, text', [Oid.varchar, Oid.text], ['x', 'y', null]],
  ] as const)('%s: the same groups as the table alone', (_name, oids, values) => {
    const input = batches(values, oids.length, 12, 700, 7);
    const want = run(oids, input, false);
    const got = run(oids, input, true);
    expect(got.memoUsed.every((u) => u)).toBe(true);
    expect(got.ids).toEqual(want.ids);
    expect(got.groups).toEqual(want.groups);
    if (oids[0] === Oid.bpchar) {
      // char(n): ' ' and '' are one group, as in PostgreSQL
      const norm = (v: unknown): unknown => (v === '' ? ' ' : v);
      const tuples = new Set(input.flatMap((cols) => cols[0]!.map((v, i) => JSON.stringify([norm(v), norm(cols[1]![i])]))));
      expect(got.groups[0]!.length).toBe(tuples.size);
    }
  });

  it.each([
    ['a two-character value', 'AB'],
    ['a character past Latin-1', 'Ā'],
    ['an undefined entry', undefined],
  ])('%s mid-batch: the rest goes to the table, then the memo stays off', (_name, odd) => {
    const oids = [Oid.bpchar, Oid.text];
    const input: unknown[][][] = batches(['A', 'B', null], 2, 4, 300, 3);
    input[1]![1]![150] = odd;
    const want = run(oids, input, false);
    const got = run(oids, input, true);
    expect(got.memoUsed).toEqual([true, true, false, false]);
    expect(got.ids).toEqual(want.ids);
    expect(got.groups).toEqual(want.groups);
  });

  it('reset: a new table starts from no codes', () => {
    const oids = [Oid.bpchar];
    const m = CharKeyMemo.tryCreate(oids, [0])!;
    let table = new GroupTable(oids);
    const out = new Int32Array(3);
    m.assign([['B', 'A', 'B']], 3, out, (c, k, o) => table.assign(c, k, o));
    expect([...out]).toEqual([0, 1, 0]);
    table = new GroupTable(oids);
    m.reset();
    m.assign([['A', 'C', 'B']], 3, out, (c, k, o) => table.assign(c, k, o));
    expect([...out]).toEqual([0, 1, 2]);
    expect(table.values[0]).toEqual(['A', 'C', 'B']);
  });

  it('holds no code table until its first assign (a task grouped by dictionary codes never asks it)', () => {
    const oids = [Oid.bpchar, Oid.bpchar];
    const m = CharKeyMemo.tryCreate(oids, [0, 1])!;
    expect(m.heldBytes).toBe(0);
    m.reset();
    expect(m.heldBytes).toBe(0);
    const table = new GroupTable(oids);
    const out = new Int32Array(2);
    m.assign([['A', 'N'], ['F', 'O']], 2, out, (c, k, o) => table.assign(c, k, o));
    expect([...out]).toEqual([0, 1]);
    expect(m.heldBytes).toBe(258 * 258 * 4);
  });

  it('is only for one or two string keys read in place', () => {
    expect(CharKeyMemo.tryCreate([Oid.int4], [0])).toBeNull();
    expect(CharKeyMemo.tryCreate([Oid.text, Oid.text, Oid.text], [0, 1, 2])).toBeNull();
    expect(CharKeyMemo.tryCreate([Oid.text], [-1])).toBeNull();
    expect(CharKeyMemo.tryCreate([], [])).toBeNull();
  });
});
