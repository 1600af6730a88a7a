/**
 * Answers BI tools depend on, from PostgreSQL 15 (psql -At, C.UTF-8 cluster): DISTINCT aggregates come out
 * sorted by their arguments, FETCH FIRST … WITH TIES, named function arguments.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../sql/index.ts';
import { showValue } from './testing/show-value.ts';
import { runSql } from './testing/run-sql.ts';
import { e2eCatalog } from './testing/e2e-fixture.ts';

beforeAll(async () => { await initParser(); });

async function rows(sql: string): Promise<string[]> {
  const r = await runSql(e2eCatalog(), sql);
  return r.rows.map((row) => row.map((v, i) => (v === null ? '' : showValue(r.columns[i]!.type.oid, v))).join('|'));
}

const DISTINCT_AGGREGATES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["select string_agg(distinct x, ',') from (values ('b'),('a'),('B'),(null),('c'),('a')) v(x)", ['B,a,b,c']],
  ['select array_agg(distinct x) from (values (3),(1),(null),(2),(1)) v(x)', ['{1,2,3,NULL}']],
  ['select array_agg(distinct x) filter (where x > 1), count(distinct x) from (values (3),(1),(null),(2),(1)) v(x)', ['{2,3}|3']],
  ["select string_agg(distinct x, ',' order by x desc) from (values ('b'),('a'),('c')) v(x)", ['c,b,a']],
  ['select array_agg(distinct x::numeric) from (values (2.0),(1.50),(10)) v(x)', ['{1.50,2.0,10}']],
];

describe('DISTINCT aggregates without ORDER BY are fed in argument order', () => {
  for (const [sql, expected] of DISTINCT_AGGREGATES) it(sql, async () => { expect(await rows(sql)).toEqual(expected); });
});

const WITH_TIES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['select g/2 as h from generate_series(1,7) g order by 1 offset 1 fetch first 2 rows with ties', ['1', '1']],
  ['select g from generate_series(1,5) g order by g/2 fetch first 2 rows with ties', ['1', '2', '3']],
  ['select * from (values (null::int),(null),(2)) v(x) order by x nulls first fetch first 1 row with ties', ['', '']],
  ['values (1),(1),(2) order by 1 fetch first 1 row with ties', ['1', '1']],
  ['select * from generate_series(1,3) g order by g offset 1 fetch first 0 rows with ties', []],
  ['select distinct on (g/3) g/3, g from generate_series(1,9) g order by g/3 desc fetch first 1 rows with ties', ['3|9']],
  // ties run across batch boundaries; the top-N sort must not cut them off
  ['select count(*) from (select g/1000 from generate_series(1,5000) g order by 1 offset 998 fetch first 2 rows with ties) s', ['1001']],
];

describe('FETCH FIRST … WITH TIES', () => {
  for (const [sql, expected] of WITH_TIES) it(sql, async () => { expect(await rows(sql)).toEqual(expected); });

  it('needs ORDER BY and a non-null count, as PostgreSQL', async () => {
    await expect(runSql(e2eCatalog(), 'select * from generate_series(1,3) g fetch first 2 rows with ties'))
      .rejects.toMatchObject({ code: '42601', message: 'WITH TIES cannot be specified without ORDER BY clause' });
    await expect(runSql(e2eCatalog(), 'select * from generate_series(1,3) g order by g fetch first null rows with ties'))
      .rejects.toMatchObject({ code: '2201W', message: 'row count cannot be null in FETCH FIRST ... WITH TIES clause' });
    await expect(runSql(e2eCatalog(), 'select * from generate_series(1,3) g order by g fetch first -1 rows with ties'))
      .rejects.toMatchObject({ code: '2201W', message: 'LIMIT must not be negative' });
  });
});

const NAMED_ARGS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['select make_interval(days => 10, hours => 3)', ['10 days 03:00:00']],
  ['select make_interval(1, days := 10)', ['1 year 10 days']],
  ['select make_interval(years => 1, secs => 2)', ['1 year 00:00:02']],
  ["select make_timestamptz(year => 2024, month => 7, mday => 1, hour => 12, min => 0, sec => 0, timezone => 'America/Chicago')", ['2024-07-01 17:00:00+00']],
  ['select make_timestamptz(2024, 7, 1, hour => 12, min => 0, sec => 0)', ['2024-07-01 12:00:00+00']],
  ['select make_date(year => 2024, month => 2, day => 29), make_time(hour => 1, min => 2, sec => 3.5)', ['2024-02-29|01:02:03.5']],
];

describe('named function arguments', () => {
  for (const [sql, expected] of NAMED_ARGS) it(sql, async () => { expect(await rows(sql)).toEqual(expected); });

  it('rejects what PostgreSQL rejects, with its wording and positions', async () => {
    const fails = (sql: string) => expect(runSql(e2eCatalog(), sql)).rejects;
    await fails('select make_interval(days := 10, foo => 3)')
      .toMatchObject({ code: '42883', message: 'function make_interval(days => integer, foo => integer) does not exist', position: 8 });
    await fails('select make_interval(1, years => 2)').toMatchObject({ code: '42883', message: 'function make_interval(integer, years => integer) does not exist' });
    await fails('select make_timestamp(year => 2024, month => 7, mday => 1, hour => 12, min => 0)').toMatchObject({ code: '42883' });
    await fails('select abs(x => 1)').toMatchObject({ code: '42883', message: 'function abs(x => integer) does not exist' });
    await fails('select make_interval(days => 10, 1)').toMatchObject({ code: '42601', message: 'positional argument cannot follow named argument', position: 34 });
    await fails('select make_interval(days => 1, days => 2)').toMatchObject({ code: '42601', message: 'argument name "days" used more than once', position: 33 });
  });
});
