/**
 * join_dimension_branches: dimensions joined to what they describe before it meets the fact table (the plan
 * shape, implied equalities only within one type) and — the point — the same rows with the rule on and off over
 * NULL and duplicate keys, cycles of equalities, OR conditions across branches, cross-type keys and outer joins
 * around the tree. PostgreSQL's answers for the same shapes: test/sql/join/dimension_branches.slt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { explainPlan, initParser } from '../../sql/index.ts';
import { optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { snowflakeCatalog } from '../testing/snowflake-catalog.ts';

beforeAll(async () => { await initParser(); });

const RULE = 'join_dimension_branches';

/** the rows with the rule on and off, which must be equal; `applies`: the rule must have changed the plan */
async function sameRows(sql: string, applies = true): Promise<string[]> {
  const cat = snowflakeCatalog();
  const [on, off] = await Promise.all([runWithRules(cat, sql, []), runWithRules(cat, sql, [RULE])]);
  expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
  expect(explainPlan(on.optimized.plan).join('\n') !== explainPlan(off.optimized.plan).join('\n'), `rule applied: ${sql}`).toBe(applies);
  return sortedRows(on.rows);
}

/** indentation of the first EXPLAIN line containing `text` (deeper = runs earlier, below) */
function depth(lines: readonly string[], text: string): number {
  const line = lines.find((l) => l.includes(text));
  if (line === undefined) throw new Error(`no line with ${text}:\n${lines.join('\n')}`);
  return line.length - line.trimStart().length;
}

const Q5 = `SELECT n.name, sum(f.amt) FROM cust c, ord o, fact f, supp s, nat n, reg r
  WHERE c.ck = o.ck AND f.ok = o.ok AND f.sk = s.sk AND c.nk = s.nk AND s.nk = n.nk AND n.rk = r.rk
    AND r.name = 'ASIA' AND o.od < 7 GROUP BY n.name`;
const Q7 = `SELECT n1.name, n2.name, sum(f.amt) FROM supp s, fact f, ord o, cust c, nat n1, nat n2
  WHERE s.sk = f.sk AND o.ok = f.ok AND c.ck = o.ck AND s.nk = n1.nk AND c.nk = n2.nk
    AND ((n1.name = 'FRANCE' AND n2.name = 'CHINA') OR (n1.name = 'CHINA' AND n2.name = 'FRANCE') OR (n1.name = 'GERMANY2' AND n2.name = 'GERMANY'))
  GROUP BY n1.name, n2.name`;
const Q9 = `SELECT n.name, sum(li.amt - ps.cost) FROM part, supp s, li, ps, ord o, nat n
  WHERE s.sk = li.sk AND ps.sk = li.sk AND ps.pk = li.pk AND part.pk = li.pk AND o.ok = li.ok AND s.nk = n.nk
    AND part.name LIKE '%green%' GROUP BY n.name`;
const Q3 = `SELECT o.ok, sum(f.amt) FROM cust c, ord o, fact f WHERE c.seg = 'BUILDING' AND c.ck = o.ck AND f.ok = o.ok AND o.od > 2 GROUP BY o.ok`;

