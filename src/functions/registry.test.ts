/**
 * Type resolution (func_select_candidate / oper_select_candidate) against PostgreSQL 15's answers:
 * pg_typeof(expr) and the 42883 / 42725 errors, checked through the whole registry.
 */
import { describe, expect, test } from 'vitest';
import { Oid, sqlType } from '../common/pgtypes/oids.ts';
import { evalSql, typeOfSql } from './sql-harness.ts';
import { getDefaultRegistry } from './index.ts';
import { formatType } from '../common/pgtypes/format-type.ts';

// [expression, pg_typeof(expression) in PostgreSQL 15]
const TYPES: ReadonlyArray<readonly [string, string]> = [
  ["1 + 1.5", "numeric"],
  ["'1' + 1", "integer"],
  ["1::int2 + 1::int8", "bigint"],
  ["1::int2 + 1::int2", "smallint"],
  ["1::int2 + 1", "integer"],
  ["1 + 1::float4", "double precision"],
  ["1.5 + 1::float4", "double precision"],
  ["1::float4 + 1::float8", "double precision"],
  ["2 ^ 3", "double precision"],
  ["2.0 ^ 3", "numeric"],
  ["length('a')", "integer"],
  ["round(2.5)", "numeric"],
  ["round(2.5::float8)", "double precision"],
  ["round(2)", "double precision"],
  ["substr('abc', 2)", "text"],
  ["sqrt(2)", "double precision"],
  ["sqrt(2.0)", "numeric"],
  ["abs(-1)", "integer"],
  ["abs('-1')", "double precision"],
  ["'a' || 'b'", "text"],
  ["'a' || 1", "text"],
  ["1 || 'a'", "text"],
  ["'1' = 1", "boolean"],
  ["1 = 1.0", "boolean"],
  ["1::int8 = 1", "boolean"],
  ["'abc'::varchar = 'abc'", "boolean"],
  ["'abc'::varchar || 'x'", "text"],
  ["'ab'::char(3) = 'ab'", "boolean"],
  ["- 1::int2", "smallint"],
  ["- 1.5", "numeric"],
  ["@ -1", "integer"],
  ["1 / 2", "integer"],
  ["1 % 2", "integer"],
  ["5::int8 % 2", "bigint"],
  ["power(2, 3)", "double precision"],
  ["pow(2.5, 2)", "numeric"],
  ["log(2, 8)", "numeric"],
  ["mod(7, 2)", "integer"],
  ["mod(7::int8, 2)", "bigint"],
  ["div(7, 2)", "numeric"],
  ["ln(10)", "double precision"],
  ["exp(1)", "double precision"],
  ["trunc(2.7)", "numeric"],
  ["lpad('a', 3)", "text"],
  ["concat('a', 1, NULL)", "text"],
  ["format('%s', 1)", "text"],
  ["upper('a')", "text"],
  ["strpos('abc', 'b')", "integer"],
  ["1 < 2.5", "boolean"],
  ["1::float4 < 1::float8", "boolean"],
  ["1::int2 < 1::int8", "boolean"],
  ["'2020-01-01'::date < '2020-01-02'::timestamp", "boolean"],
  ["'a' < 'b'", "boolean"],
  ["'a' ~~ 'a%'", "boolean"],
  ["'a' ~ 'a'", "boolean"],
  ["'1'::jsonb = '1'", "boolean"],
];

