/**
 * GroupTable keys an integral numeric (scale 0: extract(year …), TPC-H q7 / q8 / q9) as its integer itself, without
 * the generic valueKey per row, and text (bpchar without its trailing blanks) likewise; every other numeric and
 * type still goes through valueKey. The groups are the same either way.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { valueKey } from '../functions/index.ts';
import { GroupTable } from './group-table.ts';

// counts the rows that take the generic key (the real valueKey still answers)
vi.mock('../functions/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../functions/index.ts')>();
  return { ...real, valueKey: vi.fn(real.valueKey) };
});

const spy = vi.mocked(valueKey);
beforeEach(() => spy.mockClear());

function ids(t: GroupTable, cols: unknown[][]): number[] {
  const n = cols[0]!.length;
  const out = new Int32Array(n);
  t.assign(cols, n, out);
  return [...out];
}

const years = [1995, 1996, 1995, 1997, 1996, 1995].map((y) => Numeric.of(BigInt(y)));

describe('GroupTable: integral numeric keys', () => {
  it('keys scale-0 numerics without valueKey, one column', () => {
    const t = new GroupTable([Oid.numeric]);
    expect(ids(t, [[...years, null]])).toEqual([0, 1, 0, 2, 1, 0, 3]);
    expect(spy).not.toHaveBeenCalled();
    expect(t.keysOf(0)[0]).toBe(years[0]);
    expect(t.keysOf(3)[0]).toBe(null);
  });

  it('keys scale-0 numerics and char(n) text without valueKey beside each other (q9: nation, o_year)', () => {
    const t = new GroupTable([Oid.bpchar, Oid.numeric]);
    expect(ids(t, [['FRANCE', 'FRANCE  ', 'PERU', 'FRANCE', 'FRANCE ', 'PERU'], years])).toEqual([0, 1, 2, 3, 1, 2]);
    expect(spy).not.toHaveBeenCalled();
    // char(n) ignores trailing blanks, text does not; jsonb keys still go through valueKey
    const u = new GroupTable([Oid.text]);
    expect(ids(u, [['a', 'a ', 'a']])).toEqual([0, 1, 0]);
    expect(spy).not.toHaveBeenCalled();
    const j = new GroupTable([Oid.jsonb]);
    expect(ids(j, [['{"a": 1}', '{"b": 2}', '{"a": 1}']])).toEqual([0, 1, 0]);
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it('meets the same integer written with a scale: the group keeps its first value seen', () => {
    const t = new GroupTable([Oid.numeric]);
    const y2000 = Numeric.parse('2000.0');
    expect(ids(t, [[y2000, Numeric.of(2000n), Numeric.parse('2000.00'), Numeric.of(1999n)]])).toEqual([0, 0, 0, 1]);
    expect(t.keysOf(0)[0]).toBe(y2000);
    expect(String(t.keysOf(0)[0])).toBe('2000.0');
    const u = new GroupTable([Oid.int4, Oid.numeric]);
    expect(ids(u, [[7, 7, 7], [Numeric.of(2000n), Numeric.parse('2000.0'), Numeric.parse('2000.5')]])).toEqual([0, 0, 1]);
    expect(String(u.keysOf(0)[1])).toBe('2000');
  });

  it('keeps integers past 2^53, NaN and the infinities apart (through valueKey)', () => {
    const t = new GroupTable([Oid.numeric]);
    const big = [Numeric.of(9007199254740993n), Numeric.of(9007199254740992n), Numeric.of(9007199254740993n)];
    expect(ids(t, [[...big, Numeric.NaN, Numeric.POSITIVE_INFINITY, Numeric.NEGATIVE_INFINITY, Numeric.NaN]])).toEqual([0, 1, 0, 2, 3, 4, 2]);
    // 2^53 + 1 is beyond a double; 2^53 itself is not a safe integer either
    expect(spy).toHaveBeenCalledTimes(7);
  });

  it('finds integral numeric join keys (lookup) as the same groups', () => {
    const t = new GroupTable([Oid.numeric]);
    ids(t, [[Numeric.of(5n), Numeric.of(-3n)]]);
    const out = new Int32Array(4);
    t.lookup([[Numeric.parse('-3.000'), Numeric.of(5n), Numeric.of(6n), null]], 4, out);
    expect([...out]).toEqual([1, 0, -1, -1]);
  });
});
