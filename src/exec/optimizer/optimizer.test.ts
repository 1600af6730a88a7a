/**
 * The optimizer as a whole: every rule on, every rule off and each rule off alone give the same rows over
 * StrictTables (which apply projection, filters and limit literally, so an unsafe pushdown changes an answer);
 * the setting names rules and rejects unknown ones; each rule is timed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { initParser } from '../../sql/index.ts';
import { normalizeDisabledRules, OPTIMIZER_RULE_NAMES, parseDisabledRules } from './rule-names.ts';
import { disabledRules, optimizePlan } from './optimizer.ts';
import { bindPlan, runWithRules, sortedRows, strictCatalog, testContext } from '../testing/optimizer-fixture.ts';
import { findSettingDef, normalizeSettingValue } from '../../engine/settings.ts';

beforeAll(async () => { await initParser(); });

const QUERIES: readonly (string | { sql: string; params: unknown[]; oids: number[] })[] = [
  `SELECT a, b FROM t WHERE a >= 2`,
  `SELECT b FROM t WHERE a IN (1, 3) OR b LIKE 'z%'`,
  `SELECT * FROM t WHERE a IS NULL OR b IS NULL`,
  `SELECT a FROM t WHERE a = 5000000000`,
  `SELECT a FROM t WHERE a < 5000000000 AND a <> 2`,
  `SELECT t.b, u.c FROM t, u WHERE t.a = u.a AND u.c <> 'deux'`,
  `SELECT t.b, u.c FROM t LEFT JOIN u ON t.a = u.a AND u.c LIKE 't%' WHERE t.a < 3`,
  `SELECT t.b, u.c FROM t LEFT JOIN u ON t.a = u.a WHERE u.c IS NULL`,
  `SELECT t.b, u.c FROM t RIGHT JOIN u ON t.a = u.a AND t.b = 'x'`,
  `SELECT t.b, u.c FROM t FULL JOIN u ON t.a = u.a WHERE t.a IS NOT NULL OR u.a = 5`,
  `SELECT b FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.c = 'two')`,
  `SELECT b FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.c = 'two')`,
  `SELECT b FROM t WHERE a IN (SELECT a FROM u WHERE c LIKE 'd%')`,
  `SELECT b, (SELECT max(c) FROM u WHERE u.a = t.a) FROM t WHERE b <> 'y'`,
  `SELECT dept, sum(salary) FROM emp GROUP BY dept HAVING dept = 'eng'`,
  `SELECT * FROM (SELECT dept, count(*) AS n FROM emp GROUP BY dept) s WHERE dept IS NULL OR n > 2`,
  `SELECT * FROM (SELECT dept, mgr, count(*) FROM emp GROUP BY ROLLUP (dept, mgr)) s WHERE mgr IS NULL`,
  `SELECT * FROM (SELECT name, salary * 2 AS s2, dept FROM emp) s WHERE dept = 'ops' AND s2 > 100`,
  `SELECT * FROM (SELECT name, rank() OVER (ORDER BY salary DESC) AS r FROM emp) s WHERE r <= 2 AND name <> 'ann'`,
  `SELECT * FROM (SELECT name, dept, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r, count(*) OVER () AS n FROM emp) s WHERE dept = 'ops' AND r = 1`,
  `SELECT * FROM (SELECT name, dept, rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS r FROM emp) s WHERE dept = 'ops' AND name <> 'dan'`,
  `SELECT * FROM (SELECT name, dept FROM emp ORDER BY id LIMIT 3) s WHERE dept = 'eng'`,
  `SELECT DISTINCT dept FROM emp WHERE salary >= 80`,
  `SELECT DISTINCT ON (dept) dept, name FROM emp WHERE salary < 100 ORDER BY dept, salary DESC`,
  `SELECT name FROM emp LIMIT 2`,
  `SELECT name FROM emp ORDER BY salary DESC, id LIMIT 2 OFFSET 1`,
  `SELECT name, salary FROM emp LIMIT 3 OFFSET 2`,
  `SELECT count(*) FROM emp`,
  `SELECT count(*) FROM emp WHERE 1 = 1 AND (false OR salary > 70)`,
  `SELECT e.name, m.name FROM emp e JOIN emp m ON e.mgr = m.id WHERE m.dept = 'eng' AND e.salary > 60`,
  `SELECT e.name, m.name FROM emp e JOIN emp m ON e.mgr = m.id AND ((m.dept = 'eng' AND e.salary > 60) OR (m.dept IS NULL AND e.id < 3) OR e.name LIKE 'c%')`,
  `SELECT e.name, m.name FROM emp e LEFT JOIN emp m ON e.mgr = m.id AND ((m.dept = 'eng' AND e.salary > 60) OR (m.dept = 'ops' AND e.id > 3))`,
  `SELECT x.name FROM emp x, LATERAL (SELECT count(*) AS n FROM emp y WHERE y.mgr = x.id) l WHERE l.n > 0`,
  `SELECT a FROM t UNION SELECT a FROM u WHERE a > 1`,
  `SELECT id FROM ev WHERE d >= date '2024-01-10' AND d < date '2024-01-01' + interval '15 days'`,
  `SELECT id FROM ev WHERE d > timestamp '2024-01-10 12:00' AND d <= timestamp '2024-01-20 06:00'`,
  `SELECT id FROM ev WHERE d = timestamp '2024-01-10 12:00'`,
  `SELECT id FROM ev WHERE ts >= date '2024-01-05' AND ts < date '2024-01-06' + 3`,
  `SELECT id FROM ev WHERE s = 's1_11' OR s LIKE 's2\\_%' OR s IS NULL`,
  `SELECT id FROM ev WHERE k = ANY('{1,2}') AND id IN (3, 4, 5, 6, 7, 99) AND f > 1`,
  `SELECT id FROM ev WHERE k = 1::int8 AND id < 20::int4 AND f <= 3`,
  `SELECT id, c FROM ev WHERE c = 'ab' OR c IN ('x ', 'toolong') OR c = ANY('{x}') OR c IS NULL`,
  `SELECT id FROM ev WHERE c::text = 'x' AND c <> 'ab'`,
  `SELECT id FROM ev WHERE ts > now() - interval '100 years' AND random() >= 0`,
  { sql: `SELECT id FROM ev WHERE id = $1 OR d = $2`, params: [5n, 19730], oids: [Oid.int8, Oid.date] },
  { sql: `SELECT id FROM ev WHERE id = ANY($1) AND k <> $2`, params: [{ kind: 'array', elementOid: Oid.int8, dims: [3], lowerBounds: [1], values: [1n, 2n, 9n] }, 0], oids: [Oid._int8, Oid.int2] },
  { sql: `SELECT id FROM ev WHERE s IS NOT NULL LIMIT $1 OFFSET $2`, params: [3n, 1n], oids: [Oid.int8, Oid.int8] },
  { sql: `SELECT id FROM ev LIMIT $1`, params: [4n], oids: [Oid.int8] },
];

describe('optimizer: the same rows with any rule switched off', () => {
  for (const q of QUERIES) {
    const { sql, params, oids } = typeof q === 'string' ? { sql: q, params: [], oids: [] } : q;
    it(sql, async () => {
      const base = sortedRows((await runWithRules(strictCatalog(), sql, 'all', params, oids)).rows);
      expect(sortedRows((await runWithRules(strictCatalog(), sql, [], params, oids)).rows)).toEqual(base);
      for (const name of OPTIMIZER_RULE_NAMES) {
        expect(sortedRows((await runWithRules(strictCatalog(), sql, [name], params, oids)).rows), `with ${name} off`).toEqual(base);
      }
    });
  }
});

describe('optimizer runner and setting', () => {
  it('times every rule and reports the ones switched off', () => {
    const cat = strictCatalog();
    const plan = bindPlan(cat, `SELECT a FROM t WHERE a > 1`);
    const r = optimizePlan(plan, testContext(cat), new Set(['push_down_limit']));
    expect(r.rules.map((x) => x.name)).toEqual(OPTIMIZER_RULE_NAMES);
    expect(r.rules.find((x) => x.name === 'push_down_limit')).toEqual({ name: 'push_down_limit', applied: false, ms: 0 });
    expect(r.rules.every((x) => x.ms >= 0)).toBe(true);
  });

  it('with every rule off the plan is the bound plan', () => {
    const cat = strictCatalog();
    const plan = bindPlan(cat, `SELECT b FROM t, u WHERE t.a = u.a AND 1 = 1 LIMIT 3`);
    expect(optimizePlan(plan, testContext(cat), new Set(OPTIMIZER_RULE_NAMES)).plan).toBe(plan);
  });

  it('reads the session setting', () => {
    const cat = strictCatalog();
    expect([...disabledRules(testContext(cat, [], { 'lakegate.disabled_optimizer_rules': 'push_down_filter,push_down_limit' }))]).toEqual(['push_down_filter', 'push_down_limit']);
    expect([...disabledRules(testContext(cat))]).toEqual([]);
  });

  it('normalizes the setting and rejects unknown rule names with 22023', () => {
    expect(normalizeDisabledRules(' Push_Down_Filter , push_down_limit,push_down_filter ')).toBe('push_down_filter,push_down_limit');
    expect(normalizeDisabledRules('')).toBe('');
    expect(() => parseDisabledRules('push_down_filter,nope')).toThrow(expect.objectContaining({
      code: '22023', message: 'invalid value for parameter "lakegate.disabled_optimizer_rules": "push_down_filter,nope"',
    }));
    const def = findSettingDef('lakegate.disabled_optimizer_rules')!;
    expect(normalizeSettingValue(def, 'simplify_expressions', '')).toBe('simplify_expressions');
    expect(() => normalizeSettingValue(def, 'bogus', '')).toThrow(expect.objectContaining({ code: '22023' }));
  });
});
