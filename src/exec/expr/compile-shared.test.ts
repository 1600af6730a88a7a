import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import { showValue } from '../testing/show-value.ts';
import { runSql } from '../testing/run-sql.ts';
import { e2eCatalog } from '../testing/e2e-fixture.ts';

beforeAll(async () => { await initParser(); });

async function rows(sql: string): Promise<(string | null)[][]> {
  const r = await runSql(e2eCatalog(), sql);
  return r.rows.map((row) => row.map((v, i) => (v === null ? null : showValue(r.columns[i]!.type.oid, v))));
}

const DATA = `(values (1.50::numeric(10,2), 0.10::numeric(4,2), 'a'), (2.25, 0.05, 'b'), (3.00, null, 'a'), (null, 0.20, 'b')) v(p, d, g)`;

describe('shared subexpressions of aggregate arguments', () => {
  it('give the same answers as separate evaluation (filters, NULLs, grouping sets, repeated rows)', async () => {
    expect(await rows(`select g, sum(p * (1 - d)), sum(p * (1 - d) * (1 + d)), sum(p * (1 - d)) filter (where d > 0.06), avg(p * (1 - d)), count(p * (1 - d))
      from ${DATA} group by g order by g`)).toEqual([
      ['a', '1.3500', '1.485000', '1.3500', '1.35000000000000000000', '1'],
      ['b', '2.1375', '2.244375', null, '2.1375000000000000', '1'],
    ]);
    expect(await rows(`select g, sum(p * (1 - d)), sum(1 - d) from ${DATA} group by rollup (g) order by g nulls last`)).toEqual([
      ['a', '1.3500', '0.90'],
      ['b', '2.1375', '1.75'],
      [null, '3.4875', '2.65'],
    ]);
  });

  it('never shares volatile calls', async () => {
    const [[same]] = await rows(`select count(*) filter (where r1 = r2) = 0 from (select random() r1, random() r2 from generate_series(1, 50)) s`) as [[string]];
    expect(same).toBe('t');
    const [[n]] = await rows(`select sum(case when random() < 2 then 1 end) + sum(case when random() < 2 then 1 end) from generate_series(1, 10)`) as [[string]];
    expect(n).toBe('20');
  });
});
