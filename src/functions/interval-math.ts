/**
 * Interval and timestamp arithmetic with PostgreSQL's semantics (timestamp.c): month arithmetic clamps to
 * the month end, timestamptz adds days on the local wall clock of the session zone, timestamp - timestamp
 * gives days + time (never months), age() borrows days from the earlier operand's month, and
 * interval * / float8 cascade fractional months and days down.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/timestamp.c
 */
import { pgError, divisionByZero } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { Interval } from '../common/pgtypes/values.ts';
import {
  USECS_PER_DAY, USECS_PER_SEC, checkTimestamp, daysInMonth, isInfiniteTs, timestampToTm, tmToTimestamp,
  type Tm,
} from './datetime-fields.ts';
import { localToUtc, utcToLocal, type Zone } from './timezone.ts';

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;
const SECS_PER_DAY = 86400;
const DAYS_PER_MONTH = 30;

export function interval(months: number, days: number, micros: bigint): Interval {
  return { months, days, micros };
}

export function intervalOutOfRange(): Error {
  return pgError(SqlState.datetime_field_overflow, 'interval out of range');
}

function checkInt32(n: number): number {
  if (!Number.isFinite(n) || n > INT32_MAX || n < INT32_MIN) throw intervalOutOfRange();
  return n;
}

function checkInt64(n: bigint): bigint {
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw intervalOutOfRange();
  return n;
}

export function intervalAdd(a: Interval, b: Interval): Interval {
  return interval(checkInt32(a.months + b.months), checkInt32(a.days + b.days), checkInt64(a.micros + b.micros));
}

export function intervalNeg(a: Interval): Interval {
  return interval(checkInt32(-a.months), checkInt32(-a.days), checkInt64(-a.micros));
}

export function intervalSub(a: Interval, b: Interval): Interval {
  return intervalAdd(a, intervalNeg(b));
}

