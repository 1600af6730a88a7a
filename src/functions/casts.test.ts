/**
 * Casts (pg_cast matrix, I/O conversion, typmods) against PostgreSQL 15: explicit casts through the
 * expression harness, assignment casts through applyCoercion(..., 'a').
 */
import { describe, expect, test } from 'vitest';
import { Oid, sqlType } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { GatewayError } from '../common/errors.ts';
import { evalSql, harnessContext, render } from './sql-harness.ts';
import { applyCoercion } from './coercions.ts';
import { getDefaultRegistry } from './index.ts';

// [expression, PostgreSQL 15 output or ERROR sqlstate: message]
const CASES: ReadonlyArray<readonly [string, string]> = [
  ["length(repeat('x', 70)::name)", "63"],
  ["octet_length(repeat('\u00e9', 40)::name)", "62"],
  ["repeat('x', 70)::name::text = repeat('x', 63)", "t"],
  ["'abc'::name::char(2)", "ab"],
  ["'abcdef'::varchar(3)::char(5)", "abc  "],
  ["'a'::char(3)::name", "a"],
  ["1::int4::regclass", "1"],
  ["(-1)::int4::regclass::int8", "4294967295"],
  ["4294967295::int8::regclass", "4294967295"],
  ["'{1,2}'::int[]::text[]", "{1,2}"],
  ["'{1,2}'::text[]::int[]", "{1,2}"],
  ["'{a}'::text[]::int[]", "ERROR 22P02: invalid input syntax for type integer: \"a\""],
  ["'{1.5,2.5}'::numeric[]::int[]", "{2,3}"],
  ["'{1,2}'::int[]::text", "{1,2}"],
  ["12::text::int8", "12"],
  ["'1.5'::varchar::numeric(3,2)", "1.50"],
  ["1::int2", "1"],
  ["40000::int2", "ERROR 22003: smallint out of range"],
  ["3000000000::int4", "ERROR 22003: integer out of range"],
  ["3000000000::int8::int4", "ERROR 22003: integer out of range"],
  ["(-1)::int8::int2", "-1"],
  ["2.5::float8::int4", "2"],
  ["3.5::float8::int4", "4"],
  ["-2.5::float8::int4", "-2"],
  ["2.5::float4::int2", "2"],
  ["1e10::float8::int4", "ERROR 22003: integer out of range"],
  ["'NaN'::float8::int4", "ERROR 22003: integer out of range"],
  ["'NaN'::float8::int8", "ERROR 22003: bigint out of range"],
  ["9.3e18::float8::int8", "ERROR 22003: bigint out of range"],
  ["2.5::int4", "3"],
  ["-2.5::int4", "-3"],
  ["2.4999::int8", "2"],
  ["'NaN'::numeric::int4", "ERROR 0A000: cannot convert NaN to integer"],
  ["'Infinity'::numeric::int8", "ERROR 0A000: cannot convert infinity to bigint"],
  ["99999999999::numeric::int4", "ERROR 22003: integer out of range"],
  ["1::float8", "1"],
  ["(1/3::float8)::numeric", "0.333333333333333"],
  ["0.1::float8::numeric", "0.1"],
  ["1e20::float8::numeric", "100000000000000000000"],
  ["12345.678::float4::numeric", "12345.7"],
  ["'NaN'::float8::numeric", "NaN"],
  ["1e400::numeric::float8", "ERROR 22003: \"10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\" is out of range for type double precision"],
  ["1e40::numeric::float4", "ERROR 22003: \"10000000000000000000000000000000000000000\" is out of range for type real"],
  ["1e300::float8::float4", "ERROR 22003: value out of range: overflow"],
  ["1e-300::float8::float4", "ERROR 22003: value out of range: underflow"],
  ["123.456::numeric(5,2)", "123.46"],
  ["123.455::numeric(5,2)", "123.46"],
  ["-123.455::numeric(5,2)", "-123.46"],
  ["1234.5::numeric(5,2)", "ERROR 22003: numeric field overflow"],
  ["0.5::numeric(1,0)", "1"],
  ["'Infinity'::numeric::numeric(5,2)", "ERROR 22003: numeric field overflow"],
  ["12345::numeric(3,-1)", "ERROR 22003: numeric field overflow"],
  ["1::bool", "t"],
  ["0::bool", "f"],
  ["true::int4", "1"],
  ["65::\"char\"", "A"],
  ["300::\"char\"", "ERROR 22003: \"char\" out of range"],
  ["'A'::\"char\"::int4", "65"],
  ["'abc'::varchar(2)", "ab"],
  ["'abc'::char(2)", "ab"],
  ["'ab'::char(4)", "ab  "],
  ["'ab'::char(4)::text", "ab"],
  ["'ab'::char(4)::varchar", "ab"],
  ["'ab'::char(4) || '|'", "ab|"],
  ["'abc  '::varchar(3)", "abc"],
  ["true::text", "true"],
  ["1::text", "1"],
  ["1.50::text", "1.50"],
  ["1.5::float8::text", "1.5"],
  ["'12'::int4", "12"],
  ["' 12 '::int4", "12"],
  ["'1.5'::int4", "ERROR 22P02: invalid input syntax for type integer: \"1.5\""],
  ["'abc'::int4", "ERROR 22P02: invalid input syntax for type integer: \"abc\""],
  ["'99999999999'::int4", "ERROR 22003: value \"99999999999\" is out of range for type integer"],
  ["'1e3'::numeric", "1000"],
  ["'  1.50  '::numeric", "1.50"],
  ["'yes'::bool", "t"],
  ["'maybe'::bool", "ERROR 22P02: invalid input syntax for type boolean: \"maybe\""],
  ["'-1'::oid", "4294967295"],
  ["4294967295::oid::int4", "-1"],
  ["4294967296::int8::oid", "ERROR 22003: OID out of range"],
  ["'1'::jsonb::int4", "1"],
  ["'\"a\"'::jsonb::int4", "ERROR 22023: cannot cast jsonb string to type integer"],
  ["'1.5'::jsonb::numeric", "1.5"],
  ["'true'::jsonb::bool", "t"],
  ["'{}'::jsonb::text", "{}"],
  ["12345::varchar(3)", "123"],
];

