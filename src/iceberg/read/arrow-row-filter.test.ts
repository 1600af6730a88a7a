/**
 * compileArrowSelect against the JS-value row test (parallel/row-filter.ts) on the same columns: every op on
 * int, date, long and timestamp data with nulls, negative values and constants on both sides of the 32-bit
 * word boundary, 32-bit data of a promoted long column, IS [NOT] NULL, and conjunctions with conjuncts it
 * cannot judge (then `complete` is false and the rows kept include every row the full test keeps).
 */
import { describe, expect, it } from 'vitest';
import { vectorFromArray, Int32, Int64, DateDay, TimestampMicrosecond, type Data } from 'apache-arrow';
import type { BoundPredicate, CompareOp } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { mulberry32 } from '../../common/prng.ts';

const N = 500;
const big = (k: number): bigint | null => (k % 17 === 0 ? null : (BigInt(k - 250) << 31n) + BigInt((k * 7919) % 1000) - 500n);
const int = (k: number): number | null => (k % 13 === 0 ? null : ((k * 7919) % 2001) - 1000);
const columns: { type: PrimitiveType; data: Data }[] = [
  { type: { kind: 'primitive', name: 'long' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => big(k)), new Int64()).data[0]! },
  { type: { kind: 'primitive', name: 'int' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => int(k)), new Int32()).data[0]! },
  { type: { kind: 'primitive', name: 'date' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => (int(k) === null ? null : new Date(Date.UTC(2024, 0, 1) + int(k)! * 86_400_000))), new DateDay()).data[0]! },
  { type: { kind: 'primitive', name: 'timestamptz' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => (big(k) === null ? null : Number(big(k)! / 1000n))), new TimestampMicrosecond()).data[0]! },
  // an int column promoted to long: 32-bit data, bigint constants
  { type: { kind: 'primitive', name: 'long' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => int(k)), new Int32()).data[0]! },
];
const values = columns.map((c) => arrowDataToValues(c.data, c.type, 'test'));
const ids = new Map(columns.map((_c, i) => [i + 1, i]));
const OPS: CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];

function expected(p: BoundPredicate): number[] {
  const test = compileRowTest(p, ids);
  return Array.from({ length: N }, (_v, r) => r).filter((r) => test === null || test(values, r));
}

