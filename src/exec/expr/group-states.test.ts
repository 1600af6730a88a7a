/** GroupStates: typed counts and numeric sums give exactly what the aggregate states give stepped row by row. */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, EvalContext } from '../../functions/registry-types.ts';
import { testRegistry } from '../testing/run-sql.ts';
import { GroupStates, type GroupStateSpec } from './group-states.ts';
import { spareArrayBytes } from './spare-arrays.ts';

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

  it('a released aggregate\'s arrays serve the next one zeroed: sums, counts and scales start empty (spare-arrays.ts)', () => {
    const groups = 70_000; // past spare-arrays' MIN_LENGTH: capacity 131072
    const first = new GroupStates([sum, count], ctx);
    first.ensure(groups);
    for (let g = 0; g < groups; g += 7) { first.addScaled(0, g, 100 + g, 2); first.counts[1]![g] = 3; }
    expect(String(first.final(0, 7))).toBe('1.07');
    const used = [first.counts[0]!, first.sums[0]!, first.sumScales[0]!, first.counts[1]!];
    first.release();
    expect(spareArrayBytes()).toBeGreaterThan(0);
    const next = new GroupStates([sum, count], ctx);
    next.ensure(groups);
    // the same buffers again (no fresh pages), every entry as a fresh array's
    expect([next.counts[0], next.sums[0], next.sumScales[0], next.counts[1]].filter((a) => used.includes(a as never)).length).toBeGreaterThan(0);
    expect(next.counts[0]!.every((v) => v === 0) && next.sums[0]!.every((v) => v === 0) && next.counts[1]!.every((v) => v === 0)).toBe(true);
    expect(next.sumScales[0]!.every((v) => v === -1)).toBe(true);
    expect(next.final(0, 7)).toBeNull();
    expect(next.final(1, 7)).toBe(0n);
    next.addScaled(0, 7, 5, 1);
    expect(String(next.final(0, 7))).toBe('0.5');
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
  it('merges typed partial states (typedPart → mergeTyped) as the states would combine, across scales and past 2^52', () => {
    // per part: [group, unscaled, scale] rows added; parts then merged into groups by another numbering
    // 3000 × (2^40 - 1) per part: each part's double stays below 2^52, their merged sum does not
    const many: [number, number, number][] = Array.from({ length: 3000 }, () => [1, 2 ** 40 - 1, 2]);
    const parts: [number, number, number][][] = [
      [[0, 150, 2], ...many, [1, -3, 2], [0, 7, 2]],
      [...many, [0, 5, 3], [2, -9, 1]],
      [[0, 1, 2], [1, 3, 2], ...many],
    ];
    const merged = new GroupStates([sum, avg, count], ctx);
    const objects = [sum, avg, count].map((sp) => [0, 1, 2].map(() => sp.def.create(ctx, sp.argTypes, sp.type)));
    for (const rows of parts) {
      const gs = new GroupStates([sum, avg, count], ctx);
      gs.ensure(3);
      for (const [g, u, sc] of rows) {
        for (const k of [0, 1]) gs.addScaled(k, g, u, sc);
        gs.counts[2]![g]! += 1;
        for (const k of [0, 1]) objects[k]![2 - g]!.step([Numeric.of(BigInt(u), sc)]);
        objects[2]![2 - g]!.step([]);
      }
      expect([0, 1, 2].some((k) => gs.hasStates(k))).toBe(false);
      // the parts' groups land in the merged table reversed
      const gids = new Int32Array([2, 1, 0]);
      merged.ensure(3);
      for (const k of [0, 1, 2]) merged.mergeTyped(k, gids, 3, structuredClone(gs.typedPart(k, 3)));
    }
    for (const k of [0, 1, 2]) for (const g of [0, 1, 2]) expect(String(merged.final(k, g))).toBe(String(objects[k]![g]!.final()));
  });
});