// the same across the other families (arrays, json, date/time, aggregates, set-returning)
const TYPES_ALL_FAMILIES: ReadonlyArray<readonly [string, string]> = [
  ["'a' || 'b'", "text"],
  ["'a' || 'b'::varchar", "text"],
  ["'{1}'::int[] || 2", "integer[]"],
  ["'{1}'::int[] || 2.5", "numeric[]"],
  ["'{1}'::int[] = '{1}'", "boolean"],
  ["array_append('{1}'::int[], 2)", "integer[]"],
  ["array_length('{1}'::int[], 1)", "integer"],
  ["'{\"a\":1}'::jsonb -> 'a'", "jsonb"],
  ["'{\"a\":1}'::jsonb ->> 'a'", "text"],
  ["'{\"a\":1}'::json -> 'a'", "json"],
  ["'{\"a\":1}'::jsonb @> '{}'", "boolean"],
  ["now() - '1 day'", "ERROR 22007: invalid input syntax for type timestamp with time zone: \"1 day\""],
  ["now() + '1 day'::interval", "timestamp with time zone"],
  ["'2020-01-01'::date + 1", "date"],
  ["'2020-01-01'::date - '2020-01-02'::date", "integer"],
  ["'2020-01-01'::date + '1 day'::interval", "timestamp without time zone"],
  ["'1 day'::interval * 2", "interval"],
  ["date_trunc('day', now())", "timestamp with time zone"],
  ["1::int2 = 1::numeric", "boolean"],
  ["1::float4 = 1::numeric", "boolean"],
  ["'1'::text = 1::text", "boolean"],
  ["'x'::name = 'x'::text", "boolean"],
  ["'x'::name = 'x'", "boolean"],
  ["'x'::char(1) = 'x'::varchar", "boolean"],
  ["1 + '1.5'", "ERROR 22P02: invalid input syntax for type integer: \"1.5\""],
  ["2 ^ '2'", "double precision"],
  ["'2020-01-01' < now()", "boolean"],
  ["to_char(1.5, '9.9')", "text"],
  ["to_char(now(), 'YYYY')", "text"],
  ["length('x'::char(3))", "integer"],
  ["length('x'::varchar)", "integer"],
  ["length('x'::name)", "integer"],
  ["upper('x'::name)", "text"],
  ["substr('abc'::varchar, 1, 2)", "text"],
  ["'abc'::varchar ~~ 'a%'", "boolean"],
  ["'a'::name ~~ 'a%'", "boolean"],
  ["round(1::int8)", "double precision"],
  ["round(1::int2, 1)", "numeric"],
  ["abs(1::float4)", "real"],
  ["sum(1)", "bigint"],
  ["avg(1::int8)", "numeric"],
  ["max('a')", "text"],
  ["count(1)", "bigint"],
  ["string_agg('a', ',')", "text"],
  ["array_agg(1)", "integer[]"],
  ["gen_random_uuid()", "uuid"],
  ["generate_series(1, 3)", "integer"],
  ["unnest('{1,2}'::int[])", "integer"],
  ["json_build_object('a', 1)", "json"],
  ["jsonb_agg(1)", "jsonb"],
  ["format('%s', 'a')", "text"],
];

// polymorphic resolution (anyelement / anyarray / anycompatible / anycompatiblearray)
const TYPES_POLYMORPHIC: ReadonlyArray<readonly [string, string]> = [
  ["'{1}'::int[] || '{2}'", "integer[]"],
  ["'a' || '{1}'::int[]", "ERROR 22P02: malformed array literal: \"a\""],
  ["1 || 2", "ERROR 42883: operator does not exist: integer || integer"],
  ["NULL || 'a'", "text"],
  ["'{1}'::int[] || NULL", "integer[]"],
  ["'a'::varchar || 'b'::varchar", "text"],
  ["'a'::char(2) || 'b'::char(2)", "text"],
  ["'a'::name || 'b'::name", "text"],
  ["'{a}'::text[] || 'b'", "ERROR 22P02: malformed array literal: \"b\""],
  ["'x' || 1::int2", "text"],
  ["array_append('{1}'::int[], 2)", "integer[]"],
  ["array_append('{1}'::int[], '2')", "integer[]"],
  ["array_append('{1}', 2)", "integer[]"],
  ["array_append(NULL, 2)", "integer[]"],
  ["array_append(NULL, NULL)", "text[]"],
  ["array_prepend(1, '{2}'::int8[])", "bigint[]"],
  ["array_cat('{1}'::int[], '{2.5}'::numeric[])", "numeric[]"],
  ["array_position('{1,2}'::int[], 2)", "integer"],
  ["array_position('{1,2}'::int[], 2.5)", "integer"],
  ["array_to_string('{1,2}', ',')", "ERROR 42804: could not determine polymorphic type because input has type unknown"],
  ["array_to_string('{1,2}'::int[], ',')", "text"],
  ["quote_literal(1.5)", "text"],
  ["quote_nullable('2020-01-01'::date)", "text"],
  ["cardinality('{1,2}'::int[])", "integer"],
  ["array_length('{1}', 1)", "ERROR 42804: could not determine polymorphic type because input has type unknown"],
  ["width_bucket(5, '{1,3,5}'::int[])", "integer"],
];

