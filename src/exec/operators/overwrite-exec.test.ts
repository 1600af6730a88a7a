/** UPDATE / DELETE through OverwriteExec (answers checked on PostgreSQL 15). */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../sql/index.ts';
import type { MemoryTable } from '../../sql/testing/memory-catalog.ts';
import { runSql } from '../testing/run-sql.ts';
import { e2eCatalog } from '../testing/e2e-fixture.ts';
import { showValue } from '../testing/show-value.ts';

beforeAll(async () => { await initParser(); });

const text = (r: Awaited<ReturnType<typeof runSql>>): string[] => r.rows.map((row) => row.map((v, i) => showValue(r.columns[i]!.type.oid, v)).join('|'));

describe('UPDATE / DELETE', () => {
  it('UPDATE … RETURNING returns the new rows', async () => {
    const r = await runSql(e2eCatalog(), 'update emp set salary = salary + 1, dept = upper(dept) where salary >= 80 returning id, salary, dept');
    expect(text(r)).toEqual(['1|101|ENG', '2|81|ENG', '3|81|OPS', '5|81|ENG']);
  });

  it('DELETE … RETURNING * returns the old rows and removes them', async () => {
    const cat = e2eCatalog();
    expect(text(await runSql(cat, 'delete from t where a is null or a > 2 returning *'))).toEqual(['3|NULL', 'NULL|z']);
    expect(text(await runSql(cat, 'select * from t order by a'))).toEqual(['1|x', '2|y']);
  });

  it('UPDATE without RETURNING yields the count and keeps the other rows', async () => {
    const cat = e2eCatalog();
    const r = await runSql(cat, "update u set c = c || '!' where a = 2");
    expect(r.rows).toEqual([[2n]]);
    expect(text(await runSql(cat, 'select * from u order by a, c'))).toEqual(['1|one', '2|deux!', '2|two!', '5|five']);
    expect((cat.findRelation('public', 'u')!.source as MemoryTable).rows).toHaveLength(4);
  });

  it('SET expressions never run on rows the WHERE clause rejects', async () => {
    const r = await runSql(e2eCatalog(), 'update t set a = 10 / (a - 1) where a > 1 returning a');
    expect(text(r)).toEqual(['10', '5']);
  });

  it('correlated subqueries in SET and WHERE', async () => {
    const r = await runSql(e2eCatalog(), 'update t set b = (select min(c) from u where u.a = t.a) where exists (select 1 from u where u.a = t.a) returning a, b');
    expect(text(r)).toEqual(['1|one', '2|deux']);
  });

  const errors: [string, string, string][] = [
    ['update emp set id = null where id = 1', '23502', 'null value in column "id" of relation "emp" violates not-null constraint'],
    ['update t set zz = 1', '42703', 'column "zz" of relation "t" does not exist'],
    ["update t set a = 'x'", '22P02', 'invalid input syntax for type integer: "x"'],
  ];
  for (const [sql, code, message] of errors) {
    it(`${code}: ${sql}`, async () => {
      await expect(runSql(e2eCatalog(), sql)).rejects.toMatchObject({ code, message });
    });
  }
});
