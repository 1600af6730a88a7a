/** Packing batches for the trip across threads keeps every value (through a real structured clone), and the row filter keeps what may match. */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { attachScaled, scaledColumnOf } from '../../common/pgtypes/numeric-column.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import type { IcebergType } from '../spec/schema.ts';
import { packBatch, unpackBatch } from './column-transfer.ts';
import { exactInt64Of } from '../../common/pgtypes/exact-int64-column.ts';
import { compileRowFilter } from './row-filter.ts';
import { fromCloneable, toCloneable } from './cloneable.ts';
import { isExact, markExact } from './exact-rows.ts';

const p = (name: string, extra: object = {}): IcebergType => ({ kind: 'primitive', name, ...extra });

describe('column transfer', () => {
  it('round-trips every packed kind, NULLs and fallbacks through structuredClone', () => {
    const types = [p('int'), p('double'), p('long'), p('boolean'), p('decimal', { precision: 10, scale: 2 }), p('string'), p('date'),
      { kind: 'list', elementId: 9, elementRequired: false, element: p('decimal', { precision: 5, scale: 1 }) } as IcebergType, p('decimal', { precision: 38, scale: 0 })];
    const columns = [
      [1, null, -2147483648],
      [0.5, NaN, null],
      [1n, null, -(2n ** 63n)],
      [true, false, null],
      [Numeric.of(150n, 2), null, Numeric.of(-1n, 2)],
      ['a', null, 'é'],
      [19000, -Infinity, null], // ±infinity dates fall back to the cloned form
      [pgArray(1700, [Numeric.of(15n, 1), null]), null, pgArray(1700, [])],
      [Numeric.of(10n ** 30n, 0), Numeric.NaN, null], // too wide for 64 bits
    ];
    const transfer: ArrayBufferLike[] = [];
    const packed = packBatch({ length: 3, columns }, types, transfer);
    expect(packed.columns.map((c) => c.kind)).toEqual(['i32', 'f64', 'i64', 'bool', 'decimal53', 'cloned', 'cloned', 'cloned', 'cloned']);
    const arrived = structuredClone(packed, { transfer: transfer as ArrayBuffer[] });
    const out = unpackBatch(arrived);
    expect(out.columns[0]).toEqual(columns[0]);
    expect(out.columns[1]).toEqual(columns[1]);
    expect(out.columns[2]).toEqual(columns[2]);
    expect(out.columns[3]).toEqual(columns[3]);
    expect(out.columns[6]).toEqual(columns[6]);
    for (const c of [4, 7, 8]) expect(String(JSON.stringify(out.columns[c], (_k, v: unknown) => (Numeric.isNumeric(v) ? `N${v.toString()}` : v)))).toBe(JSON.stringify(columns[c], (_k, v: unknown) => (Numeric.isNumeric(v) ? `N${v.toString()}` : v)));
    expect(Numeric.isNumeric(out.columns[4]![0])).toBe(true);
    expect((out.columns[4]![0] as Numeric).toString()).toBe('1.50');
  });

  it('tags Numerics in predicate trees', () => {
    const tree = { kind: 'in', values: [Numeric.of(5n, 1), Numeric.NaN], bytes: new Uint8Array([1]) };
    const back = fromCloneable(structuredClone(toCloneable(tree))) as typeof tree;
    expect(back.values.map((v) => v.toString())).toEqual(['0.5', 'NaN']);
    expect(back.bytes).toEqual(new Uint8Array([1]));
  });
});

describe('row filter', () => {
  const int = p('int') as never;
  const dbl = p('double') as never;
  const batch = { length: 5, columns: [[1, 5, null, 7, 9], [1.5, NaN, 2, null, 0.5]] };
  const cols = new Map([[1, 0], [2, 1]]);

  it('drops only rows that certainly do not match', () => {
    const f = compileRowFilter({ kind: 'compare', op: '>', fieldId: 1, type: int, value: 4 }, cols)!;
    expect(f(batch).columns[0]).toEqual([5, 7, 9]);
    // NaN is kept (PostgreSQL sorts it above everything), NULL is not
    const g = compileRowFilter({ kind: 'compare', op: '<', fieldId: 2, type: dbl, value: 1 }, cols)!;
    expect(g(batch).columns[1]).toEqual([NaN, 0.5]);
    const h = compileRowFilter({ kind: 'or', args: [{ kind: 'isNull', fieldId: 1, type: int }, { kind: 'in', fieldId: 1, type: int, values: [1, 9] }] }, cols)!;
    expect(h(batch).columns[0]).toEqual([1, null, 9]);
  });

  it('keeps everything for predicates on columns it does not have', () => {
    expect(compileRowFilter({ kind: 'compare', op: '=', fieldId: 99, type: int, value: 1 }, cols)).toBeNull();
    expect(compileRowFilter({ kind: 'true' }, cols)).toBeNull();
    expect(compileRowFilter({ kind: 'false' }, cols)!(batch).length).toBe(0);
  });
});

