/**
 * split_subquery_filters: plain conjuncts of a WHERE go into a Filter below the conjuncts with subqueries
 * (EXPLAIN), with the same rows on and off — uncorrelated, correlated, EXISTS that stays a subquery, NULLs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';
import { OPTIMIZER_RULE_NAMES } from './rule-names.ts';

beforeAll(async () => { await initParser(); });

const QUERIES = [
  `SELECT k, v FROM big WHERE x + 1 IN (2, 3) AND v > (SELECT avg(v) FROM big WHERE k IS NOT NULL)`,
  `SELECT name FROM small s WHERE s.v < 60 AND s.v > (SELECT min(b.v) FROM big b WHERE b.k = s.k)`,
  `SELECT name FROM small s WHERE s.k IS NOT NULL AND (s.x = 1 OR EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.x = 3))`,
  `SELECT name FROM small s WHERE coalesce(s.x, 0) >= 0 AND s.k = (SELECT max(k) FROM nulls) AND s.v * 2 > 10`,
];

describe('split_subquery_filters', () => {
  it('puts the plain conjuncts in a Filter below the one with the subquery', () => {
    const lines = optimizedExplain(sizedJoinCatalog(), QUERIES[0]!).map((l) => l.trim());
    const top = lines.findIndex((l) => l.startsWith('Filter:'));
    expect(lines[top]).toMatch(/^Filter: \(CAST\(big\.v AS numeric\) > scalar\(<subquery>\)\)/);
    expect(lines[top + 1]).toMatch(/^Filter: \(big\.x \+ 1\) = ANY/);
    const off = optimizedExplain(sizedJoinCatalog(), QUERIES[0]!, OPTIMIZER_RULE_NAMES.filter((n) => n !== 'split_subquery_filters')).map((l) => l.trim());
    expect(off.filter((l) => l.startsWith('Filter:'))).toHaveLength(2); // one in the subquery, one in the query
  });

  it('gives the same rows with the rule on and off', async () => {
    const cat = sizedJoinCatalog();
    for (const sql of QUERIES) {
      const on = await runWithRules(cat, sql, []);
      const off = await runWithRules(cat, sql, ['split_subquery_filters']);
      expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
      expect(on.rows.length, sql).toBeGreaterThan(0);
    }
  });
});
