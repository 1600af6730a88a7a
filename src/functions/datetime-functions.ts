/**
 * Date/time SQL functions (PostgreSQL 15 semantics): the current-time family, date_trunc, date_part /
 * extract, age, to_char / to_date / to_timestamp, make_*, justify_*, date_bin, isfinite, timezone().
 * Operators and casts live in datetime-operators.ts / datetime-casts.ts and are re-exported here.
 * @see https://www.postgresql.org/docs/15/functions-datetime.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY, type Interval, type TimeTz } from '../common/pgtypes/values.ts';
import type { EvalContext, RoutineDef, ScalarFunctionDef } from './registry-types.ts';
import {
  USECS_PER_DAY, checkTimestamp, daysFromCivil, daysInMonth, floorDiv, isInfiniteTs, timestampToTm,
} from './datetime-fields.ts';
import {
  TYPE_DATE, TYPE_INTERVAL, TYPE_TIME, TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ, decToNumber, extractInterval, extractTimestamp,
  parseUnit, truncInterval, truncTimestamp, unitNotSupported, type Dec, type Unit,
} from './datetime-units.ts';
import { age, justifyDays, justifyHours, justifyInterval, rint, timestampPlusInterval } from './interval-math.ts';
import { localToUtc, offsetAtUtc, resolveZone, utcToLocal, zoneAbbreviation, type Zone } from './timezone.ts';
import {
  clockMicros, dateToTimestamp, roundMicros, sessionZoneOf, timeOfTimestamp,
  timestampToTimestamptz, timestamptzToTimestamp,
} from './datetime-support.ts';
import { toCharInterval, toCharTimestamp } from './to-char.ts';
import { toCharNumeric, toCharFloat } from './to-char-numeric.ts';
import { parseToTimestamp } from './to-timestamp.ts';

export { datetimeOperators } from './datetime-operators.ts';
export { datetimeCasts } from './datetime-casts.ts';

const { date: DATE, time: TIME, timetz: TIMETZ, timestamp: TS, timestamptz: TSTZ, interval: INTERVAL, text: TEXT, int4: INT4, float8: FLOAT8, numeric: NUMERIC, bool: BOOL, int8: INT8 } = Oid;

type Impl = ScalarFunctionDef['impl'];
const fn = (name: string, args: number[], returns: number, impl: Impl, volatility: 'i' | 's' | 'v' = 'i', extra: Partial<ScalarFunctionDef> = {}): ScalarFunctionDef =>
  ({ kind: 'scalar', name, args, returns, impl, volatility, ...extra });

// ---- current time ----------------------------------------------------------------------------------

function precisionArg(p: unknown): number {
  const n = p as number;
  if (n < 0) throw pgError(SqlState.invalid_parameter_value, `TIMESTAMP(${n}) precision must not be negative`);
  return Math.min(n, 6);
}

function localNow(ctx: EvalContext): bigint {
  return utcToLocal(sessionZoneOf(ctx), ctx.transactionTimestamp);
}

function currentTimeTz(ctx: EvalContext, precision: number): TimeTz {
  const zone = sessionZoneOf(ctx);
  const micros = Number(roundMicros(BigInt(timeOfTimestamp(utcToLocal(zone, ctx.transactionTimestamp))), precision));
  return { micros: micros % 86_400_000_000, offsetSeconds: offsetAtUtc(zone, ctx.transactionTimestamp) };
}

const currentFunctions: ScalarFunctionDef[] = [
  fn('now', [], TSTZ, (_a, ctx) => ctx.transactionTimestamp, 's', { oid: 1299 }),
  fn('transaction_timestamp', [], TSTZ, (_a, ctx) => ctx.transactionTimestamp, 's', { oid: 2647 }),
  fn('statement_timestamp', [], TSTZ, (_a, ctx) => ctx.statementTimestamp, 's', { oid: 2648 }),
  fn('clock_timestamp', [], TSTZ, () => clockMicros(), 'v', { oid: 2649 }),
  fn('current_timestamp', [], TSTZ, (_a, ctx) => ctx.transactionTimestamp, 's'),
  fn('current_timestamp', [INT4], TSTZ, (a, ctx) => roundMicros(ctx.transactionTimestamp, precisionArg(a[0])), 's'),
  fn('localtimestamp', [], TS, (_a, ctx) => localNow(ctx), 's'),
  fn('localtimestamp', [INT4], TS, (a, ctx) => roundMicros(localNow(ctx), precisionArg(a[0])), 's'),
  fn('current_date', [], DATE, (_a, ctx) => Number(floorDiv(localNow(ctx), USECS_PER_DAY)), 's'),
  fn('current_time', [], TIMETZ, (_a, ctx) => currentTimeTz(ctx, 6), 's'),
  fn('current_time', [INT4], TIMETZ, (a, ctx) => currentTimeTz(ctx, precisionArg(a[0])), 's'),
  fn('localtime', [], TIME, (_a, ctx) => timeOfTimestamp(localNow(ctx)), 's'),
  fn('localtime', [INT4], TIME, (a, ctx) => Number(roundMicros(BigInt(timeOfTimestamp(localNow(ctx))), precisionArg(a[0]))) % 86_400_000_000, 's'),
  fn('timeofday', [], TEXT, (_a, ctx) => timeofday(ctx), 'v', { oid: 274 }),
];

const DOW = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** timeofday(): 'Mon Nov 30 11:29:22.123456 2026 UTC' */
function timeofday(ctx: EvalContext): string {
  const zone = sessionZoneOf(ctx);
  const now = clockMicros();
  const tm = timestampToTm(utcToLocal(zone, now));
  const dow = DOW[(((daysFromCivil(tm.year, tm.month, tm.day) + 4) % 7) + 7) % 7];
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return `${dow} ${MON[tm.month - 1]} ${p2(tm.day)} ${p2(tm.hour)}:${p2(tm.minute)}:${p2(tm.second)}.${String(tm.micro).padStart(6, '0')} ${tm.year} ${zoneAbbreviation(zone, now)}`;
}

