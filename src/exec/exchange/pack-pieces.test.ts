import { describe, expect, it } from 'vitest';
import { nullColumn } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { packPieces, type ColumnPiece } from './pack-pieces.ts';
import { packColumn, unpackColumn } from './wire-column.ts';

const piece = (column: readonly unknown[], length = column.length): ColumnPiece => ({ column, length });

/** packPieces must give exactly what packColumn gives for the glued column */
function agrees(pieces: readonly ColumnPiece[]): ReturnType<typeof packPieces> {
  const glued: unknown[] = [];
  for (const p of pieces) for (let i = 0; i < p.length; i++) glued.push(p.column[i]);
  const t1: ArrayBufferLike[] = [], t2: ArrayBufferLike[] = [];
  const got = packPieces(pieces, glued.length, t1);
  expect(got).toEqual(packColumn(glued, t2));
  expect(t1.length).toBe(t2.length);
  expect(unpackColumn(got)).toEqual(glued);
  return got;
}

describe('packPieces', () => {
  it('numbers with NULLs, -0, NaN and fractions into one Float64Array', () => {
    const got = agrees([piece([1, null, -0, 2.5]), piece([NaN, 7, 8, 9], 3), piece([])]);
    expect(got.kind).toBe('f64');
  });

  it('a constant (number, boolean, NULL) across pieces is one const; shared NULL columns are not read', () => {
    expect(agrees([piece([3, 3]), piece([3])])).toEqual({ kind: 'const', value: 3, length: 3 });
    expect(agrees([piece([true, true]), piece(new Array(5).fill(true), 2)])).toEqual({ kind: 'const', value: true, length: 4 });
    expect(agrees([piece(nullColumn(4)), piece([null, null])])).toEqual({ kind: 'const', value: null, length: 6 });
    // -0 and 0 are not one constant (Object.is), as packColumn keeps them apart
    expect(agrees([piece([0, -0])]).kind).toBe('f64');
  });

  it('booleans with NULLs into a Uint8Array', () => {
    expect(agrees([piece([true, null]), piece([false, true])]).kind).toBe('bool');
  });

  it('NULLs first, then numbers; a NULL column piece beside a number piece', () => {
    expect(agrees([piece(nullColumn(3)), piece([null, 4, 5])]).kind).toBe('f64');
  });

  it('other types (bigints, strings, Numerics, mixed, undefined) as packColumn packs them glued', () => {
    agrees([piece([1n, null]), piece([2n ** 70n])]);
    agrees([piece(['a', null]), piece(['b'])]);
    agrees([piece([Numeric.of(15n, 1), null])]);
    agrees([piece([1, 'x'])]);
    agrees([piece([true, 1])]);
    agrees([piece([1, undefined])]);
    agrees([piece([null]), piece([1n])]);
  });

  it('no rows', () => {
    agrees([]);
    agrees([piece([1, 2], 0)]);
  });
});
