/**
 * Aggregates against PostgreSQL 15: `select agg from (values (v1::type), ...) v(x)`. Each case also runs
 * split in two partial states merged with combine(), which must give the same answer.
 */
import { describe, expect, test } from 'vitest';
import { sqlType } from '../common/pgtypes/oids.ts';
import { typeByName } from '../common/pgtypes/registry.ts';
import { GatewayError } from '../common/errors.ts';
import type { AggregateDef, AggregateState } from './registry-types.ts';
import { getDefaultRegistry } from './index.ts';
import { harnessContext, render } from './sql-harness.ts';
import { textInput } from './text-io.ts';
import { applyCoercion } from './coercions.ts';

// [aggregate call, input type, input values (SQL literals), PostgreSQL 15 output]
const CASES: ReadonlyArray<readonly [string, string, readonly string[], string]> = [
  ["count(*)", "int4", ["1", "NULL", "3"], "3"],
  ["count(x)", "int4", ["1", "NULL", "3"], "2"],
  ["count(x)", "int4", [], "0"],
  ["sum(x)", "int4", ["1", "2", "3"], "6"],
  ["sum(x)", "int2", ["1", "2"], "3"],
  ["sum(x)", "int8", ["9223372036854775807", "1"], "9223372036854775808"],
  ["sum(x)", "numeric", ["1.5", "2.25", "NULL"], "3.75"],
  ["sum(x)", "float8", ["0.1", "0.2"], "0.30000000000000004"],
  ["sum(x)", "float4", ["1.5", "2.25"], "3.75"],
  ["sum(x)", "int4", [], ""],
  ["sum(x)", "float8", ["1e308", "1e308"], "ERROR 22003: value out of range: overflow"],
  ["sum(x)", "int4", ["2147483647", "2147483647"], "4294967294"],
  ["avg(x)", "int4", ["1", "2", "3", "4"], "2.5000000000000000"],
  ["avg(x)", "int8", ["1", "2"], "1.5000000000000000"],
  ["avg(x)", "int2", ["1", "2", "2"], "1.6666666666666667"],
  ["avg(x)", "numeric", ["1.5", "2.25", "3.0"], "2.2500000000000000"],
  ["avg(x)", "numeric", ["1", "2"], "1.5000000000000000"],
  ["avg(x)", "float8", ["1.5", "2.25", "3.1"], "2.283333333333333"],
  ["avg(x)", "float4", ["1.5", "2.5"], "2"],
  ["avg(x)", "int4", [], ""],
  ["avg(x)", "numeric", ["'NaN'", "1"], "NaN"],
  ["stddev(x)", "int4", ["1", "2", "3", "4"], "1.2909944487358056"],
  ["stddev_samp(x)", "int4", ["1", "2", "3", "4"], "1.2909944487358056"],
  ["stddev_pop(x)", "int4", ["1", "2", "3", "4"], "1.1180339887498948"],
  ["variance(x)", "int4", ["1", "2", "3", "4"], "1.6666666666666667"],
  ["var_samp(x)", "int8", ["1", "2", "3", "4"], "1.6666666666666667"],
  ["var_pop(x)", "int4", ["1", "2", "3", "4"], "1.2500000000000000"],
  ["stddev(x)", "numeric", ["1.5", "2.25", "3.0"], "0.75000000000000000000"],
  ["variance(x)", "numeric", ["1.5", "2.25", "3.0"], "0.56250000000000000000"],
  ["var_pop(x)", "numeric", ["1.5", "2.25", "3.0"], "0.37500000000000000000"],
  ["stddev_pop(x)", "numeric", ["1.5", "2.25", "3.0"], "0.61237243569579452455"],
  ["stddev(x)", "float8", ["1.5", "2.25", "3.1"], "0.8005206639015221"],
  ["variance(x)", "float8", ["1.5", "2.25", "3.1"], "0.6408333333333337"],
  ["var_pop(x)", "float8", ["1.5", "2.25", "3.1"], "0.42722222222222245"],
  ["stddev_pop(x)", "float8", ["1.5", "2.25", "3.1"], "0.6536223850375861"],
  ["stddev(x)", "int4", ["5"], ""],
  ["stddev_pop(x)", "int4", ["5"], "0"],
  ["variance(x)", "int4", ["5", "5"], "0"],
  ["stddev(x)", "float8", ["5"], ""],
  ["variance(x)", "int4", ["1000000000", "1000000001", "999999999"], "1.00000000000000000000"],
  ["stddev(x)", "numeric", ["0.001", "0.002", "0.004"], "0.001527525231651946668754"],
  ["min(x)", "int4", ["3", "1", "NULL", "2"], "1"],
  ["max(x)", "int4", ["3", "1", "2"], "3"],
  ["max(x)", "text", ["'b'", "'a'", "'c'"], "c"],
  ["min(x)", "text", ["'b'", "'B'", "'a'"], "B"],
  ["max(x)", "numeric", ["1.50", "1.5", "1.2"], "1.5"],
  ["max(x)", "float8", ["1", "'NaN'", "2"], "NaN"],
  ["min(x)", "float8", ["1", "'NaN'", "2"], "1"],
  ["max(x)", "int4", [], ""],
  ["max(x)", "int8", ["1", "20"], "20"],
  ["min(x)", "bpchar", ["'b'", "'a '"], "a "],
  ["bool_and(x)", "bool", ["true", "false"], "f"],
  ["bool_and(x)", "bool", ["true", "NULL"], "t"],
  ["bool_or(x)", "bool", ["false", "false"], "f"],
  ["every(x)", "bool", ["true", "true"], "t"],
  ["bit_and(x)", "int4", ["7", "14"], "6"],
  ["bit_or(x)", "int4", ["1", "4"], "5"],
  ["bit_xor(x)", "int8", ["5", "3"], "6"],
  ["bit_or(x)", "int2", ["1", "2"], "3"],
  ["string_agg(x, ',')", "text", ["'a'", "NULL", "'b'", "'c'"], "a,b,c"],
  ["string_agg(x, NULL)", "text", ["'a'", "'b'"], "ab"],
  ["string_agg(x, ',')", "text", ["NULL"], ""],
  ["array_agg(x)", "int4", ["1", "NULL", "3"], "{1,NULL,3}"],
  ["array_agg(x)", "text", ["'a'", "'b c'"], "{a,\"b c\"}"],
  ["array_agg(x)", "int4", [], ""],
  ["array_agg(x)", "int4[]", ["'{1,2}'", "'{3,4}'"], "{{1,2},{3,4}}"],
  ["array_agg(x)", "int4[]", ["'{1,2}'", "'{3}'"], "ERROR 2202E: cannot accumulate arrays of different dimensionality"],
  ["array_agg(x)", "int4[]", ["'{1,2}'", "NULL"], "ERROR 22004: cannot accumulate null arrays"],
  ["array_agg(x)", "int4[]", ["'{}'"], "ERROR 2202E: cannot accumulate empty arrays"],
  ["max(x)", "int4[]", ["'{1,2}'", "'{1,3}'"], "{1,3}"],
  ["string_agg(x, ',')", "bytea", ["'\\x01'", "'\\x02'"], "\\x012c02"],
  ["min(x)", "date", ["'2020-01-01'", "'2019-01-01'"], "2019-01-01"],
  ["max(x)", "interval", ["'1 day'", "'25 hours'"], "25:00:00"],
  ["sum(x)", "interval", ["'1 day'", "'2 hours'", "'1 mon'"], "1 mon 1 day 02:00:00"],
  ["avg(x)", "interval", ["'1 day'", "'2 hours'", "'1 mon'"], "10 days 08:40:00"],
  ["avg(x)", "interval", ["'1 day'", "'3 days'"], "2 days"],
];