describe('join_dimension_branches: plan shape', () => {
  it('joins region to nation to customer to orders before the fact table, nation hung by the implied c.nk = n.nk', () => {
    const on = optimizedExplain(snowflakeCatalog(), Q5);
    expect(depth(on, '(n.rk = r.rk)')).toBeGreaterThan(depth(on, '(c.ck = o.ck)'));
    expect(depth(on, '(c.ck = o.ck)')).toBeGreaterThan(depth(on, '(f.ok = o.ok)'));
    expect(on.join('\n')).toMatch(/Inner Join[^\n]*\((n\.nk = c\.nk|c\.nk = n\.nk)\)/);
  });

  it('with the rule off, the dimension filters wait for the fact rows (reorder_inner_joins alone)', () => {
    const on = optimizedExplain(snowflakeCatalog(), Q5, ['reorder_inner_joins', RULE]);
    const off = optimizedExplain(snowflakeCatalog(), Q5, ['reorder_inner_joins']);
    expect(depth(on, '(n.rk = r.rk)')).toBeGreaterThan(depth(on, '(f.ok = o.ok)'));
    expect(depth(off, '(n.rk = r.rk)')).toBeLessThan(depth(off, '(f.ok = o.ok)'));
  });

  it('puts each nation of an OR condition under its own branch, its derived filter with it', () => {
    const lines = optimizedExplain(snowflakeCatalog(), Q7);
    const n1 = lines.findIndex((l) => l.includes('Filter: ((n1.name'));
    const n2 = lines.findIndex((l) => l.includes('Filter: ((n2.name'));
    expect(n1).toBeGreaterThan(0);
    expect(n2).toBeGreaterThan(0);
    expect(depth(lines, 'Filter: ((n1.name')).toBeGreaterThan(depth(lines, '(s.sk = f.sk)'));
    expect(depth(lines, 'Filter: ((n2.name')).toBeGreaterThan(depth(lines, '(c.ck = o.ck)'));
  });

  it('joins an unfiltered dimension of a table bigger than the rows reaching the top last (TPC-H Q10)', async () => {
    const sql = `SELECT c.ck, n.name, sum(f.amt) FROM fact f, ord o, cust c, nat n
      WHERE f.ok = o.ok AND o.ck = c.ck AND c.nk = n.nk AND o.od = 4 AND f.amt % 2 = 0 GROUP BY c.ck, n.name`;
    const lines = optimizedExplain(snowflakeCatalog(), sql);
    expect(depth(lines, '(c.nk = n.nk)')).toBeLessThan(depth(lines, '(o.ck = c.ck)'));
    expect((await sameRows(sql)).length).toBeGreaterThan(0);
    const filtered = sql.replace("AND o.od = 4", "AND o.od = 4 AND n.name <> 'JAPAN'");
    expect(depth(optimizedExplain(snowflakeCatalog(), filtered), '(c.nk = n.nk)')).toBeGreaterThan(depth(optimizedExplain(snowflakeCatalog(), filtered), '(o.ck = c.ck)'));
    expect((await sameRows(filtered)).length).toBeGreaterThan(0);
  });

  it('hangs a dimension off the smaller child its key class also ties to the fact (TPC-H Q9: part off partsupp)', async () => {
    const lines = optimizedExplain(snowflakeCatalog(), Q9);
    // part and supp join ps before li meets it; li's join keeps one key per class, the filtered part keys first
    expect(depth(lines, '(ps.pk = part.pk)')).toBeGreaterThan(depth(lines, 'li.pk'));
    expect(depth(lines, '(ps.sk = s.sk)')).toBeGreaterThan(depth(lines, 'li.pk'));
    expect(lines.find((l) => l.includes('li.pk'))).toMatch(/Join.*: \(\(ps\.pk = li\.pk\) AND \(ps\.sk = li\.sk\)\)$/);
    const off = optimizedExplain(snowflakeCatalog(), Q9, ['join_dimension_branches']);
    expect(depth(off, 'part.pk')).toBeGreaterThan(depth(off, 'ps.pk'));
    expect((await sameRows(Q9)).length).toBeGreaterThan(1);
    // every joined row, duplicates (li and ps repeat pairs) and NULL keys included
    expect((await sameRows(Q9.replace('sum(li.amt - ps.cost)', 'li.amt, ps.cost, o.od').replace(' GROUP BY n.name', ''))).length).toBeGreaterThan(10);
  });

  it('drops an equality its join already implies, only within one type (TPC-H Q5: c_nationkey = s_nationkey)', async () => {
    const on = optimizedExplain(snowflakeCatalog(), Q5).join('\n');
    expect(on).not.toMatch(/c\.nk = s\.nk/);
    const cross = `SELECT f.amt, s.sk, c.ck, n.name FROM fact f, ord o, cust c, supp s, nat n
      WHERE f.ok = o.ok AND o.ck = c.ck AND f.sk = s.sk AND c.nk8 = s.nk AND s.nk = n.nk AND c.nk = n.nk`;
    expect(optimizedExplain(snowflakeCatalog(), cross).join('\n')).toMatch(/c\.nk8 = s\.nk/);
    expect((await sameRows(cross)).length).toBeGreaterThan(0);
  });

  it('makes no implied equality across types, and leaves stars, small joins and subquery conditions alone', () => {
    const cross = optimizedExplain(snowflakeCatalog(), `SELECT count(*) FROM fact f, ord o, cust c, supp s, nat n
      WHERE f.ok = o.ok AND o.ck = c.ck AND f.sk = s.sk AND c.nk8 = s.nk AND s.nk = n.nk`).join('\n');
    expect(cross).not.toMatch(/\((c\.nk8 = n\.nk|n\.nk = c\.nk8)\)/);
    const star = `SELECT count(*) FROM fact f, ord o, supp s WHERE f.ok = o.ok AND f.sk = s.sk`;
    const withOff = (sql: string) => [optimizedExplain(snowflakeCatalog(), sql).join('\n'), optimizedExplain(snowflakeCatalog(), sql, OTHER_RULES).join('\n')];
    for (const sql of [
      star,
      `SELECT count(*) FROM cust c, nat n, reg r WHERE c.nk = n.nk AND n.rk = r.rk AND r.name = 'ASIA'`,
      `SELECT count(*) FROM fact f JOIN ord o ON f.ok = o.ok JOIN cust c ON c.ck = o.ck AND c.nk IN (SELECT nk FROM nat)`,
      `SELECT count(*) FROM fact f JOIN ord o ON f.ok = o.ok AND random() >= 0 JOIN cust c ON c.ck = o.ck JOIN nat n ON n.nk = c.nk`,
    ]) {
      const [on, off] = withOff(sql);
      expect(on, sql).toBe(off);
    }
  });
});

