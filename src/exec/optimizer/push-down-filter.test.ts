/**
 * push_down_filter: which conjuncts reach which scan (and in what form), parameters resolved at execution,
 * conversions that are exact only, and nothing pushed when the rule is off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser } from '../../sql/index.ts';
import type { MemoryCatalog } from '../../sql/testing/memory-catalog.ts';
import type { StrictTable } from '../testing/strict-table.ts';
import { optimizedExplain, runWithRules, strictCatalog } from '../testing/optimizer-fixture.ts';
import { exactCompare } from './exact-value.ts';
import { likePrefix } from './pushed-predicate-of.ts';

beforeAll(async () => { await initParser(); });

const RULES = ['simplify_expressions', 'push_filter_below_projection', 'reorder_inner_joins', 'push_down_filter'];
const scanLines = (sql: string, rules = RULES, params: number[] = []): string[] =>
  optimizedExplain(strictCatalog(), sql, rules, params.map((o) => sqlType(o))).filter((l) => l.includes('TableScan')).map((l) => l.trim());
const table = (cat: MemoryCatalog, name: string): StrictTable => cat.findRelation('public', name)!.source as StrictTable;

describe('push_down_filter', () => {
  it('pushes comparisons, IS NULL, IN, = ANY, LIKE prefixes and AND / OR of them', () => {
    expect(scanLines(`SELECT id FROM ev WHERE id >= 3 AND 10 > id AND s IS NOT NULL AND k IN (1, 2) AND s LIKE 'ab%c'`)).toEqual([
      `TableScan: public.ev filters=[id >= 3, id < 10, s IS NOT NULL, k IN (1, 2), s LIKE 'ab%c']`,
    ]);
    expect(scanLines(`SELECT id FROM ev WHERE (id = 1 AND f > 2) OR d < date '2024-01-03' OR id = ANY('{7,8}')`)).toEqual([
      `TableScan: public.ev filters=[((id = 1 AND f > 2) OR d < '2024-01-03'::date OR id IN (7, 8))]`,
    ]);
  });

  it('keeps conjuncts it cannot express, and drops an OR with such an arm', () => {
    expect(scanLines(`SELECT id FROM ev WHERE id + 1 = 3 AND f > random() AND NOT (id = 2) AND id = 4`)).toEqual([`TableScan: public.ev filters=[id = 4]`]);
    expect(scanLines(`SELECT id FROM ev WHERE id = 1 OR id + 1 = 3`)).toEqual([`TableScan: public.ev`]);
    // a LIKE pattern the scan could not judge on bytes (ending in the escape character) and without a literal prefix
    expect(scanLines(`SELECT id FROM ev WHERE s LIKE '%x\\'`)).toEqual([`TableScan: public.ev`]);
  });

  it('pushes whole LIKE / NOT LIKE patterns with their prefix for the scan to judge (read/utf8-like-matcher.ts)', () => {
    expect(scanLines(`SELECT id FROM ev WHERE s LIKE '%x' AND s NOT LIKE 'a_%b'`)).toEqual([`TableScan: public.ev filters=[s LIKE '%x', s NOT LIKE 'a_%b']`]);
  });

  it('converts constants only when exact: int widths, date ↔ timestamp; never timestamp ↔ timestamptz', () => {
    expect(scanLines(`SELECT id FROM ev WHERE k = 1::int8 AND k < 100000::int8 AND id < 20::int2`)).toEqual([`TableScan: public.ev filters=[k = 1, id < 20]`]);
    expect(scanLines(`SELECT id FROM ev WHERE d < timestamp '2024-01-05 06:00' AND d >= timestamp '2024-01-02'`)).toEqual([`TableScan: public.ev filters=[d <= '2024-01-05'::date, d >= '2024-01-02'::date]`]);
    expect(scanLines(`SELECT id FROM ev WHERE ts < timestamptz '2024-01-05 06:00+00'`)).toEqual([`TableScan: public.ev`]);
    expect(scanLines(`SELECT id FROM ev WHERE c = 'ab' OR c IN ('x ', 'toolong') OR c = ANY('{x}')`)).toEqual([`TableScan: public.ev filters=[c IN ('ab ', 'x  ', 'x  ')]`]);
    expect(scanLines(`SELECT id FROM ev WHERE c > 'a'`)).toEqual([`TableScan: public.ev`]);
    expect(scanLines(`SELECT id FROM ev WHERE k = 100000 OR d = timestamp '2024-01-01 10:00'`)).toEqual([`TableScan: public.ev filters=[(k IN () OR d IN ())]`]);
    expect(exactCompare('=', 5000000000n, Oid.int8, Oid.int4)).toBeNull();
    expect(exactCompare('>', 86_400_000_000n + 1n, Oid.timestamp, Oid.date)).toEqual({ op: '>', value: 1 });
    expect(exactCompare('<', -1n, Oid.timestamp, Oid.date)).toEqual({ op: '<=', value: -1 });
    expect(likePrefix('ab\\%c%')).toBe('ab');
  });

  it('goes through projections, GROUP BY keys, inner joins and the right sides of outer joins only', () => {
    expect(scanLines(`SELECT * FROM (SELECT dept, count(*) AS n FROM emp GROUP BY dept) s WHERE dept = 'eng' AND n > 1`)).toEqual([`TableScan: public.emp filters=[dept = 'eng']`]);
    expect(scanLines(`SELECT * FROM (SELECT dept, count(*) AS n FROM emp GROUP BY ROLLUP (dept)) s WHERE dept IS NULL`)).toEqual([`TableScan: public.emp`]);
    expect(scanLines(`SELECT t.b FROM t LEFT JOIN u ON t.a = u.a AND u.c = 'two' AND t.b = 'x' WHERE t.a > 1 AND u.c IS NULL`)).toEqual([
      `TableScan: public.t filters=[a > 1]`, `TableScan: public.u filters=[c = 'two']`,
    ]);
    expect(scanLines(`SELECT t.b FROM t FULL JOIN u ON t.a = u.a WHERE t.a = 1`)).toEqual([`TableScan: public.t`, `TableScan: public.u`]);
    // an OR across both sides implies an OR on each side (TPC-H Q19)
    expect(scanLines(`SELECT t.b FROM t JOIN u ON t.a = u.a AND ((t.b = 'x' AND u.c = 'one') OR (t.b = 'y' AND u.c LIKE 't%' AND u.a > 1))`)).toEqual([
      `TableScan: public.t filters=[b IN ('x', 'y')]`, `TableScan: public.u filters=[(c = 'one' OR (c LIKE 't%' AND a > 1))]`,
    ]);
    expect(scanLines(`SELECT t.b FROM t JOIN u ON t.a = u.a AND (t.b = 'x' OR u.c = 'one')`)).toEqual([`TableScan: public.t`, `TableScan: public.u`]);
    expect(scanLines(`SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 2) s WHERE a = 1`)).toEqual([`TableScan: public.t`]);
    expect(scanLines(`SELECT * FROM (SELECT name, dept, rank() OVER (PARTITION BY dept ORDER BY salary) r FROM emp) s WHERE dept = 'eng' AND name > 'b' AND r = 1`)).toEqual([`TableScan: public.emp filters=[dept = 'eng']`]);
  });

  it('gives the scan the parameter values at execution time', async () => {
    const cat = strictCatalog();
    const r = await runWithRules(cat, `SELECT id FROM ev WHERE id = $1 OR k = ANY($2)`, [], [7n, { kind: 'array', elementOid: Oid.int2, dims: [1], lowerBounds: [1], values: [2] }], [Oid.int8, Oid._int2]);
    expect(table(cat, 'ev').scans[0]!.filters).toEqual([{ kind: 'or', args: [{ kind: 'compare', op: '=', column: 0, value: 7n }, { kind: 'in', column: 5, values: [2] }] }]);
    expect(r.rows.length).toBe(14);
  });

  it('switched off: no scan gets filters', () => {
    expect(scanLines(`SELECT id FROM ev WHERE id = 1`, RULES.filter((r) => r !== 'push_down_filter'))).toEqual([`TableScan: public.ev`]);
  });
});
