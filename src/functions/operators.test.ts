/**
 * Arithmetic, bitwise and comparison operators against PostgreSQL 15's answers (values and SQLSTATEs),
 * evaluated through the registry so operator resolution and implicit coercions are exercised too.
 */
import { describe, expect, test } from 'vitest';
import { evalSql, harnessContext } from './sql-harness.ts';
import { compareValues, valueKey } from './compare-values.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { pgArray } from '../common/pgtypes/values.ts';

// [expression, PostgreSQL 15 output (psql -At) or ERROR sqlstate: message]
const CASES: ReadonlyArray<readonly [string, string]> = [
  ["1 + 1", "2"],
  ["2147483647 + 1", "ERROR 22003: integer out of range"],
  ["-2147483648 - 1", "ERROR 22003: integer out of range"],
  ["32767::int2 + 1::int2", "ERROR 22003: smallint out of range"],
  ["32767::int2 + 1", "32768"],
  ["9223372036854775807 + 1", "ERROR 22003: bigint out of range"],
  ["9223372036854775807::int8 * 2", "ERROR 22003: bigint out of range"],
  ["-9223372036854775808 / -1", "ERROR 22003: bigint out of range"],
  ["-2147483648 / -1", "ERROR 22003: integer out of range"],
  ["-2147483648 % -1", "0"],
  ["7 / 2", "3"],
  ["-7 / 2", "-3"],
  ["-7 % 3", "-1"],
  ["7 % -3", "1"],
  ["1 / 0", "ERROR 22012: division by zero"],
  ["1 % 0", "ERROR 22012: division by zero"],
  ["1::int8 / 0", "ERROR 22012: division by zero"],
  ["1.0 / 0", "ERROR 22012: division by zero"],
  ["1::float8 / 0", "ERROR 22012: division by zero"],
  ["0::float8 / 0", "ERROR 22012: division by zero"],
  ["1::float4 / 0::float4", "ERROR 22012: division by zero"],
  ["1 + 1.5", "2.5"],
  ["1.5 * 2.25", "3.375"],
  ["10 / 4.0", "2.5000000000000000"],
  ["1 / 3.0", "0.33333333333333333333"],
  ["2 / 3::numeric", "0.66666666666666666667"],
  ["7.5 % 2", "1.5"],
  ["-7.5 % 2", "-1.5"],
  ["1e308::float8 * 10", "ERROR 22003: value out of range: overflow"],
  ["1e-308::float8 * 1e-308", "ERROR 22003: value out of range: underflow"],
  ["1e38::float4 * 10::float4", "ERROR 22003: value out of range: overflow"],
  ["1e-38::float4 * 1e-10::float4", "ERROR 22003: value out of range: underflow"],
  ["0.1::float8 + 0.2::float8", "0.30000000000000004"],
  ["1.5::float4 + 1.1::float4", "2.6"],
  ["2 ^ 3", "8"],
  ["2 ^ -1", "0.5"],
  ["(-8) ^ (1.0/3)", "ERROR 2201F: a negative number raised to a non-integer power yields a complex result"],
  ["0 ^ -1", "ERROR 2201F: zero raised to a negative power is undefined"],
  ["(-8)::float8 ^ 0.5", "ERROR 2201F: a negative number raised to a non-integer power yields a complex result"],
  ["2.0 ^ 0.5", "1.4142135623730950"],
  ["10::float8 ^ -400", "ERROR 22003: value out of range: underflow"],
  ["10::float8 ^ 400", "ERROR 22003: value out of range: overflow"],
  ["- 2147483647", "-2147483647"],
  ["- (-32768)::int2", "ERROR 22003: smallint out of range"],
  ["- (-9223372036854775808)::int8", "ERROR 22003: bigint out of range"],
  ["@ (-2147483648)", "ERROR 22003: integer out of range"],
  ["@ -5.5", "5.5"],
  ["|/ 16", "4"],
  ["|/ (-1)", "ERROR 2201F: cannot take square root of a negative number"],
  ["5 & 3", "1"],
  ["5 | 3", "7"],
  ["5 # 3", "6"],
  ["~ 5", "-6"],
  ["1 << 31", "-2147483648"],
  ["1 << 32", "1"],
  ["1::int2 << 15", "-32768"],
  ["1::int8 << 63", "-9223372036854775808"],
  ["-16 >> 2", "-4"],
  ["'NaN'::float8 + 1", "NaN"],
  ["'Infinity'::float8 - 'Infinity'::float8", "NaN"],
  ["'NaN'::numeric + 1", "NaN"],
  ["'Infinity'::numeric * 0", "NaN"],
  ["1::int2 * 40000", "40000"],
  ["100000 * 100000", "ERROR 22003: integer out of range"],
  ["3000000000 * 2", "6000000000"],
  ["5::int2 / 2::int8", "2"],
  ["5 / 2::int2", "2"],
  ["1 = 1", "t"],
  ["1 = 1.0", "t"],
  ["1::int8 < 2", "t"],
  ["2::int2 > 1::int8", "t"],
  ["'NaN'::float8 = 'NaN'::float8", "t"],
  ["'NaN'::float8 > 'Infinity'::float8", "t"],
  ["'NaN'::numeric > 'Infinity'::numeric", "t"],
  ["0.0::float8 = -0.0::float8", "t"],
  ["1.10 = 1.1", "t"],
  ["'a' < 'b'", "t"],
  ["'B' < 'a'", "t"],
  ["'ab' < 'abc'", "t"],
  ["'\u00e9' > 'z'", "t"],
  ["'ab '::char(3) = 'ab'::char(5)", "t"],
  ["'ab'::char(3) < 'ab '::char(3)", "f"],
  ["true > false", "t"],
  ["'\\x01'::bytea < '\\x0102'::bytea", "t"],
  ["'2020-01-01'::date < '2020-01-02'::date", "t"],
  ["'{1,2}'::int[] < '{1,3}'::int[]", "t"],
  ["'{1,2}'::int[] = '{1,2}'::int[]", "t"],
  ["'{1,2}'::int[] < '{1,2,0}'::int[]", "t"],
];