/** C's rint: round half to even. */
export function rint(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const tsround = (j: number): number => rint(j * 1e6) / 1e6;

/** interval_mul / interval_div: fractional months spill into days (30 per month), fractional days into time. */
function scaleInterval(monthsF: number, daysF: number, timeF: number): Interval {
  if (!Number.isFinite(monthsF) || !Number.isFinite(daysF) || !Number.isFinite(timeF)) throw intervalOutOfRange();
  const months = checkInt32(Math.trunc(monthsF));
  let days = checkInt32(Math.trunc(daysF));
  const monthRemainderDays = tsround((monthsF - months) * DAYS_PER_MONTH);
  let secRemainder = tsround((daysF - days + monthRemainderDays - Math.trunc(monthRemainderDays)) * SECS_PER_DAY);
  if (Math.abs(secRemainder) >= SECS_PER_DAY) {
    days += Math.trunc(secRemainder / SECS_PER_DAY);
    secRemainder -= Math.trunc(secRemainder / SECS_PER_DAY) * SECS_PER_DAY;
  }
  days = checkInt32(days + Math.trunc(monthRemainderDays));
  const time = rint(timeF + secRemainder * 1e6);
  if (!Number.isFinite(time) || Math.abs(time) > 9.223372036854775e18) throw intervalOutOfRange();
  return interval(months, days, BigInt(time));
}

export function intervalMul(span: Interval, factor: number): Interval {
  if (Number.isNaN(factor)) throw pgError(SqlState.datetime_field_overflow, 'interval out of range');
  return scaleInterval(span.months * factor, span.days * factor, Number(span.micros) * factor);
}

export function intervalDiv(span: Interval, factor: number): Interval {
  if (factor === 0) throw divisionByZero();
  return scaleInterval(span.months / factor, span.days / factor, Number(span.micros) / factor);
}

/** Adds months to a broken-down date, clamping the day to the month's end (Jan 31 + 1 month = Feb 28/29). */
function addMonthsTm(tm: Tm, months: number): void {
  const total = tm.year * 12 + (tm.month - 1) + months;
  tm.year = Math.floor(total / 12);
  tm.month = total - tm.year * 12 + 1;
  tm.day = Math.min(tm.day, daysInMonth(tm.year, tm.month));
}

/** timestamp + interval (zone null) or timestamptz + interval (months/days applied on the zone's wall clock). */
export function timestampPlusInterval(ts: bigint, span: Interval, zone: Zone | null): bigint {
  if (isInfiniteTs(ts)) return ts;
  let t = ts;
  if (span.months !== 0 || span.days !== 0) {
    const local = zone ? utcToLocal(zone, t) : t;
    const tm = timestampToTm(local);
    if (span.months !== 0) addMonthsTm(tm, span.months);
    let l = tmToTimestamp(tm);
    if (span.days !== 0) l += BigInt(span.days) * USECS_PER_DAY;
    t = zone ? localToUtc(zone, l) : l;
  }
  return checkTimestamp(t + span.micros);
}

/** date + interval → timestamp */
export function datePlusInterval(days: number, span: Interval): bigint {
  return timestampPlusInterval(BigInt(days) * USECS_PER_DAY, span, null);
}

/** interval_justify_hours: whole days out of the time part; signs made consistent. */
export function justifyHours(span: Interval): Interval {
  let days = span.days + Number(span.micros / USECS_PER_DAY);
  let time = span.micros % USECS_PER_DAY;
  if (days > 0 && time < 0) { time += USECS_PER_DAY; days--; }
  else if (days < 0 && time > 0) { time -= USECS_PER_DAY; days++; }
  return interval(span.months, checkInt32(days), time);
}

/** interval_justify_days: 30-day chunks into months. */
export function justifyDays(span: Interval): Interval {
  let months = span.months + Math.trunc(span.days / DAYS_PER_MONTH);
  let days = span.days % DAYS_PER_MONTH;
  if (months > 0 && days < 0) { days += DAYS_PER_MONTH; months--; }
  else if (months < 0 && days > 0) { days -= DAYS_PER_MONTH; months++; }
  return interval(checkInt32(months), days, span.micros);
}

/** interval_justify_interval */
export function justifyInterval(span: Interval): Interval {
  let months = span.months;
  let days = span.days;
  let time = span.micros;
  months += Math.trunc(days / DAYS_PER_MONTH);
  days %= DAYS_PER_MONTH;
  days += Number(time / USECS_PER_DAY);
  time %= USECS_PER_DAY;
  months += Math.trunc(days / DAYS_PER_MONTH);
  days %= DAYS_PER_MONTH;
  if (months > 0 && (days < 0 || (days === 0 && time < 0))) { days += DAYS_PER_MONTH; months--; }
  else if (months < 0 && (days > 0 || (days === 0 && time > 0))) { days -= DAYS_PER_MONTH; months++; }
  if (days > 0 && time < 0) { time += USECS_PER_DAY; days--; }
  else if (days < 0 && time > 0) { time -= USECS_PER_DAY; days++; }
  return interval(checkInt32(months), days, time);
}

/** timestamp_mi: the difference as days + time, never months. */
export function timestampMinus(a: bigint, b: bigint): Interval {
  if (isInfiniteTs(a) || isInfiniteTs(b)) throw pgError(SqlState.datetime_field_overflow, 'cannot subtract infinite timestamps');
  return justifyHours(interval(0, 0, checkInt64(a - b)));
}

/** timestamp_age: symbolic field-by-field difference with PostgreSQL's borrowing (timestamps already local). */
export function age(t1: bigint, t2: bigint): Interval {
  const a = timestampToTm(t1);
  const b = timestampToTm(t2);
  let usec = a.micro - b.micro, sec = a.second - b.second, min = a.minute - b.minute, hour = a.hour - b.hour;
  let mday = a.day - b.day, mon = a.month - b.month, year = a.year - b.year;
  const neg = t1 < t2;
  if (neg) { usec = -usec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
  while (usec < 0) { usec += 1_000_000; sec--; }
  while (sec < 0) { sec += 60; min--; }
  while (min < 0) { min += 60; hour--; }
  while (hour < 0) { hour += 24; mday--; }
  while (mday < 0) {
    const ref = neg ? a : b;
    mday += daysInMonth(ref.year, ref.month);
    mon--;
  }
  while (mon < 0) { mon += 12; year--; }
  if (neg) { usec = -usec; sec = -sec; min = -min; hour = -hour; mday = -mday; mon = -mon; year = -year; }
  const micros = BigInt(((hour * 60 + min) * 60 + sec)) * USECS_PER_SEC + BigInt(usec);
  return interval(checkInt32(year * 12 + mon), mday, micros);
}

/** Compares intervals as PostgreSQL does: on the 30-day-month, 24-hour-day linear scale. */
export function intervalCmpValue(a: Interval): bigint {
  return (BigInt(a.months) * 30n + BigInt(a.days)) * USECS_PER_DAY + a.micros;
}

