/** BatchGroupSums: per-batch group partials folded into GroupStates give exactly the row-by-row sums and avgs. */
import { describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, EvalContext } from '../../functions/registry-types.ts';
import { testRegistry } from '../testing/run-sql.ts';
import { BatchGroupSums } from './batch-group-sums.ts';
import { GroupStates, type GroupStateSpec } from './group-states.ts';
import type { ScaledVec } from './vector-types.ts';

const ctx = {} as EvalContext;

function spec(name: string): GroupStateSpec {
  const def = testRegistry().routines(name).find((d) => d.kind === 'aggregate' && d.args.length === 1 && d.args[0] === Oid.numeric) as AggregateDef;
  return { def, argTypes: [sqlType(Oid.numeric)], type: sqlType(Oid.numeric) };
}

let seed = 7;
const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };

/** a batch: n rows over `groups` groups, unscaled values up to `max`, some NULL */
function batch(n: number, groups: number, max: number, scale: number): { v: ScaledVec; gids: Int32Array } {
  const f = new Float64Array(n), nul = new Uint8Array(n), gids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    gids[i] = Math.floor(rand() * groups);
    f[i] = Math.floor((rand() - 0.3) * max);
    nul[i] = rand() < 0.05 ? 1 : 0;
  }
  return { v: { tag: 'scaled', f, scale, nul }, gids };
}

describe('BatchGroupSums', () => {
  it('equals addScaledRows for shared arguments, selections, scale changes and partials past 2^52', () => {
    const specs = [spec('sum'), spec('avg'), spec('sum')];
    const fast = new GroupStates(specs, ctx), slow = new GroupStates(specs, ctx);
    const sums = new BatchGroupSums();
    const cases: [number, number, number, number][] = [[4000, 4, 1e9, 2], [4000, 4, 2 ** 50, 2], [3000, 6, 1e6, 4], [4000, 4, 1e4, 0], [4000, 4, 2 ** 52, 2]];
    let used = 0;
    for (const [n, groups, max, scale] of cases) {
      const { v, gids } = batch(n, groups, max, scale);
      const sel = Int32Array.from({ length: n }, (_x, i) => i).filter((i) => i % 3 !== 0);
      fast.ensure(groups);
      slow.ensure(groups);
      expect(sums.begin(gids, n)).toBe(true);
      for (const [k, s] of [[0, null], [1, null], [2, sel]] as const) {
        if (sums.add(k, v, s, n, gids, fast)) used++;
        else fast.addScaledRows(k, v.f, v.scale, v.nul, s, n, gids);
        slow.addScaledRows(k, v.f, v.scale, v.nul, s, n, gids);
      }
    }
    // the partials were taken for the small values and refused past 2^52
    expect(used).toBeGreaterThan(5);
    expect(used).toBeLessThan(15);
    for (let k = 0; k < specs.length; k++) for (let g = 0; g < 6; g++) expect(String(fast.final(k, g))).toBe(String(slow.final(k, g)));
  });

  it('is not used when the rows spread over many groups', () => {
    const { gids } = batch(1000, 500, 10, 0);
    expect(new BatchGroupSums().begin(gids, 1000)).toBe(false);
  });
});
