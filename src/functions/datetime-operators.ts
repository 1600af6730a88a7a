/**
 * Date/time arithmetic operators (pg_operator entries of PostgreSQL 15): date ± integer, date - date,
 * date + time, date/timestamp/timestamptz ± interval, timestamp - timestamp, time ± interval,
 * interval ± interval, interval * / float8 and unary minus. Comparisons are the generic ones.
 * @see https://www.postgresql.org/docs/15/functions-datetime.html#OPERATORS-DATETIME-TABLE
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import type { Interval } from '../common/pgtypes/values.ts';
import type { OperatorDef } from './registry-types.ts';
import { checkDate, checkTimestamp } from './datetime-fields.ts';
import { intervalAdd, intervalDiv, intervalMul, intervalNeg, intervalSub, timestampMinus, timestampPlusInterval } from './interval-math.ts';
import { dateToTimestamp, sessionZoneOf } from './datetime-support.ts';

const { date: DATE, time: TIME, timestamp: TS, timestamptz: TSTZ, interval: INTERVAL, int4: INT4, float8: FLOAT8 } = Oid;
const DAY = 86_400_000_000;

const op = (name: string, left: number, right: number, returns: number, impl: OperatorDef['impl'], procName: string, oid?: number): OperatorDef =>
  ({ name, left, right, returns, impl, procName, ...(oid === undefined ? {} : { oid }) });

function dateAddDays(d: number, n: number): number {
  if (!Number.isFinite(d)) return d;
  return checkDate(d + n);
}

function dateMinusDate(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) throw pgError(SqlState.datetime_field_overflow, 'cannot subtract infinite dates');
  return a - b;
}

/** time + interval wraps around midnight (interval's months and days are ignored, as in PostgreSQL). */
function timeAddInterval(t: number, iv: Interval, sign: 1 | -1): number {
  const delta = Number(iv.micros % BigInt(DAY)) * sign;
  return (((t + delta) % DAY) + DAY) % DAY;
}

function tsPlus(ts: bigint, iv: Interval): bigint {
  return timestampPlusInterval(ts, iv, null);
}

export const datetimeOperators: readonly OperatorDef[] = [
  op('+', DATE, INT4, DATE, (l, r) => dateAddDays(l as number, r as number), 'date_pli', 1100),
  op('+', INT4, DATE, DATE, (l, r) => dateAddDays(r as number, l as number), 'integer_pl_date', 2555),
  op('-', DATE, INT4, DATE, (l, r) => dateAddDays(l as number, -(r as number)), 'date_mii', 1101),
  op('-', DATE, DATE, INT4, (l, r) => dateMinusDate(l as number, r as number), 'date_mi', 1099),
  op('+', DATE, TIME, TS, (l, r) => checkTimestamp(dateToTimestamp(l as number) + (isFinite(l as number) ? BigInt(r as number) : 0n)), 'datetime_pl', 1360),
  op('+', TIME, DATE, TS, (l, r) => checkTimestamp(dateToTimestamp(r as number) + (isFinite(r as number) ? BigInt(l as number) : 0n)), 'timedate_pl', 1363),
  op('+', DATE, INTERVAL, TS, (l, r) => tsPlus(dateToTimestamp(l as number), r as Interval), 'date_pl_interval', 1076),
  op('+', INTERVAL, DATE, TS, (l, r) => tsPlus(dateToTimestamp(r as number), l as Interval), 'interval_pl_date', 2551),
  op('-', DATE, INTERVAL, TS, (l, r) => tsPlus(dateToTimestamp(l as number), intervalNeg(r as Interval)), 'date_mi_interval', 1077),
  op('+', TS, INTERVAL, TS, (l, r) => tsPlus(l as bigint, r as Interval), 'timestamp_pl_interval', 2066),
  op('+', INTERVAL, TS, TS, (l, r) => tsPlus(r as bigint, l as Interval), 'interval_pl_timestamp', 2553),
  op('-', TS, INTERVAL, TS, (l, r) => tsPlus(l as bigint, intervalNeg(r as Interval)), 'timestamp_mi_interval', 2068),
  op('-', TS, TS, INTERVAL, (l, r) => timestampMinus(l as bigint, r as bigint), 'timestamp_mi', 2067),
  op('+', TSTZ, INTERVAL, TSTZ, (l, r, ctx) => timestampPlusInterval(l as bigint, r as Interval, sessionZoneOf(ctx)), 'timestamptz_pl_interval', 1327),
  op('+', INTERVAL, TSTZ, TSTZ, (l, r, ctx) => timestampPlusInterval(r as bigint, l as Interval, sessionZoneOf(ctx)), 'interval_pl_timestamptz', 2554),
  op('-', TSTZ, INTERVAL, TSTZ, (l, r, ctx) => timestampPlusInterval(l as bigint, intervalNeg(r as Interval), sessionZoneOf(ctx)), 'timestamptz_mi_interval', 1329),
  op('-', TSTZ, TSTZ, INTERVAL, (l, r) => timestampMinus(l as bigint, r as bigint), 'timestamptz_mi', 1328),
  op('+', TIME, INTERVAL, TIME, (l, r) => timeAddInterval(l as number, r as Interval, 1), 'time_pl_interval', 1800),
  op('+', INTERVAL, TIME, TIME, (l, r) => timeAddInterval(r as number, l as Interval, 1), 'interval_pl_time', 1849),
  op('-', TIME, INTERVAL, TIME, (l, r) => timeAddInterval(l as number, r as Interval, -1), 'time_mi_interval', 1801),
  op('-', TIME, TIME, INTERVAL, (l, r) => ({ months: 0, days: 0, micros: BigInt((l as number) - (r as number)) }), 'time_mi_time', 1399),
  op('+', INTERVAL, INTERVAL, INTERVAL, (l, r) => intervalAdd(l as Interval, r as Interval), 'interval_pl', 1337),
  op('-', INTERVAL, INTERVAL, INTERVAL, (l, r) => intervalSub(l as Interval, r as Interval), 'interval_mi', 1338),
  op('-', 0, INTERVAL, INTERVAL, (_l, r) => intervalNeg(r as Interval), 'interval_um', 1336),
  op('*', INTERVAL, FLOAT8, INTERVAL, (l, r) => intervalMul(l as Interval, r as number), 'interval_mul', 1583),
  op('*', FLOAT8, INTERVAL, INTERVAL, (l, r) => intervalMul(r as Interval, l as number), 'mul_d_interval', 1584),
  op('/', INTERVAL, FLOAT8, INTERVAL, (l, r) => intervalDiv(l as Interval, r as number), 'interval_div', 1585),
];

