/** Parameter type inference ($n), checked against PostgreSQL 15's pg_prepared_statements.parameter_types. */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { initParser } from '../index.ts';
import { bindSql } from '../../exec/testing/run-sql.ts';
import { e2eCatalog } from '../../exec/testing/e2e-fixture.ts';

beforeAll(async () => { await initParser(); });

const CASES: [string, number[]][] = [
  ['select * from t where a = $1', [Oid.int4]],
  ['select $1::int8', [Oid.int8]],
  ['select a from t where b like $1', [Oid.text]],
  ['select $1 + 1', [Oid.int4]],
  ['insert into t values ($1, $2)', [Oid.int4, Oid.text]],
  ['select * from t limit $1', [Oid.int8]],
  ['select $1', [Oid.text]],
  ['select coalesce($1, a) from t', [Oid.int4]],
  ['select * from t where a in ($1, $2)', [Oid.int4, Oid.int4]],
  ['select * from emp where salary > $1', [Oid.int8]],
  ["select $1 = 'x'", [Oid.text]],
  ['select * from t where a = any($1)', [Oid._int4]],
  ['select case when $1 then 1 else 0 end', [Oid.bool]],
  ['select * from emp where name = $1 and id = $2', [Oid.text, Oid.int4]],
];

describe('parameter type inference', () => {
  for (const [sql, oids] of CASES) {
    it(sql, () => {
      const q = bindSql(e2eCatalog(), sql);
      expect(q.paramTypes.map((t) => t.oid)).toEqual(oids);
    });
  }
  it('keeps given parameter types', () => {
    const q = bindSql(e2eCatalog(), 'select $1', [{ oid: Oid.int8, typmod: -1 }]);
    expect(q.columns[0]!.type.oid).toBe(Oid.int8);
  });
  it('42P18 when a parameter type cannot be determined', () => {
    expect(() => bindSql(e2eCatalog(), 'select 1 where $1 is null')).toThrow(/could not determine data type of parameter \$1/);
  });
});
