/**
 * decimal128 compares judged on Arrow words (arrow-decimal-filter.ts through compileArrowSelect) against the
 * JS-value row test on the Numerics arrow-values.ts makes: every op, constants of a smaller, equal and larger
 * scale than the column's (between two representable values, or on one), negative values, NULLs, values
 * beyond 2^53 and beyond 64 bits; a chunk of another scale is left to the JS test.
 */
import { describe, expect, it } from 'vitest';
import type { Data } from 'apache-arrow';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { BoundPredicate, CompareOp } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { setExactDoubles } from './exact-doubles.ts';
import { decimalData as decimal128 } from './testing/decimal-data.ts';

const SCALE = 2;
const TYPE: PrimitiveType = { kind: 'primitive', name: 'decimal', precision: 38, scale: SCALE };

const decimalData = (unscaled: readonly (bigint | null)[], scale = SCALE): Data => decimal128(unscaled, 38, scale);

const N = 300;
const unscaled = Array.from({ length: N }, (_v, k): bigint | null => {
  if (k % 19 === 0) return null;
  if (k % 23 === 0) return (k % 2 === 0 ? 1n : -1n) * (2n ** 53n + BigInt(k));
  if (k % 29 === 0) return (k % 2 === 0 ? 1n : -1n) * (2n ** 70n + BigInt(k));
  return BigInt(((k * 7919) % 4001) - 2000);
});
const data = decimalData(unscaled);
const values = arrowDataToValues(data, TYPE, 'test');
const OPS: CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];

function expected(p: BoundPredicate): number[] {
  const test = compileRowTest(p, new Map([[1, 0]]))!;
  return Array.from({ length: N }, (_v, r) => r).filter((r) => test([values], r));
}

describe('decimal compares on Arrow words', () => {
  it('select the rows the Numeric comparison keeps', () => {
    const consts = [
      Numeric.parse('0'), Numeric.parse('-0.5'), Numeric.parse('5'), Numeric.parse('5.00'), Numeric.parse('0.05'), Numeric.parse('0.055'),
      Numeric.parse('-0.055'), Numeric.parse('-19.999'), Numeric.parse('11.2'), Numeric.parse('1000000'), Numeric.parse('-1000000.001'),
      Numeric.of(2n ** 53n + 46n, 2), Numeric.of(-(2n ** 70n) - 29n, 2), Numeric.of(2n ** 70n, 3), values.find((v) => v !== null) as Numeric,
    ];
    let checked = 0;
    for (const value of consts) {
      for (const op of OPS) {
        const p: BoundPredicate = { kind: 'compare', op, fieldId: 1, type: TYPE, value };
        expect(compileArrowSelect(p, new Map([[1, 0]]))!([data], N), `${op} ${value.toString()}`).toEqual({ rows: expected(p), complete: true });
        checked++;
      }
    }
    expect(checked).toBe(90);
  });

  it('judges the exact doubles a JS-decoded chunk carries the same way (exact-doubles.ts)', () => {
    const small = unscaled.map((u) => (u !== null && (u > 2n ** 52n || u < -(2n ** 52n)) ? 7n : u));
    const d = decimalData(small);
    setExactDoubles(d, Float64Array.from(small, (u) => Number(u ?? 0n)));
    const vals = arrowDataToValues(decimalData(small), TYPE, 'test');
    for (const value of [Numeric.parse('0.055'), Numeric.parse('-5'), Numeric.parse('11.20'), Numeric.of(2n ** 53n + 46n, 2)]) {
      for (const op of OPS) {
        const p: BoundPredicate = { kind: 'compare', op, fieldId: 1, type: TYPE, value };
        const test = compileRowTest(p, new Map([[1, 0]]))!;
        const want = Array.from({ length: N }, (_v, r) => r).filter((r) => test([vals], r));
        expect(compileArrowSelect(p, new Map([[1, 0]]))!([d], N), `${op} ${value.toString()}`).toEqual({ rows: want, complete: true });
      }
    }
  });

  it('leaves another scale, NaN and infinities to the JS test', () => {
    const p: BoundPredicate = { kind: 'compare', op: '<', fieldId: 1, type: TYPE, value: Numeric.parse('1') };
    expect(compileArrowSelect(p, new Map([[1, 0]]))!([decimalData([1n, 2n], 3)], 2)).toBeNull();
    for (const value of [Numeric.NaN, Numeric.POSITIVE_INFINITY]) {
      expect(compileArrowSelect({ kind: 'compare', op: '<', fieldId: 1, type: TYPE, value }, new Map([[1, 0]]))).toBeNull();
    }
  });
});
