/**
 * TPC-H Q10 at SF 1 estimates: eager_aggregation sums lineitem ⋈ orders per o_custkey, customer and nation join
 * those groups by their primary keys, so the input of the seven-column GROUP BY is unique on c_custkey and
 * aggregate_over_unique_rows makes it a Projection — when c_custkey and n_nationkey are primary keys (bench/tpch's
 * tpchPostLoadDdl declares them). Without the keys, or with the rule off, the grouping stays. Then the top 20
 * rows read customer's wide columns by c_custkey after the LIMIT (key_columns_after_limit).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery } from '../../bench/tpch/index.ts';
import { explainPlan, initParser } from '../../src/sql/index.ts';
import { bindPlan, testContext } from '../../src/exec/testing/optimizer-fixture.ts';
import { optimizePlan } from '../../src/exec/optimizer/optimizer.ts';
import type { MemoryCatalog } from '../../src/sql/testing/memory-catalog.ts';
import { tpchEstimatedCatalog } from './tpch-estimated-catalog.ts';

beforeAll(async () => { await initParser(); });

/** the SF 1 catalog with customer's and nation's primary keys (their first columns) */
function withKeys(): MemoryCatalog {
  const cat = tpchEstimatedCatalog(1);
  const byOid = cat.relationByOid.bind(cat);
  cat.relationByOid = (oid) => {
    const r = byOid(oid);
    return r?.name === 'customer' || r?.name === 'nation' ? { ...r, primaryKey: [0] } : r;
  };
  return cat;
}

function plan(cat: MemoryCatalog, off: readonly string[] = []): string[] {
  return explainPlan(optimizePlan(bindPlan(cat, tpchQuery(10)), testContext(cat), new Set(off)).plan).map((l) => l.trim());
}

const customerGrouping = (lines: readonly string[]): boolean => lines.some((l) => l.startsWith('Aggregate: groupBy=[customer.c_custkey'));

describe('TPC-H Q10: the grouping by customer columns over one row per customer (aggregate_over_unique_rows)', () => {
  it('with the primary keys only the per-o_custkey sum is an aggregate', () => {
    const lines = plan(withKeys());
    expect(customerGrouping(lines)).toBe(false);
    expect(lines.filter((l) => l.startsWith('Aggregate:'))).toEqual(['Aggregate: groupBy=[orders.o_custkey], aggr=[sum((lineitem.l_extendedprice * (1 - lineitem.l_discount)))]']);
    expect(lines.some((l) => l.startsWith('Projection: customer.c_custkey, customer.c_name, customer.c_acctbal, customer.c_phone, nation.n_name, customer.c_address, customer.c_comment, sum'))).toBe(true);
  });

  it('the top 20 read c_name, c_address, c_phone, c_acctbal and c_comment by c_custkey after the LIMIT (key_columns_after_limit)', () => {
    const lines = plan(withKeys());
    const limitAt = lines.findIndex((l) => l.startsWith('Limit:'));
    expect(lines.slice(0, limitAt)).toEqual([
      'Projection: customer.c_custkey, customer.c_name, sum AS revenue, customer.c_acctbal, nation.n_name, customer.c_address, customer.c_phone, customer.c_comment',
      'Sort: revenue DESC NULLS FIRST, c_custkey ASC NULLS LAST',
      'Inner Join (build: left): (customer.c_custkey = customer.c_custkey)',
    ]);
    expect(lines.find((l) => l.includes('NULL AS c_name'))).toBe('Projection: customer.c_custkey, NULL AS c_name, sum AS revenue, NULL AS c_acctbal, nation.n_name, NULL AS c_address, NULL AS c_phone, NULL AS c_comment');
    const off = plan(withKeys(), ['key_columns_after_limit']);
    expect(off[0]).toMatch(/^Limit:/);
  });

  it('without the keys, or with the rule off, the seven-column grouping stays', () => {
    expect(customerGrouping(plan(tpchEstimatedCatalog(1)))).toBe(true);
    expect(customerGrouping(plan(withKeys(), ['aggregate_over_unique_rows']))).toBe(true);
  });
});