describe('compileArrowSelect', () => {
  it('selects the rows the JS test keeps, for every op and type', () => {
    let checked = 0;
    for (const [i, c] of columns.entries()) {
      const nonNull = values[i]!.filter((v) => v !== null);
      const consts = [nonNull[0], nonNull[77], nonNull[200], ...(c.type.name === 'int' || c.type.name === 'date' ? [0, -1001, 5000] : [0n, -1n, 2n ** 40n, -(2n ** 40n), 2n ** 31n, -(2n ** 31n) - 1n])];
      for (const value of consts) {
        for (const op of OPS) {
          const p: BoundPredicate = { kind: 'compare', op, fieldId: i + 1, type: c.type, value };
          const got = compileArrowSelect(p, ids)!(columns.map((x) => x.data), N);
          expect(got, `${c.type.name} ${op} ${String(value)}`).toEqual({ rows: expected(p), complete: true });
          checked++;
        }
      }
      for (const kind of ['isNull', 'isNotNull'] as const) {
        const p: BoundPredicate = { kind, fieldId: i + 1, type: c.type };
        expect(compileArrowSelect(p, ids)!(columns.map((x) => x.data), N)).toEqual({ rows: expected(p), complete: true });
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('narrows by the conjuncts it judges and says when others remain', () => {
    const handled: BoundPredicate = { kind: 'compare', op: '>', fieldId: 2, type: columns[1]!.type, value: 0 };
    // decimal IN is not judged on Arrow data
    const other: BoundPredicate = { kind: 'in', fieldId: 1, type: { kind: 'primitive', name: 'decimal', precision: 20, scale: 0 }, values: [] };
    const p: BoundPredicate = { kind: 'and', args: [handled, other] };
    const got = compileArrowSelect(p, ids)!(columns.map((x) => x.data), N)!;
    expect(got.complete).toBe(false);
    expect(got.rows).toEqual(expected(handled));
    for (const r of expected(p)) expect(got.rows).toContain(r);
    // nothing judged: null (the caller filters on values)
    expect(compileArrowSelect(other, ids)).toBeNull();
    expect(compileArrowSelect(handled, ids)!([], N)).toBeNull();
  });

  it('IN on every integer type: hits, misses, values beyond the 32-bit and 53-bit ranges', () => {
    for (const [i, c] of columns.entries()) {
      const nonNull = values[i]!.filter((v) => v !== null);
      const isLong = c.type.name === 'long' || c.type.name.startsWith('timestamp');
      const extra = isLong ? [2n ** 60n, -(2n ** 55n), 2n ** 31n, 0n] : [123_456, -5000, 0];
      for (const list of [[nonNull[3]], [nonNull[3], nonNull[99], nonNull[250]], [...nonNull.slice(0, 40), ...extra], extra]) {
        const p: BoundPredicate = { kind: 'in', fieldId: i + 1, type: c.type, values: list };
        expect(compileArrowSelect(p, ids)!(columns.map((x) => x.data), N), `${c.type.name} IN ${list.length}`).toEqual({ rows: expected(p), complete: true });
      }
    }
  });

  it('long IN lists (runtime key filter): the set cached per values array, the same rows on every compile', () => {
    const rnd = mulberry32(4);
    for (const [i, c] of columns.entries()) {
      const nonNull = values[i]!.filter((v) => v !== null);
      const isLong = c.type.name === 'long' || c.type.name.startsWith('timestamp');
      const misses = Array.from({ length: 300 }, () => Math.floor(rnd() * 4_000_000) - 2_000_000);
      const list = [...nonNull.filter(() => rnd() < 0.5), ...(isLong ? [...misses.map(BigInt), 2n ** 60n, -(2n ** 55n), 2n ** 53n + 1n] : misses)];
      const p: BoundPredicate = { kind: 'in', fieldId: i + 1, type: c.type, values: list };
      const want = { rows: expected(p), complete: true };
      expect(want.rows.length).toBeGreaterThan(0);
      expect(want.rows.length).toBeLessThan(N);
      // a second compile over the same array reuses the cached set: same answer
      for (let k = 0; k < 2; k++) expect(compileArrowSelect(p, ids)!(columns.map((x) => x.data), N), `${c.type.name} IN ${list.length}`).toEqual(want);
    }
  });

  it('int8 IN lists split at ±2^53 (doubles inside, bigints outside): the keys next to the edges match only themselves', () => {
    const longT: PrimitiveType = { kind: 'primitive', name: 'long' };
    const E = 2n ** 53n;
    // the edge values and their neighbours (Number() rounds 2^53 ± 1 and -2^53 - 1 to a double they do not equal)
    const edge = [-E - 2n, -E - 1n, -E, -E + 1n, E - 1n, E, E + 1n, E + 2n, -(2n ** 63n), 2n ** 63n - 1n, 0n, -1n];
    const rows = [...edge, null, ...edge.map((v) => v * 3n), 5n];
    const data = [vectorFromArray(rows, new Int64()).data[0]!];
    const vals = [arrowDataToValues(data[0]!, longT, 'test')];
    const colIds = new Map([[1, 0]]);
    const rnd = mulberry32(53);
    for (let k = 0; k < 40; k++) {
      // short lists and long ones (a runtime key filter's: the bitmap or Set path of int-key-set.ts)
      const pick = edge.filter(() => rnd() < 0.4);
      const keys = k % 2 === 0 ? pick : [...pick, ...Array.from({ length: 100 }, (_v, j) => BigInt(j * 7 + 11))];
      const p: BoundPredicate = { kind: 'in', fieldId: 1, type: longT, values: keys };
      const test = compileRowTest(p, colIds)!;
      const want = rows.map((_v, r) => r).filter((r) => test(vals, r));
      expect(compileArrowSelect(p, colIds)!(data, rows.length), `IN ${keys.join(',')}`).toEqual({ rows: want, complete: true });
    }
    // a row holding -2^53 is not matched by the key -2^53 - 1 (which rounds to it), nor 2^53 by 2^53 + 1
    const only = (key: bigint) => compileArrowSelect({ kind: 'in', fieldId: 1, type: longT, values: [key, 7n] }, colIds)!(data, rows.length)!.rows.map((r) => rows[r]);
    expect(only(-E - 1n)).toEqual([-E - 1n]);
    expect(only(E + 1n)).toEqual([E + 1n]);
    expect(only(-E)).toEqual([-E]);
  });

  it('AND / OR trees: exact when every leaf is judged, a superset otherwise', () => {
    const [long, int, date] = [columns[0]!.type, columns[1]!.type, columns[2]!.type];
    const v = values[0]!.filter((x) => x !== null);
    const arms: BoundPredicate[] = [
      { kind: 'and', args: [{ kind: 'compare', op: '>=', fieldId: 2, type: int, value: -100 }, { kind: 'compare', op: '<=', fieldId: 2, type: int, value: 100 }] },
      { kind: 'in', fieldId: 1, type: long, values: [v[5], v[6], v[7]] },
      { kind: 'and', args: [{ kind: 'isNull', fieldId: 3, type: date }, { kind: 'compare', op: '<>', fieldId: 2, type: int, value: 7 }] },
    ];
    const or: BoundPredicate = { kind: 'or', args: arms };
    const tree: BoundPredicate = { kind: 'and', args: [or, { kind: 'compare', op: '<', fieldId: 2, type: int, value: 900 }] };
    for (const p of [or, tree]) expect(compileArrowSelect(p, ids)!(columns.map((x) => x.data), N)).toEqual({ rows: expected(p), complete: true });
    // an arm on a double (not judged here): the OR cannot narrow, the other conjunct still does
    const dbl: BoundPredicate = { kind: 'compare', op: '>', fieldId: 9, type: { kind: 'primitive', name: 'double' }, value: 1 };
    expect(compileArrowSelect({ kind: 'or', args: [...arms, dbl] }, new Map([...ids, [9, 0]]))).toBeNull();
    const mixed: BoundPredicate = { kind: 'and', args: [{ kind: 'or', args: [arms[0]!, { kind: 'and', args: [arms[1]!, dbl] }] }, arms[2]!] };
    const got = compileArrowSelect(mixed, new Map([...ids, [9, 0]]))!(columns.map((x) => x.data), N)!;
    expect(got.complete).toBe(false);
    const loose: BoundPredicate = { kind: 'and', args: [{ kind: 'or', args: [arms[0]!, arms[1]!] }, arms[2]!] };
    expect(got.rows).toEqual(expected(loose));
  });

  it('starts from the rows an earlier pass kept: a mask (written back) or a row list, the same rows either way', () => {
    const [long, int, date] = [columns[0]!.type, columns[1]!.type, columns[2]!.type];
    const v = values[0]!.filter((x) => x !== null);
    // a key list first (it narrows most), then overlapping OR arms with NULL tests: q19's shape
    const p: BoundPredicate = { kind: 'and', args: [
      { kind: 'in', fieldId: 2, type: int, values: values[1]!.filter((x, r) => x !== null && r % 3 !== 0) },
      { kind: 'or', args: [
        { kind: 'and', args: [{ kind: 'compare', op: '>=', fieldId: 2, type: int, value: -500 }, { kind: 'compare', op: '<=', fieldId: 2, type: int, value: 100 }] },
        { kind: 'and', args: [{ kind: 'compare', op: '>=', fieldId: 2, type: int, value: 0 }, { kind: 'compare', op: '<=', fieldId: 2, type: int, value: 600 }] },
        { kind: 'or', args: [{ kind: 'isNull', fieldId: 3, type: date }, { kind: 'in', fieldId: 1, type: long, values: v.slice(0, 40) }] },
      ] },
    ] };
    const rnd = mulberry32(19);
    const earlier = Array.from({ length: N }, () => rnd() < 0.3);
    const mask = Uint8Array.from(earlier, (b) => (b ? 1 : 0));
    const list = Int32Array.from(earlier.flatMap((b, r) => (b ? [r] : [])));
    const want = expected(p).filter((r) => earlier[r]);
    expect(want.length).toBeGreaterThan(10);
    expect(want.length).toBeLessThan(list.length);
    const select = compileArrowSelect(p, ids)!;
    const data = columns.map((x) => x.data);
    expect(select(data, N, mask)).toEqual({ rows: want, complete: true });
    expect(Array.from(mask.entries()).filter(([, b]) => b === 1).map(([r]) => r)).toEqual(want);
    expect(select(data, N, list)).toEqual({ rows: want, complete: true });
    expect(Array.from(list)).toEqual(earlier.flatMap((b, r) => (b ? [r] : []))); // a list is not written
    // nothing left in question: no row, still judged
    expect(select(data, N, new Int32Array(0))).toEqual({ rows: [], complete: true });
  });

  it('whole batches without NULLs (a runtime key filter judged first): every row probed directly, the row list reused across lengths', () => {
    const rnd = mulberry32(23);
    const intT: PrimitiveType = { kind: 'primitive', name: 'int' };
    const longT: PrimitiveType = { kind: 'primitive', name: 'long' };
    const batch = (n: number, nulls: boolean): { data: Data[]; vals: unknown[][] } => {
      // values 0 … 1999: a NULL slot holds 0 in the buffer, and 0 is one of the keys below
      const ints = Array.from({ length: n }, (_v, r) => (nulls && r % 7 === 0 ? null : Math.floor(rnd() * 2000)));
      const data = [vectorFromArray(ints, new Int32()).data[0]!, vectorFromArray(ints.map((x) => (x === null ? null : BigInt(x) * 3_000_000_000n)), new Int64()).data[0]!];
      return { data, vals: data.map((d, i) => arrowDataToValues(d, i === 0 ? intT : longT, 'test')) };
    };
    const keys = [0, ...Array.from({ length: 120 }, () => Math.floor(rnd() * 2000))];
    const preds: BoundPredicate[] = [
      { kind: 'in', fieldId: 1, type: intT, values: keys },
      { kind: 'in', fieldId: 2, type: longT, values: keys.map((k) => BigInt(k) * 3_000_000_000n) },
      // the key list first, then a conjunct on the other column: q19's order
      { kind: 'and', args: [{ kind: 'in', fieldId: 1, type: intT, values: keys }, { kind: 'compare', op: '>', fieldId: 2, type: longT, value: 3_000_000_000n * 500n }] },
    ];
    const colIds = new Map([[1, 0], [2, 1]]);
    for (const p of preds) {
      const select = compileArrowSelect(p, colIds)!;
      const test = compileRowTest(p, colIds)!;
      // long, short, longer than the kept row list (a list of its own), long again, with and without NULLs: each call sees its own rows only
      for (const [n, nulls] of [[20_000, false], [300, false], [9000, true], [70_000, false], [20_001, false], [17, true]] as const) {
        const b = batch(n, nulls);
        const want = Array.from({ length: n }, (_v, r) => r).filter((r) => test(b.vals, r));
        if (n >= 300) expect(want.length, `${p.kind} ${n}`).toBeGreaterThan(0);
        expect(select(b.data, n), `${p.kind} ${n} nulls ${nulls}`).toEqual({ rows: want, complete: true });
        if (nulls) expect(want.some((r) => b.vals[0]![r] === null)).toBe(false);
      }
    }
  });

  it('a batch whose every row is kept gets the list shared by calls of its length (no list per batch), never written', () => {
    const intT: PrimitiveType = { kind: 'primitive', name: 'int' };
    const p: BoundPredicate = { kind: 'compare', op: '<=', fieldId: 1, type: intT, value: 1000 };
    const select = compileArrowSelect(p, new Map([[1, 0]]))!;
    const data = (n: number, over: number): Data[] => [vectorFromArray(Array.from({ length: n }, (_v, r) => (r < over ? 2000 : r % 1000)), new Int32()).data[0]!];
    const every = (n: number): number[] => Array.from({ length: n }, (_v, r) => r);
    const full = data(8192, 0);
    const first = select(full, 8192)!;
    expect(first).toEqual({ rows: every(8192), complete: true });
    expect(select(full, 8192)!.rows).toBe(first.rows);
    // a batch that loses rows gets a list of its own; the shared one stays 0 … n − 1
    const some = select(data(8192, 3), 8192)!.rows;
    expect(some).not.toBe(first.rows);
    expect(some).toEqual(every(8192).slice(3));
    // a row group's odd last batches in between do not push out the full batches' list
    for (const n of [6807, 5003, 7001]) expect(select(data(n, 0), n)!.rows).toEqual(every(n));
    expect(select(full, 8192)!.rows).toBe(first.rows);
    expect(first.rows).toEqual(every(8192));
    // a longer batch than any decoder's: right, and not kept
    const long = data(70_000, 0);
    const a = select(long, 70_000)!.rows;
    expect(a).toEqual(every(70_000));
    expect(select(long, 70_000)!.rows).not.toBe(a);
  });

  it('an OR whose arms together keep every row stops early and keeps them all', () => {
    const int = columns[1]!.type;
    const p: BoundPredicate = { kind: 'or', args: [
      { kind: 'isNotNull', fieldId: 2, type: int },
      { kind: 'isNull', fieldId: 2, type: int },
      { kind: 'compare', op: '=', fieldId: 2, type: int, value: 5 },
    ] };
    expect(compileArrowSelect(p, ids)!(columns.map((x) => x.data), N)).toEqual({ rows: Array.from({ length: N }, (_v, r) => r), complete: true });
  });
});