// [expression, PostgreSQL 15's result or ERROR sqlstate: message]
const RESOLUTION_ERRORS: ReadonlyArray<readonly [string, string]> = [
  // catalog-style predicates (oid / reg* / name / int2 columns against literals)
  ["1::oid = 1259", "f"],
  ["1::int2 > 0", "t"],
  ["'pg_x'::name ~~ 'pg%'", "t"],
  ["1::oid::regclass = 1259", "f"],
  ["'a'::name = 'a'::varchar", "t"],
  ["1::int8 = 1::int2", "t"],
  // || between text, arrays and other types
  ["'{1}'::int[] || '{2}'", "{1,2}"],
  ["'a' || '{1}'::int[]", "ERROR 22P02: malformed array literal: \"a\""],
  ["1 || 2", "ERROR 42883: operator does not exist: integer || integer"],
  ["NULL || 'a'", ""],
  ["'a'::varchar || 'b'::varchar", "ab"],
  ["'a'::char(2) || 'b'::char(2)", "ab"],
  ["'a'::name || 'b'::name", "ab"],
  ["'{a}'::text[] || 'b'", "ERROR 22P02: malformed array literal: \"b\""],
  ["'x' || 1::int2", "x1"],
  // the examples of the "Type Conversion" chapter (10.2-10.3)
  ["|/ 40", "6.324555320336759"],
  ["@ '-4.5'", "4.5"],
  ["@ '-4.5e500'", "ERROR 22003: \"-4.5e500\" is out of range for type double precision"],
  ["round(4, 4)", "4.0000"],
  ["substr('1234', 3)", "34"],
  ["substr('1234'::varchar, 3)", "34"],
  ["substr(1234, 3)", "ERROR 42883: function substr(integer, integer) does not exist"],
  ["'abc'::text || 'def'", "abcdef"],
  ["'abc' || 'def'", "abcdef"],
  ["'{1,2}'::int[] <@ '{1,2,3}'", "t"],
  ["length(1)", "ERROR 42883: function length(integer) does not exist"],
  ["'a' + 'b'", "ERROR 42725: operator is not unique: unknown + unknown"],
  ["1 + 'a'::text", "ERROR 42883: operator does not exist: integer + text"],
  ["foo(1)", "ERROR 42883: function foo(integer) does not exist"],
  ["lpad(1, 2)", "ERROR 42883: function lpad(integer, integer) does not exist"],
  ["- 'a'", "ERROR 42725: operator is not unique: - unknown"],
  ["'a' || 'b' || 1", "ab1"],
  ["abs('x')", "ERROR 22P02: invalid input syntax for type double precision: \"x\""],
  ["substr(1, 2)", "ERROR 42883: function substr(integer, integer) does not exist"],
  ["round('2.5')", "2"],
  ["round(2.5, 'a')", "ERROR 22P02: invalid input syntax for type integer: \"a\""],
];

// typename(x): function-style casts (func_get_detail's FUNCDETAIL_COERCION and pg_proc's cast functions)
const FUNCTION_STYLE_CASTS: ReadonlyArray<readonly [string, string]> = [
  ["text(1)", "1"],
  ["int4('12')", "12"],
  ["float8(1)", "1"],
  ["int4(1.5)", "2"],
  ["int8(2.5::float8)", "2"],
  ["bool('t')", "t"],
  ["date('2020-01-02')", "2020-01-02"],
  ["name('x')", "x"],
  ["int4(true)", "1"],
  ["text(true)", "true"],
  ["int2(100000)", "ERROR 22003: smallint out of range"],
  ["date(1)", "ERROR 42883: function date(integer) does not exist"],
  ["float8('abc')", "ERROR 22P02: invalid input syntax for type double precision: \"abc\""],
  ["int4('1'::text)", "1"],
];