describe('explicit casts', () => {
  test.each(CASES)('%s → %s', (expr, expected) => {
    expect(evalSql(expr)).toBe(expected);
  });
});

function assign(value: unknown, from: number, to: number, typmod: number): string {
  try {
    const v = applyCoercion(getDefaultRegistry(), value, sqlType(from), sqlType(to, typmod), 'a', harnessContext());
    return render(to, v);
  } catch (e) {
    if (GatewayError.is(e)) return `ERROR ${e.code}: ${e.message}`;
    throw e;
  }
}

describe('assignment casts (INSERT into varchar(3), char(3), numeric(4,1), int2)', () => {
  test.each([
    ['abc  ', Oid.unknown, Oid.varchar, 7, 'abc'],
    ['abcd', Oid.text, Oid.varchar, 7, 'ERROR 22001: value too long for type character varying(3)'],
    ['ab ', Oid.text, Oid.bpchar, 7, 'ab '],
    ['ab', Oid.text, Oid.bpchar, 7, 'ab '],
    ['abcd', Oid.text, Oid.bpchar, 7, 'ERROR 22001: value too long for type character(3)'],
    [Numeric.parse('1.25'), Oid.numeric, Oid.numeric, ((4 << 16) | 1) + 4, '1.3'],
    [Numeric.parse('1234.5'), Oid.numeric, Oid.numeric, ((4 << 16) | 1) + 4, 'ERROR 22003: numeric field overflow'],
    [1.5, Oid.float8, Oid.int2, -1, '2'],
    [40000, Oid.int4, Oid.int2, -1, 'ERROR 22003: smallint out of range'],
    [12, Oid.int4, Oid.text, -1, '12'],
    [12, Oid.int4, Oid.varchar, 9, '12'],
    [123456, Oid.int4, Oid.varchar, 9, 'ERROR 22001: value too long for type character varying(5)'],
  ] as const)('%s (%i → %i(%i)) → %s', (value, from, to, typmod, expected) => {
    expect(assign(value, from, to, typmod)).toBe(expected);
  });

  test('assignment refuses what PostgreSQL refuses', () => {
    expect(() => applyCoercion(getDefaultRegistry(), 'x', sqlType(Oid.text), sqlType(Oid.int4), 'a', harnessContext())).toThrow(/cannot cast type text to integer/);
  });
});

