/**
 * TPC-H Q2 at SF 1 estimates: correlated_aggregate_from_join computes the per-part min(ps_supplycost) of the
 * subquery's partsupp ⋈ supplier ⋈ nation ⋈ σ(region) from the outer side's σ(part) ⋈ partsupp ⋈ supplier ⋈ nation
 * ⋈ σ(region) rows (one subtree, run once: share_repeated_subplans), instead of a second partsupp scan and join.
 * The outer join tree is shaped differently from the subquery's (part joins in), so the rule compares their
 * inner-join graphs, not their trees. min sees a set: no key is needed on part.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery } from '../../bench/tpch/index.ts';
import { explainPlan, initParser, type Aggregate, type Join, type LogicalPlan } from '../../src/sql/index.ts';
import { bindPlan, testContext } from '../../src/exec/testing/optimizer-fixture.ts';
import { optimizePlan } from '../../src/exec/optimizer/optimizer.ts';
import { allPlanNodes } from '../../src/exec/optimizer/plan-rewrite.ts';
import { sharedSubplanKey } from '../../src/exec/optimizer/share-repeated-subplans.ts';
import { tpchEstimatedCatalog } from './tpch-estimated-catalog.ts';

beforeAll(async () => { await initParser(); });

function optimized(off: readonly string[] = []): LogicalPlan {
  const cat = tpchEstimatedCatalog(1);
  return optimizePlan(bindPlan(cat, tpchQuery(2)), testContext(cat), new Set(off)).plan;
}

const partScans = (p: LogicalPlan): number => allPlanNodes(p).filter((n) => n.kind === 'TableScan' && n.name === 'public.part').length;

function parts(plan: LogicalPlan): { readonly left: Join; readonly agg: Aggregate } {
  const left = allPlanNodes(plan).find((n): n is Join => n.kind === 'Join' && n.joinType === 'left');
  const agg = allPlanNodes(plan).find((n): n is Aggregate => n.kind === 'Aggregate' && n.groupKeys.length === 1);
  if (left === undefined || agg === undefined) throw new Error('no left join or aggregate');
  return { left, agg };
}

describe('TPC-H Q2: the correlated min from the outer join (correlated_aggregate_from_join)', () => {
  it('the aggregate reads the outer side\'s five-table join, one subtree run once for both readers', () => {
    const plan = optimized();
    const lines = explainPlan(plan).map((l) => l.trim());
    expect(lines).toContain('Aggregate: groupBy=[partsupp.ps_partkey], aggr=[min(partsupp.ps_supplycost)]');
    const { left, agg } = parts(plan);
    expect(left.left).toBe(agg.input);
    expect(partScans(agg.input)).toBe(1);
    expect(sharedSubplanKey(left.left)).toBeDefined();
  });

  it('with the rule off the subquery joins partsupp to supplier, nation and region on its own', () => {
    const { left, agg } = parts(optimized(['correlated_aggregate_from_join']));
    expect(left.left).not.toBe(agg.input);
    expect(partScans(agg.input)).toBe(0);
  });
});
