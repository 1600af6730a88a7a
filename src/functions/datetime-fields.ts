/**
 * Calendar arithmetic shared by the date/time functions: days since 1970 ↔ (year, month, day) in the
 * proleptic Gregorian calendar (PostgreSQL's Julian-day calendar), timestamps split into broken-down
 * fields (PostgreSQL's `struct pg_tm`), ISO weeks, and the range checks PostgreSQL applies.
 * Years are astronomical here (0 = 1 BC), as in PostgreSQL's internal tm_year.
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY } from '../common/pgtypes/values.ts';
import { civilFromDays as pgCivilFromDays, daysFromCivil } from '../common/pgtypes/index.ts';

export const USECS_PER_SEC = 1_000_000n;
export const USECS_PER_MINUTE = 60_000_000n;
export const USECS_PER_HOUR = 3_600_000_000n;
export const USECS_PER_DAY = 86_400_000_000n;
export const USECS_PER_DAY_NUM = 86_400_000_000;

/** Broken-down time, like PostgreSQL's struct pg_tm plus fractional microseconds. */
export interface Tm {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
  hour: number;
  minute: number;
  second: number;
  micro: number; // 0..999999
}

export { daysFromCivil };

/** civil date of days since 1970-01-01 (the calendar math lives in pgtypes) */
export function civilFromDays(z: number): { year: number; month: number; day: number } {
  const [year, month, day] = pgCivilFromDays(z);
  return { year, month, day };
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : (MDAYS[m - 1] ?? 31);
}

/** 0 = Sunday .. 6 = Saturday */
export function dayOfWeek(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

export function dayOfYear(days: number): number {
  const { year } = civilFromDays(days);
  return days - daysFromCivil(year, 1, 1) + 1;
}

/** ISO 8601 week-numbering year and week of a date (PostgreSQL's date2isoyear / date2isoweek). */
export function isoWeek(days: number): { isoYear: number; week: number } {
  const dow = dayOfWeek(days);
  const isoDow = dow === 0 ? 7 : dow;
  const thursday = days - isoDow + 4;
  const { year } = civilFromDays(thursday);
  const week = Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1;
  return { isoYear: year, week };
}

/** First day (Monday) of ISO week 1 of an ISO year. */
export function isoYearStart(isoYear: number): number {
  const jan4 = daysFromCivil(isoYear, 1, 4);
  const dow = dayOfWeek(jan4);
  return jan4 - ((dow + 6) % 7);
}

export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

export function timestampToTm(ts: bigint): Tm {
  const days = floorDiv(ts, USECS_PER_DAY);
  let t = Number(ts - days * USECS_PER_DAY);
  const { year, month, day } = civilFromDays(Number(days));
  const micro = t % 1_000_000;
  t = (t - micro) / 1_000_000;
  const second = t % 60;
  t = (t - second) / 60;
  return { year, month, day, hour: Math.floor(t / 60), minute: t % 60, second, micro };
}

export function tmToTimestamp(tm: Tm): bigint {
  const days = daysFromCivil(tm.year, tm.month, tm.day);
  const time = ((tm.hour * 60 + tm.minute) * 60 + tm.second) * 1_000_000 + tm.micro;
  return BigInt(days) * USECS_PER_DAY + BigInt(time);
}

export function timestampDays(ts: bigint): number {
  return Number(floorDiv(ts, USECS_PER_DAY));
}

export function timestampTimeOfDay(ts: bigint): number {
  return Number(ts - floorDiv(ts, USECS_PER_DAY) * USECS_PER_DAY);
}

export function isInfiniteTs(ts: bigint): boolean {
  return ts === TIMESTAMP_INFINITY || ts === TIMESTAMP_NEG_INFINITY;
}

// PostgreSQL's valid range: 4714-11-24 BC .. 294276-12-31 (timestamps), 5874897-12-31 (dates).
const MIN_TIMESTAMP = -210866803200000000n; // 4714-11-24 00:00:00 BC
// 294277-01-01 lies beyond int64 µs since 1970, so the infinity sentinel is the practical end.
const END_TIMESTAMP = TIMESTAMP_INFINITY;
const MIN_DATE = -2440588; // 4714-11-24 BC
const MAX_DATE = daysFromCivil(5874897, 12, 31);

export function timestampOutOfRange(): Error {
  return pgError(SqlState.datetime_field_overflow, 'timestamp out of range');
}

export function checkTimestamp(ts: bigint): bigint {
  if (ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP) throw timestampOutOfRange();
  return ts;
}

export function checkDate(days: number): number {
  if (!Number.isFinite(days)) return days;
  if (days < MIN_DATE || days > MAX_DATE) throw pgError(SqlState.datetime_field_overflow, 'date out of range');
  return days;
}

export function fieldOutOfRange(): Error {
  return pgError(SqlState.datetime_field_overflow, 'date/time field value out of range');
}