function run(call: string, typeName: string, literals: readonly string[], split: boolean): string {
  const ctx = harnessContext();
  const t = typeByName(typeName)!;
  const m = /^(\w+)\((.*)\)$/.exec(call)!;
  const name = m[1]!;
  const rawArgs = m[2] === '*' ? [] : (m[2]!.match(/'[^']*'|[^,\s]+/g) ?? []);
  const extraText = rawArgs.slice(1).map((a) => (a === 'NULL' ? null : a.slice(1, -1)));
  const argTypes = rawArgs.map((_a, i) => sqlType(i === 0 ? t.oid : 705));
  try {
    const r = getDefaultRegistry().resolveFunction(name, argTypes);
    const def = r.def as AggregateDef;
    const extra = extraText.map((x, i) => applyCoercion(getDefaultRegistry(), x, sqlType(705), r.argTypes[i + 1]!, 'i', ctx));
    const values = literals.map((l) => (l === 'NULL' ? null : textInput(t.oid, -1, l.startsWith("'") ? l.slice(1, -1) : l, ctx)));
    const states: AggregateState[] = [def.create(ctx, r.argTypes, r.returnType), def.create(ctx, r.argTypes, r.returnType)];
    values.forEach((v, i) => {
      const row = rawArgs.length === 0 ? [] : [v, ...extra];
      if ((def.strict ?? true) && row.some((x) => x === null)) return;
      states[split && i >= values.length / 2 ? 1 : 0]!.step(row);
    });
    if (split) states[0]!.combine!(states[1]!);
    return render(r.returnType.oid, states[0]!.final());
  } catch (e) {
    if (GatewayError.is(e)) return `ERROR ${e.code}: ${e.message}`;
    throw e;
  }
}

describe('aggregates', () => {
  test.each(CASES)('%s over %s %j → %s', (call, type, values, expected) => {
    expect(run(call, type, values, false)).toBe(expected);
  });
  test.each(CASES.filter((c) => !c[1].startsWith('float')))('%s over %s %j (combined) → %s', (call, type, values, expected) => {
    expect(run(call, type, values, true)).toBe(expected);
  });
});
