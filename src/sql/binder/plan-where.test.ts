/**
 * planWhere's rewrites as plan shapes (their answers are compared with PostgreSQL's in test/tpch): OR arms
 * sharing conjuncts, [NOT] EXISTS → semi / anti join, a correlated aggregate → left join with a grouped
 * aggregate, and what stays a per-row subquery (count, non-equality correlation, LIMIT).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bindSql, runSql } from '../../exec/testing/run-sql.ts';
import { e2eCatalog } from '../../exec/testing/e2e-fixture.ts';
import { initParser, planChildren, type LogicalPlan } from '../index.ts';

beforeAll(async () => { await initParser(); });

/** node kinds top-down, joins with their type */
function shape(p: LogicalPlan): string[] {
  const own = p.kind === 'Join' ? `Join:${p.joinType}` : p.kind === 'Aggregate' ? `Aggregate:${p.groupKeys.length}` : p.kind;
  return [own, ...planChildren(p).flatMap(shape)];
}

const plan = (sql: string): string[] => shape(bindSql(e2eCatalog(), sql).plan);

describe('planWhere', () => {
  it('pulls conjuncts every OR arm has in front of the OR', () => {
    const p = bindSql(e2eCatalog(), 'SELECT * FROM t, u WHERE (t.a = u.a AND t.b = \'x\') OR (t.b = \'y\' AND t.a = u.a) OR (t.a = u.a AND u.c IS NULL)').plan;
    const f = p.kind === 'Projection' && p.input.kind === 'Filter' ? p.input : null;
    expect(f?.predicate.kind).toBe('BoolOp');
    expect(f?.predicate.kind === 'BoolOp' && f.predicate.op).toBe('and');
  });

  it('turns [NOT] EXISTS with a correlated WHERE into a semi / anti join', () => {
    expect(plan('SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.c <> t.b)')).toContain('Join:semi');
    expect(plan('SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a)')).toContain('Join:anti');
  });

  it('turns a correlated aggregate into a left join with the aggregate grouped by the inner key', () => {
    const s = plan('SELECT a FROM t WHERE a < (SELECT 2 * max(u.a) FROM u WHERE u.a = t.a AND u.c <> \'x\')');
    expect(s).toContain('Join:left');
    expect(s).toContain('Aggregate:1');
  });

  it('keeps per-row subqueries where a join would change the answer or the shape does not fit', () => {
    for (const sql of [
      'SELECT a FROM t WHERE (SELECT count(*) FROM u WHERE u.a = t.a) = 0',
      'SELECT a FROM t WHERE a < (SELECT max(u.a) FROM u WHERE u.a > t.a)',
      'SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a LIMIT 1)',
    ]) {
      const s = plan(sql);
      expect(s.filter((k) => k.startsWith('Join:'))).toEqual([]);
    }
  });

  it('gives the per-row answers', async () => {
    const cat = e2eCatalog();
    expect((await runSql(cat, 'SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a) ORDER BY a')).rows).toEqual([[1], [2]]);
    expect((await runSql(cat, 'SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a) ORDER BY a')).rows).toEqual([[3], [null]]);
    expect((await runSql(cat, 'SELECT a FROM t WHERE coalesce((SELECT max(u.c) FROM u WHERE u.a = t.a), \'-\') = \'-\' ORDER BY a')).rows).toEqual([[3], [null]]);
    expect((await runSql(cat, 'SELECT a FROM t WHERE b > (SELECT max(u.c) FROM u WHERE u.a = t.a) ORDER BY a')).rows).toEqual([[1], [2]]);
  });
});