// pg_cast rows of PostgreSQL 15 (text/varchar → regclass excepted: the catalog registers those) among the number, bool, character, oid/reg* and json types: [source, target, castcontext, castmethod]
const PG_CAST: ReadonlyArray<readonly [number, number, string, string]> = [
  [16, 23, 'e', 'f'], [16, 25, 'a', 'f'], [16, 1042, 'a', 'f'], [16, 1043, 'a', 'f'], [18, 23, 'e', 'f'], [18, 25, 'i', 'f'], [18, 1042, 'a', 'f'], [18, 1043, 'a', 'f'], [19, 25, 'i', 'f'], [19, 1042, 'a', 'f'], [19, 1043, 'a', 'f'], [20, 21, 'a', 'f'], [20, 23, 'a', 'f'], [20, 24, 'i', 'f'], [20, 26, 'i', 'f'], [20, 700, 'i', 'f'], [20, 701, 'i', 'f'], [20, 1700, 'i', 'f'], [20, 2202, 'i', 'f'], [20, 2203, 'i', 'f'], [20, 2204, 'i', 'f'], [20, 2205, 'i', 'f'], [20, 2206, 'i', 'f'], [20, 3734, 'i', 'f'], [20, 3769, 'i', 'f'], [20, 4089, 'i', 'f'], [20, 4096, 'i', 'f'], [20, 4191, 'i', 'f'], [21, 20, 'i', 'f'], [21, 23, 'i', 'f'], [21, 24, 'i', 'f'], [21, 26, 'i', 'f'], [21, 700, 'i', 'f'], [21, 701, 'i', 'f'], [21, 1700, 'i', 'f'], [21, 2202, 'i', 'f'], [21, 2203, 'i', 'f'], [21, 2204, 'i', 'f'], [21, 2205, 'i', 'f'], [21, 2206, 'i', 'f'], [21, 3734, 'i', 'f'], [21, 3769, 'i', 'f'], [21, 4089, 'i', 'f'], [21, 4096, 'i', 'f'], [21, 4191, 'i', 'f'], [23, 16, 'e', 'f'], [23, 18, 'e', 'f'], [23, 20, 'i', 'f'], [23, 21, 'a', 'f'], [23, 24, 'i', 'b'], [23, 26, 'i', 'b'], [23, 700, 'i', 'f'], [23, 701, 'i', 'f'], [23, 1700, 'i', 'f'], [23, 2202, 'i', 'b'], [23, 2203, 'i', 'b'], [23, 2204, 'i', 'b'], [23, 2205, 'i', 'b'], [23, 2206, 'i', 'b'], [23, 3734, 'i', 'b'], [23, 3769, 'i', 'b'], [23, 4089, 'i', 'b'], [23, 4096, 'i', 'b'], [23, 4191, 'i', 'b'], [24, 20, 'a', 'f'], [24, 23, 'a', 'b'], [24, 26, 'i', 'b'], [24, 2202, 'i', 'b'], [25, 18, 'a', 'f'], [25, 19, 'i', 'f'], [25, 1042, 'i', 'b'], [25, 1043, 'i', 'b'], [26, 20, 'a', 'f'], [26, 23, 'a', 'b'], [26, 24, 'i', 'b'], [26, 2202, 'i', 'b'], [26, 2203, 'i', 'b'], [26, 2204, 'i', 'b'], [26, 2205, 'i', 'b'], [26, 2206, 'i', 'b'], [26, 3734, 'i', 'b'], [26, 3769, 'i', 'b'], [26, 4089, 'i', 'b'], [26, 4096, 'i', 'b'], [26, 4191, 'i', 'b'], [114, 3802, 'a', 'i'], [700, 20, 'a', 'f'], [700, 21, 'a', 'f'], [700, 23, 'a', 'f'], [700, 701, 'i', 'f'], [700, 1700, 'a', 'f'], [701, 20, 'a', 'f'], [701, 21, 'a', 'f'], [701, 23, 'a', 'f'], [701, 700, 'a', 'f'], [701, 1700, 'a', 'f'], [1042, 18, 'a', 'f'], [1042, 19, 'i', 'f'], [1042, 25, 'i', 'f'], [1042, 1042, 'i', 'f'], [1042, 1043, 'i', 'f'], [1043, 18, 'a', 'f'], [1043, 19, 'i', 'f'], [1043, 25, 'i', 'b'], [1043, 1042, 'i', 'b'], [1043, 1043, 'i', 'f'], [1700, 20, 'a', 'f'], [1700, 21, 'a', 'f'], [1700, 23, 'a', 'f'], [1700, 700, 'i', 'f'], [1700, 701, 'i', 'f'], [1700, 1700, 'i', 'f'], [2202, 20, 'a', 'f'], [2202, 23, 'a', 'b'], [2202, 24, 'i', 'b'], [2202, 26, 'i', 'b'], [2203, 20, 'a', 'f'], [2203, 23, 'a', 'b'], [2203, 26, 'i', 'b'], [2203, 2204, 'i', 'b'], [2204, 20, 'a', 'f'], [2204, 23, 'a', 'b'], [2204, 26, 'i', 'b'], [2204, 2203, 'i', 'b'], [2205, 20, 'a', 'f'], [2205, 23, 'a', 'b'], [2205, 26, 'i', 'b'], [2206, 20, 'a', 'f'], [2206, 23, 'a', 'b'], [2206, 26, 'i', 'b'], [3734, 20, 'a', 'f'], [3734, 23, 'a', 'b'], [3734, 26, 'i', 'b'], [3769, 20, 'a', 'f'], [3769, 23, 'a', 'b'], [3769, 26, 'i', 'b'], [3802, 16, 'e', 'f'], [3802, 20, 'e', 'f'], [3802, 21, 'e', 'f'], [3802, 23, 'e', 'f'], [3802, 114, 'a', 'i'], [3802, 700, 'e', 'f'], [3802, 701, 'e', 'f'], [3802, 1700, 'e', 'f'], [4089, 20, 'a', 'f'], [4089, 23, 'a', 'b'], [4089, 26, 'i', 'b'], [4096, 20, 'a', 'f'], [4096, 23, 'a', 'b'], [4096, 26, 'i', 'b'], [4191, 20, 'a', 'f'], [4191, 23, 'a', 'b'], [4191, 26, 'i', 'b']
];

describe('pg_cast matrix', () => {
  const r = getDefaultRegistry();
  test.each(PG_CAST)('%i → %i is context %s, method %s', (source, target, context, method) => {
    const c = r.cast(source, target);
    expect(c?.context).toBe(context);
    expect(c?.method).toBe(method);
  });
});