// ---- date_trunc -------------------------------------------------------------------------------------

function truncTz(unitText: string, ts: bigint, zone: Zone): bigint {
  if (isInfiniteTs(ts)) { parseUnit(unitText, TYPE_TIMESTAMPTZ); return ts; }
  const unit = parseUnit(unitText, TYPE_TIMESTAMPTZ);
  const off = offsetAtUtc(zone, ts);
  const local = ts + BigInt(off) * 1_000_000n;
  const t = truncTimestamp(unit, unitText, local, TYPE_TIMESTAMPTZ);
  // Units of a day or more re-resolve the zone offset; smaller ones keep the original offset (as PostgreSQL).
  const redo = !['hour', 'minute', 'second', 'milliseconds', 'microseconds'].includes(unit);
  return checkTimestamp(redo ? localToUtc(zone, t) : t - BigInt(off) * 1_000_000n);
}

const truncFunctions: ScalarFunctionDef[] = [
  fn('date_trunc', [TEXT, TS], TS, (a) => {
    const ts = a[1] as bigint;
    const unit = parseUnit(a[0] as string, TYPE_TIMESTAMP);
    return isInfiniteTs(ts) ? ts : truncTimestamp(unit, a[0] as string, ts, TYPE_TIMESTAMP);
  }, 'i', { oid: 2020 }),
  fn('date_trunc', [TEXT, TSTZ], TSTZ, (a, ctx) => truncTz(a[0] as string, a[1] as bigint, sessionZoneOf(ctx)), 's', { oid: 1217 }),
  fn('date_trunc', [TEXT, TSTZ, TEXT], TSTZ, (a) => truncTz(a[0] as string, a[1] as bigint, resolveZone(a[2] as string)), 'i', { oid: 1284 }),
  fn('date_trunc', [TEXT, INTERVAL], INTERVAL, (a) => {
    const unit = parseUnit(a[0] as string, TYPE_INTERVAL);
    return truncInterval(unit, a[0] as string, a[1] as Interval);
  }, 'i', { oid: 1218 }),
];

// ---- date_part / extract ----------------------------------------------------------------------------

type Extracted = Dec | { julianMicros: bigint; jday: number } | 'inf' | '-inf';

function toNumericResult(r: Extracted): Numeric {
  if (r === 'inf') return Numeric.POSITIVE_INFINITY;
  if (r === '-inf') return Numeric.NEGATIVE_INFINITY;
  if ('jday' in r) {
    const jd = Numeric.fromBigInt(BigInt(r.jday));
    return jd.add(Numeric.fromBigInt(r.julianMicros).div(Numeric.fromBigInt(USECS_PER_DAY)));
  }
  return Numeric.of(r.value, r.scale);
}

