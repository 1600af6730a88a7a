/**
 * DictionaryKeyGroups against the GroupTable it stands in front of: every batch must get the group ids, the
 * groups' order and the first values the table alone gives — one, two and three keys, keys of several
 * characters, dictionaries with unused entries or two entries of one string (equal groups), char(n)'s trailing
 * blanks, batches whose dictionaries change, and batches without codes (NULLs, a plain-encoded chunk) in between,
 * which the table takes. A memo that answered without the table where the keys differ would show here.
 */
import { describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { attachDictionaryStrings, dictionaryStringsOf, isLazyStrings, lazyDictionaryStrings, materializedStrings } from '../../iceberg/read/dictionary-strings.ts';
import type { Expr } from '../../sql/index.ts';
import { GroupTable } from '../group-table.ts';
import { DictionaryKeyGroups, keyOnlyColumns } from './dictionary-key-groups.ts';

/** a batch column: per row the entry of its code, with the codes attached when `coded` */
function column(entries: readonly string[], codes: readonly number[], coded: boolean): string[] {
  const out = codes.map((c) => entries[c]!);
  if (coded) attachDictionaryStrings(out, { codes: Int32Array.from(codes), entries });
  return out;
}

function lcg(seed: number): () => number {
  let x = seed;
  return () => { x = (x * 1103515245 + 12345) % 2147483648; return x; };
}

/** per batch: per key column its dictionary and whether the codes ride along */
type BatchSpec = { readonly dicts: readonly (readonly string[])[]; readonly coded: boolean; readonly size: number; readonly use?: number };

function makeBatches(specs: readonly BatchSpec[], seed: number): (readonly unknown[])[][] {
  const next = lcg(seed);
  // codes drawn from the first `use` entries only: the rest of the dictionary stays unused in the batch
  return specs.map((s) => s.dicts.map((d) => column(d, Array.from({ length: s.size }, () => next() % Math.min(s.use ?? d.length, d.length)), s.coded)));
}

/** each batch's ids and the table's groups, with or without the memo; `used`: batches the memo took */
function run(oids: readonly number[], input: readonly (readonly (readonly unknown[])[])[], memo: boolean): { ids: number[][]; groups: unknown[][]; used: boolean[] } {
  const table = new GroupTable(oids);
  const m = memo ? DictionaryKeyGroups.tryCreate(oids, oids.map((_o, c) => c)) : null;
  const ids: number[][] = [];
  const used: boolean[] = [];
  for (const cols of input) {
    const n = cols[0]!.length;
    const out = new Int32Array(n);
    const took = m !== null && m.assign(cols, n, out, (c, k, o) => table.assign(c, k, o));
    if (!took) table.assign(cols, n, out);
    used.push(took);
    ids.push([...out]);
  }
  return { ids, groups: table.values.map((c) => [...c]), used };
}

const FLAGS = ['A', 'N', 'R'];
const STATUS = ['F', 'O'];

describe('DictionaryKeyGroups', () => {
  it.each([
    ['one key', [Oid.bpchar], [FLAGS]],
    ['two one-character keys (TPC-H q1)', [Oid.bpchar, Oid.bpchar], [FLAGS, STATUS]],
    ['three keys', [Oid.text, Oid.bpchar, Oid.varchar], [['x', 'y'], FLAGS, STATUS]],
    ['keys of several characters', [Oid.text, Oid.text], [['DELIVER IN PERSON', 'NONE', 'TAKE BACK RETURN', ''], ['AIR', 'MAIL', 'SHIP', 'TRUCK', 'é€']]],
    ['two entries of one string (one group)', [Oid.text], [['a', 'b', 'a', 'c', 'b']]],
    ['char(n): trailing blanks equal', [Oid.bpchar, Oid.bpchar], [['A', 'A  ', 'B'], ['', ' ', 'x']]],
  ] as const)('%s: the same ids and groups as the table alone', (_name, oids, dicts) => {
    const specs: BatchSpec[] = [
      { dicts, coded: true, size: 500 },
      { dicts, coded: true, size: 3, use: 1 },
      // a chunk without codes (NULLs, plain pages): the table takes it, the memo's answers stay right
      { dicts, coded: false, size: 200 },
      // a new chunk's dictionary: other arrays with the same strings, the same groups
      { dicts: dicts.map((d) => [...d]), coded: true, size: 700 },
      { dicts: dicts.map((d) => [...d].reverse()), coded: true, size: 700 },
    ];
    const input = makeBatches(specs, 7);
    const want = run(oids, input, false);
    const got = run(oids, input, true);
    expect(got.used).toEqual([true, true, false, true, true]);
    expect(got.ids).toEqual(want.ids);
    expect(got.groups).toEqual(want.groups);
  });

  it('a dictionary with unused entries: groups only for the entries rows use, in order of first appearance', () => {
    const dict = ['u1', 'B', 'u2', 'A', 'u3'];
    const codes = [3, 1, 3, 3, 1, 1, 3];
    const cols = [column(dict, codes, true)];
    const table = new GroupTable([Oid.text]);
    const m = DictionaryKeyGroups.tryCreate([Oid.text], [0])!;
    const out = new Int32Array(codes.length);
    expect(m.assign(cols, codes.length, out, (c, k, o) => table.assign(c, k, o))).toBe(true);
    expect([...out]).toEqual([0, 1, 0, 0, 1, 1, 0]);
    expect(table.values).toEqual([['A', 'B']]);
  });

  it('after reset (the group table emptied), codes are asked again', () => {
    const cols = [column(FLAGS, [2, 0, 2], true)];
    const m = DictionaryKeyGroups.tryCreate([Oid.text], [0])!;
    let table = new GroupTable([Oid.text]);
    const out = new Int32Array(3);
    m.assign(cols, 3, out, (c, k, o) => table.assign(c, k, o));
    table = new GroupTable([Oid.text]);
    m.reset();
    const again = [column(FLAGS, [0, 2], true)];
    m.assign(again, 2, out, (c, k, o) => table.assign(c, k, o));
    expect([...out.subarray(0, 2)]).toEqual([0, 1]);
    expect(table.values).toEqual([['A', 'R']]);
  });

  it('leaves to the table: columns without codes, too many combined codes; not made for computed or non-string keys', () => {
    const m = DictionaryKeyGroups.tryCreate([Oid.text, Oid.text], [0, 1])!;
    const table = new GroupTable([Oid.text, Oid.text]);
    const assign = (c: readonly (readonly unknown[])[], k: number, o: Int32Array): void => table.assign(c, k, o);
    const out = new Int32Array(4);
    expect(m.assign([column(FLAGS, [0, 1, 2, 0], true), column(STATUS, [0, 1, 0, 1], false)], 4, out, assign)).toBe(false);
    const wide = Array.from({ length: 100 }, (_v, k) => `v${k}`);
    expect(m.assign([column(wide, [0, 1, 2, 3], true), column(wide, [3, 2, 1, 0], true)], 4, out, assign)).toBe(false);
    expect(table.size).toBe(0);
    expect(DictionaryKeyGroups.tryCreate([Oid.text], [-1])).toBeNull();
    expect(DictionaryKeyGroups.tryCreate([Oid.int4], [0])).toBeNull();
  });

  it('lazy key columns (codes only, no values): the same ids and groups as the table over the values, values never read', () => {
    const oids = [Oid.bpchar, Oid.text];
    const dicts = [['A', 'A  ', 'N', 'R'], ['F', 'O', 'é€', '']];
    const input = makeBatches([
      { dicts, coded: true, size: 900 },
      { dicts, coded: true, size: 40, use: 2 },
      { dicts: dicts.map((d) => [...d].reverse()), coded: true, size: 900 },
    ], 3);
    const want = run(oids, input, false);
    // the same codes and entries as lazy columns: the memo must take its values from the dictionaries
    const lazyInput = input.map((cols) => cols.map(lazyOf));
    expect(lazyInput.every((cols) => cols.every(isLazyStrings))).toBe(true);
    const got = run(oids, lazyInput, true);
    expect(got.used).toEqual([true, true, true]);
    expect(got.ids).toEqual(want.ids);
    expect(got.groups).toEqual(want.groups);
    // the values, when someone wants them, are the coded column's; reading a lazy column's last row fails loudly
    expect([...materializedStrings(lazyInput[0]![1]!)]).toEqual([...input[0]![1]!]);
    expect(() => (lazyInput[0]![0]![899] as { length: number }).length).toThrow(/lazy string column/);
  });

  it('a new chunk\'s dictionaries of keys met before: their groups known from the strings, only new keys asked (in row order)', () => {
    const oids = [Oid.bpchar, Oid.text];
    const m = DictionaryKeyGroups.tryCreate(oids, [0, 1])!;
    const table = new GroupTable(oids);
    let asked = 0;
    const assign = (c: readonly (readonly unknown[])[], k: number, o: Int32Array): void => { asked += k; table.assign(c, k, o); };
    const out = new Int32Array(6);
    m.assign([column(FLAGS, [0, 1, 2, 0], true), column(STATUS, [0, 0, 1, 1], true)], 4, out, assign);
    expect(asked).toBe(4);
    // another file's dictionaries: the same strings in another order, one more entry ('X'), unused 'R'
    const flags2 = ['N', 'X', 'A', 'R'], status2 = ['O', 'F'];
    asked = 0;
    m.assign([column(flags2, [2, 0, 1, 2, 1, 0], true), column(status2, [1, 1, 0, 0, 0, 0], true)], 6, out, assign);
    // A/F, N/F, A/O known; X/O and N/O asked, once each, in row order
    expect(asked).toBe(2);
    expect([...out]).toEqual([0, 1, 4, 3, 4, 5]);
    expect(table.values).toEqual([['A', 'N', 'R', 'A', 'X', 'N'], ['F', 'F', 'O', 'O', 'O', 'O']]);
    // after reset (the table emptied) nothing is known
    m.reset();
    const fresh = new GroupTable(oids);
    asked = 0;
    m.assign([column(FLAGS, [0], true), column(STATUS, [0], true)], 1, out, (c, k, o) => { asked += k; fresh.assign(c, k, o); });
    expect(asked).toBe(1);
  });

  it('keyCodes: the key columns\' codes and the table assign fills (combined code a · kb + b), with no pass over the rows', () => {
    const oids = [Oid.bpchar, Oid.bpchar];
    const m = DictionaryKeyGroups.tryCreate(oids, [0, 1])!;
    const table = new GroupTable(oids);
    const cols = [column(FLAGS, [2, 0, 2, 1], true), column(STATUS, [1, 0, 1, 0], true)];
    const keys = m.keyCodes(cols, 4)!;
    expect(keys.kb).toBe(2);
    expect(keys.cells).toBe(6);
    expect([...keys.a]).toEqual([2, 0, 2, 1]);
    expect([...keys.b]).toEqual([1, 0, 1, 0]);
    // nothing asked yet
    expect([...keys.ids.subarray(0, 6)]).toEqual([0, 0, 0, 0, 0, 0]);
    const out = new Int32Array(4);
    expect(m.assign(cols, 4, out, (c, k, o) => table.assign(c, k, o))).toBe(true);
    // R/O first, then A/F, N/F: ids[code] = group + 1
    expect([...keys.ids.subarray(0, 6)]).toEqual([2, 0, 3, 0, 0, 1]);
    // the next batch of the same chunk sees the same table
    expect(m.keyCodes([column(FLAGS, [0], true), column(STATUS, [0], true)], 1)!.ids).toBe(keys.ids);
    // one key: the cell is its code (b = a, kb = 0)
    const one = DictionaryKeyGroups.tryCreate([Oid.text], [0])!.keyCodes([column(FLAGS, [1, 2], true)], 2)!;
    expect([one.kb, one.cells, one.b === one.a]).toEqual([0, 3, true]);
    // without codes, three keys, or more combined codes than a table holds: null
    expect(m.keyCodes([column(FLAGS, [0], true), column(STATUS, [0], false)], 1)).toBeNull();
    const wide = Array.from({ length: 100 }, (_v, k) => `v${k}`);
    expect(m.keyCodes([column(wide, [0], true), column(wide, [1], true)], 1)).toBeNull();
    const three = DictionaryKeyGroups.tryCreate([Oid.text, Oid.text, Oid.text], [0, 1, 2])!;
    expect(three.keyCodes([column(FLAGS, [0], true), column(STATUS, [0], true), column(STATUS, [1], true)], 1)).toBeNull();
  });

  it('keyOnlyColumns: plain string keys nothing else reads', () => {
    const TEXT = sqlType(Oid.text), INT = sqlType(Oid.int4);
    const ref = (index: number, type = TEXT): Expr => ({ kind: 'ColumnRef', index, levelsUp: 0, type, name: `c${index}` });
    const fn = (arg: Expr): Expr => ({ kind: 'Call', name: 'lower', def: {}, args: [arg], argTypes: [TEXT], type: TEXT }) as unknown as Expr;
    // 0, 1: plain keys; 2: a key also read by an aggregate; 3: a key also pushed; 4: an int key; 5: only inside a computed key
    expect([...keyOnlyColumns([ref(0), ref(1), ref(2), ref(3), ref(4, INT), fn(ref(5))], [ref(2)], new Set([3]))].sort()).toEqual([0, 1]);
    // a column that is a plain key and also inside a computed key is not key-only
    expect([...keyOnlyColumns([ref(0), fn(ref(0))], [], new Set())]).toEqual([]);
  });
});

/** the lazy form of a coded test column (the scan's codesOnly form of the same chunk) */
function lazyOf(c: readonly unknown[]): unknown[] {
  const d = dictionaryStringsOf(c)!;
  return lazyDictionaryStrings(d.codes, d.entries);
}
