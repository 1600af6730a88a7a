/** INSERT: target lists, defaults, assignment casts, NOT NULL, RETURNING (behaviour checked on PostgreSQL 15). */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser } from '../../sql/index.ts';
import { MemoryCatalog, MemoryTable } from '../../sql/testing/memory-catalog.ts';
import { runSql } from '../testing/run-sql.ts';
import { e2eCatalog } from '../testing/e2e-fixture.ts';
import { showValue } from '../testing/show-value.ts';

beforeAll(async () => { await initParser(); });

function tableRows(cat: MemoryCatalog, name: string): unknown[][] {
  return (cat.findRelation('public', name)!.source as MemoryTable).rows;
}

describe('INSERT', () => {
  it('VALUES with a column list fills the others with NULL and yields the count', async () => {
    const cat = e2eCatalog();
    const r = await runSql(cat, "insert into emp (id, name) values (7, 'gus'), (8, 'hal')");
    expect(r.columns.map((c) => c.name)).toEqual(['count']);
    expect(r.rows).toEqual([[2n]]);
    expect(tableRows(cat, 'emp').slice(-2)).toEqual([[7, 'gus', null, null, null], [8, 'hal', null, null, null]]);
  });

  it('INSERT … SELECT with assignment casts', async () => {
    const cat = e2eCatalog();
    const r = await runSql(cat, 'insert into t (b, a) select a, 1.7 from u where a = 1');
    expect(r.rows).toEqual([[1n]]);
    expect(tableRows(cat, 't').at(-1)).toEqual([2, '1']);
  });

  it('uses column defaults (ColumnDef.defaultExpr) and DEFAULT', async () => {
    const cat = new MemoryCatalog();
    cat.addRelation({ schema: 'public', name: 'd', source: new MemoryTable([
      { name: 'id', type: sqlType(Oid.int4), nullable: false },
      { name: 'tag', type: sqlType(Oid.text), nullable: true, defaultExpr: "'none'::text" },
      { name: 'n', type: sqlType(Oid.int8), nullable: true, defaultExpr: '40 + 2' },
    ]) });
    await runSql(cat, 'insert into d (id) values (1)');
    await runSql(cat, "insert into d values (2, default, 5)");
    await runSql(cat, 'insert into d (id, n) values (3, default)');
    expect(tableRows(cat, 'd')).toEqual([[1, 'none', 42n], [2, 'none', 5n], [3, 'none', 42n]]);
  });

  it('RETURNING', async () => {
    const cat = e2eCatalog();
    const r = await runSql(cat, "insert into t values (9, 'q'), (10, null) returning a * 2 as dbl, b, *");
    expect(r.columns.map((c) => c.name)).toEqual(['dbl', 'b', 'a', 'b']);
    expect(r.columns[1]!.tableOid).toBe(cat.findRelation('public', 't')!.oid);
    expect(r.rows.map((row) => row.map((v, i) => showValue(r.columns[i]!.type.oid, v)))).toEqual([['18', 'q', '9', 'q'], ['20', 'NULL', '10', 'NULL']]);
  });

  it('parameters take the target column types', async () => {
    const cat = e2eCatalog();
    const r = await runSql(cat, 'insert into t values ($1, $2)', [11, 'p']);
    expect(r.paramTypes.map((t) => t.oid)).toEqual([Oid.int4, Oid.text]);
    expect(tableRows(cat, 't').at(-1)).toEqual([11, 'p']);
  });

  const errors: [string, string, string][] = [
    ["insert into emp (name) values ('x')", '23502', 'null value in column "id" of relation "emp" violates not-null constraint'],
    ['insert into t (a, a) values (1, 2)', '42701', 'column "a" specified more than once'],
    ['insert into t (zz) values (1)', '42703', 'column "zz" of relation "t" does not exist'],
    ["insert into t (a) values ('x')", '22P02', 'invalid input syntax for type integer: "x"'],
    ['insert into t (a) values (1, 2)', '42601', 'INSERT has more expressions than target columns'],
    ["insert into t (a) values (date '2020-01-01')", '42804', 'column "a" is of type integer but expression is of type date'],
  ];
  for (const [sql, code, message] of errors) {
    it(`${code}: ${sql}`, async () => {
      await expect(runSql(e2eCatalog(), sql)).rejects.toMatchObject({ code, message });
    });
  }
});