describe('type resolution', () => {
  test.each(FUNCTION_STYLE_CASTS)('%s → %s', (expr, expected) => {
    expect(evalSql(expr)).toBe(expected);
  });
  test.each(TYPES)('pg_typeof(%s) = %s', (expr, type) => {
    expect(typeOfSql(expr)).toBe(type);
  });
  test.each(TYPES_POLYMORPHIC)('pg_typeof(%s) = %s', (expr, type) => {
    expect(typeOfSql(expr)).toBe(type);
  });
  test.each(TYPES_ALL_FAMILIES)('pg_typeof(%s) = %s', (expr, type) => {
    expect(typeOfSql(expr)).toBe(type);
  });
  test.each(RESOLUTION_ERRORS)('%s → %s', (expr, expected) => {
    expect(evalSql(expr)).toBe(expected);
  });
});

describe('FunctionRegistry API', () => {
  const r = getDefaultRegistry();
  test('hint on undefined function', () => {
    try {
      r.resolveFunction('length', [sqlType(Oid.int4)]);
      expect.unreachable();
    } catch (e) {
      expect((e as { hint?: string }).hint).toBe('No function matches the given name and argument types. You might need to add explicit type casts.');
    }
  });
  test('canCoerce follows pg_cast contexts and I/O rules', () => {
    expect(r.canCoerce(Oid.int4, Oid.int8, 'i')).toBe(true);
    expect(r.canCoerce(Oid.int8, Oid.int4, 'i')).toBe(false);
    expect(r.canCoerce(Oid.int8, Oid.int4, 'a')).toBe(true);
    expect(r.canCoerce(Oid.unknown, Oid.date, 'i')).toBe(true);
    expect(r.canCoerce(Oid.int4, Oid.text, 'i')).toBe(false);
    expect(r.canCoerce(Oid.int4, Oid.text, 'a')).toBe(true);
    expect(r.canCoerce(Oid.text, Oid.int4, 'a')).toBe(false);
    expect(r.canCoerce(Oid.text, Oid.int4, 'e')).toBe(true);
    expect(r.canCoerce(Oid.bool, Oid.int4, 'a')).toBe(false);
    expect(r.canCoerce(Oid.bool, Oid.int4, 'e')).toBe(true);
    expect(r.canCoerce(Oid._int4, Oid._int8, 'i')).toBe(true);
    expect(r.canCoerce(Oid._int8, Oid._int4, 'i')).toBe(false);
  });
  test('routines, operators, casts and OIDs', () => {
    expect(r.routines('LENGTH').length).toBeGreaterThanOrEqual(3);
    expect(r.operators('+').length).toBeGreaterThan(20);
    expect(r.cast(Oid.int4, Oid.int8)?.context).toBe('i');
    expect(r.allCasts().length).toBeGreaterThan(50);
    const res = r.resolveFunction('length', [sqlType(Oid.text)]);
    expect(res.oid).toBe(1317);
    const plus = r.resolveOperator('+', sqlType(Oid.int4), sqlType(Oid.int4));
    expect(plus.oid).toBe(551);
    const assigned = r.allRoutines().map((d) => r.oidOf(d)).filter((o) => o >= 100000);
    expect(new Set(assigned).size).toBe(assigned.length);
  });
  test('polymorphic return types', () => {
    const res = r.resolveFunction('array_agg', [sqlType(Oid.int4)]);
    expect(res.returnType.oid).toBe(Oid._int4);
    const mx = r.resolveFunction('max', [sqlType(Oid._text)]);
    expect(mx.returnType.oid).toBe(Oid._text);
    const q = r.resolveFunction('quote_literal', [sqlType(Oid.int4)]);
    expect(q.argTypes[0]?.oid).toBe(Oid.int4);
  });
  test('variadic any expands', () => {
    const res = r.resolveFunction('concat', [sqlType(Oid.int4), sqlType(Oid.text), sqlType(Oid.unknown)]);
    expect(res.argTypes.length).toBe(3);
    expect(res.returnType.oid).toBe(Oid.text);
  });
});