function toFloatResult(r: Extracted): number {
  if (r === 'inf') return Infinity;
  if (r === '-inf') return -Infinity;
  if ('jday' in r) return r.jday + Number(r.julianMicros) / 86_400_000_000;
  return decToNumber(r);
}

/** Units that stay meaningful at ±infinity (PostgreSQL returns ±Infinity for them, NULL for the rest). */
const MONOTONIC: ReadonlySet<Unit> = new Set<Unit>(['year', 'decade', 'century', 'millennium', 'julian', 'isoyear', 'epoch']);

function partTimestamp(unitText: string, ts: bigint, tz: Zone | null): Extracted | null {
  const typeName = tz ? TYPE_TIMESTAMPTZ : TYPE_TIMESTAMP;
  const unit = parseUnit(unitText, typeName);
  if (isInfiniteTs(ts)) {
    if (!tz && unit.startsWith('timezone')) throw unitNotSupported(unit, typeName);
    return MONOTONIC.has(unit) ? (ts > 0n ? 'inf' : '-inf') : null;
  }
  if (tz) {
    const off = offsetAtUtc(tz, ts);
    const local = ts + BigInt(off) * 1_000_000n;
    return extractTimestamp(unit, unitText, local, typeName, ts, off);
  }
  return extractTimestamp(unit, unitText, ts, typeName, ts, null);
}

const DATE_UNITS: ReadonlySet<Unit> = new Set<Unit>(['day', 'month', 'quarter', 'week', 'year', 'decade', 'century', 'millennium', 'julian', 'isoyear', 'dow', 'isodow', 'doy', 'epoch']);

/** extract(field from date): date-only fields; epoch at midnight UTC. */
function partDate(unitText: string, d: number): Extracted | null {
  const unit = parseUnit(unitText, TYPE_DATE);
  if (!DATE_UNITS.has(unit)) throw unitNotSupported(unit, TYPE_DATE);
  if (!Number.isFinite(d)) return MONOTONIC.has(unit) ? (d > 0 ? 'inf' : '-inf') : null;
  const ts = BigInt(d) * USECS_PER_DAY;
  const r = extractTimestamp(unit, unitText, ts, TYPE_DATE, ts, null);
  if (unit === 'epoch') return { value: BigInt(d) * 86400n, scale: 0 };
  if ('jday' in r) return { value: BigInt(r.jday), scale: 0 };
  return r;
}

function partTime(unitText: string, t: number): Extracted {
  const unit = parseUnit(unitText, TYPE_TIME);
  const sec = Math.floor(t / 1_000_000) % 60;
  const usec = t % 1_000_000;
  switch (unit) {
    case 'microseconds': return { value: BigInt(sec * 1_000_000 + usec), scale: 0 };
    case 'milliseconds': return { value: BigInt(sec * 1_000_000 + usec), scale: 3 };
    case 'second': return { value: BigInt(sec * 1_000_000 + usec), scale: 6 };
    case 'minute': return { value: BigInt(Math.floor(t / 60_000_000) % 60), scale: 0 };
    case 'hour': return { value: BigInt(Math.floor(t / 3_600_000_000)), scale: 0 };
    case 'epoch': return { value: BigInt(t), scale: 6 };
    default: throw unitNotSupported(unit, TYPE_TIME);
  }
}

function partInterval(unitText: string, iv: Interval): Extracted {
  return extractInterval(parseUnit(unitText, TYPE_INTERVAL), iv);
}

type PartFn = (unit: string, v: unknown, ctx: EvalContext) => Extracted | null;
// source type, extractor, volatility, PostgreSQL 15's pg_proc.oid of date_part and of extract for that type
const PART_SOURCES: ReadonlyArray<[number, PartFn, 'i' | 's', number, number]> = [
  [TS, (u, v) => partTimestamp(u, v as bigint, null), 'i', 2021, 6202],
  [TSTZ, (u, v, ctx) => partTimestamp(u, v as bigint, sessionZoneOf(ctx)), 's', 1171, 6203],
  [INTERVAL, (u, v) => partInterval(u, v as Interval), 'i', 1172, 6204],
  [DATE, (u, v) => partDate(u, v as number), 'i', 1384, 6199],
  [TIME, (u, v) => partTime(u, v as number), 'i', 1385, 6200],
];

