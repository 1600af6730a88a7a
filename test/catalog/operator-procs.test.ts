/**
 * pg_operator.oprcode names the function PostgreSQL 15 runs for each operator (int4eq, texteq, network_lt …), and
 * pg_proc / regproc know that function, so psql's \do+ and joins on oprcode answer as PostgreSQL does; likewise
 * oprrest / oprjoin / oprcanmerge / oprcanhash, pg_cast's OIDs and castfunc (psql's \dC), pg_am.amhandler (\dA+)
 * and pg_range's support functions. Expected values are PostgreSQL 15's answers to the same queries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineQuery, type EngineQuery } from '../../src/pgcatalog/testing/engine-query.ts';

let db: EngineQuery;
const query = (sql: string): Promise<string[][]> => db.query(sql);

beforeAll(async () => {
  db = await engineQuery(91);
});

afterAll(async () => {
  await db?.close();
});

describe('pg_operator.oprcode', () => {
  it('names PostgreSQL 15 functions as regproc (an overloaded name qualified, as regprocout does)', async () => {
    expect(await query(`select oprname, oprleft::regtype, oprright::regtype, oprcode from pg_operator
      where (oprname, oprleft::regtype::text, oprright::regtype::text) in (('=', 'integer', 'integer'), ('=', 'text', 'text'),
        ('<', 'inet', 'inet'), ('+', 'integer', 'bigint'), ('-', 'jsonb', 'text'), ('~~', 'text', 'text'), ('||', 'text', 'text'),
        ('>>=', 'inet', 'inet'), ('<>', 'numeric', 'numeric'), ('=', 'date', 'timestamp without time zone'))
      order by 1, 2, 3`)).toEqual([
      ['+', 'integer', 'bigint', 'int48pl'],
      ['-', 'jsonb', 'text', 'pg_catalog.jsonb_delete'],
      ['<', 'inet', 'inet', 'network_lt'],
      ['<>', 'numeric', 'numeric', 'numeric_ne'],
      ['=', 'integer', 'integer', 'int4eq'],
      ['=', 'text', 'text', 'texteq'],
      ['=', 'date', 'timestamp without time zone', 'date_eq_timestamp'],
      ['>>=', 'inet', 'inet', 'network_supeq'],
      ['||', 'text', 'text', 'textcat'],
      ['~~', 'text', 'text', 'textlike'],
    ]);
  });

  it('points every operator at a pg_proc row of its argument and result types', async () => {
    expect(await query(`select count(*) from pg_operator o left join pg_proc p on p.oid = o.oprcode
      where p.oid is null or p.prorettype <> o.oprresult
         or p.pronargs <> case o.oprkind when 'l' then 1 else 2 end`)).toEqual([['0']]);
  });

  it('resolves the functions by name and gives their pg_proc facts', async () => {
    expect(await query(`select 'int4eq'::regproc::oid, 'network_lt'::regproc::oid, p.pronargs, p.proargtypes, p.prorettype,
      p.provolatile, p.proisstrict, p.pronamespace from pg_proc p where p.oid = 'int4eq'::regproc`))
      .toEqual([['65', '921', '2', '23 23', '16', 'i', 't', '11']]);
  });

  it("answers psql 15's \\do+ query", async () => {
    const rows = await query(`SELECT n.nspname as "Schema", o.oprname AS "Name",
      CASE WHEN o.oprkind='l' THEN NULL ELSE pg_catalog.format_type(o.oprleft, NULL) END AS "Left arg type",
      CASE WHEN o.oprkind='r' THEN NULL ELSE pg_catalog.format_type(o.oprright, NULL) END AS "Right arg type",
      pg_catalog.format_type(o.oprresult, NULL) AS "Result type", o.oprcode AS "Function"
      FROM pg_catalog.pg_operator o LEFT JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace
      WHERE o.oprname OPERATOR(pg_catalog.~) '^(<<)$' COLLATE pg_catalog.default AND pg_catalog.pg_operator_is_visible(o.oid)
      ORDER BY 1, 2, 3, 4`);
    // PostgreSQL 15 also lists << over ranges and the geometric types, which lakegate does not have
    expect(rows).toEqual([
      ['pg_catalog', '<<', 'bigint', 'integer', 'bigint', 'int8shl'],
      ['pg_catalog', '<<', 'bit', 'integer', 'bit', 'bitshiftleft'],
      ['pg_catalog', '<<', 'inet', 'inet', 'boolean', 'network_sub'],
      ['pg_catalog', '<<', 'integer', 'integer', 'integer', 'int4shl'],
      ['pg_catalog', '<<', 'smallint', 'integer', 'smallint', 'int2shl'],
    ]);
  });

  it('gives PostgreSQL 15 selectivity estimators, merge / hash flags and commutators', async () => {
    expect(await query(`select oprname, oprleft::regtype, oprright::regtype, oprrest, oprjoin, oprcanmerge, oprcanhash
      from pg_operator where oid in (96, 664, 1203, 3877) order by oid`)).toEqual([
      ['=', 'integer', 'integer', 'eqsel', 'eqjoinsel', 't', 't'],
      ['<', 'text', 'text', 'scalarltsel', 'scalarltjoinsel', 'f', 'f'],
      ['<', 'inet', 'inet', 'scalarltsel', 'scalarltjoinsel', 'f', 'f'],
      ['^@', 'text', 'text', 'prefixsel', 'prefixjoinsel', 'f', 'f'],
    ]);
    // a commutator the registry does not declare comes from PostgreSQL (date + integer ⇄ integer + date)
    expect(await query('select oprname, oprleft::regtype, oprright::regtype, oprcom::oid from pg_operator where oid = 1100'))
      .toEqual([['+', 'date', 'integer', '2555']]);
  });
});

describe('functions other catalogs point at', () => {
  it("pg_cast: PostgreSQL's OIDs and cast functions", async () => {
    expect(await query(`select oid, castsource::regtype, casttarget::regtype, castfunc::regprocedure, castmethod from pg_cast
      where (castsource, casttarget) in (('int2'::regtype, 'int4'::regtype), ('int4'::regtype, 'numeric'::regtype),
        ('text'::regtype, 'regclass'::regtype), ('cidr'::regtype, 'inet'::regtype), ('inet'::regtype, 'text'::regtype),
        ('float8'::regtype, 'int8'::regtype)) order by 2, 3`)).toEqual([
      ['10006', 'smallint', 'integer', 'int4(smallint)', 'f'],
      ['10014', 'integer', 'numeric', '"numeric"(integer)', 'f'],
      ['10109', 'text', 'regclass', 'regclass(text)', 'f'],
      ['10181', 'cidr', 'inet', '-', 'b'],
      ['10020', 'double precision', 'bigint', 'int8(double precision)', 'f'],
      ['10190', 'inet', 'text', 'text(inet)', 'f'],
    ]);
    expect(await query(`select count(*) from pg_cast c left join pg_proc p on p.oid = c.castfunc
      where c.castfunc <> 0 and p.oid is null`)).toEqual([['0']]);
  });

  it('pg_am.amhandler and pg_range support functions name pg_proc rows', async () => {
    expect(await query('select amname, amhandler, amtype from pg_am order by 1')).toEqual([
      ['brin', 'brinhandler', 'i'], ['btree', 'bthandler', 'i'], ['gin', 'ginhandler', 'i'], ['gist', 'gisthandler', 'i'],
      ['hash', 'hashhandler', 'i'], ['heap', 'heap_tableam_handler', 't'], ['spgist', 'spghandler', 'i'],
    ]);
    expect(await query('select rngtypid::regtype, rngcanonical, rngsubdiff from pg_range order by 1')).toEqual([
      ['int4range', 'int4range_canonical', 'int4range_subdiff'], ['numrange', '-', 'numrange_subdiff'],
      ['tsrange', '-', 'tsrange_subdiff'], ['tstzrange', '-', 'tstzrange_subdiff'],
      ['daterange', 'daterange_canonical', 'daterange_subdiff'], ['int8range', 'int8range_canonical', 'int8range_subdiff'],
    ]);
  });
});
