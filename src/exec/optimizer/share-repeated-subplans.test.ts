/**
 * share_repeated_subplans: which subtrees are marked (a CTE read twice, TPC-H Q15's revenue0), which are not
 * (volatile, correlated, cheap, different pruned join columns), that a marked subtree is scanned once per
 * execution, and — the point — the same rows with the rule on and off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tpchQuery } from '../../../bench/tpch/index.ts';
import { exprChildren, initParser, planChildren, type Expr, type LogicalPlan } from '../../sql/index.ts';
import { allPlanNodes, nodeExprs } from './plan-rewrite.ts';
import { bindPlan, optimizedExplain, runWithRules, sortedRows, testContext } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';
import type { StrictTable } from '../testing/strict-table.ts';
import { optimizePlan } from './optimizer.ts';
import { readsATableTwice, sharedSubplanKey } from './share-repeated-subplans.ts';
import { tpchEstimatedCatalog } from '../../../test/plan/tpch-estimated-catalog.ts';
import type { MemoryCatalog } from '../../sql/testing/memory-catalog.ts';

beforeAll(async () => { await initParser(); });

/** the share keys of the optimized plan's marked nodes, top-down (subquery plans included) */
function marks(cat: MemoryCatalog, sql: string, off: readonly string[] = []): { kind: string; key: string }[] {
  const plan = optimizePlan(bindPlan(cat, sql), testContext(cat), new Set(off)).plan;
  const out: { kind: string; key: string }[] = [];
  const visit = (p: LogicalPlan): void => {
    const key = sharedSubplanKey(p);
    if (key !== undefined) out.push({ kind: p.kind, key });
    planChildren(p).forEach(visit);
    const expr = (e: Expr): void => {
      if (e.kind === 'Subquery') visit(e.plan);
      exprChildren(e).forEach(expr);
    };
    nodeExprs(p).forEach(expr);
  };
  visit(plan);
  return out;
}

const CTE_TWICE = `WITH r AS (SELECT k, sum(v) AS total FROM big GROUP BY k)
  SELECT s.name, r.total FROM small s JOIN r ON r.k = s.k WHERE r.total > (SELECT avg(total) FROM r)`;

const QUERIES = [
  CTE_TWICE,
  `WITH r AS (SELECT k, count(*) AS n FROM big WHERE x > 2 GROUP BY k) SELECT a.k, b.n FROM r a JOIN r b ON a.k = b.k + 1 ORDER BY 1`,
  `WITH r AS (SELECT b.k, s.name FROM big b JOIN small s ON s.k = b.k) SELECT (SELECT count(*) FROM r), (SELECT count(DISTINCT name) FROM r)`,
  `WITH r AS (SELECT k, sum(v) AS t FROM big GROUP BY k) SELECT k FROM r WHERE t > (SELECT avg(t) FROM r) UNION ALL SELECT k FROM r WHERE t < 10`,
  // the same join read for different columns (Q11's shape): widened and shared
  `SELECT b.k, sum(b.v) FROM big b JOIN small s ON s.k = b.k GROUP BY b.k HAVING sum(b.v) > (SELECT sum(b.v) * 0.2 FROM big b JOIN small s ON s.k = b.k)`,
  `SELECT s.name, b.x FROM big b JOIN small s ON s.k = b.k WHERE b.v > (SELECT avg(b.v) FROM big b JOIN small s ON s.k = b.k) - 100`,
  // correlated use of an uncorrelated repeat: the subquery runs per row and reads the kept rows
  `WITH r AS (SELECT k, max(v) AS m FROM big GROUP BY k) SELECT s.name, (SELECT m FROM r WHERE r.k = s.k) FROM small s WHERE s.k IN (SELECT k FROM r)`,
];

