/**
 * or_equalities_to_any: IN lists over computed expressions become `= ANY(array)` (EXPLAIN), and — the point —
 * every query answers the same with the rule on and off: NULL values and NULL list items, mixed arms, NOT IN,
 * IN lists in the select list (three-valued results), volatile expressions and bare columns left alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';

beforeAll(async () => { await initParser(); });

const RULE = 'or_equalities_to_any';
const catalog = sizedJoinCatalog;
const filterLine = (sql: string, rules?: string[]): string => optimizedExplain(catalog(), sql, rules).find((l) => l.includes('Filter:')) ?? '';

async function sameRows(sql: string): Promise<string[]> {
  const cat = catalog();
  const [on, off] = await Promise.all([runWithRules(cat, sql, []), runWithRules(cat, sql, [RULE])]);
  expect(sortedRows(on.rows), sql).toEqual(sortedRows(off.rows));
  return sortedRows(on.rows);
}

describe('or_equalities_to_any', () => {
  it('turns an IN list over a computed expression into one = ANY', () => {
    const sql = `SELECT name FROM small WHERE upper(name) IN ('A', 'C', 'ZZ')`;
    expect(filterLine(sql)).toContain(`upper(small.name) = ANY('{A,C,ZZ}'::text[])`);
    expect(filterLine(sql, ['simplify_expressions'])).toContain(`(upper(small.name) = 'A') OR (upper(small.name) = 'C')`);
  });

  it('leaves bare columns, volatile expressions, NOT IN and single equalities as they are', () => {
    expect(filterLine(`SELECT name FROM small WHERE k IN (1, 5)`)).toContain('(small.k = 1) OR (small.k = 5)');
    expect(filterLine(`SELECT name FROM small WHERE CAST(name AS varchar) IN ('a', 'b')`)).not.toContain('ANY');
    expect(filterLine(`SELECT name FROM small WHERE k + (random() * 0)::int IN (1, 5)`)).not.toContain('ANY');
    expect(filterLine(`SELECT name FROM small WHERE upper(name) NOT IN ('A', 'C')`)).not.toContain('ANY');
    expect(filterLine(`SELECT name FROM small WHERE upper(name) = 'A' OR k = 5`)).not.toContain('ANY');
  });

  it('merges the matching arms of a mixed OR and keeps the others in place', () => {
    const sql = `SELECT name FROM small WHERE upper(name) = 'A' OR k = 5 OR upper(name) = 'Z' OR k + 1 = 8`;
    expect(filterLine(sql)).toContain(`(upper(small.name) = ANY('{A,Z}'::text[]) OR (small.k = 5) OR ((small.k + 1) = 8))`);
  });

  it('gives the same rows with the rule on and off', async () => {
    expect(await sameRows(`SELECT name FROM small WHERE upper(name) IN ('A', 'C', 'ZZ')`)).toEqual(['["a"]', '["c"]']);
    // NULL values of the expression, a NULL list item (kept as its own arm), no match at all
    expect(await sameRows(`SELECT name FROM small WHERE k + 1 IN (2, 6, NULL)`)).toEqual(['["a"]', '["b"]', '["c"]', '["c2"]']);
    expect(await sameRows(`SELECT name FROM small WHERE k * 2 IN (1000, 2000)`)).toEqual([]);
    // three-valued results in the select list: NULL k, NULL in the list, misses
    expect(await sameRows(`SELECT name, k + 1 IN (2, 6), k + 1 IN (2, NULL), NOT (x * 1 IN (0, 1)) FROM small`)).toHaveLength(8);
    await sameRows(`SELECT name FROM small WHERE upper(name) = 'A' OR k = 5 OR upper(name) = 'Z' OR k + 1 = 8`);
    await sameRows(`SELECT name FROM small WHERE (k + 1 IN (2, 6) AND x IS NOT NULL) OR (x * 2 IN (0, 4, 6) AND k > 1)`);
    await sameRows(`SELECT count(*) FROM big WHERE k % 10 IN (1, 3, 5) AND x + 0 IN (2, 4)`);
    await sameRows(`SELECT s.name FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.x * 1 IN (1, 2))`);
  });
});
