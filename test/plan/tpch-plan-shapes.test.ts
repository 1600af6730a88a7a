/**
 * TPC-H plan shapes at SF 1 row estimates (tpch-estimated-catalog.ts): the joins that decide the big
 * queries' cost, checked through EXPLAIN of the optimized plan. What the answers are is test/tpch's business
 * (against PostgreSQL); this file pins the choices the estimates drive, which SF 0.01 data cannot show.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery } from '../../bench/tpch/index.ts';
import { initParser } from '../../src/sql/index.ts';
import { optimizedExplain } from '../../src/exec/testing/optimizer-fixture.ts';
import { OPTIMIZER_RULE_NAMES } from '../../src/exec/optimizer/rule-names.ts';
import { tpchEstimatedCatalog } from './tpch-estimated-catalog.ts';

beforeAll(async () => { await initParser(); });

const plan = (q: number, sf = 1, rules?: readonly string[]): string[] => optimizedExplain(tpchEstimatedCatalog(sf), tpchQuery(q), rules);
const joins = (lines: readonly string[]): string[] => lines.filter((l) => / Join/.test(l)).map((l) => l.trim().replace(/: \(.*/, ''));

describe('TPC-H plan shapes at SF 1 estimates', () => {
  it('Q20: the decorrelated sum over lineitem is built from the partsupp side (its keys filter lineitem)', () => {
    // 'forest%' is a prefix: ~1,000 of 200,000 parts, not a quarter of them; so the partsupp rows of those parts
    // are few enough to build, and their part keys go below the aggregate as a runtime key filter
    const lines = plan(20);
    const left = lines.findIndex((l) => l.includes('Left Join'));
    expect(lines[left]).toContain('Left Join (build: left): ((key1 = partsupp.ps_partkey) AND (key2 = partsupp.ps_suppkey))');
    expect(lines.slice(left).join('\n')).toMatch(/Aggregate: groupBy=\[lineitem\.l_partkey, lineitem\.l_suppkey\]/);
  });

  it('Q4 / Q22: EXISTS and NOT EXISTS build the filtered outer side, Q19 builds the filtered parts', () => {
    expect(joins(plan(4))).toEqual(['Semi Join (build: left)']);
    expect(joins(plan(22))).toEqual(['Anti Join (build: left)']);
    expect(joins(plan(19))).toEqual(['Inner Join (build: left)']);
  });

  it('Q9: part and supplier join partsupp before lineitem, whose scan gets the green parts\' keys', () => {
    // '%green%' filters partsupp's branch (a runtime filter on ps_partkey) instead of all 800,000 partsupp rows
    // being built against lineitem ⋈ part; lineitem's join keeps one key per class, the part keys first
    const lines = plan(9);
    const li = lines.find((l) => l.includes('= lineitem.l_partkey'));
    expect(li?.trim()).toBe('Inner Join (build: left): ((partsupp.ps_partkey = lineitem.l_partkey) AND (partsupp.ps_suppkey = lineitem.l_suppkey))');
    const at = lines.indexOf(li!);
    expect(lines.slice(at + 1).find((l) => l.includes('part.p_partkey'))?.trim()).toBe('Inner Join (build: left): (partsupp.ps_partkey = part.p_partkey)');
    expect(lines.slice(at + 1).some((l) => l.includes('(partsupp.ps_suppkey = supplier.s_suppkey)'))).toBe(true);
  });

  it('Q5: the supplier join drops c_nationkey = s_nationkey, implied by the nation keys below it', () => {
    const supplier = plan(5).find((l) => l.includes('lineitem.l_suppkey = supplier.s_suppkey'));
    expect(supplier?.trim()).toBe('Inner Join: ((supplier.s_nationkey = nation.n_nationkey) AND (lineitem.l_suppkey = supplier.s_suppkey))');
  });

  it('Q21: NOT EXISTS on the filtered l3 runs before EXISTS on the whole of l2 (order_filtering_joins)', () => {
    // the anti join keeps the rows whose key misses a third of lineitem, the semi join those that hit all of it
    // (with the pair left as joins: exists_pair_to_key_min_max off)
    const pairRule = OPTIMIZER_RULE_NAMES.filter((n) => n !== 'exists_pair_to_key_min_max');
    expect(joins(plan(21, 1, pairRule)).slice(0, 2)).toEqual(['Semi Join (build: left)', 'Anti Join (build: left)']);
    expect(plan(21, 1, pairRule).find((l) => l.includes('Anti Join'))).toContain('l3.l_orderkey = l1.l_orderkey');
    expect(joins(plan(21, 1, pairRule.filter((n) => n !== 'order_filtering_joins'))).slice(0, 2)).toEqual(['Anti Join (build: left)', 'Semi Join (build: left)']);
  });

  it('Q21: EXISTS l2 / NOT EXISTS l3 become one per-order min/max of l_suppkey joined back (exists_pair_to_key_min_max)', () => {
    // l1 ⋈ supplier ⋈ orders is built, so its order keys cut the aggregate's lineitem scan (a runtime key filter
    // through the aggregate): one scan of lineitem instead of two, each of which decoded all of l_orderkey
    const lines = plan(21).map((l) => l.trim());
    expect(joins(lines).slice(0, 1)).toEqual(['Inner Join (build: left)']);
    expect(lines.some((l) => /^(Semi|Anti) Join/.test(l))).toBe(false);
    expect(lines).toContain('Inner Join (build: left): (l2.l_orderkey = l1.l_orderkey)');
    expect(lines.find((l) => l.startsWith('Aggregate: groupBy=[l2.l_orderkey]'))).toBe(
      'Aggregate: groupBy=[l2.l_orderkey], aggr=[min(l2.l_suppkey), max(l2.l_suppkey), min(l2.l_suppkey) FILTER (WHERE (l3.l_receiptdate > l3.l_commitdate)), max(l2.l_suppkey) FILTER (WHERE (l3.l_receiptdate > l3.l_commitdate))]',
    );
    expect(lines.find((l) => l.startsWith('Filter: (((min_other'))).toBe(
      'Filter: (((min_other <> l1.l_suppkey) OR (max_other <> l1.l_suppkey)) AND ((min_other_not <> l1.l_suppkey) OR (max_other_not <> l1.l_suppkey)) IS NOT TRUE)',
    );
  });

  it('Q21: orders streams against l1 cut by the nation\'s suppliers (build_side_under_key_filters)', () => {
    // supplier ⋈ σ(nation) hands its keys to the l1 scan, so l1 is built and orders (o_orderstatus = 'F': half of
    // them) takes l1's keys as a runtime filter, as PostgreSQL hashes l1 ⋈ supplier ⋈ nation and streams orders
    const orders = (rules?: readonly string[]): string | undefined => plan(21, 1, rules).find((l) => l.includes('(orders.o_orderkey = l1.l_orderkey)'))?.trim();
    expect(orders()).toBe('Inner Join: (orders.o_orderkey = l1.l_orderkey)');
    expect(orders(OPTIMIZER_RULE_NAMES.filter((n) => n !== 'build_side_under_key_filters'))).toBe('Inner Join (build: left): (orders.o_orderkey = l1.l_orderkey)');
  });

  it('Q10: lineitem ⋈ orders is summed per o_custkey before customer and nation join (eager_aggregation)', () => {
    // the seven-column grouping (c_comment among them) then sees one row per customer, not one per line
    const lines = plan(10).map((l) => l.trim());
    const top = lines.findIndex((l) => l.startsWith('Aggregate: groupBy=[customer.c_custkey'));
    const lower = lines.findIndex((l) => l.startsWith('Aggregate: groupBy=[orders.o_custkey]'));
    expect(top).toBeGreaterThanOrEqual(0);
    expect(lower).toBeGreaterThan(lines.findIndex((l) => l.includes('(customer.c_custkey = orders.o_custkey)')));
    expect(lines[top]).toContain('aggr=[sum(sum)]');
    const off = plan(10, 1, OPTIMIZER_RULE_NAMES.filter((n) => n !== 'eager_aggregation')).join('\n');
    expect(off).not.toContain('groupBy=[orders.o_custkey]');
  });

  it('Q13: orders is counted per o_custkey below the left join to customer (aggregate_below_left_join)', () => {
    // the join then meets one row per customer with orders instead of one per order, and o_comment's NOT LIKE
    // goes with the count into the scan workers' fragment
    const lines = plan(13).map((l) => l.trim());
    const join = lines.findIndex((l) => l.startsWith('Left Join'));
    expect(lines[join]).toContain('(customer.c_custkey = orders.o_custkey)');
    expect(lines.findIndex((l) => l.startsWith('Aggregate: groupBy=[customer.c_custkey], aggr=[sum(partial0)]'))).toBeLessThan(join);
    expect(lines.slice(join).some((l) => l.startsWith('Aggregate: groupBy=[orders.o_custkey], aggr=[count(orders.o_orderkey)]'))).toBe(true);
    const off = plan(13, 1, OPTIMIZER_RULE_NAMES.filter((n) => n !== 'aggregate_below_left_join')).join('\n');
    expect(off).not.toContain('groupBy=[orders.o_custkey]');
  });
});
