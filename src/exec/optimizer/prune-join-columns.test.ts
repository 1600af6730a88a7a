/**
 * prune_join_columns: which join outputs are marked unread, and — the point — the same rows with the rule on
 * and off for every join type, join keys read again above, residuals, subqueries and build sides.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, type Join } from '../../sql/index.ts';
import { allPlanNodes } from './plan-rewrite.ts';
import { runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';
import { deadJoinColumns } from './prune-join-columns.ts';

beforeAll(async () => { await initParser(); });

const QUERIES = [
  `SELECT s.name FROM small s JOIN big b ON b.k = s.k`,
  `SELECT b.v, s.name FROM small s JOIN big b ON b.k = s.k WHERE b.x < 3`,
  `SELECT s.name, b.k FROM small s JOIN big b ON b.k = s.k AND b.x <> s.x`,
  `SELECT s.name, b.v FROM small s LEFT JOIN big b ON b.k = s.k AND b.v < 400`,
  `SELECT s.name, b.v FROM small s RIGHT JOIN big b ON b.k = s.k AND b.x = s.x`,
  `SELECT s.name, b.v FROM small s FULL JOIN big b ON b.k = s.k AND s.x = 0`,
  `SELECT name FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.x <> s.x)`,
  `SELECT name FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k)`,
  `SELECT s.name, t.v FROM small s, big b, small t WHERE b.k = s.k AND t.x = b.x AND t.v > 20`,
  `SELECT q.k, count(*) FROM (SELECT b.k, s.name FROM small s JOIN big b ON b.k = s.k) q GROUP BY q.k`,
  `SELECT s.name, (SELECT count(*) FROM big c WHERE c.k = b.k) FROM small s JOIN big b ON b.k = s.k WHERE b.x = 1`,
  `SELECT s.name FROM small s JOIN big b ON b.k = s.k ORDER BY b.v DESC LIMIT 5`,
  `SELECT * FROM small s JOIN big b ON b.k = s.k WHERE b.v < 100`,
  `SELECT s.name, b.v FROM small s JOIN LATERAL (SELECT v FROM big WHERE big.k = s.k ORDER BY v LIMIT 1) b ON true`,
];

describe('prune_join_columns', () => {
  it('gives the same rows with the rule on and off', async () => {
    const cat = sizedJoinCatalog();
    for (const sql of QUERIES) {
      const on = await runWithRules(cat, sql, []);
      const off = await runWithRules(cat, sql, ['prune_join_columns']);
      expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
      expect(on.rows.length, sql).toBeGreaterThan(0);
    }
  });

  it('marks the columns no node above a join reads, and nothing when the rule is off', async () => {
    const cat = sizedJoinCatalog();
    const deadNames = (joins: Join[]): string[][] => joins.map((j) => (deadJoinColumns(j) ?? []).map((i) => j.columns[i]!.name));
    const joinsOf = async (disabled: string[]): Promise<Join[]> =>
      allPlanNodes((await runWithRules(cat, `SELECT s.name FROM small s JOIN big b ON b.k = s.k`, disabled)).optimized.plan).filter((n): n is Join => n.kind === 'Join');
    // small(k, x, v, name) ⋈ big(k, x, v): only name is read above, the keys by the join itself
    expect(deadNames(await joinsOf([]))).toEqual([['x', 'v', 'x', 'v']]);
    expect(deadNames(await joinsOf(['prune_join_columns']))).toEqual([[]]);
    // everything is read above: nothing to mark
    const all = allPlanNodes((await runWithRules(cat, `SELECT * FROM small s JOIN big b ON b.k = s.k`, [])).optimized.plan).filter((n): n is Join => n.kind === 'Join');
    expect(all.map((j) => deadJoinColumns(j))).toEqual([null]);
  });
});