describe('share_repeated_subplans', () => {
  it('marks both references of a CTE read twice with one key (TPC-H Q15 at SF 1 estimates)', () => {
    const m = marks(tpchEstimatedCatalog(1), tpchQuery(15));
    expect(m.length).toBe(2);
    expect(m[0]!.key).toBe(m[1]!.key);
    expect(m[0]!.kind).toBe('Projection');
    expect(marks(tpchEstimatedCatalog(1), tpchQuery(15), ['share_repeated_subplans'])).toEqual([]);
  });

  it('widens copies that differ in the columns read into one shared subtree (TPC-H Q11)', () => {
    const m = marks(tpchEstimatedCatalog(1), tpchQuery(11));
    expect(m.length).toBe(2);
    expect(m[0]!.key).toBe(m[1]!.key);
    const lines = optimizedExplain(tpchEstimatedCatalog(1), tpchQuery(11)).filter((l) => l.includes('TableScan: public.partsupp'));
    expect(lines.map((l) => l.trim())).toEqual(Array(2).fill('TableScan: public.partsupp projection=[ps_partkey, ps_suppkey, ps_availqty, ps_supplycost]'));
  });

  it('marks nothing in the TPC-H queries without a repeated subtree', () => {
    for (const q of [1, 3, 5, 9, 18, 21]) expect(marks(tpchEstimatedCatalog(1), tpchQuery(q)), `q${q}`).toEqual([]);
  });

  it('skips fingerprinting when no table is read twice (TPC-H Q19: lineitem and part), not when one is', () => {
    const cat = tpchEstimatedCatalog(1);
    const twice = (q: number): boolean => readsATableTwice(bindPlan(cat, tpchQuery(q)));
    expect([1, 3, 4, 6, 9, 10, 12, 14, 19].filter(twice)).toEqual([]);
    // nation twice (Q7, Q8), lineitem in a subquery (Q17, Q18, Q21, Q22's customer), a CTE inlined twice (Q15)
    expect([7, 8, 11, 15, 17, 18, 21, 22].filter((q) => !twice(q))).toEqual([]);
    expect(readsATableTwice(bindPlan(sizedJoinCatalog(), CTE_TWICE))).toBe(true);
  });

  it('does not mark volatile, correlated or cheap repeats', () => {
    const cat = sizedJoinCatalog();
    // random() must be drawn per reference, as the inlined CTE always did
    expect(marks(cat, `WITH r AS (SELECT k, sum(v * random()) AS t FROM big GROUP BY k) SELECT * FROM r a JOIN r b ON a.k = b.k`)).toEqual([]);
    // the repeated subtree reads the outer row
    expect(marks(cat, `SELECT name FROM small s WHERE s.v > (SELECT sum(v) FROM big WHERE big.k = s.k OR big.x = s.x) AND s.x < (SELECT sum(v) FROM big WHERE big.k = s.k OR big.x = s.x)`)).toEqual([]);
    // a repeated plain scan is not worth a buffer
    expect(marks(cat, `WITH r AS (SELECT k, v FROM big WHERE x = 1) SELECT * FROM r a JOIN r b ON a.k = b.k`)).toEqual([]);
  });

  it('scans a CTE read twice once per execution, and twice with the rule off', async () => {
    const cat = sizedJoinCatalog();
    const big = cat.findRelation('public', 'big')!.source as StrictTable;
    const before = big.scans.length;
    const on = await runWithRules(cat, CTE_TWICE, []);
    expect(big.scans.length - before).toBe(1);
    const mid = big.scans.length;
    const off = await runWithRules(cat, CTE_TWICE, ['share_repeated_subplans']);
    expect(big.scans.length - mid).toBe(2);
    expect(on.rows).toEqual(off.rows);
    expect(on.rows.length).toBeGreaterThan(0);
  });

  it('raises an error of the shared run to its readers, as without the rule', async () => {
    const cat = sizedJoinCatalog();
    const sql = `WITH r AS (SELECT k, sum(v) / (k - 5) AS t FROM big GROUP BY k) SELECT a.k FROM r a JOIN r b ON a.k = b.k`;
    expect(marks(cat, sql).length).toBe(2);
    await expect(runWithRules(cat, sql, [])).rejects.toMatchObject({ code: '22012' });
    await expect(runWithRules(cat, sql, ['share_repeated_subplans'])).rejects.toMatchObject({ code: '22012' });
  });

  it('gives the same rows with the rule on and off', async () => {
    const cat = sizedJoinCatalog();
    for (const sql of QUERIES) {
      const on = await runWithRules(cat, sql, []);
      const off = await runWithRules(cat, sql, ['share_repeated_subplans']);
      expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
      expect(on.rows.length, sql).toBeGreaterThan(0);
      expect(allPlanNodes(on.optimized.plan).length).toBeGreaterThan(0);
    }
  });
});
