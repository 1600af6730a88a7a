/**
 * Binder + executor features PostgreSQL clients rely on, with PostgreSQL 15's answers (psql -At):
 * ordered-set aggregates (WITHIN GROUP), unnest(a, b) in FROM, varchar(n) casts, interval field typmods,
 * named whole-row records, non-strict array concatenation, tableoid, and Promise-returning functions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../sql/index.ts';
import { showValue } from './testing/show-value.ts';
import { runSql, testRegistry } from './testing/run-sql.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { e2eCatalog } from './testing/e2e-fixture.ts';

beforeAll(async () => { await initParser(); });

async function rows(sql: string): Promise<string[]> {
  const r = await runSql(e2eCatalog(), sql);
  return r.rows.map((row) => row.map((v, i) => (v === null ? '' : showValue(r.columns[i]!.type.oid, v))).join('|'));
}

const CASES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['select percentile_cont(0.5) within group (order by x), percentile_disc(0.5) within group (order by x), mode() within group (order by x) from (values (1),(2),(2),(7),(null)) v(x)', ['2|2|2']],
  ['select percentile_cont(array[0, 0.25, 1]) within group (order by x desc) from (values (1),(2),(4)) v(x)', ['{4,3,1}']],
  ["select percentile_cont(0.5) within group (order by x) from (values ('1 day'::interval),('3 days')) v(x)", ['2 days']],
  ["select * from unnest(array[1,2], array['a','b','c']) with ordinality as u(n, s, o)", ['1|a|1', '2|b|2', '|c|3']],
  ["select 'abcd'::varchar(2), 'ab'::char(4) || '|'", ['ab|ab|']],
  ["select interval '90' day, interval '2' hour", ['90 days|02:00:00']],
  ["select row_to_json(r)::text from (select 1 as id, 'x' as name) r", ['{"id":1,"name":"x"}']],
  ['select null::int[] || 1, array[1] || null::int[]', ['{1}|{1}']],
];

describe('query features (answers from PostgreSQL 15)', () => {
  for (const [sql, expected] of CASES) it(sql, async () => { expect(await rows(sql)).toEqual(expected); });

  it('rejects what PostgreSQL rejects', async () => {
    await expect(runSql(e2eCatalog(), 'select percentile_cont(0.5, 1)')).rejects.toMatchObject({ code: '42809' });
    await expect(runSql(e2eCatalog(), 'select percentile_cont(1.5) within group (order by x) from (values (1)) v(x)')).rejects.toMatchObject({ code: '22003' });
    await expect(runSql(e2eCatalog(), 'with recursive r(n) as (select n from r union all select 1) select * from r')).rejects.toMatchObject({ code: '42P19' });
  });
});

describe('system columns and Promise-returning functions', () => {
  it('tableoid is the relation OID, not part of *', async () => {
    const cat = e2eCatalog();
    const oid = cat.findRelation('public', 't')!.oid;
    const r = await runSql(cat, 'select distinct tableoid, t.tableoid from t');
    expect(r.rows).toEqual([[oid, oid]]);
    expect((await runSql(cat, 'select * from t limit 1')).columns.map((c) => c.name)).toEqual(['a', 'b']);
    await expect(runSql(cat, 'select tableoid from t, u')).rejects.toMatchObject({ code: '42702' });
  });

  it('awaits a function result that is a Promise (pg_sleep), row after row', async () => {
    const registry = testRegistry();
    if (registry.routines('lg_test_async_double').length === 0) {
      registry.registerRoutines([{
        kind: 'scalar', name: 'lg_test_async_double', args: [Oid.int4], returns: Oid.int4, volatility: 'v',
        impl: async ([x]) => { await new Promise((res) => setTimeout(res, 5)); return (x as number) * 2; },
      }]);
    }
    const cat = e2eCatalog();
    expect((await runSql(cat, 'select lg_test_async_double(a) from t where a is not null order by a')).rows).toEqual([[2], [4], [6]]);
    expect((await runSql(cat, 'select a from t where lg_test_async_double(a) + 1 = 5')).rows).toEqual([[2]]);
    expect((await runSql(cat, 'select lg_test_async_double(3) is not null')).rows).toEqual([[true]]);
  });
});
