import { describe, expect, it } from 'vitest';
import { isNullColumn, nullColumn, type Batch } from '../common/batch.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { attachScaled, scaledColumnOf } from '../common/pgtypes/numeric-column.ts';
import { concatColumns } from '../common/batch-concat.ts';
import { attachExactInt64, attachInt64Words, exactInt64Of } from '../common/pgtypes/exact-int64-column.ts';
import { IndexBuffer, nullColumns, take, takeColumn } from './join-gather.ts';

const num = (u: number, scale = 2): Numeric => Numeric.of(BigInt(u), scale);

function scaledColumn(us: (number | null)[], scale = 2): unknown[] {
  const col = us.map((u) => (u === null ? null : num(u, scale)));
  attachScaled(col, Float64Array.from(us.map((u) => u ?? 0)), scale);
  return col;
}

describe('join-gather', () => {
  it('IndexBuffer grows and views what was pushed', () => {
    const b = new IndexBuffer(2);
    for (let i = 0; i < 5; i++) b.push(i * 10);
    expect([...b.view()]).toEqual([0, 10, 20, 30, 40]);
    b.clear();
    b.push(7);
    expect([...b.view()]).toEqual([7]);
  });

  it('take picks rows by index, -1 gives NULL, shared null columns stay shared', () => {
    const nulls = nullColumn(3);
    const batch: Batch = { length: 3, columns: [[1, 2, 3], nulls, ['a', undefined, 'c']] };
    const out = take(batch, Int32Array.from([2, -1, 0, 2]), 4);
    expect(out[0]).toEqual([3, null, 1, 3]);
    expect(out[2]).toEqual(['c', null, 'a', 'c']);
    expect(out[1]).toEqual([null, null, null, null]);
    expect(isNullColumn(out[1])).toBe(true);
    // only the first n indexes count; width limits the columns
    expect(take(batch, Int32Array.from([1, 0, 2]), 2, 1)).toEqual([[2, 1]]);
  });

  it('a column shared by two positions is taken once', () => {
    const c = [5, 6];
    const out = take({ length: 2, columns: [c, c] }, Int32Array.from([1]), 1);
    expect(out[0]).toBe(out[1]);
    expect(out[0]).toEqual([6]);
  });

  it('exact doubles of numeric columns follow the rows taken', () => {
    const col = scaledColumn([150, null, 275]);
    const out = takeColumn(col, Int32Array.from([2, 0, -1]), 3);
    expect(out.map((v) => (v === null ? null : String(v)))).toEqual(['2.75', '1.50', null]);
    const att = scaledColumnOf(out)!;
    expect(att.scale).toBe(2);
    expect(att.f[0]).toBe(275);
    expect(att.f[1]).toBe(150);
    expect(takeColumn([num(1)], Int32Array.from([0]), 1).length).toBe(1);
    expect(scaledColumnOf(takeColumn([num(1)], Int32Array.from([0]), 1))).toBeUndefined();
  });

  it('concatColumns joins batches, keeps null columns shared and doubles of one scale', () => {
    const a: Batch = { length: 2, columns: [[1, 2], nullColumn(2), scaledColumn([1, 2])] };
    const b: Batch = { length: 1, columns: [[3], nullColumn(1), scaledColumn([3])] };
    const c = concatColumns([a, b], 3);
    expect(c.length).toBe(3);
    expect(c.columns[0]).toEqual([1, 2, 3]);
    expect(isNullColumn(c.columns[1])).toBe(true);
    expect(c.columns[1]).toEqual([null, null, null]);
    expect(Array.from(scaledColumnOf(c.columns[2]!)!.f)).toEqual([1, 2, 3]);
    // a different scale in one batch: no doubles, values still right
    const d = concatColumns([a, { length: 1, columns: [[4], [null], scaledColumn([3], 1)] }], 3);
    expect(scaledColumnOf(d.columns[2]!)).toBeUndefined();
    expect(d.columns[2]!.map(String)).toEqual(['0.01', '0.02', '0.3']);
    expect(d.columns[1]).toEqual([null, null, null]);
    expect(isNullColumn(d.columns[1])).toBe(false);
  });

  it('nullColumns gives width columns of n NULLs; big null columns are marked too', () => {
    const cols = nullColumns(3, 2);
    expect(cols).toEqual([[null, null], [null, null], [null, null]]);
    const big = nullColumn(70_000);
    expect(big.length).toBe(70_000);
    expect(isNullColumn(big)).toBe(true);
    expect(big[69_999]).toBe(null);
    expect(isNullColumn([null])).toBe(false);
  });

  it('an int8 column keeps its int64 words or exact doubles through take: NULL rows, -1 rows, ±(2^53 − 1)', () => {
    const top = 2 ** 53 - 1;
    const vals = [5n, null, BigInt(top), BigInt(-top), -7n];
    const words = BigInt64Array.from(vals.map((v) => v ?? 0n));
    const nulls = Uint8Array.from(vals.map((v) => (v === null ? 1 : 0)));
    const withWords = [...vals];
    attachInt64Words(withWords, words, vals.length, nulls);
    const withDoubles = [...vals];
    attachExactInt64(withDoubles, Float64Array.from(vals.map((v) => (v === null ? 0 : Number(v)))), nulls);
    const idx = Int32Array.from([2, -1, 1, 3, 0, 4, 2]);
    for (const src of [withWords, withDoubles]) {
      const out = takeColumn(src, idx, idx.length);
      expect(out).toEqual([BigInt(top), null, null, BigInt(-top), 5n, -7n, BigInt(top)]);
      const x = exactInt64Of(out, idx.length)!;
      expect(x).toBeDefined();
      expect([...x.f]).toEqual([top, 0, 0, -top, 5, -7, top]);
      expect([...x.nulls!]).toEqual([0, 1, 1, 0, 0, 0, 0]);
    }
    // a column found not exact (2^53 and beyond), or none attached: nothing follows the rows
    const big = [2n ** 53n, 1n];
    attachInt64Words(big, BigInt64Array.from(big), 2, null);
    expect(exactInt64Of(big, 2)).toBeUndefined();
    expect(exactInt64Of(takeColumn(big, Int32Array.from([1]), 1), 1)).toBeUndefined();
    expect(exactInt64Of(takeColumn([1n, 2n], Int32Array.from([1]), 1), 1)).toBeUndefined();
  });
});
