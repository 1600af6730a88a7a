/**
 * choose_build_side and the runtime key filter: which joins build on the left (EXPLAIN), the estimates behind
 * it, and — the point — the same rows with the rule on and off for every join type, NULL and duplicate keys,
 * residuals and decorrelated aggregates, over tables that report their sizes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, type LogicalPlan } from '../../sql/index.ts';
import { allPlanNodes } from './plan-rewrite.ts';
import { bindPlan, optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';
import { estimate, selectivity } from './row-estimate.ts';
import { MAX_RUNTIME_FILTER_KEYS, MAX_SCAN_FILTER_KEYS, withKeyFilter } from '../runtime-key-filter.ts';

beforeAll(async () => { await initParser(); });

const catalog = sizedJoinCatalog;

const QUERIES = [
  `SELECT name FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k)`,
  `SELECT name FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k)`,
  `SELECT name FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.x <> s.x)`,
  `SELECT name FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.x <> s.x)`,
  `SELECT name FROM small s WHERE s.k NOT IN (SELECT b.k FROM big b WHERE b.x IN (2, 3))`,
  `SELECT s.name, b.v FROM small s JOIN big b ON b.k = s.k AND b.v < 400`,
  `SELECT s.name, b.v FROM small s LEFT JOIN big b ON b.k = s.k AND b.v < 400`,
  `SELECT s.name, b.v FROM small s RIGHT JOIN big b ON b.k = s.k AND b.x = s.x`,
  `SELECT s.name, b.v FROM small s FULL JOIN big b ON b.k = s.k AND s.x = 0`,
  `SELECT s.name FROM small s WHERE s.v < (SELECT avg(b.v) FROM big b WHERE b.k = s.k)`,
  `SELECT s.name, (SELECT sum(b.v) FROM big b WHERE b.k = s.k AND b.x = s.x) FROM small s`,
  `SELECT s.name, t.n FROM small s JOIN (SELECT k, count(*) AS n FROM big GROUP BY k) t ON t.k = s.k`,
  `SELECT s.name, q.n FROM small s JOIN (SELECT b.k, sum(b.v) AS n FROM big b JOIN small t ON t.x = b.x GROUP BY b.k) q ON q.k = s.k`,
  `SELECT s.name, q.n FROM small s LEFT JOIN (SELECT b.k, count(*) AS n FROM small t LEFT JOIN big b ON t.x = b.x GROUP BY b.k) q ON q.k = s.k`,
  `SELECT count(*) FROM nothing n WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = n.k)`,
  `SELECT count(*), count(n.k) FROM nothing n RIGHT JOIN big b ON b.k = n.k`,
];

const joinLines = (sql: string, cat = catalog()): string[] => optimizedExplain(cat, sql).filter((l) => l.includes('Join')).map((l) => l.trim());

describe('choose_build_side', () => {
  it('builds the small outer side of EXISTS / NOT EXISTS and of a decorrelated aggregate join', () => {
    expect(joinLines(QUERIES[0]!)).toEqual(['Semi Join (build: left): (b.k = s.k)']);
    expect(joinLines(QUERIES[3]!)).toEqual(['Anti Join (build: left): ((b.k = s.k) AND (b.x <> s.x))']);
    expect(joinLines(QUERIES[9]!)).toEqual(['Left Join (build: left): (key1 = s.k)']);
  });

  it('keeps the right build when the right side is the small one, or there is no equi key', () => {
    expect(joinLines(`SELECT count(*) FROM big b JOIN small s ON b.k = s.k`)).toEqual(['Inner Join: (b.k = s.k)']);
    expect(joinLines(`SELECT count(*) FROM small s JOIN big b ON b.k < s.k`)).toEqual(['Inner Join: (b.k < s.k)']);
    expect(joinLines(`SELECT count(*) FROM small s JOIN small t ON s.k = t.k`)).toEqual(['Inner Join: (s.k = t.k)']);
  });

  it('gives the same rows with the rule on and off', async () => {
    const cat = catalog();
    for (const sql of QUERIES) {
      const on = await runWithRules(cat, sql, []);
      const off = await runWithRules(cat, sql, ['choose_build_side']);
      expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
    }
    // and a few answers by hand: duplicates on both sides, NULL keys never match, NOT IN with a NULL is empty
    expect(sortedRows((await runWithRules(cat, QUERIES[0]!, [])).rows)).toEqual(['["a"]', '["b"]', '["c"]', '["c2"]', '["nx"]', '["z"]']);
    expect(sortedRows((await runWithRules(cat, QUERIES[3]!, [])).rows)).toEqual(['["miss"]', '["n"]', '["nx"]']);
    expect((await runWithRules(cat, QUERIES[4]!, [])).rows).toEqual([]);
    expect((await runWithRules(cat, QUERIES[15]!, [])).rows).toEqual([[3003n, 0n]]);
  });
});

describe('row estimates', () => {
  it('scales by textbook selectivities and keeps the big side of a join', () => {
    const cat = catalog();
    const est = (sql: string): number | undefined => estimate(bindPlan(cat, sql))?.rows;
    expect(est(`SELECT * FROM big`)).toBe(3003);
    expect(est(`SELECT * FROM big WHERE k = 3`)).toBeCloseTo(300.3);
    expect(est(`SELECT * FROM big WHERE k < 3 AND x > 2`)).toBeCloseTo(3003 / 9);
    expect(est(`SELECT k, count(*) FROM big GROUP BY k`)).toBeCloseTo(300.3);
    expect(est(`SELECT * FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k)`)).toBe(8);
  });

  it('reads OR as the chance that some branch holds', () => {
    const p = bindPlan(catalog(), `SELECT * FROM big WHERE k = 1 OR k = 2`);
    const f = allPlanNodes(p).find((n): n is Extract<LogicalPlan, { kind: 'Filter' }> => n.kind === 'Filter')!;
    expect(selectivity(f.predicate)).toBeCloseTo(0.19);
  });
});

describe('runtime key filter', () => {
  const rightOf = (sql: string): { right: LogicalPlan; eq: Extract<LogicalPlan, { kind: 'Join' }> } => {
    const j = allPlanNodes(bindPlan(catalog(), sql)).filter((n): n is Extract<LogicalPlan, { kind: 'Join' }> => n.kind === 'Join').at(-1)!; // the outermost
    return { right: j.right, eq: j };
  };
  const eqOf = (j: Extract<LogicalPlan, { kind: 'Join' }>) => {
    const c = j.condition!;
    return (c.kind === 'Op' ? c : c.kind === 'BoolOp' ? c.args[0]! : c) as Extract<typeof c, { kind: 'Op' }>;
  };

  it('goes below the aggregate along the group key', () => {
    const { right, eq } = rightOf(`SELECT s.name, t.n FROM small s JOIN (SELECT k, count(*) AS n FROM big GROUP BY k) t ON t.k = s.k`);
    const f = withKeyFilter(right, 0, eqOf(eq), [1, 5]);
    expect(f).not.toBeNull();
    const filters = allPlanNodes(f!.plan).filter((n) => n.kind === 'Filter');
    expect(filters).toHaveLength(1);
    const below = allPlanNodes(f!.plan).findIndex((n) => n.kind === 'Filter');
    expect(allPlanNodes(f!.plan)[below + 1]?.kind).toBe('Aggregate'); // children first: the Filter comes just before its parent
  });

  it('goes on into the join input the key comes from, but not into the NULL-extended side of a left join', () => {
    const inner = rightOf(`SELECT s.name FROM small s JOIN (SELECT b.k, sum(b.v) AS n FROM big b JOIN small t ON t.x = b.x GROUP BY b.k) q ON q.k = s.k`);
    const f = withKeyFilter(inner.right, 0, eqOf(inner.eq), [1, 5]);
    const nodes = allPlanNodes(f!.plan);
    const at = nodes.findIndex((n) => n.kind === 'Filter');
    expect(nodes[at - 1]?.kind).toBe('TableScan'); // the Filter sits right on big's scan, below the join
    const outer = rightOf(`SELECT s.name FROM small s JOIN (SELECT b.k, sum(b.v) AS n FROM small t LEFT JOIN big b ON t.x = b.x GROUP BY b.k) q ON q.k = s.k`);
    const g = withKeyFilter(outer.right, 0, eqOf(outer.eq), [1, 5]);
    const gnodes = allPlanNodes(g!.plan);
    expect(gnodes[gnodes.findIndex((n) => n.kind === 'Filter') + 1]?.kind).not.toBe('Join');
    expect(gnodes[gnodes.findIndex((n) => n.kind === 'Filter') - 1]?.kind).toBe('Join');
  });

  it('without an aggregate, only adds the keys to the pushed filters of the scan the key comes from', () => {
    const plain = rightOf(`SELECT s.name FROM small s JOIN big b ON b.k = s.k`);
    const f = withKeyFilter(plain.right, 0, eqOf(plain.eq), [1, 2])?.plan;
    expect(f?.kind).toBe('TableScan');
    expect(f?.kind === 'TableScan' && f.filters?.at(-1)).toMatchObject({ kind: 'in', column: 0 });
    expect(withKeyFilter(plain.right, 0, eqOf(plain.eq), Array.from({ length: MAX_SCAN_FILTER_KEYS + 1 }, (_, i) => i))).toBeNull();
    const derived = rightOf(`SELECT s.name FROM small s JOIN (SELECT k + 1 AS k FROM big) b ON b.k = s.k`);
    expect(withKeyFilter(derived.right, 0, eqOf(derived.eq), [1])).toBeNull();
  });

  it('does nothing for an aggregate column, without keys, or for too many keys', () => {
    const agg = rightOf(`SELECT s.name, t.n FROM small s JOIN (SELECT k, count(*) AS n FROM big GROUP BY k) t ON t.k = s.k`);
    expect(withKeyFilter(agg.right, 1, eqOf(agg.eq), [1])).toBeNull();
    expect(withKeyFilter(agg.right, 0, eqOf(agg.eq), [])).toBeNull();
    expect(withKeyFilter(agg.right, 0, eqOf(agg.eq), Array.from({ length: MAX_RUNTIME_FILTER_KEYS + 1 }, (_, i) => i))).toBeNull();
    const sets = rightOf(`SELECT s.name FROM small s JOIN (SELECT k, count(*) AS n FROM big GROUP BY ROLLUP (k)) t ON t.k = s.k`);
    expect(withKeyFilter(sets.right, 0, eqOf(sets.eq), [1])).toBeNull();
  });
});