describe('default registry contents', () => {
  const r = getDefaultRegistry();
  test('no two routines share a signature', () => {
    const seen = new Map<string, number>();
    const dups: string[] = [];
    for (const d of r.allRoutines()) {
      const k = `${d.name}(${d.args.join(',')})`;
      if (seen.has(k)) dups.push(k);
      seen.set(k, 1);
    }
    expect(dups).toEqual([]);
  });
  test('no two operators share a signature', () => {
    const seen = new Set<string>();
    const dups: string[] = [];
    for (const d of r.allOperators()) {
      const k = `${d.left} ${d.name} ${d.right}`;
      if (seen.has(k)) dups.push(k);
      seen.add(k);
    }
    expect(dups).toEqual([]);
  });
  test('PostgreSQL OIDs are unique', () => {
    const oids = [...r.allRoutines(), ...r.allOperators()].map((d) => d.oid).filter((o) => o !== undefined);
    const routineOids = r.allRoutines().map((d) => d.oid).filter((o) => o !== undefined);
    expect(new Set(routineOids).size).toBe(routineOids.length);
    expect(oids.length).toBeGreaterThan(300);
  });
});


describe('resolveCommonType (select_common_type)', () => {
  const r = getDefaultRegistry();
  const common = (ctx: string, ...oids: number[]): string => {
    try {
      return formatType(r.resolveCommonType(oids.map((o) => sqlType(o)), ctx).oid);
    } catch (e) {
      return `ERROR ${(e as { code: string }).code}: ${(e as Error).message}`;
    }
  };
  test.each([
    ['UNION', [Oid.int4, Oid.text], 'ERROR 42804: UNION types integer and text cannot be matched'],
    ['UNION', [Oid.int4, Oid.numeric], 'numeric'],
    ['UNION', [Oid.int8, Oid.int4], 'bigint'],
    ['UNION', [Oid.unknown, Oid.unknown], 'text'],
    ['COALESCE', [Oid.int4, Oid.numeric], 'numeric'],
    ['COALESCE', [Oid.float4, Oid.numeric], 'real'],
    ['COALESCE', [Oid.numeric, Oid.float4], 'real'],
    ['COALESCE', [Oid.varchar, Oid.text], 'character varying'],
    ['COALESCE', [Oid.text, Oid.varchar], 'text'],
    ['COALESCE', [Oid.timestamptz, Oid.date], 'timestamp with time zone'],
    ['COALESCE', [Oid.date, Oid.timestamptz], 'timestamp with time zone'],
    ['COALESCE', [Oid.int4, Oid.bool], 'ERROR 42804: COALESCE types integer and boolean cannot be matched'],
    ['COALESCE', [Oid.date, Oid.time], 'ERROR 42846: COALESCE could not convert type time without time zone to date'],
    ['CASE', [Oid.int4, Oid.unknown], 'integer'],
  ] as const)('%s %j → %s', (ctx, oids, expected) => {
    expect(common(ctx, ...oids)).toBe(expected);
  });
  test('typmod kept only when all agree', () => {
    expect(r.resolveCommonType([sqlType(Oid.varchar, 7), sqlType(Oid.varchar, 7)], 'UNION').typmod).toBe(7);
    expect(r.resolveCommonType([sqlType(Oid.varchar, 7), sqlType(Oid.varchar, 9)], 'UNION').typmod).toBe(-1);
  });
});

describe('f(..., VARIADIC array)', () => {
  const r = getDefaultRegistry();
  test('VARIADIC "any" takes the array as is; the executor spreads it', () => {
    const res = r.resolveFunction('concat', [sqlType(Oid._text)], { variadicArray: true });
    expect(res.variadicArray).toBe(true);
    expect(res.def.oid).toBe(3058);
    expect(res.argTypes.map((t) => t.oid)).toEqual([Oid._text]);
    expect(res.returnType.oid).toBe(Oid.text);
    const f = r.resolveFunction('format', [sqlType(Oid.unknown), sqlType(Oid._int4)], { variadicArray: true });
    expect(f.def.oid).toBe(3539);
  });
  test('a non-array VARIADIC argument is 42804', () => {
    expect(() => r.resolveFunction('concat', [sqlType(Oid.int4)], { variadicArray: true })).toThrow('VARIADIC argument must be an array');
  });
  test('non-variadic routines are not candidates', () => {
    expect(() => r.resolveFunction('length', [sqlType(Oid._text)], { variadicArray: true })).toThrow('function length(text[]) does not exist');
  });
});
