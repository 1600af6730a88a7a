/** Binder: result column names (FigureColname), literal types, column origins, name resolution, EXPLAIN. */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { explainPlan, initParser } from '../index.ts';
import { bindSql } from '../../exec/testing/run-sql.ts';
import { e2eCatalog } from '../../exec/testing/e2e-fixture.ts';
import { MemoryCatalog, MemoryTable } from '../testing/memory-catalog.ts';
import { QUERY_CASES } from '../../exec/testing/e2e-expected.ts';

beforeAll(async () => { await initParser(); });

describe('binder', () => {
  it('names result columns as PostgreSQL does', () => {
    const q = bindSql(e2eCatalog(), `select 1::int, 'a'::varchar(3), cast(1 as bigint), a::text, case when true then a else 0 end,
      case when true then 1 else a end, coalesce(a, 0), -a, t.a, (select b from t limit 1), exists(select 1), array[1],
      1.5::numeric(4,1), 'x'::"char", 'x'::char(2), greatest(1,2), nullif(1,2), row(1,2), a in (1,2), count(*) over () from t`);
    expect(q.columns.map((c) => c.name)).toEqual(['int4', 'varchar', 'int8', 'a', 'case', 'a', 'coalesce', '?column?', 'a', 'b', 'exists',
      'array', 'numeric', 'char', 'bpchar', 'greatest', 'nullif', 'row', '?column?', 'count']);
  });

  it('types literals as PostgreSQL does (unknown output → text)', () => {
    const q = bindSql(e2eCatalog(), "select 1, 3000000000, 1.5, 'x', true, null, 99999999999999999999");
    expect(q.columns.map((c) => c.type.oid)).toEqual([Oid.int4, Oid.int8, Oid.numeric, Oid.text, Oid.bool, Oid.text, Oid.numeric]);
  });

  it('keeps typmods of casts', () => {
    const q = bindSql(e2eCatalog(), "select 'a'::varchar(3), 1.5::numeric(4,1), 'x'::char(2)");
    expect(q.columns.map((c) => c.type.typmod)).toEqual([7, (4 << 16 | 1) + 4, 6]);
  });

  it('fills tableOid/attnum for plain base-column references, through subqueries', () => {
    const cat = e2eCatalog();
    const t = cat.findRelation('public', 't')!.oid;
    const q = bindSql(cat, 'select b, t.a, t.a + 1, x.a from t, (select a from t) x');
    expect(q.columns.map((c) => [c.tableOid, c.attnum])).toEqual([[t, 2], [t, 1], [0, 0], [t, 1]]);
    // as PostgreSQL: CTE and GROUP BY outputs keep their origin, set operations have none
    expect(bindSql(cat, 'with w as (select a from t) select a from w').columns[0]).toMatchObject({ tableOid: t, attnum: 1 });
    expect(bindSql(cat, 'select b, count(*) from t group by b').columns.map((c) => c.tableOid)).toEqual([t, 0]);
    expect(bindSql(cat, 'select a from t union select a from t').columns[0]).toMatchObject({ tableOid: 0, attnum: 0 });
  });

  it('resolves unqualified names through pg_catalog first, then search_path', () => {
    const cat = new MemoryCatalog();
    const col = [{ name: 'x', type: { oid: Oid.int4, typmod: -1 }, nullable: true }];
    cat.addRelation({ schema: 'public', name: 'pg_thing', source: new MemoryTable(col) });
    const sys = cat.addRelation({ schema: 'pg_catalog', name: 'pg_thing', source: new MemoryTable(col) });
    expect(bindSql(cat, 'select x from pg_thing').columns[0]!.tableOid).toBe(sys.oid);
  });

  it('folds unquoted identifiers to lower case and keeps quoted ones', () => {
    expect(bindSql(e2eCatalog(), 'SELECT A AS "Big", B FROM T').columns.map((c) => c.name)).toEqual(['Big', 'b']);
    expect(() => bindSql(e2eCatalog(), 'select "A" from t')).toThrow(expect.objectContaining({ code: '42703', message: 'column "A" does not exist' }));
  });

  it('reports 42P01 for schema-qualified relations, also in unknown schemas (as PostgreSQL 15)', () => {
    expect(() => bindSql(e2eCatalog(), 'select * from public.nope')).toThrow(expect.objectContaining({ code: '42P01', message: 'relation "public.nope" does not exist', position: 15 }));
    expect(() => bindSql(e2eCatalog(), 'select * from nope.t')).toThrow(expect.objectContaining({ code: '42P01', message: 'relation "nope.t" does not exist', position: 15 }));
  });

  it('binds UPDATE … FROM and MERGE to ModifyRows (test/sql/dml/ runs them); refuses WHEN NOT MATCHED BY SOURCE as PostgreSQL 15', () => {
    expect(explainPlan(bindSql(e2eCatalog(), 'update t set b = t.b || u.a from u where u.a = t.a').plan)[0]).toBe('Update: public.t');
    expect(explainPlan(bindSql(e2eCatalog(), 'merge into t using u on t.a = u.a when matched then delete').plan)[0]).toBe('Merge: public.t');
    expect(() => bindSql(e2eCatalog(), 'merge into t using u on t.a = u.a when not matched by source then delete')).toThrow(expect.objectContaining({ code: '42601' }));
  });

  it('explains plans as an indented tree', () => {
    const q = bindSql(e2eCatalog(), 'select b, count(*) from t join u on t.a = u.a where t.a > 1 group by b order by 2 desc limit 3');
    expect(explainPlan(q.plan)).toEqual([
      'Limit: skip=0, fetch=3',
      '  Sort: count DESC NULLS FIRST',
      '    Projection: t.b, count',
      '      Aggregate: groupBy=[t.b], aggr=[count(*)]',
      '        Filter: (t.a > 1)',
      '          Inner Join: (t.a = u.a)',
      '            TableScan: public.t',
      '            TableScan: public.u',
    ]);
  });

  it('refuses FOR SYSTEM_TIME AS OF on a table without history (Iceberg tables keep it: test/iceberg)', () => {
    expect(() => bindSql(e2eCatalog(), "select a from t FOR SYSTEM_TIME AS OF '2024-01-01'")).toThrow(expect.objectContaining({ code: '0A000' }));
  });

  it('explains every end-to-end query without failing', () => {
    for (const c of QUERY_CASES) expect(explainPlan(bindSql(e2eCatalog(), c.sql).plan).length).toBeGreaterThan(0);
  });
});
