/**
 * extract(field from date)'s column kernel computes the civil date without calendar.ts civilFromDays, which
 * returns a new [y, m, d] array per call — one per row in TPC-H Q9's extract(year from o_orderdate) (JOIN,
 * session 24). The answers themselves are compared with the row closures in vector-call-kernels.test.ts.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { answerOf } from '../testing/vector-and-rows.ts';

const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../common/pgtypes/calendar.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../common/pgtypes/calendar.ts')>();
  return {
    ...actual,
    civilFromDays: (z: number): [number, number, number] => { calls.n++; return actual.civilFromDays(z); },
  };
});

beforeAll(async () => { await initParser(); });

describe('extract over a date column', () => {
  it('makes no civil-date array per row', async () => {
    const rows = Array.from({ length: 300 }, (_v, k) => `(${k}, '1992-01-01'::date + ${k * 9})`).join(', ');
    for (const field of ['year', 'month', 'day', 'quarter', 'doy', 'decade']) {
      calls.n = 0;
      const answer = await answerOf(`select k, extract(${field} from d) from (values ${rows}) v(k, d) order by k`);
      expect(Array.isArray(answer), field).toBe(true);
      expect(calls.n, field).toBe(0);
    }
    // the answers: 300 dates 9 days apart from 1992-01-01 span 1992 … 1999
    expect(await answerOf(`select extract(year from d), count(*) from (values ${rows}) v(k, d) group by 1 order by 1`))
      .toEqual([['1992', '41'], ['1993', '41'], ['1994', '40'], ['1995', '41'], ['1996', '40'], ['1997', '41'], ['1998', '41'], ['1999', '15']]);
  });
});
