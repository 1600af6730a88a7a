/**
 * push_filter_below_projection and reorder_inner_joins as optimizer rules (the rewrites themselves are tested
 * in ../planner-rewrites.test.ts): applied everywhere, also inside subqueries, and not at all when off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { optimizedExplain, runWithRules, sortedRows, strictCatalog } from '../testing/optimizer-fixture.ts';

beforeAll(async () => { await initParser(); });

describe('push_filter_below_projection / reorder_inner_joins rules', () => {
  it('moves WHERE below a FROM subquery projection, only when on', () => {
    const sql = `SELECT * FROM (SELECT name, salary * 2 AS s2 FROM emp) s WHERE name = 'bob'`;
    expect(optimizedExplain(strictCatalog(), sql, ['push_filter_below_projection'])).toEqual([
      'Projection: name, s2',
      '  Projection: emp.name, (emp.salary * 2) AS s2',
      "    Filter: (emp.name = CAST('bob' AS text))",
      '      TableScan: public.emp',
    ]);
    expect(optimizedExplain(strictCatalog(), sql, [])[1]).toBe("  Filter: (s.name = CAST('bob' AS text))");
  });

  it('reorders comma joins into hash-joinable conditions, also inside subqueries, only when on', () => {
    const sql = `SELECT count(*) FROM t WHERE EXISTS (SELECT 1 FROM u, emp WHERE u.a = emp.id AND emp.id = t.a)`;
    expect(optimizedExplain(strictCatalog(), `SELECT 1 FROM t, u WHERE t.a = u.a`, ['reorder_inner_joins'])).toContain('    Inner Join: (t.a = u.a)');
    expect(optimizedExplain(strictCatalog(), `SELECT 1 FROM t, u WHERE t.a = u.a`, [])).toContain('    CrossJoin');
    return Promise.all([runWithRules(strictCatalog(), sql, []), runWithRules(strictCatalog(), sql, 'all')]).then(([a, b]) => expect(sortedRows(a.rows)).toEqual(sortedRows(b.rows)));
  });
});