describe('operators', () => {
  test.each(CASES)('%s → %s', (expr, expected) => {
    expect(evalSql(expr)).toBe(expected);
  });
});

describe('compareValues / valueKey', () => {
  test('total orders as PostgreSQL', () => {
    expect(compareValues(Oid.float8, NaN, Infinity)).toBe(1);
    expect(compareValues(Oid.float8, NaN, NaN)).toBe(0);
    expect(compareValues(Oid.numeric, Numeric.NaN, Numeric.POSITIVE_INFINITY)).toBeGreaterThan(0);
    expect(compareValues(Oid.text, '\u{1F600}', '\uFFFD')).toBe(1); // code-point (UTF-8) order
    expect(compareValues(Oid.bpchar, 'ab  ', 'ab')).toBe(0);
    expect(compareValues(Oid.interval, { months: 1, days: 0, micros: 0n }, { months: 0, days: 30, micros: 0n })).toBe(0);
    expect(compareValues(Oid._int4, pgArray(Oid.int4, [1, null]), pgArray(Oid.int4, [1, 2]))).toBe(1);
    expect(compareValues(Oid.jsonb, '{"a": 1}', '[1, 2, 3]')).toBe(1);
    expect(compareValues(Oid.jsonb, '1', '"a"')).toBe(1);
    expect(compareValues(Oid.jsonb, '[]', 'null')).toBe(-1);
  });
  test('hash keys agree with equality', () => {
    expect(valueKey(Oid.numeric, Numeric.parse('1.50'))).toBe(valueKey(Oid.numeric, Numeric.parse('1.5')));
    expect(valueKey(Oid.int8, 5n)).toBe(valueKey(Oid.int4, 5));
    expect(valueKey(Oid.float8, -0)).toBe(valueKey(Oid.float8, 0));
    expect(valueKey(Oid.jsonb, '{"a": 1.0, "b": [2.50]}')).toBe(valueKey(Oid.jsonb, '{"a": 1, "b": [2.5]}'));
    expect(compareValues(Oid.jsonb, '{"a": 1.0}', '{"a": 1}')).toBe(0);
    expect(valueKey(Oid.float8, NaN)).toBe(valueKey(Oid.float8, NaN));
    expect(valueKey(Oid.bpchar, 'a  ')).toBe(valueKey(Oid.bpchar, 'a'));
    expect(valueKey(Oid.interval, { months: 1, days: 0, micros: 0n })).toBe(valueKey(Oid.interval, { months: 0, days: 30, micros: 0n }));
    expect(valueKey(Oid._int4, pgArray(Oid.int4, [1, 2]))).toBe(valueKey(Oid._int4, pgArray(Oid.int4, [1, 2])));
    expect(valueKey(Oid._int4, pgArray(Oid.int4, [1, 2]))).not.toBe(valueKey(Oid._int4, pgArray(Oid.int4, [12])));
  });
});

describe('cross-type date/time comparisons use the session TimeZone', () => {
  const ny = harnessContext('America/New_York');
  test.each([
    ["'2020-01-01 00:00'::timestamp = '2020-01-01 05:00+00'::timestamptz", 't'],
    ["'2020-01-01'::date = '2020-01-01 05:00+00'::timestamptz", 't'],
    ["'2020-01-01'::date < '2020-01-01 04:59+00'::timestamptz", 'f'],
    ["'2020-07-01 00:00'::timestamp < '2020-07-01 04:00+00'::timestamptz", 'f'],
  ])('%s → %s (America/New_York)', (expr, expected) => {
    expect(evalSql(expr, ny)).toBe(expected);
  });
});
