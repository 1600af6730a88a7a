/**
 * semi_join_to_distinct_inner: a semi join with a small right input becomes an inner join over that input's
 * distinct keys, built on the left so the big side's scan gets them as a runtime filter. The plan shape, where it
 * must not apply (big right side, residual conditions, cross-type or text keys), and the same rows on and off
 * over NULL and duplicate keys, multi-column keys, expression keys, empty subqueries and EXISTS.
 * PostgreSQL's answers for the same shapes: test/sql/join/dimension_branches.slt (its semi join part).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { explainPlan, initParser } from '../../sql/index.ts';
import { optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';

beforeAll(async () => { await initParser(); });

const RULE = 'semi_join_to_distinct_inner';

async function sameRows(sql: string, applies: boolean): Promise<string[]> {
  const cat = sizedJoinCatalog();
  const [on, off] = await Promise.all([runWithRules(cat, sql, []), runWithRules(cat, sql, [RULE])]);
  expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
  expect(explainPlan(on.optimized.plan).join('\n').includes('Distinct'), `rule applied: ${sql}`).toBe(applies);
  return sortedRows(on.rows);
}

describe('semi_join_to_distinct_inner', () => {
  const sql = `SELECT b.v FROM big b WHERE b.k IN (SELECT k FROM small WHERE x > 0)`;

  it('builds the distinct keys of the small side on the left, the big scan streaming', async () => {
    const on = optimizedExplain(sizedJoinCatalog(), sql).join('\n');
    expect(on).toMatch(/Inner Join \(build: left\): \(b\.k = [^\n]*\)\n\s+Distinct\n(\s+[^\n]*\n)*?\s+TableScan: public\.small[^\n]*\n\s+TableScan: public\.big/);
    expect(on).not.toContain('Semi Join');
    const off = await runWithRules(sizedJoinCatalog(), sql, [RULE]);
    expect(explainPlan(off.optimized.plan).join('\n')).toContain('Semi Join');
  });

  it('gives the same rows: NULL and duplicate keys, several keys, expression keys, empty subqueries', async () => {
    expect(await sameRows(sql, true)).toHaveLength(30 * 2);
    expect(await sameRows(`SELECT b.v FROM big b WHERE b.k IN (SELECT k FROM small)`, true)).toHaveLength(30 * 4 + 1);
    expect((await sameRows(`SELECT b.v FROM big b WHERE b.k + 1 IN (SELECT k + 1 FROM small)`, true)).length).toBeGreaterThan(0);
    expect(await sameRows(`SELECT b.v FROM big b WHERE b.k IN (SELECT k FROM nothing)`, true)).toEqual([]);
    expect((await sameRows(`SELECT b.v FROM big b WHERE EXISTS (SELECT 1 FROM small s WHERE s.k = b.k AND s.x = b.x)`, true)).length).toBeGreaterThan(0);
    await sameRows(`SELECT b.k, count(*) FROM big b WHERE b.k IN (SELECT k FROM nulls) GROUP BY b.k`, true);
  });

  it('keeps the semi join for a big right side, residual conditions, cross-type and text keys', async () => {
    await sameRows(`SELECT s.name FROM small s WHERE s.k IN (SELECT k FROM big)`, false);
    await sameRows(`SELECT b.v FROM big b WHERE EXISTS (SELECT 1 FROM small s WHERE s.k = b.k AND s.x <> b.x)`, false);
    await sameRows(`SELECT b.v FROM big b WHERE b.k IN (SELECT k::int8 FROM small)`, false);
    await sameRows(`SELECT b.v FROM big b WHERE b.k::text IN (SELECT name FROM small)`, false);
    await sameRows(`SELECT b.v FROM big b WHERE b.k NOT IN (SELECT k FROM small WHERE k IS NOT NULL)`, false);
  });
});
