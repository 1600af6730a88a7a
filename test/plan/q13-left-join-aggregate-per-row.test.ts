/**
 * TPC-H Q13 at SF 1 estimates: orders is counted per o_custkey below the LEFT JOIN (aggregate_below_left_join's
 * rewrite), and with customer's primary key (bench/tpch's tpchPostLoadDdl declares it) each customer row is its own
 * group, so no GROUP BY c_custkey is left above the join: the count is coalesce(partial, 0) in a Projection
 * (left_join_aggregate_per_row). Without the key, or with the rule off, the upper grouping stays.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery } from '../../bench/tpch/index.ts';
import { explainPlan, initParser } from '../../src/sql/index.ts';
import { bindPlan, testContext } from '../../src/exec/testing/optimizer-fixture.ts';
import { optimizePlan } from '../../src/exec/optimizer/optimizer.ts';
import type { MemoryCatalog } from '../../src/sql/testing/memory-catalog.ts';
import { tpchEstimatedCatalog } from './tpch-estimated-catalog.ts';

beforeAll(async () => { await initParser(); });

/** the SF 1 catalog with customer's primary key (its first column) */
function withKeys(): MemoryCatalog {
  const cat = tpchEstimatedCatalog(1);
  const byOid = cat.relationByOid.bind(cat);
  cat.relationByOid = (oid) => {
    const r = byOid(oid);
    return r?.name === 'customer' ? { ...r, primaryKey: [0] } : r;
  };
  return cat;
}

function plan(cat: MemoryCatalog, off: readonly string[] = []): string[] {
  return explainPlan(optimizePlan(bindPlan(cat, tpchQuery(13)), testContext(cat), new Set(off)).plan).map((l) => l.trim());
}

const aggregates = (lines: readonly string[]): string[] => lines.filter((l) => l.startsWith('Aggregate:'));

describe('TPC-H Q13: one row per customer needs no grouping above the per-o_custkey count (left_join_aggregate_per_row)', () => {
  it('with the primary key only c_count and o_custkey are grouped; the count is coalesce(partial, 0) over the join', () => {
    const lines = plan(withKeys());
    expect(aggregates(lines)).toEqual([
      'Aggregate: groupBy=[c_orders.c_count], aggr=[count(*)]',
      'Aggregate: groupBy=[orders.o_custkey], aggr=[count(orders.o_orderkey)]',
    ]);
    const join = lines.findIndex((l) => l.startsWith('Left Join'));
    expect(lines[join]).toContain('(customer.c_custkey = orders.o_custkey)');
    expect(lines[join - 1]).toBe('Projection: customer.c_custkey, coalesce(partial0, 0) AS count');
  });

  it('without the key, or with the rule off, the per-customer sum of partial counts stays', () => {
    const upper = 'Aggregate: groupBy=[customer.c_custkey], aggr=[sum(partial0)]';
    expect(aggregates(plan(tpchEstimatedCatalog(1)))).toContain(upper);
    expect(aggregates(plan(withKeys(), ['left_join_aggregate_per_row']))).toContain(upper);
  });
});