const partFunctions: ScalarFunctionDef[] = PART_SOURCES.flatMap(([type, part, vol, datePartOid, extractOid]) => [
  fn('date_part', [TEXT, type], FLOAT8, (a, ctx) => {
    // PostgreSQL's date_part(text, date) is date_part(text, date::timestamp)
    const r = type === DATE ? partTimestamp(a[0] as string, dateToTimestamp(a[1] as number), null) : part(a[0] as string, a[1], ctx);
    return r === null ? null : toFloatResult(r);
  }, vol, { oid: datePartOid }),
  fn('extract', [TEXT, type], NUMERIC, (a, ctx) => {
    const r = part(a[0] as string, a[1], ctx);
    return r === null ? null : toNumericResult(r);
  }, vol, { oid: extractOid }),
]);

// ---- age, justify, isfinite -------------------------------------------------------------------------

function midnightToday(ctx: EvalContext): bigint {
  return floorDiv(localNow(ctx), USECS_PER_DAY) * USECS_PER_DAY;
}

function ageChecked(a: bigint, b: bigint): Interval {
  if (isInfiniteTs(a) || isInfiniteTs(b)) throw pgError(SqlState.datetime_field_overflow, 'interval out of range');
  return age(a, b);
}

const ageFunctions: ScalarFunctionDef[] = [
  fn('age', [TS, TS], INTERVAL, (a) => ageChecked(a[0] as bigint, a[1] as bigint), 'i', { oid: 2058 }),
  fn('age', [TSTZ, TSTZ], INTERVAL, (a, ctx) => {
    const z = sessionZoneOf(ctx);
    return ageChecked(timestamptzToTimestamp(a[0] as bigint, z), timestamptzToTimestamp(a[1] as bigint, z));
  }, 's', { oid: 1199 }),
  fn('age', [TS], INTERVAL, (a, ctx) => ageChecked(midnightToday(ctx), a[0] as bigint), 's', { oid: 2059 }),
  fn('age', [TSTZ], INTERVAL, (a, ctx) => ageChecked(midnightToday(ctx), timestamptzToTimestamp(a[0] as bigint, sessionZoneOf(ctx))), 's', { oid: 1386 }),
  fn('justify_days', [INTERVAL], INTERVAL, (a) => justifyDays(a[0] as Interval), 'i', { oid: 1295 }),
  fn('justify_hours', [INTERVAL], INTERVAL, (a) => justifyHours(a[0] as Interval), 'i', { oid: 1175 }),
  fn('justify_interval', [INTERVAL], INTERVAL, (a) => justifyInterval(a[0] as Interval), 'i', { oid: 2711 }),
  fn('isfinite', [DATE], BOOL, (a) => Number.isFinite(a[0] as number), 'i', { oid: 1373 }),
  fn('isfinite', [TS], BOOL, (a) => !isInfiniteTs(a[0] as bigint), 'i', { oid: 2048 }),
  fn('isfinite', [TSTZ], BOOL, (a) => !isInfiniteTs(a[0] as bigint), 'i', { oid: 1389 }),
  fn('isfinite', [INTERVAL], BOOL, () => true, 'i', { oid: 1390 }),
];

// ---- make_* -----------------------------------------------------------------------------------------

