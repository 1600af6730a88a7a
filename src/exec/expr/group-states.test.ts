/** GroupStates: typed counts and numeric sums give exactly what the aggregate states give stepped row by row. */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, EvalContext } from '../../functions/registry-types.ts';
import { testRegistry } from '../testing/run-sql.ts';
import { GroupStates, type GroupStateSpec } from './group-states.ts';

const ctx = {} as EvalContext;
const NUM = sqlType(Oid.numeric);

function spec(name: string, argOids: number[], ret: number): GroupStateSpec {
  const def = testRegistry().routines(name).find((d) => d.kind === 'aggregate' && d.args.length === argOids.length && d.args.every((a, i) => a === argOids[i] || a === Oid.any)) as AggregateDef;
  return { def, argTypes: argOids.map((o) => sqlType(o)), type: sqlType(ret) };
}

/** the result of stepping a fresh state with every value, the row-at-a-time way */
function stepped(s: GroupStateSpec, vals: Numeric[]): unknown {
  const st = s.def.create(ctx, s.argTypes, s.type);
  for (const v of vals) st.step([v]);
  return st.final();
}

describe('GroupStates', () => {
  const sum = spec('sum', [Oid.numeric], Oid.numeric);
  const avg = spec('avg', [Oid.numeric], Oid.numeric);
  const count = spec('count', [], Oid.int8);

  it('types count, numeric sum/avg and min/max, not the others', () => {
    const gs = new GroupStates([sum, avg, count, spec('max', [Oid.numeric], Oid.numeric), spec('stddev_samp', [Oid.numeric], Oid.numeric)], ctx);
    expect(gs.kinds).toEqual(['sum', 'sum', 'count', 'minmax', null]);
  });

  it('sums exactly past 2^52, across scales and through the state path, with the largest scale', () => {
    // [unscaled, scale] pairs: big values leave the typed path, a new scale too; the sum must still be exact
    const inputs: [number, number][] = [[123456789012, 2], [2 ** 39, 2], [-(2 ** 39) + 7, 2], [2 ** 45, 2], [15, 1], [3, 4], [2 ** 52 - 1, 0], [99, 2]];
    for (let rep = 0; rep < 2000; rep++) inputs.push([(2 ** 39) - rep, 2]);
    const gs = new GroupStates([sum, avg], ctx);
    gs.ensure(3);
    for (const [u, s] of inputs) for (const k of [0, 1]) gs.addScaled(k, 1, u, s);
    const nums = inputs.map(([u, s]) => Numeric.of(BigInt(u), s));
    expect(String(gs.final(0, 1))).toBe(String(stepped(sum, nums)));
    expect(String(gs.final(1, 1))).toBe(String(stepped(avg, nums)));
    // the groups nothing was added to: NULL
    expect(gs.final(0, 0)).toBeNull();
    expect(gs.final(1, 2)).toBeNull();
  });

  it('finishes groups that never needed a state object as the states would', () => {
    const gs = new GroupStates([sum, avg, count], ctx);
    gs.ensure(1);
    const vals: [number, number][] = [[-150, 2], [7, 2], [0, 2], [99999, 2]];
    for (const [u, sc] of vals) { gs.addScaled(0, 0, u, sc); gs.addScaled(1, 0, u, sc); }
    gs.counts[2]![0] = 4;
    const nums = vals.map(([u, sc]) => Numeric.of(BigInt(u), sc));
    expect(String(gs.final(0, 0))).toBe(String(stepped(sum, nums)));
    expect(String(gs.final(0, 0))).toBe('998.56');
    expect(String(gs.final(1, 0))).toBe(String(stepped(avg, nums)));
    expect(gs.final(2, 0)).toBe(4n);
  });

  it('adds typed sums to what was stepped into the state, and counts into CountState', () => {
    const gs = new GroupStates([sum, count], ctx);
    gs.ensure(2000);
    gs.state(0, 1500).step([Numeric.parse('0.005')]);
    gs.addScaled(0, 1500, 250, 2);
    gs.counts[1]![1999] = 41;
    gs.state(1, 1999).step([]);
    expect(String(gs.final(0, 1500))).toBe('2.505');
    expect(gs.final(1, 1999)).toBe(42n);
    expect(gs.final(1, 0)).toBe(0n);
  });
});