/** every rule but join_dimension_branches */
const OTHER_RULES = [
  'simplify_expressions', 'push_filter_below_projection', 'subquery_to_semi_join', 'reorder_inner_joins', 'derive_or_filters',
  'push_down_filter', 'push_down_limit', 'push_down_projection', 'choose_build_side', 'partial_aggregate', 'aggregate_from_metadata',
];

describe('join_dimension_branches: same rows on and off', () => {
  it('gives the same rows for snowflakes with NULL and duplicate keys', async () => {
    expect((await sameRows(Q5)).length).toBeGreaterThan(0);
    expect((await sameRows(Q7)).length).toBeGreaterThan(1);
    expect((await sameRows(Q3)).length).toBeGreaterThan(0);
    expect((await sameRows(`SELECT f.amt, c.ck, n.name FROM fact f, ord o, cust c, nat n WHERE f.ok = o.ok AND o.ck = c.ck AND c.nk = n.nk`)).length).toBeGreaterThan(10);
  });

  it('keeps cycles of equalities exact, across types too', async () => {
    expect((await sameRows(`SELECT f.amt, s.sk, c.ck, n.name FROM fact f, ord o, cust c, supp s, nat n
      WHERE f.ok = o.ok AND o.ck = c.ck AND f.sk = s.sk AND c.nk = s.nk AND s.nk = n.nk`)).length).toBeGreaterThan(0);
    expect((await sameRows(`SELECT f.amt, s.sk, c.ck, n.name FROM fact f, ord o, cust c, supp s, nat n
      WHERE f.ok = o.ok AND o.ck = c.ck AND f.sk = s.sk AND c.nk8 = s.nk AND s.nk = n.nk`)).length).toBeGreaterThan(0);
    await sameRows(`SELECT count(*), sum(f.amt) FROM fact f, ord o, cust c, nat n, reg r
      WHERE f.ok = o.ok AND o.ck = c.ck AND c.nk = n.nk AND n.rk = r.rk AND r.name = 'NOWHERE'`);
  });

  it('keeps non-equality and constant conjuncts, and outer joins above and below the tree', async () => {
    await sameRows(`SELECT f.amt, c.ck FROM fact f, ord o, cust c, nat n WHERE f.ok = o.ok AND o.ck = c.ck AND c.nk = n.nk AND f.amt > c.ck * 3 AND n.name <> 'JAPAN' AND 1 = 1`);
    await sameRows(`SELECT f.amt, n.name FROM fact f JOIN ord o ON f.ok = o.ok JOIN cust c ON o.ck = c.ck LEFT JOIN nat n ON c.nk = n.nk AND n.name LIKE '%A%'`);
    await sameRows(`SELECT r.name, count(f.amt) FROM reg r LEFT JOIN (fact f JOIN ord o ON f.ok = o.ok JOIN cust c ON o.ck = c.ck JOIN nat n ON c.nk = n.nk) ON n.rk = r.rk GROUP BY r.name`);
    await sameRows(`SELECT f.amt FROM fact f, ord o, cust c, nat n WHERE f.ok = o.ok AND o.ck = c.ck AND c.nk = n.nk
      AND EXISTS (SELECT 1 FROM supp s WHERE s.nk = n.nk AND s.sk = f.sk)`);
  });
});
