/** simplify_expressions: immutable calls, operators and casts of constants fold; stable/volatile and failing ones stay. */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, planChildren, type LogicalPlan } from '../../sql/index.ts';
import { nodeExprs } from './plan-rewrite.ts';
import { bindPlan, optimizedExplain, optimizeWith, runWithRules, strictCatalog } from '../testing/optimizer-fixture.ts';

beforeAll(async () => { await initParser(); });

const only = ['simplify_expressions'];
const filterLine = (sql: string): string => optimizedExplain(strictCatalog(), sql, only).find((l) => l.trim().startsWith('Filter:'))!.trim();

describe('simplify_expressions', () => {
  it('folds operators, casts and immutable functions of constants', () => {
    expect(filterLine(`SELECT id FROM ev WHERE d >= date '1994-01-01' + interval '1' year`)).toBe(`Filter: (ev.d >= '1995-01-01 00:00:00'::timestamp without time zone)`);
    expect(filterLine(`SELECT id FROM ev WHERE s = upper('a' || 'b') AND f > abs(-2.5) * 2`)).toBe(`Filter: ((CAST(ev.s AS text) = 'AB') AND (ev.f > 5))`);
    expect(filterLine(`SELECT id FROM ev WHERE k = ANY(ARRAY[1, 2]) AND id IN (1 + 1, 3)`)).toBe(`Filter: (ev.k = ANY('{1,2}'::integer[]) AND ((ev.id = 2) OR (ev.id = 3)))`);
  });

  it('simplifies AND / OR with constant booleans and keeps NULLs', () => {
    expect(filterLine(`SELECT id FROM ev WHERE 1 = 1 AND (false OR id > 3)`)).toBe('Filter: (ev.id > 3)');
    expect(filterLine(`SELECT id FROM ev WHERE id > 3 OR 2 > 1`)).toBe('Filter: true');
    expect(filterLine(`SELECT id FROM ev WHERE id > 3 AND NOT true`)).toBe('Filter: false');
    expect(filterLine(`SELECT id FROM ev WHERE id > 3 AND NULL::bool`)).toBe('Filter: ((ev.id > 3) AND NULL)');
  });

  it('leaves stable and volatile functions, and constants whose evaluation fails', () => {
    expect(filterLine(`SELECT id FROM ev WHERE ts > now() - interval '1 day'`)).toBe(`Filter: (ev.ts > (now() - '1 day'::interval))`);
    expect(filterLine(`SELECT id FROM ev WHERE f > random()`)).toBe('Filter: (ev.f > random())');
    expect(filterLine(`SELECT id FROM ev WHERE id = 1 / 0`)).toBe('Filter: (ev.id = (1 / 0))');
  });

  it('does not raise errors for rows that never run, and raises them for rows that do', async () => {
    expect((await runWithRules(strictCatalog(), `SELECT id FROM ev WHERE false AND id = 1 / 0`, [])).rows).toEqual([]);
    await expect(runWithRules(strictCatalog(), `SELECT id FROM ev WHERE id = 1 / 0`, [])).rejects.toMatchObject({ code: '22012' });
  });

  it('switched off: expressions stay as bound', () => {
    const cat = strictCatalog();
    const plan = bindPlan(cat, `SELECT id, 1 + 2 FROM ev WHERE d >= date '1994-01-01' + interval '1' year AND 1 = 1`);
    expect(optimizeWith(cat, plan, 'simplify_expressions', true)).not.toEqual(plan);
    const off = optimizeWith(cat, plan, 'simplify_expressions', false);
    const exprsOf = (p: LogicalPlan): unknown[] => [...nodeExprs(p), ...planChildren(p).flatMap(exprsOf)];
    expect(exprsOf(off)).toEqual(exprsOf(plan));
  });
});
