/**
 * A dictionary whose entries all pass a leaf (a partition or row-group range that proves the conjunct, TPC-H
 * q6's l_shipdate in a month file) leaves the selection as it is without reading a row's code; one whose entries
 * all fail empties it; NULL rows still fail either way (arrow-dictionary-filter.ts). Conjuncts of an AND on the
 * same coded column (`x >= a AND x <= b`) are judged as one: one code read per row (arrow-row-filter.ts).
 */
import { describe, expect, it } from 'vitest';
import { Int32, vectorFromArray, type Data } from 'apache-arrow';
import { perDictionaryEntry } from './arrow-dictionary-filter.ts';
import { EXACT, allRows, type ArrowNode } from './arrow-leaf.ts';
import { setDictionaryCodes } from './dictionary-codes.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';

const N = 1_000;

/** an int leaf keeping the rows whose value is below `limit` */
const below = (limit: number): ArrowNode => (data, _length, sel) => {
  const v = data[0]!.values as Int32Array;
  let m = 0;
  for (let k = 0; k < sel.n; k++) if (v[sel.rows[k]!]! < limit) sel.rows[m++] = sel.rows[k]!;
  sel.n = m;
  return EXACT;
};

/** an int chunk of N rows over the entries 10, 20, 30 (NULL every 7th row when `nulls`), its code reads counted */
function codedChunk(nulls: boolean): { data: Data; reads: () => number } {
  const values = Array.from({ length: N }, (_v, i) => (nulls && i % 7 === 0 ? null : 10 * ((i % 3) + 1)));
  const data = vectorFromArray(values, new Int32()).data[0]!;
  const dictionary = vectorFromArray([10, 20, 30], new Int32()).data[0]!;
  const raw = Uint8Array.from(values, (_v, i) => i % 3);
  let reads = 0;
  const codes = new Proxy(raw, {
    get(t, k) {
      if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
      const v = Reflect.get(t, k, t) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
  setDictionaryCodes(data, { codes, dictionary });
  return { data, reads: () => reads };
}

describe('a dictionary judged whole', () => {
  it('keeps every row without reading codes when all entries pass and no row is NULL', () => {
    const c = codedChunk(false);
    const sel = allRows(N);
    expect(perDictionaryEntry(below(100), 0)([c.data], N, sel)).toBe(EXACT);
    expect(sel.n).toBe(N);
    expect(Array.from(sel.rows)).toEqual(Array.from({ length: N }, (_v, i) => i));
    expect(c.reads()).toBe(0);
  });

  it('empties the selection without reading codes when no entry passes', () => {
    const c = codedChunk(true);
    const sel = allRows(N);
    expect(perDictionaryEntry(below(5), 0)([c.data], N, sel)).toBe(EXACT);
    expect(sel.n).toBe(0);
    expect(c.reads()).toBe(0);
  });

  it('still drops NULL rows when all entries pass, and judges mixed dictionaries per row', () => {
    const withNulls = codedChunk(true);
    const sel = allRows(N);
    perDictionaryEntry(below(100), 0)([withNulls.data], N, sel);
    expect(Array.from(sel.rows.subarray(0, sel.n))).toEqual(Array.from({ length: N }, (_v, i) => i).filter((i) => i % 7 !== 0));
    const mixed = codedChunk(false);
    const some = allRows(N);
    perDictionaryEntry(below(25), 0)([mixed.data], N, some);
    expect(Array.from(some.rows.subarray(0, some.n))).toEqual(Array.from({ length: N }, (_v, i) => i).filter((i) => i % 3 !== 2));
  });
});

describe('conjuncts on one coded column', () => {
  const INT = { kind: 'primitive', name: 'int' } as PrimitiveType;
  const cmp = (op: '>=' | '<=' | '<', value: number, fieldId = 1): BoundPredicate => ({ kind: 'compare', op, fieldId, type: INT, value });

  it('read each row\'s code once for a range, with the rows of both bounds', () => {
    const c = codedChunk(false);
    const select = compileArrowSelect({ kind: 'and', args: [cmp('>=', 15), cmp('<=', 25)] }, new Map([[1, 0]]))!;
    expect(select([c.data], N)).toEqual({ rows: Array.from({ length: N }, (_v, i) => i).filter((i) => i % 3 === 1), complete: true });
    expect(c.reads()).toBe(N);
  });

  it('keep NULL rows out and other columns\' conjuncts apart', () => {
    const c = codedChunk(true);
    const other = codedChunk(false);
    const p: BoundPredicate = { kind: 'and', args: [cmp('>=', 15), cmp('<', 30, 2), cmp('<=', 30)] };
    const select = compileArrowSelect(p, new Map([[1, 0], [2, 1]]))!;
    const want = Array.from({ length: N }, (_v, i) => i).filter((i) => i % 7 !== 0 && i % 3 !== 0 && i % 3 !== 2);
    expect(select([c.data, other.data], N)).toEqual({ rows: want, complete: true });
  });
});