function makeDateDays(y: number, m: number, d: number): number {
  // make_date accepts negative years as BC (no year zero)
  const bad = (): Error => pgError(SqlState.datetime_field_overflow, `date field value out of range: ${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  if (y === 0 || m < 1 || m > 12 || d < 1) throw bad();
  const astro = y < 0 ? y + 1 : y;
  if (d > daysInMonth(astro, m)) throw bad();
  const days = daysFromCivil(astro, m, d);
  if (days < -2440588 || days > daysFromCivil(5874897, 12, 31)) throw pgError(SqlState.datetime_field_overflow, `date out of range: ${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  return days;
}

function timeFields(h: number, mi: number, sec: number, what: 'time' | 'timestamp'): number {
  const usec = rint(sec * 1e6);
  if (h < 0 || mi < 0 || mi > 59 || !(sec >= 0) || usec > 60_000_000 || h > 24 || (h === 24 && (mi > 0 || usec > 0))) {
    const secText = Number.isInteger(sec) ? String(sec).padStart(2, '0') : String(sec).padStart(2, '0');
    throw pgError(SqlState.datetime_field_overflow, what === 'time'
      ? `time field value out of range: ${h}:${String(mi).padStart(2, '0')}:${secText}`
      : `date field value out of range: ${h}:${String(mi).padStart(2, '0')}:${secText}`);
  }
  return (h * 3600 + mi * 60) * 1_000_000 + usec;
}

function makeTimestamp(a: unknown[]): bigint {
  const days = makeDateDays(a[0] as number, a[1] as number, a[2] as number);
  const h = a[3] as number, mi = a[4] as number, sec = a[5] as number;
  if (h < 0 || h > 24 || mi < 0 || mi > 59 || !(sec >= 0) || sec > 60 || (h === 24 && (mi > 0 || sec > 0))) {
    throw pgError(SqlState.datetime_field_overflow, `time field value out of range: ${h}:${String(mi).padStart(2, '0')}:${String(sec).padStart(2, '0')}`);
  }
  return checkTimestamp(BigInt(days) * USECS_PER_DAY + BigInt(timeFields(h, mi, sec, 'timestamp')));
}

function makeInterval(a: unknown[]): Interval {
  const [years, months, weeks, days, hours, mins] = a.slice(0, 6).map((v) => v as number) as [number, number, number, number, number, number];
  const secs = a[6] as number;
  if (!Number.isFinite(secs)) throw pgError(SqlState.datetime_field_overflow, 'interval out of range');
  const m = years * 12 + months;
  const d = weeks * 7 + days;
  if (Math.abs(m) > 2147483647 || Math.abs(d) > 2147483647) throw pgError(SqlState.datetime_field_overflow, 'interval out of range');
  const micros = BigInt(hours) * 3_600_000_000n + BigInt(mins) * 60_000_000n + BigInt(rint(secs * 1e6));
  return { months: m, days: d, micros };
}

const MAKE_TS_ARGS = ['year', 'month', 'mday', 'hour', 'min', 'sec'];

const makeFunctions: ScalarFunctionDef[] = [
  // argNames are pg_proc.proargnames (named notation: make_interval(days => 10))
  fn('make_date', [INT4, INT4, INT4], DATE, (a) => makeDateDays(a[0] as number, a[1] as number, a[2] as number), 'i', { oid: 3846, argNames: ['year', 'month', 'day'] }),
  fn('make_time', [INT4, INT4, FLOAT8], TIME, (a) => timeFields(a[0] as number, a[1] as number, a[2] as number, 'time'), 'i', { oid: 3847, argNames: ['hour', 'min', 'sec'] }),
  fn('make_timestamp', [INT4, INT4, INT4, INT4, INT4, FLOAT8], TS, (a) => makeTimestamp(a), 'i', { oid: 3461, argNames: MAKE_TS_ARGS }),
  fn('make_timestamptz', [INT4, INT4, INT4, INT4, INT4, FLOAT8], TSTZ, (a, ctx) => timestampToTimestamptz(makeTimestamp(a), sessionZoneOf(ctx)), 's', { oid: 3462, argNames: MAKE_TS_ARGS }),
  fn('make_timestamptz', [INT4, INT4, INT4, INT4, INT4, FLOAT8, TEXT], TSTZ, (a) => timestampToTimestamptz(makeTimestamp(a), resolveZone(a[6] as string)), 's', { oid: 3463, argNames: [...MAKE_TS_ARGS, 'timezone'] }),
  {
    kind: 'scalar', name: 'make_interval', args: [INT4, INT4, INT4, INT4, INT4, INT4, FLOAT8], defaults: 7, returns: INTERVAL,
    argNames: ['years', 'months', 'weeks', 'days', 'hours', 'mins', 'secs'], argDefaults: [0, 0, 0, 0, 0, 0, 0],
    oid: 3464, volatility: 'i', impl: (a) => makeInterval([0, 1, 2, 3, 4, 5, 6].map((i) => a[i] ?? 0)),
  },
];

// ---- date_bin, timezone, to_timestamp ---------------------------------------------------------------

function dateBin(stride: Interval, source: bigint, origin: bigint): bigint {
  if (isInfiniteTs(source)) return source;
  if (isInfiniteTs(origin)) throw pgError(SqlState.feature_not_supported, 'origin out of range');
  if (stride.months !== 0) throw pgError(SqlState.feature_not_supported, 'timestamps cannot be binned into intervals containing months or years');
  const strideUsecs = BigInt(stride.days) * USECS_PER_DAY + stride.micros;
  if (strideUsecs <= 0n) throw pgError(SqlState.datetime_field_overflow, 'stride must be greater than zero');
  const tmDelta = source - origin;
  let delta = tmDelta - (tmDelta % strideUsecs);
  // bigint % truncates toward zero: a source before the origin belongs to the bin that starts earlier
  if (tmDelta < 0n && tmDelta % strideUsecs !== 0n) delta -= strideUsecs;
  return checkTimestamp(origin + delta);
}

function toTimestampFloat(x: number): bigint {
  if (Number.isNaN(x)) throw pgError(SqlState.datetime_field_overflow, 'timestamp cannot be NaN');
  if (x === Infinity) return TIMESTAMP_INFINITY;
  if (x === -Infinity) return TIMESTAMP_NEG_INFINITY;
  const us = rint(x * 1e6);
  if (!(us >= -210866803200000000 && us < 9.2233720368547758e18)) {
    throw pgError(SqlState.datetime_field_overflow, `timestamp out of range: "${String(x)}"`);
  }
  return BigInt(us);
}

const miscFunctions: ScalarFunctionDef[] = [
  fn('date_bin', [INTERVAL, TS, TS], TS, (a) => dateBin(a[0] as Interval, a[1] as bigint, a[2] as bigint), 'i', { oid: 6177 }),
  fn('date_bin', [INTERVAL, TSTZ, TSTZ], TSTZ, (a) => dateBin(a[0] as Interval, a[1] as bigint, a[2] as bigint), 'i', { oid: 6178 }),
  // AT TIME ZONE: timestamp (wall clock in zone) → timestamptz, and timestamptz → wall clock in zone
  fn('timezone', [TEXT, TS], TSTZ, (a) => timestampToTimestamptz(a[1] as bigint, resolveZone(a[0] as string)), 'i', { oid: 2069 }),
  fn('timezone', [TEXT, TSTZ], TS, (a) => timestamptzToTimestamp(a[1] as bigint, resolveZone(a[0] as string)), 'i', { oid: 1159 }),
  fn('timezone', [INTERVAL, TS], TSTZ, (a) => intervalZoneShift(a[0] as Interval, a[1] as bigint, -1n), 'i', { oid: 2070 }),
  fn('timezone', [INTERVAL, TSTZ], TS, (a) => intervalZoneShift(a[0] as Interval, a[1] as bigint, 1n), 'i', { oid: 1026 }),
  fn('to_timestamp', [FLOAT8], TSTZ, (a) => toTimestampFloat(a[0] as number), 'i', { oid: 1158 }),
  fn('to_timestamp', [TEXT, TEXT], TSTZ, (a, ctx) => parseToTimestamp(a[0] as string, a[1] as string, 'timestamptz', sessionZoneOf(ctx)) as bigint, 's', { oid: 1778 }),
  fn('to_date', [TEXT, TEXT], DATE, (a, ctx) => parseToTimestamp(a[0] as string, a[1] as string, 'date', sessionZoneOf(ctx)) as number, 's', { oid: 1780 }),
  fn('to_char', [TS, TEXT], TEXT, (a) => toCharTimestamp(a[0] as bigint, a[1] as string, null), 's', { oid: 2049 }),
  fn('to_char', [TSTZ, TEXT], TEXT, (a, ctx) => toCharTimestamp(a[0] as bigint, a[1] as string, sessionZoneOf(ctx)), 's', { oid: 1770 }),
  fn('to_char', [INTERVAL, TEXT], TEXT, (a) => toCharInterval(a[0] as Interval, a[1] as string), 's', { oid: 1768 }),
  fn('to_char', [NUMERIC, TEXT], TEXT, (a) => toCharNumeric(a[0] as Numeric, a[1] as string), 's', { oid: 1772 }),
  fn('to_char', [INT4, TEXT], TEXT, (a) => toCharNumeric(Numeric.fromBigInt(BigInt(a[0] as number)), a[1] as string), 's', { oid: 1773 }),
  fn('to_char', [INT8, TEXT], TEXT, (a) => toCharNumeric(Numeric.fromBigInt(a[0] as bigint), a[1] as string), 's', { oid: 1774 }),
  fn('to_char', [Oid.float4, TEXT], TEXT, (a) => toCharFloat(a[0] as number, a[1] as string, true), 's', { oid: 1775 }),
  fn('to_char', [FLOAT8, TEXT], TEXT, (a) => toCharFloat(a[0] as number, a[1] as string, false), 's', { oid: 1776 }),
];

/** timezone(interval, ...): a fixed offset given as an interval (east positive). */
function intervalZoneShift(iv: Interval, ts: bigint, dir: bigint): bigint {
  if (iv.months !== 0 || iv.days !== 0) {
    throw pgError(SqlState.invalid_parameter_value, `interval time zone "${intervalText(iv)}" must not include months or days`);
  }
  if (isInfiniteTs(ts)) return ts;
  return checkTimestamp(ts + dir * iv.micros);
}

function intervalText(iv: Interval): string {
  return `${iv.months} mons ${iv.days} days ${iv.micros} us`;
}

// ---- overlaps ---------------------------------------------------------------------------------------

/** (s1, e1) OVERLAPS (s2, e2) with PostgreSQL's NULL rules (overlaps_timestamp); values compare with `lt`. */
function overlaps<T>(a: (T | null)[], lt: (x: T, y: T) => boolean): boolean | null {
  let [s1, e1, s2, e2] = a as [T | null, T | null, T | null, T | null];
  if (s1 === null) { if (e1 === null) return null; s1 = e1; e1 = null; }
  else if (e1 !== null && lt(e1, s1)) [s1, e1] = [e1, s1];
  if (s2 === null) { if (e2 === null) return null; s2 = e2; e2 = null; }
  else if (e2 !== null && lt(e2, s2)) [s2, e2] = [e2, s2];
  if (lt(s2, s1)) {
    if (e2 === null) return null;
    if (lt(s1, e2)) return true;
    return e1 === null ? null : false;
  }
  if (lt(s1, s2)) {
    if (e1 === null) return null;
    if (lt(s2, e1)) return true;
    return e2 === null ? null : false;
  }
  return e1 === null || e2 === null ? null : true;
}

const ltNum = (x: number, y: number): boolean => x < y;
const ltBig = (x: bigint, y: bigint): boolean => x < y;

/** overlaps(start, interval, start, interval): the ends are start + interval. */
function overlapsWithIntervals(a: unknown[], zone: Zone | null): boolean | null {
  const end = (s: unknown, iv: unknown): bigint | null => (s === null || iv === null ? null : timestampPlusInterval(s as bigint, iv as Interval, zone));
  return overlaps<bigint>([a[0] as bigint | null, end(a[0], a[1]), a[2] as bigint | null, end(a[2], a[3])], ltBig);
}

const overlapsFunctions: ScalarFunctionDef[] = [
  fn('overlaps', [DATE, DATE, DATE, DATE], BOOL, (a) => overlaps<number>(a as (number | null)[], ltNum), 'i', { strict: false }),
  fn('overlaps', [TIME, TIME, TIME, TIME], BOOL, (a) => overlaps<number>(a as (number | null)[], ltNum), 'i', { strict: false, oid: 1308 }),
  fn('overlaps', [TS, TS, TS, TS], BOOL, (a) => overlaps<bigint>(a as (bigint | null)[], ltBig), 'i', { strict: false, oid: 2041 }),
  fn('overlaps', [TSTZ, TSTZ, TSTZ, TSTZ], BOOL, (a) => overlaps<bigint>(a as (bigint | null)[], ltBig), 'i', { strict: false, oid: 1304 }),
  fn('overlaps', [TS, INTERVAL, TS, INTERVAL], BOOL, (a) => overlapsWithIntervals(a, null), 'i', { strict: false, oid: 2042 }),
  fn('overlaps', [TSTZ, INTERVAL, TSTZ, INTERVAL], BOOL, (a, ctx) => overlapsWithIntervals(a, sessionZoneOf(ctx)), 's', { strict: false, oid: 1305 }),
];

export const datetimeFunctions: readonly RoutineDef[] = [
  ...currentFunctions, ...truncFunctions, ...partFunctions, ...ageFunctions, ...makeFunctions, ...miscFunctions, ...overlapsFunctions,
];

