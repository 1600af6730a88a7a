/**
 * Row estimates: the selectivities behind build sides and runtime key filters. A LIKE with a fixed prefix is
 * taken as the range it is (PostgreSQL's like_selectivity, floored at DEFAULT_MATCH_SEL); patterns with a
 * leading wildcard and NOT LIKE keep the generic defaults.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, type Expr, type LogicalPlan } from '../../sql/index.ts';
import { bindPlan } from '../testing/optimizer-fixture.ts';
import { sizedJoinCatalog } from '../testing/sized-join-catalog.ts';
import { estimate, selectivity } from './row-estimate.ts';

beforeAll(async () => { await initParser(); });

/** the WHERE predicate of `SELECT … FROM t WHERE <where>` as bound */
function predicate(where: string): Expr {
  let p: LogicalPlan = bindPlan(sizedJoinCatalog(), `SELECT * FROM small WHERE ${where}`);
  while (p.kind !== 'Filter') {
    if (!('input' in p)) throw new Error(`no Filter in the plan of ${where}`);
    p = p.input;
  }
  return p.predicate;
}

describe('selectivity of pattern matches', () => {
  it('takes a fixed prefix as a range: 0.2 per fixed character, 5 per %, at least 0.005', () => {
    expect(selectivity(predicate(`name LIKE 'forest%'`))).toBe(0.005);
    expect(selectivity(predicate(`name LIKE 'ab%'`))).toBeCloseTo(0.2 * 0.2 * 5, 10);
    expect(selectivity(predicate(`name LIKE 'a_'`))).toBeCloseTo(0.2 * 0.9, 10);
    expect(selectivity(predicate(`name ILIKE 'a%'`))).toBe(1);
    expect(selectivity(predicate(`name LIKE 'a\\%b%'`))).toBeCloseTo(0.2 * 0.2 * 0.2 * 5, 10);
  });

  it('keeps the generic estimate for leading wildcards, non-literal patterns and NOT LIKE', () => {
    expect(selectivity(predicate(`name LIKE '%green%'`))).toBe(0.25);
    expect(selectivity(predicate(`name LIKE '_x'`))).toBe(0.25);
    expect(selectivity(predicate(`name LIKE name || '%'`))).toBe(0.25);
    expect(selectivity(predicate(`name NOT LIKE 'MEDIUM POLISHED%'`))).toBe(0.9);
    expect(selectivity(predicate(`name NOT ILIKE '%x'`))).toBe(0.9);
  });

  it('scales a scan by it', () => {
    const plan = bindPlan(sizedJoinCatalog(), `SELECT * FROM big WHERE CAST(v AS text) LIKE '12%'`);
    expect(estimate(plan)?.rows).toBeCloseTo(3003 * 0.2 * 0.2 * 5, 6);
  });
});
