import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { LiteralExpr, ParamExpr } from '../../sql/index.ts';
import { collectingPins, pinKey, sameValue } from './param-identity.ts';

const param = (index: number, oid: number): ParamExpr => ({ kind: 'Param', index, type: sqlType(oid) });
const literal = (value: unknown, oid: number): LiteralExpr => ({ kind: 'Literal', value, type: sqlType(oid) });

describe('param identity: a `$n` against a constant or another `$n`, pinned for the plan memo', () => {
  it('compares values of one type; char(n) without its trailing blanks, numeric with its scale', () => {
    const params = ['EUROPE', 15, Numeric.parse('1.0'), 15n];
    expect(sameValue(params, param(0, Oid.bpchar), literal('EUROPE                   ', Oid.bpchar))).toBe(true);
    expect(sameValue(params, param(0, Oid.text), literal('EUROPE   ', Oid.text))).toBe(false);
    expect(sameValue(params, param(0, Oid.bpchar), literal('ASIA', Oid.bpchar))).toBe(false);
    expect(sameValue(params, param(0, Oid.bpchar), literal('EUROPE', Oid.text))).toBe(false);
    expect(sameValue(params, param(1, Oid.int4), literal(15, Oid.int4))).toBe(true);
    expect(sameValue(params, param(3, Oid.int8), literal(15, Oid.int8))).toBe(false);
    expect(sameValue(params, param(2, Oid.numeric), literal(Numeric.parse('1.00'), Oid.numeric))).toBe(false);
    expect(sameValue(params, param(2, Oid.numeric), literal(Numeric.parse('1.0'), Oid.numeric))).toBe(true);
    expect(sameValue([new Uint8Array([1]), new Uint8Array([1])], param(0, Oid.bytea), param(1, Oid.bytea))).toBe(false);
  });

  it('pins each `$n` it reads while the planner collects, and keys plans by the pinned values', () => {
    const { result, pins } = collectingPins(() => sameValue(['EUROPE', 15], param(0, Oid.bpchar), literal('EUROPE', Oid.bpchar)));
    expect(result).toBe(true);
    expect(pins).toEqual([{ index: 0, oid: Oid.bpchar }]);
    expect(pinKey(['EUROPE', 15], pins)).toBe(pinKey(['EUROPE  ', 16], pins));
    expect(pinKey(['EUROPE', 15], pins)).not.toBe(pinKey(['ASIA', 15], pins));
    // outside a collection nothing is recorded
    expect(collectingPins(() => 1).pins).toEqual([]);
  });
});
