/**
 * TPC-H Q17 at SF 1 estimates: correlated_aggregate_from_join computes the per-part avg(l_quantity) from the
 * lineitem ⋈ σ(part) rows the outer side joins anyway (one subtree, run once: share_repeated_subplans) instead
 * of a second lineitem scan — when p_partkey is part's primary key. Without the key (lakegate's TPC-H tables
 * as bench/tpch creates them) avg would see each lineitem row once per duplicate part row: left alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery } from '../../bench/tpch/index.ts';
import { explainPlan, initParser, type LogicalPlan } from '../../src/sql/index.ts';
import { bindPlan, testContext } from '../../src/exec/testing/optimizer-fixture.ts';
import { optimizePlan } from '../../src/exec/optimizer/optimizer.ts';
import { allPlanNodes } from '../../src/exec/optimizer/plan-rewrite.ts';
import { sharedSubplanKey } from '../../src/exec/optimizer/share-repeated-subplans.ts';
import type { MemoryCatalog } from '../../src/sql/testing/memory-catalog.ts';
import { tpchEstimatedCatalog } from './tpch-estimated-catalog.ts';

beforeAll(async () => { await initParser(); });

/** the SF 1 catalog with p_partkey declared part's primary key */
function withPartKey(): MemoryCatalog {
  const cat = tpchEstimatedCatalog(1);
  const byOid = cat.relationByOid.bind(cat);
  cat.relationByOid = (oid) => {
    const r = byOid(oid);
    return r?.name === 'part' ? { ...r, primaryKey: [0] } : r;
  };
  return cat;
}

function optimized(cat: MemoryCatalog, off: readonly string[] = []): LogicalPlan {
  return optimizePlan(bindPlan(cat, tpchQuery(17)), testContext(cat), new Set(off)).plan;
}

const lineitemScans = (p: LogicalPlan): number => new Set(allPlanNodes(p).filter((n) => n.kind === 'TableScan' && n.name === 'public.lineitem')).size;

describe('TPC-H Q17: the correlated avg from the outer join (correlated_aggregate_from_join)', () => {
  it('with part\'s primary key the aggregate reads lineitem ⋈ σ(part), run once for both readers', () => {
    const plan = optimized(withPartKey());
    const lines = explainPlan(plan).map((l) => l.trim());
    const at = lines.findIndex((l) => l.startsWith('Aggregate: groupBy=[lineitem.l_partkey]'));
    expect(lines[at]).toBe('Aggregate: groupBy=[lineitem.l_partkey], aggr=[avg(lineitem.l_quantity)]');
    expect(lines.slice(at + 1).find((l) => !l.startsWith('Projection:'))).toBe('Inner Join (build: left): (part.p_partkey = lineitem.l_partkey)');
    // the join under the left join and under the aggregate is one subtree, marked to run once
    const joins = allPlanNodes(plan).filter((n) => n.kind === 'Join' && n.joinType === 'inner');
    expect(new Set(joins).size).toBe(1);
    expect(lineitemScans(plan)).toBe(1);
    const left = allPlanNodes(plan).find((n) => n.kind === 'Join' && n.joinType === 'left');
    const agg = allPlanNodes(plan).find((n) => n.kind === 'Aggregate' && n.groupKeys.length === 1);
    expect(left?.kind === 'Join' && agg?.kind === 'Aggregate' && left.left === agg.input).toBe(true);
    expect(left?.kind === 'Join' ? sharedSubplanKey(left.left) : undefined).toBeDefined();
  });

  it('without the key, or with the rule off, the aggregate scans lineitem on its own', () => {
    for (const plan of [optimized(tpchEstimatedCatalog(1)), optimized(withPartKey(), ['correlated_aggregate_from_join'])]) {
      const lines = explainPlan(plan).map((l) => l.trim());
      const at = lines.findIndex((l) => l.startsWith('Aggregate: groupBy=[lineitem.l_partkey]'));
      expect(lines[at + 1]).toMatch(/^TableScan: public\.lineitem/);
      expect(lineitemScans(plan)).toBe(2);
    }
  });
});
