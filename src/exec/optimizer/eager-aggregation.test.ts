/**
 * eager_aggregation: a GROUP BY of unfiltered dimensions over a fact's measures sums the fact per join key first
 * (TPC-H Q10's shape) — the plan shape, the same rows with the rule on and off over NULL keys, duplicate
 * dimension keys and NULL measures, and the shapes it must leave alone. PostgreSQL's answers for the same
 * shapes: test/sql/join/eager_aggregation.slt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { explainPlan, initParser } from '../../sql/index.ts';
import { optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { snowflakeCatalog } from '../testing/snowflake-catalog.ts';

beforeAll(async () => { await initParser(); });

const RULE = 'eager_aggregation';

/** the rows with the rule on and off, which must be equal; `applies`: the rule must have changed the plan */
async function sameRows(sql: string, applies: boolean): Promise<string[]> {
  const cat = snowflakeCatalog();
  const [on, off] = await Promise.all([runWithRules(cat, sql, []), runWithRules(cat, sql, [RULE])]);
  expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
  expect(explainPlan(on.optimized.plan).join('\n') !== explainPlan(off.optimized.plan).join('\n'), `rule applied: ${sql}`).toBe(applies);
  return sortedRows(on.rows);
}

// TPC-H Q10: fact ⋈ ord summed per o.ck, then cust (duplicate ck 7, NULL ck) and nat (duplicate nk 4) joined
const Q10 = `SELECT c.ck, c.seg, n.name, sum(CAST(f.amt AS numeric)), min(f.amt), max(o.od) FROM fact f, ord o, cust c, nat n
  WHERE f.ok = o.ok AND o.ck = c.ck AND c.nk = n.nk AND o.od < 7 GROUP BY c.ck, c.seg, n.name`;

describe('eager_aggregation', () => {
  it('sums the fact side per join key below the dimensions (TPC-H Q10)', async () => {
    const on = optimizedExplain(snowflakeCatalog(), Q10).join('\n');
    expect(on).toMatch(/Aggregate: groupBy=\[o\.ck\], aggr=\[sum\(CAST\(f\.amt AS numeric\)\), min\(f\.amt\), max\(o\.od\)\]/);
    expect(on).toMatch(/Aggregate: groupBy=\[c\.ck, c\.seg, n\.name\], aggr=\[sum\(sum\), min\(min\), max\(max\)\]/);
    expect((await sameRows(Q10, true)).length).toBeGreaterThan(5);
  });

  it('keeps NULL measures and groups without a match as the plain plan does', async () => {
    const sql = `SELECT c.ck, c.seg, sum(CASE WHEN f.amt % 3 = 0 THEN NULL ELSE CAST(f.amt AS numeric) END), max(f.amt)
      FROM fact f, ord o, cust c WHERE f.ok = o.ok AND o.ck = c.ck GROUP BY c.ck, c.seg`;
    expect((await sameRows(sql, true)).length).toBeGreaterThan(5);
    const allNull = `SELECT c.ck, c.seg, sum(CAST(NULLIF(f.amt, f.amt) AS numeric)) FROM fact f, ord o, cust c WHERE f.ok = o.ok AND o.ck = c.ck GROUP BY c.ck, c.seg`;
    expect((await sameRows(allNull, true)).length).toBeGreaterThan(5);
  });

  it('leaves shapes alone where it is not exact or does not pay', async () => {
    for (const sql of [
      // a filtered dimension may drop most fact rows: aggregating them all first would not pay
      Q10.replace('AND o.od < 7', "AND o.od < 7 AND c.seg = 'BUILDING'"),
      // count, sum(int4) (int8 partials would sum to numeric), avg and DISTINCT do not recombine as written
      Q10.replace('sum(CAST(f.amt AS numeric))', 'count(*)'),
      Q10.replace('sum(CAST(f.amt AS numeric))', 'sum(f.amt)'),
      Q10.replace('sum(CAST(f.amt AS numeric))', 'avg(f.amt)'),
      Q10.replace('sum(CAST(f.amt AS numeric))', 'sum(DISTINCT CAST(f.amt AS numeric))'),
      // one integer group key (nothing to trade), a group key on the fact side, two different keys between the sides
      `SELECT o.ck, sum(CAST(f.amt AS numeric)) FROM fact f, ord o WHERE f.ok = o.ok GROUP BY o.ck`,
      `SELECT c.ck, f.sk, sum(CAST(f.amt AS numeric)) FROM fact f, ord o, cust c WHERE f.ok = o.ok AND o.ck = c.ck GROUP BY c.ck, f.sk`,
      `SELECT c.ck, c.seg, sum(CAST(f.amt AS numeric)) FROM fact f, ord o, cust c WHERE f.ok = o.ok AND o.ck = c.ck AND o.od = c.nk GROUP BY c.ck, c.seg`,
      // the dimension side is the bigger table
      `SELECT f.sk, f.amt, sum(CAST(c.nk AS numeric)) FROM cust c, fact f WHERE f.ok = c.ck GROUP BY f.sk, f.amt`,
      // a text key: the join's `=` and the grouping's need not agree
      `SELECT n.rk, n.nk, sum(CAST(c.ck AS numeric)) FROM cust c, nat n WHERE c.seg = n.name GROUP BY n.rk, n.nk`,
    ]) await sameRows(sql, false);
  });

  it('is switchable and stays off inside grouping sets', async () => {
    const off = await runWithRules(snowflakeCatalog(), Q10, [RULE]);
    expect(explainPlan(off.optimized.plan).join('\n')).not.toMatch(/groupBy=\[o\.ck\]/);
    await sameRows(Q10.replace('GROUP BY c.ck, c.seg, n.name', 'GROUP BY ROLLUP (c.ck, c.seg, n.name)'), false);
  });
});
