/**
 * Set-returning functions: generate_series over int4 / int8 / numeric / timestamp / timestamptz,
 * unnest (one array, or several zipped in FROM) and generate_subscripts. Generators are lazy so a
 * LIMIT above them stops the series early.
 * @see https://www.postgresql.org/docs/15/functions-srf.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid, sqlType, type SqlType } from '../common/pgtypes/oids.ts';
import { elementTypeOf } from '../common/pgtypes/registry.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import type { Interval, PgArray } from '../common/pgtypes/values.ts';
import type { EvalContext, RoutineDef, SetFunctionDef } from './registry-types.ts';
import { USECS_PER_DAY } from './datetime-fields.ts';
import { timestampPlusInterval } from './interval-math.ts';
import { sessionZoneOf } from './datetime-support.ts';
import type { Zone } from './timezone.ts';

const { int4: INT4, int8: INT8, numeric: NUMERIC, timestamp: TS, timestamptz: TSTZ, interval: INTERVAL, anyarray: ANYARRAY, anyelement: ANYELEMENT, bool: BOOL } = Oid;

function zeroStep(): Error {
  return pgError(SqlState.invalid_parameter_value, 'step size cannot equal zero');
}

function* seriesInt(start: number, stop: number, step: number): Generator<number> {
  if (step === 0) throw zeroStep();
  for (let v = start; step > 0 ? v <= stop : v >= stop; v += step) yield v;
}

function* seriesBig(start: bigint, stop: bigint, step: bigint): Generator<bigint> {
  if (step === 0n) throw zeroStep();
  for (let v = start; step > 0n ? v <= stop : v >= stop; v += step) yield v;
}

function checkNumericArg(n: Numeric, what: string): void {
  if (n.isNaN()) throw pgError(SqlState.invalid_parameter_value, `${what} cannot be NaN`);
  if (n.isInfinite()) throw pgError(SqlState.invalid_parameter_value, `${what} cannot be infinity`);
}

function* seriesNumeric(start: Numeric, stop: Numeric, step: Numeric): Generator<Numeric> {
  checkNumericArg(start, 'start value');
  checkNumericArg(stop, 'stop value');
  checkNumericArg(step, 'step size');
  if (step.isZero()) throw zeroStep();
  const up = step.signum() > 0;
  // the scale of every value is the larger of start's and step's (as PostgreSQL's add_var)
  for (let v = start.add(Numeric.ZERO.mul(step)); up ? v.compare(stop) <= 0 : v.compare(stop) >= 0; v = v.add(step)) yield v;
}

function intervalSign(iv: Interval): number {
  const span = (BigInt(iv.months) * 30n + BigInt(iv.days)) * USECS_PER_DAY + iv.micros;
  return span > 0n ? 1 : span < 0n ? -1 : 0;
}

function* seriesTimestamp(start: bigint, stop: bigint, step: Interval, zone: Zone | null): Generator<bigint> {
  const sign = intervalSign(step);
  if (sign === 0) throw zeroStep();
  for (let v = start; sign > 0 ? v <= stop : v >= stop; v = timestampPlusInterval(v, step, zone)) yield v;
}

const set = (name: string, args: number[], returns: number | ((t: readonly SqlType[]) => SqlType), impl: SetFunctionDef['impl'], extra: Partial<SetFunctionDef> = {}): SetFunctionDef =>
  ({ kind: 'set', name, args, returns, impl, volatility: 'i', ...extra });

/** unnest: every element in storage order, whatever the dimensions. */
function* unnest(a: PgArray): Generator<unknown> {
  yield* a.values;
}

/** unnest(a, b, ...) in FROM: arrays zipped, shorter ones padded with NULL. */
function* unnestMany(arrays: readonly (PgArray | null)[]): Generator<unknown[]> {
  const n = Math.max(0, ...arrays.map((a) => a?.values.length ?? 0));
  for (let i = 0; i < n; i++) yield arrays.map((a) => a?.values[i] ?? null);
}

function* generateSubscripts(a: PgArray, dim: number, reverse: boolean): Generator<number> {
  if (dim < 1 || dim > a.dims.length) return;
  const lb = a.lowerBounds[dim - 1]!;
  const ub = lb + a.dims[dim - 1]! - 1;
  if (reverse) for (let i = ub; i >= lb; i--) yield i;
  else for (let i = lb; i <= ub; i++) yield i;
}

const elementOf = (t: readonly SqlType[], i = 0): SqlType => sqlType(elementTypeOf(t[i]?.oid ?? 0) || Oid.text);

function unnestDef(arity: number): SetFunctionDef {
  const args = Array.from({ length: arity }, () => ANYARRAY);
  return set('unnest', args, (t) => elementOf(t), (a) => unnestMany(a as (PgArray | null)[]), {
    strict: false,
    outColumns: (t) => t.map((_x, i) => ({ name: 'unnest', type: elementOf(t, i) })),
  });
}

export const setReturningFunctions: readonly RoutineDef[] = [
  set('generate_series', [INT4, INT4], INT4, (a) => seriesInt(a[0] as number, a[1] as number, 1), { oid: 1067 }),
  set('generate_series', [INT4, INT4, INT4], INT4, (a) => seriesInt(a[0] as number, a[1] as number, a[2] as number), { oid: 1066 }),
  set('generate_series', [INT8, INT8], INT8, (a) => seriesBig(a[0] as bigint, a[1] as bigint, 1n), { oid: 1069 }),
  set('generate_series', [INT8, INT8, INT8], INT8, (a) => seriesBig(a[0] as bigint, a[1] as bigint, a[2] as bigint), { oid: 1068 }),
  set('generate_series', [NUMERIC, NUMERIC], NUMERIC, (a) => seriesNumeric(a[0] as Numeric, a[1] as Numeric, Numeric.ONE), { oid: 3260 }),
  set('generate_series', [NUMERIC, NUMERIC, NUMERIC], NUMERIC, (a) => seriesNumeric(a[0] as Numeric, a[1] as Numeric, a[2] as Numeric), { oid: 3259 }),
  set('generate_series', [TS, TS, INTERVAL], TS, (a) => seriesTimestamp(a[0] as bigint, a[1] as bigint, a[2] as Interval, null), { oid: 938 }),
  set('generate_series', [TSTZ, TSTZ, INTERVAL], TSTZ, (a, ctx: EvalContext) => seriesTimestamp(a[0] as bigint, a[1] as bigint, a[2] as Interval, sessionZoneOf(ctx)), { oid: 939, volatility: 's' }),
  set('unnest', [ANYARRAY], ANYELEMENT, (a) => unnest(a[0] as PgArray), { oid: 2331 }),
  unnestDef(2), unnestDef(3), unnestDef(4),
  set('generate_subscripts', [ANYARRAY, INT4], INT4, (a) => generateSubscripts(a[0] as PgArray, a[1] as number, false), { oid: 1192 }),
  set('generate_subscripts', [ANYARRAY, INT4, BOOL], INT4, (a) => generateSubscripts(a[0] as PgArray, a[1] as number, a[2] as boolean), { oid: 1191 }),
];
