/**
 * subquery_to_semi_join, derive_or_filters and choose_build_side's swap of an inner join for a runtime scan
 * filter: the plan shapes (EXPLAIN) and — the point — the same rows with each rule on and off, over NULL keys,
 * duplicate keys, empty subqueries, NOT IN, non-equality ANY and OR conditions under every join type.
 * PostgreSQL's answers for the same shapes: test/sql/select/semi_join_or_filters.slt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser } from '../../sql/index.ts';
import { optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';
import { impliedFor } from './derive-or-filters.ts';

beforeAll(async () => { await initParser(); });

const catalog = sizedJoinCatalog;

async function sameRows(sql: string, rule: string): Promise<string[]> {
  const cat = catalog();
  const [on, off] = await Promise.all([runWithRules(cat, sql, []), runWithRules(cat, sql, [rule])]);
  expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
  return sortedRows(on.rows);
}

describe('subquery_to_semi_join', () => {
  it('puts `x IN (SELECT …)` as a semi join on the leaf holding x, below the other joins', () => {
    const sql = `SELECT s.name, b.v FROM big b, small s WHERE b.k = s.k AND s.v IN (SELECT v FROM big WHERE x = 3)`;
    const on = optimizedExplain(catalog(), sql).join('\n');
    expect(on).toMatch(/Inner Join[^\n]*\n\s+Semi Join: \(s\.v = subquery\)\n\s+TableScan: public\.small/);
    expect(on).not.toContain('SubPlan');
    expect(optimizedExplain(catalog(), sql, ['reorder_inner_joins']).join('\n')).toContain('SubPlan: any');
  });

  it('leaves NOT IN, IN under OR / NOT, and correlated IN to the subplan', () => {
    for (const sql of [
      `SELECT name FROM small s WHERE s.k NOT IN (SELECT k FROM nulls)`,
      `SELECT name FROM small s WHERE s.k IN (SELECT k FROM nulls) OR s.x = 0`,
      `SELECT name FROM small s WHERE s.k IN (SELECT k FROM big b WHERE b.x = s.x)`,
    ]) expect(optimizedExplain(catalog(), sql).join('\n'), sql).not.toContain('Semi Join');
  });

  it('gives the subplan\'s rows: NULLs on either side, duplicates, empty subqueries, other operators', async () => {
    const rule = 'subquery_to_semi_join';
    expect(await sameRows(`SELECT name FROM small s WHERE s.k IN (SELECT k FROM nulls)`, rule)).toEqual(['["a"]', '["b"]', '["z"]']);
    expect(await sameRows(`SELECT name FROM small s WHERE s.k IN (SELECT k FROM big) AND s.x IS NOT NULL`, rule)).toEqual(['["a"]', '["b"]', '["c"]', '["c2"]', '["z"]']);
    expect(await sameRows(`SELECT name FROM small s WHERE s.k IN (SELECT k FROM nothing)`, rule)).toEqual([]);
    expect(await sameRows(`SELECT name FROM small s WHERE s.k NOT IN (SELECT k FROM nulls)`, rule)).toEqual([]);
    expect(await sameRows(`SELECT name FROM small s WHERE s.v > ALL (SELECT k FROM nulls WHERE k IS NOT NULL)`, rule)).toEqual([]);
    expect(await sameRows(`SELECT name FROM small s WHERE s.v < ANY (SELECT k FROM nulls)`, rule)).toHaveLength(8);
    expect(await sameRows(`SELECT name FROM small s WHERE s.v > ANY (SELECT k + 40 FROM nulls)`, rule)).toEqual(['["miss"]', '["nx"]', '["z"]']);
    expect(await sameRows(`SELECT name FROM small s WHERE s.k + 1 IN (SELECT k + 1 FROM nulls) AND s.x > 0`, rule)).toEqual(['["a"]', '["b"]', '["z"]']);
    await sameRows(`SELECT s.name, count(*) FROM small s JOIN big b ON b.k = s.k WHERE b.x IN (SELECT x FROM small) GROUP BY s.name`, rule);
    await sameRows(`SELECT s.name FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.v IN (SELECT v FROM small))`, rule);
  });
});

describe('derive_or_filters', () => {
  const ON_BASE = ['simplify_expressions', 'reorder_inner_joins', 'push_down_projection'];
  const q19 = `SELECT s.name, b.v FROM big b, small s WHERE (b.k = s.k AND s.name = 'a' AND b.x BETWEEN 1 AND 2) OR (b.k = s.k AND s.name = 'c' AND b.x = 5)`;

  it('filters each input of the join by what every OR arm says about it, keeping the condition above', () => {
    const lines = optimizedExplain(catalog(), q19);
    const text = lines.join('\n');
    expect(text).toContain("Filter: ((s.name = 'a') OR (s.name = 'c'))");
    expect(text).toContain('Filter: (((b.x >= 1) AND (b.x <= 2)) OR (b.x = 5))');
    expect(lines.find((l) => l.includes('Inner Join'))).toMatch(/\(b\.k = s\.k\) AND \(\(\(s\.name = 'a'\)/);
    const off = optimizedExplain(catalog(), q19, ON_BASE).join('\n');
    expect(off).not.toContain("Filter: ((s.name = 'a') OR (s.name = 'c'))");
    expect(optimizedExplain(catalog(), q19, [...ON_BASE, 'derive_or_filters']).join('\n')).toContain("Filter: ((s.name = 'a') OR (s.name = 'c'))");
  });

  it('derives only for inputs every arm restricts, and only for the non-preserved side of outer joins', () => {
    const none = `SELECT s.name FROM big b JOIN small s ON b.k = s.k AND (s.name = 'a' OR b.x = 5)`;
    expect(optimizedExplain(catalog(), none).filter((l) => l.trim().startsWith('Filter:'))).toEqual([]);
    const left = optimizedExplain(catalog(), `SELECT s.name, b.v FROM small s LEFT JOIN big b ON b.k = s.k AND ((s.x = 1 AND b.x = 1) OR (s.x = 0 AND b.x = 2))`).join('\n');
    expect(left).toContain('Filter: ((b.x = 1) OR (b.x = 2))');
    expect(left).not.toContain('Filter: ((s.x = 1) OR (s.x = 0))');
  });

  it('implies per input: AND keeps its parts, OR needs every arm, NOT nothing', () => {
    const inLeft = (i: number): boolean => i < 2;
    const c = (index: number) => ({ kind: 'ColumnRef' as const, index, levelsUp: 0, type: sqlType(Oid.bool), name: `c${index}` });
    const and = (...args: ReturnType<typeof c>[]) => ({ kind: 'BoolOp' as const, op: 'and' as const, args, type: sqlType(Oid.bool) });
    expect(impliedFor({ kind: 'BoolOp', op: 'or', args: [and(c(0), c(2)), and(c(1), c(3))], type: sqlType(Oid.bool) }, inLeft))
      .toMatchObject({ op: 'or', args: [{ index: 0 }, { index: 1 }] });
    expect(impliedFor({ kind: 'BoolOp', op: 'or', args: [and(c(0), c(2)), c(3)], type: sqlType(Oid.bool) }, inLeft)).toBeNull();
    expect(impliedFor({ kind: 'BoolOp', op: 'not', args: [and(c(0), c(2))], type: sqlType(Oid.bool) }, inLeft)).toBeNull();
  });

  it('gives the same rows on and off, NULLs in the OR columns included', async () => {
    const rule = 'derive_or_filters';
    expect((await sameRows(q19, rule)).length).toBeGreaterThan(0);
    for (const sql of [
      `SELECT s.name, b.v FROM small s LEFT JOIN big b ON b.k = s.k AND ((s.x = 1 AND b.x = 1) OR (s.x IS NULL AND b.x IS NULL))`,
      `SELECT s.name, b.v FROM small s RIGHT JOIN big b ON b.k = s.k AND ((s.x = 1 AND b.x = 1) OR (s.x = 0 AND b.v < 50))`,
      `SELECT s.name FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND ((s.x = 1 AND b.x = 1) OR (s.x = 0 AND b.x IS NULL)))`,
      `SELECT s.name FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND ((s.x = 1 AND b.x = 1) OR (s.x = 0 AND b.x IS NULL)))`,
      `SELECT s.name, b.v FROM small s FULL JOIN big b ON b.k = s.k AND ((s.x = 1 AND b.x = 1) OR (s.x = 0 AND b.x = 2))`,
    ]) await sameRows(sql, rule);
  });
});

describe('choose_build_side: inner join swapped for a runtime scan filter', () => {
  const sql = `SELECT b.v, s.name FROM big b JOIN small s ON b.k = s.k WHERE s.name IN ('a', 'c')`;

  it('builds the filtered small input on the left, so the big scan gets its keys', () => {
    const text = optimizedExplain(catalog(), sql).join('\n');
    expect(text).toMatch(/Projection: [^\n]*\n\s+Inner Join \(build: left\): \(b\.k = s\.k\)\n\s+Filter: [^\n]*s\.name[^\n]*\n\s+TableScan: public\.small[^\n]*\n\s+TableScan: public\.big/);
    expect(optimizedExplain(catalog(), `SELECT b.v, s.name FROM big b JOIN small s ON b.k = s.k`).join('\n')).not.toContain('build: left');
  });

  it('gives the same rows (NULL and duplicate keys) on and off', async () => {
    expect(await sameRows(sql, 'choose_build_side')).toHaveLength(30 + 31);
    await sameRows(`SELECT b.v, s.name FROM big b JOIN small s ON b.k = s.k AND b.x <> s.x WHERE s.x IS NOT NULL AND s.v > 15`, 'choose_build_side');
  });
});
