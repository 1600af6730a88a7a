/**
 * reorderInnerJoins: WHERE over comma joins runs as hash joins in a greedy order, with the same rows and
 * columns (in the original order) as the filtered cross product.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, type Filter, type LogicalPlan } from '../sql/index.ts';
import { reorderInnerJoins } from './join-order.ts';
import { bindSql, runSql } from './testing/run-sql.ts';
import { e2eCatalog } from './testing/e2e-fixture.ts';

beforeAll(async () => { await initParser(); });

function filterOf(p: LogicalPlan): Filter {
  if (p.kind === 'Filter') return p;
  const child = p.kind === 'Projection' || p.kind === 'Sort' ? p.input : null;
  if (child === null) throw new Error(`no Filter under ${p.kind}`);
  return filterOf(child);
}

function joinsOf(p: LogicalPlan): { conditions: number; crosses: number } {
  const kids = p.kind === 'Join' ? [p.left, p.right] : 'input' in p ? [p.input] : [];
  const own = p.kind === 'Join' ? (p.condition === null ? { conditions: 0, crosses: 1 } : { conditions: 1, crosses: 0 }) : { conditions: 0, crosses: 0 };
  return kids.reduce((acc, k) => { const r = joinsOf(k); return { conditions: acc.conditions + r.conditions, crosses: acc.crosses + r.crosses }; }, own);
}

describe('reorderInnerJoins', () => {
  it('joins a comma list along its equalities, with the rows of the cross product filtered', async () => {
    const cat = e2eCatalog();
    const sql = `SELECT t.b, u2.c, t2.a, u.c FROM t, u u2, t t2, u WHERE u.a = t.a AND t2.a = u2.a AND u2.a = t.a AND u.c <> 'deux' ORDER BY 1, 2, 3, 4`;
    const f = filterOf(bindSql(cat, sql).plan);
    const reordered = reorderInnerJoins(f);
    expect(reordered).not.toBeNull();
    expect(reordered!.columns).toEqual(f.columns);
    expect(joinsOf(reordered!)).toEqual({ conditions: 3, crosses: 0 });
    const got = await runSql(cat, sql);
    expect(got.rows).toEqual([
      ['x', 'one', 1, 'one'],
      ['y', 'deux', 2, 'two'],
      ['y', 'two', 2, 'two'],
    ]);
  });

  it('keeps subquery conjuncts on top and leaves plain cross products alone', async () => {
    const cat = e2eCatalog();
    const sql = `SELECT t.a, u.c FROM t, u WHERE t.a = u.a AND EXISTS (SELECT 1 FROM u x WHERE x.a = t.a AND x.c = u.c) ORDER BY 1, 2`;
    expect((await runSql(cat, sql)).rows).toEqual([[1, 'one'], [2, 'deux'], [2, 'two']]);
    expect(reorderInnerJoins(filterOf(bindSql(cat, `SELECT * FROM t, u WHERE t.a > 1`).plan))).toBeNull();
    expect((await runSql(cat, `SELECT count(*) FROM t, u WHERE t.b IS NOT NULL`)).rows).toEqual([[12n]]);
  });
});