describe('decimal columns across threads', () => {
  const dec = p('decimal', { precision: 18, scale: 2 });
  const show = (xs: readonly unknown[]) => xs.map((v) => (Numeric.isNumeric(v) ? `${v.toString()}/${v.scale}` : v));
  const trip = (col: unknown[]): { kind: string; out: readonly unknown[] } => {
    const transfer: ArrayBufferLike[] = [];
    const packed = packBatch({ length: col.length, columns: [col] }, [dec], transfer);
    return { kind: packed.columns[0]!.kind, out: unpackBatch(structuredClone(packed, { transfer: transfer as ArrayBuffer[] })).columns[0]! };
  };

  it('below 2^53: doubles, from the attached ones when the decoder left them, attached again on arrival', () => {
    const us = [150n, null, -1n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, 8191n, 8192n];
    const col = us.map((u) => (u === null ? null : Numeric.of(u, 2)));
    const plainTrip = trip([...col]);
    expect(plainTrip.kind).toBe('decimal53');
    expect(show(plainTrip.out)).toEqual(show(col));
    const att = scaledColumnOf(plainTrip.out)!;
    expect([att.scale, att.f[0], att.f[3]]).toEqual([2, 150, 2 ** 53 - 1]);
    const attached = [...col];
    attachScaled(attached, Float64Array.from(us.map((u) => (u === null ? 0 : Number(u)))), 2);
    const fromAtt = trip(attached);
    expect(fromAtt.kind).toBe('decimal53');
    expect(show(fromAtt.out)).toEqual(show(col));
    expect(scaledColumnOf(attached)!.f.length).toBe(us.length); // the sender's doubles stay usable
  });

  it('past 2^53 or a mixed scale: bigints, then the cloned form', () => {
    const big = [Numeric.of(2n ** 53n, 2), Numeric.of(-(2n ** 60n), 2), null];
    const b = trip([...big]);
    expect(b.kind).toBe('decimal');
    expect(show(b.out)).toEqual(show(big));
    expect(scaledColumnOf(b.out)).toBeUndefined();
    const mixed = [Numeric.of(1n, 2), Numeric.of(1n, 3)];
    const m = trip([...mixed]);
    expect(m.kind).toBe('cloned');
    expect(show(m.out)).toEqual(show(mixed));
  });

  it('int8 below 2^53 arrives as bigints with exact doubles attached (hash keys read them); past it, none', () => {
    const tripLong = (col: unknown[]): readonly unknown[] => {
      const transfer: ArrayBufferLike[] = [];
      const packed = packBatch({ length: col.length, columns: [col] }, [p('long')], transfer);
      expect(packed.columns[0]!.kind).toBe('i64');
      return unpackBatch(structuredClone(packed, { transfer: transfer as ArrayBuffer[] })).columns[0]!;
    };
    const vals = [1n, null, -1n, 0n, 2n ** 32n, -(2n ** 32n) - 1n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, 4294967295n, -4294967296n];
    const out = tripLong([...vals]);
    expect(out).toEqual(vals);
    const x = exactInt64Of(out, out.length)!;
    expect(Array.from(x.f)).toEqual(vals.map((v) => (v === null ? 0 : Number(v))));
    expect(Array.from(x.nulls!)).toEqual(vals.map((v) => (v === null ? 1 : 0)));
    expect(exactInt64Of(out, out.length + 1)).toBeUndefined();
    for (const far of [2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n)]) {
      const o = tripLong([1n, far, null]);
      expect(o).toEqual([1n, far, null]);
      expect(exactInt64Of(o, 3)).toBeUndefined();
    }
    const noNulls = tripLong([5n, 6n]);
    expect(exactInt64Of(noNulls, 2)!.nulls).toBeNull();
  });

  it('a batch the scan marked exact arrives marked; an unmarked one, or pieces not all marked, arrive unmarked', () => {
    const trip = (b: { length: number; columns: unknown[][] }, exact?: boolean) => {
      const transfer: ArrayBufferLike[] = [];
      const packed = exact === undefined ? packBatch(b, [p('int')], transfer) : packBatch(b, [p('int')], transfer, exact);
      return unpackBatch(structuredClone(packed, { transfer: transfer as ArrayBuffer[] }));
    };
    expect(isExact(trip(markExact({ length: 2, columns: [[1, 2]] })))).toBe(true);
    expect(isExact(trip({ length: 2, columns: [[1, 2]] }))).toBe(false);
    // scan-worker.ts concatenates pieces and says whether every one was marked
    expect(isExact(trip(markExact({ length: 2, columns: [[1, 2]] }), false))).toBe(false);
    expect(isExact(trip({ length: 2, columns: [[1, 2]] }, true))).toBe(true);
  });
});
