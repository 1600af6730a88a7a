/**
 * The planner's rewrites (join-order, filter-pushdown, recursive-invariants) give the rows the plain plan gives:
 * WHERE over comma joins runs as hash joins in a greedy order, WHERE over a FROM subquery moves below its
 * projection, WITH RECURSIVE computes its invariant join inputs once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, type Filter, type LogicalPlan } from '../sql/index.ts';
import { reorderInnerJoins } from './join-order.ts';
import { pushFilterBelowProjection } from './filter-pushdown.ts';
import { hoistInvariantJoinInputs } from './recursive-invariants.ts';
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

/** the left-most leaf of a left-deep join tree: the side that streams through every hash join */
function probeLeaf(p: LogicalPlan): string {
  if (p.kind === 'TableScan') return p.name;
  if (p.kind === 'Join') return probeLeaf(p.left);
  if ('input' in p) return probeLeaf(p.input);
  throw new Error(`no leaf under ${p.kind}`);
}

describe('reorderInnerJoins', () => {
  it('streams the largest table when one is big (every other leaf becomes a hash table); small joins keep FROM order', async () => {
    const cat = e2eCatalog();
    const sized = (name: string, rows: number): void => {
      const rel = cat.findRelation('public', name)!;
      const source = Object.create(rel.source) as typeof rel.source;
      Object.defineProperty(source, 'estimatedRows', { value: rows });
      cat.addRelation({ schema: 'public', name: `${name}_sized`, source });
    };
    sized('t', 500_000);
    sized('u', 1_000);
    const sql = `SELECT t.a, u.c FROM u_sized u, t_sized t WHERE t.a = u.a ORDER BY 1, 2`;
    const reordered = reorderInnerJoins(filterOf(bindSql(cat, sql).plan))!;
    expect(probeLeaf(reordered)).toBe('public.t_sized');
    expect((await runSql(cat, sql)).rows).toEqual([[1, 'one'], [2, 'deux'], [2, 'two']]);
    // without a big table: FROM order (u first)
    expect(probeLeaf(reorderInnerJoins(filterOf(bindSql(cat, `SELECT t.a FROM u, t WHERE t.a = u.a`).plan))!)).toBe('public.u');
  });

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

  it('constant conjuncts filter the first leaf (no endless push-down / reorder ping-pong)', async () => {
    const cat = e2eCatalog();
    expect((await runSql(cat, `SELECT count(*) FROM t, u WHERE t.a = u.a AND 1 = 1 AND now() IS NOT NULL`)).rows).toEqual([[3n]]);
    expect((await runSql(cat, `SELECT count(*) FROM t, u WHERE t.a = u.a AND 1 = 0`)).rows).toEqual([[0n]]);
  });

  it('leaves alone a nested join whose condition holds a subquery (it reads that join row)', async () => {
    const cat = e2eCatalog();
    const sql = `SELECT t.a, u2.c FROM t JOIN u ON u.a = t.a, t t2 JOIN u u2 ON u2.a = t2.a AND EXISTS (SELECT 1 FROM u x WHERE x.c = u2.c AND x.a = t2.a)
      WHERE t.a = t2.a AND u.c = u2.c ORDER BY 1, 2`;
    expect(reorderInnerJoins(filterOf(bindSql(cat, sql).plan))).toBeNull();
    expect((await runSql(cat, sql)).rows).toEqual([[1, 'one'], [2, 'deux'], [2, 'two']]);
  });
});

describe('pushFilterBelowProjection', () => {
  it('moves conjuncts on pass-through columns of a FROM subquery below its projection', async () => {
    const cat = e2eCatalog();
    const sql = `SELECT * FROM (SELECT a, b || '!' AS bb, (SELECT count(*) FROM u WHERE u.a = t.a) AS n FROM t) s WHERE s.a = 2 AND s.bb = 'y!'`;
    const f = filterOf(bindSql(cat, sql).plan);
    const pushed = pushFilterBelowProjection(f);
    expect(pushed?.kind).toBe('Filter'); // s.bb = 'y!' stays above
    expect(pushed?.columns).toEqual(f.columns);
    expect((await runSql(cat, sql)).rows).toEqual([[2, 'y!', 2n]]);
    expect((await runSql(cat, `SELECT n FROM (SELECT a, (SELECT count(*) FROM u WHERE u.a = t.a) AS n FROM t) s WHERE s.a IS NULL OR s.a = 1 ORDER BY 1`)).rows).toEqual([[0n], [1n]]);
  });
});

describe('hoistInvariantJoinInputs (WITH RECURSIVE)', () => {
  function recursiveOf(p: LogicalPlan): Extract<LogicalPlan, { kind: 'RecursiveCte' }> {
    if (p.kind === 'RecursiveCte') return p;
    const kids = 'input' in p ? [p.input] : p.kind === 'Join' ? [p.left, p.right] : [];
    for (const k of kids) { try { return recursiveOf(k); } catch { /* next */ } }
    throw new Error('no RecursiveCte');
  }

  it('computes the join inputs that do not change between iterations once (PostgreSQL 15 answers)', async () => {
    const cat = e2eCatalog();
    const sql = `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, (SELECT a FROM t WHERE a IS NOT NULL) s WHERE s.a = r.n) SELECT n FROM r ORDER BY n`;
    expect(hoistInvariantJoinInputs(recursiveOf(bindSql(cat, sql).plan).recursive).inputs).toHaveLength(1);
    expect((await runSql(cat, sql)).rows).toEqual([[1], [2], [3], [4]]);
    // correlated with the enclosing row: the u input is still invariant, the r.n < t.a test is not
    const correlated = `SELECT t.a, (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, u WHERE u.a = r.n AND r.n < t.a) SELECT max(n) FROM r) FROM t ORDER BY 1`;
    expect((await runSql(cat, correlated)).rows).toEqual([[1, 1], [2, 2], [3, 3], [null, 1]]);
    // an input reading the enclosing row stays in the loop
    const outer = `SELECT t.a, (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r, (SELECT u.a FROM u WHERE u.a <= t.a) s WHERE s.a = r.n) SELECT max(n) FROM r) FROM t ORDER BY 1`;
    expect((await runSql(cat, outer)).rows).toEqual([[1, 2], [2, 3], [3, 3], [null, 1]]);
  });
});
