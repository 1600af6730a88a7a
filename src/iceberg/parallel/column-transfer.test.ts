/** Packing batches for the trip across threads keeps every value (through a real structured clone), and the row filter keeps what may match. */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import type { IcebergType } from '../spec/schema.ts';
import { packBatch, unpackBatch } from './column-transfer.ts';
import { compileRowFilter } from './row-filter.ts';
import { fromCloneable, toCloneable } from './cloneable.ts';

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
    expect(packed.columns.map((c) => c.kind)).toEqual(['i32', 'f64', 'i64', 'bool', 'decimal', 'cloned', 'cloned', 'cloned', 'cloned']);
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
