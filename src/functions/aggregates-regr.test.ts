/**
 * corr / covar / regr_* against PostgreSQL 15 (same data: y, x pairs, one with a NULL y), stepped row by row
 * and also as two partial states merged with combine().
 */
import { describe, expect, test } from 'vitest';
import { RegrState, regressionAggregates } from './aggregates-regr.ts';

const ROWS: readonly (readonly [number | null, number])[] = [[1.5, 2], [3.25, 5], [2, 7.5], [null, 1], [9, 11]];

// SELECT f(y, x) FROM (VALUES (1.5::float8, 2::float8), (3.25, 5), (2, 7.5), (NULL, 1), (9, 11)) v(y, x)
const PG: Readonly<Record<string, unknown>> = {
  corr: 0.8305228460919911, covar_pop: 8.2109375, covar_samp: 10.947916666666666, regr_slope: 0.751788268955651,
  regr_intercept: -0.8551502145922747, regr_r2: 0.6897681978807413, regr_count: 4n, regr_sxx: 43.6875, regr_syy: 35.796875,
  regr_sxy: 32.84375, regr_avgx: 6.375, regr_avgy: 3.9375,
};

type Kind = ConstructorParameters<typeof RegrState>[0];
const feed = (s: RegrState, rows: typeof ROWS): RegrState => {
  for (const [y, x] of rows) if (y !== null) s.step([y, x]);
  return s;
};

describe('regression aggregates', () => {
  test('every PostgreSQL name is registered as (float8, float8)', () => {
    expect(regressionAggregates.map((a) => a.name).sort()).toEqual(Object.keys(PG).sort());
  });
  for (const [name, expected] of Object.entries(PG)) {
    test(`${name} matches PostgreSQL`, () => {
      expect(feed(new RegrState(name as Kind), ROWS).final()).toBe(expected);
      const a = feed(new RegrState(name as Kind), ROWS.slice(0, 2));
      a.combine(feed(new RegrState(name as Kind), ROWS.slice(2)));
      const merged = a.final();
      if (typeof expected === 'number') expect(merged as number).toBeCloseTo(expected, 12);
      else expect(merged).toBe(expected);
    });
  }
  test('NULL results: no rows, one row for covar_samp, vertical line for corr/slope', () => {
    expect(new RegrState('corr').final()).toBeNull();
    expect(new RegrState('regr_count').final()).toBe(0n);
    expect(feed(new RegrState('covar_samp'), [[1, 2]]).final()).toBeNull();
    expect(feed(new RegrState('corr'), [[1, 1], [2, 1]]).final()).toBeNull();
    expect(feed(new RegrState('regr_slope'), [[1, 1], [2, 1]]).final()).toBeNull();
    expect(feed(new RegrState('regr_r2'), [[1, 1], [1, 2]]).final()).toBe(1);
  });
});
