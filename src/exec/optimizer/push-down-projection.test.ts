/** push_down_projection: the columns each scan must produce, through every kind of node, and none when off. */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import type { StrictTable } from '../testing/strict-table.ts';
import { optimizedExplain, runWithRules, strictCatalog } from '../testing/optimizer-fixture.ts';

beforeAll(async () => { await initParser(); });

const scanLines = (sql: string, rules = ['push_down_projection']): string[] =>
  optimizedExplain(strictCatalog(), sql, rules).filter((l) => l.includes('TableScan')).map((l) => l.trim());

describe('push_down_projection', () => {
  it('records the columns read by projections, filters, sorts, aggregates and joins', () => {
    expect(scanLines(`SELECT name FROM emp WHERE salary > 60 ORDER BY id`)).toEqual([`TableScan: public.emp projection=[id, name, salary]`]);
    expect(scanLines(`SELECT dept, max(salary) FILTER (WHERE mgr IS NULL) FROM emp GROUP BY dept`)).toEqual([`TableScan: public.emp projection=[dept, salary, mgr]`]);
    expect(scanLines(`SELECT t.b FROM t JOIN u ON t.a = u.a`)).toEqual([`TableScan: public.t`, `TableScan: public.u projection=[a]`]);
    expect(scanLines(`SELECT name, rank() OVER (PARTITION BY dept ORDER BY salary) FROM emp`)).toEqual([`TableScan: public.emp projection=[name, dept, salary]`]);
  });

  it('keeps one column for count(*) and every column for DISTINCT, set operations and SELECT *', () => {
    expect(scanLines(`SELECT count(*) FROM emp`)).toEqual([`TableScan: public.emp projection=[id]`]);
    expect(scanLines(`SELECT count(*) FROM t`)).toEqual([`TableScan: public.t projection=[a]`]);
    expect(scanLines(`SELECT count(*) FROM ev`)).toEqual([`TableScan: public.ev projection=[id]`]);
    expect(scanLines(`SELECT DISTINCT * FROM (SELECT dept, mgr FROM emp) s`)).toEqual([`TableScan: public.emp projection=[dept, mgr]`]);
    expect(scanLines(`SELECT a FROM t UNION SELECT a FROM u`)).toEqual([`TableScan: public.t projection=[a]`, `TableScan: public.u projection=[a]`]);
    expect(scanLines(`SELECT * FROM emp`)).toEqual([`TableScan: public.emp`]);
  });

  it('counts the columns correlated subqueries read from the outer row', () => {
    // (EXISTS may also be planned as a semi join: then the inner scan gets its own projection)
    const exists = scanLines(`SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM emp m WHERE m.id = e.mgr AND m.dept = 'eng')`);
    expect(exists[0]).toBe(`TableScan: public.emp projection=[name, mgr]`);
    expect(exists.slice(1)).toEqual(exists.length > 1 ? [`TableScan: public.emp projection=[id, dept]`] : []);
    expect(scanLines(`SELECT (SELECT max(c) FROM u WHERE u.a = t.a) FROM t`)).toEqual([`TableScan: public.t projection=[a]`, `TableScan: public.u`]);
  });

  it('hands the projection to the scan, and the answer does not change', async () => {
    const cat = strictCatalog();
    const sql = `SELECT e.name, (SELECT m.name FROM emp m WHERE m.id = e.mgr) FROM emp e WHERE e.salary >= 80 ORDER BY e.id`;
    const on = await runWithRules(cat, sql, []);
    expect((cat.findRelation('public', 'emp')!.source as StrictTable).scans[0]!.projection).toEqual([0, 1, 3, 4]);
    expect(on.rows).toEqual((await runWithRules(strictCatalog(), sql, 'all')).rows);
    expect(on.rows).toEqual([['ann', null], ['bob', 'ann'], ['cid', 'ann'], ['eve', 'bob']]);
  });

  it('switched off: no scan gets a projection', () => {
    expect(scanLines(`SELECT name FROM emp`, [])).toEqual([`TableScan: public.emp`]);
  });
});
