/**
 * Aggregate states survive the trip from a worker: for every mergeable aggregate the partial_aggregate rule
 * admits, two halves stepped separately, sent through structuredClone (as postMessage does) and merged on
 * this side give the answer of one state stepped over all rows; and wired expressions re-resolve.
 */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { getDefaultRegistry } from '../../functions/index.ts';
import type { AggregateDef, EvalContext } from '../../functions/registry-types.ts';
import { aggregateOfKey, decodeExpr, encodeExpr, keyOfBuiltin, NotWireable } from './expr-wire.ts';
import { packStates, unpackStateInto } from './state-wire.ts';

const ctx = {} as EvalContext;
const N = (s: string): Numeric => Numeric.parse(s);

const CASES: readonly (readonly [string, number, readonly unknown[]])[] = [
  ['count', Oid.int4, [1, 2, null, 4]],
  ['sum', Oid.int4, [1, 2, 3, 2 ** 31 - 1, 2 ** 31 - 1]],
  ['sum', Oid.int8, [1n, 9007199254740993n, -5n]],
  ['sum', Oid.numeric, [N('1.25'), N('1e30'), N('-0.001'), N('NaN')]],
  ['sum', Oid.numeric, [N('1.25'), N('100000000000.5'), N('-0.001')]],
  ['avg', Oid.numeric, [N('1.25'), N('2.5'), N('3.75'), N('10')]],
  ['avg', Oid.int4, [1, 2, 4, 7]],
  ['avg', Oid.float8, [0.5, 0.25, 0.125]],
  ['min', Oid.numeric, [N('3'), N('-2.5'), N('7')]],
  ['max', Oid.text, ['b', 'zz', 'a']],
  ['max', Oid.date, [19000, 19500, 18000]],
  ['stddev', Oid.numeric, [N('1'), N('2'), N('4'), N('8')]],
  ['var_pop', Oid.int4, [1, 2, 4, 8]],
  ['stddev_samp', Oid.float8, [1, 2, 4, 8]],
  ['bool_and', Oid.bool, [true, true, false]],
  ['bool_or', Oid.bool, [false, false, true]],
  ['bit_or', Oid.int4, [1, 4, 16]],
];

function defOf(name: string, arg: number): AggregateDef {
  const d = getDefaultRegistry().routines(name).find((r) => r.kind === 'aggregate' && (r.args[0] === arg || r.args[0] === Oid.any));
  if (d === undefined || d.kind !== 'aggregate') throw new Error(`no ${name}(${arg})`);
  return d;
}

const text = (v: unknown): string => (Numeric.isNumeric(v) ? `N${v.toString()}` : typeof v === 'bigint' ? `${v}n` : JSON.stringify(v));

describe('aggregate states across threads', () => {
  it.each(CASES)('%s(%i)', (name, arg, values) => {
    const def = defOf(name, arg);
    const argTypes: SqlType[] = [sqlType(arg)];
    const ret = typeof def.returns === 'function' ? def.returns(argTypes) : sqlType(def.returns === Oid.anyelement ? arg : def.returns);
    const step = (s: ReturnType<AggregateDef['create']>, vs: readonly unknown[]): void => { for (const v of vs) if (v !== null) s.step([v]); };
    const serial = def.create(ctx, argTypes, ret);
    step(serial, values);
    const halves = [values.slice(0, 2), values.slice(2)].map((vs) => {
      const s = def.create(ctx, argTypes, ret);
      step(s, vs);
      const empty = def.create(ctx, argTypes, ret); // a group with no rows packs beside one with rows
      return structuredClone(packStates([empty, s]));
    });
    const merged = unpackStateInto(def.create(ctx, argTypes, ret), halves[0]!, 1);
    merged.combine!(unpackStateInto(def.create(ctx, argTypes, ret), halves[1]!, 1));
    merged.combine!(unpackStateInto(def.create(ctx, argTypes, ret), halves[1]!, 0));
    expect(text(merged.final())).toBe(text(serial.final()));
    // the def travels as its signature
    expect(aggregateOfKey(keyOfBuiltin(def))).toBe(def);
  });

  it('wires expressions with operators, casts and literals, refusing what a worker cannot run', () => {
    const reg = getDefaultRegistry();
    const numeric = sqlType(Oid.numeric);
    const mul = reg.resolveOperator('*', numeric, numeric);
    const col = { kind: 'ColumnRef', index: 2, levelsUp: 0, type: numeric, name: 'x' } as const;
    const lit = { kind: 'Literal', value: N('1.50'), type: numeric } as const;
    const e = { kind: 'Op', name: '*', def: mul.def, left: col, right: lit, leftType: numeric, rightType: numeric, type: numeric } as const;
    const back = decodeExpr(structuredClone(encodeExpr(e as never)));
    expect(back).toMatchObject({ kind: 'Op', def: mul.def, left: col });
    expect((back as { right: { value: Numeric } }).right.value.toString()).toBe('1.50');
    expect(() => encodeExpr({ ...col, levelsUp: 1 } as never)).toThrow(NotWireable);
    const random = reg.routines('random').find((r) => r.args.length === 0)!;
    expect(() => encodeExpr({ kind: 'Call', name: 'random', def: random, args: [], argTypes: [], type: sqlType(Oid.float8) } as never)).toThrow(NotWireable);
  });
});
