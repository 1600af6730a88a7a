/**
 * Small helpers the date/time function, operator and cast files share: the session zone, typmod
 * rounding (AdjustTimestampForTypmod / AdjustIntervalForTypmod), date ↔ timestamp conversions with
 * infinities, and the current transaction/statement clock.
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY, type Interval } from '../common/pgtypes/values.ts';
import type { EvalContext } from './registry-types.ts';
import { USECS_PER_DAY, USECS_PER_HOUR, USECS_PER_MINUTE, checkDate, checkTimestamp, floorDiv } from './datetime-fields.ts';
import { localToUtc, resolveSessionZone, utcToLocal, type Zone } from './timezone.ts';

export function sessionZoneOf(ctx: EvalContext): Zone {
  return resolveSessionZone(ctx.session.getSetting('TimeZone', true) ?? 'UTC');
}

/** Rounds µs to `precision` fractional digits, half away from zero (PostgreSQL's typmod rounding). */
export function roundMicros(v: bigint, precision: number): bigint {
  if (precision < 0 || precision >= 6) return v;
  const scale = 10n ** BigInt(6 - precision);
  const offset = scale / 2n;
  return v >= 0n ? ((v + offset) / scale) * scale : -(((-v + offset) / scale) * scale);
}

export function precisionOf(typmod: number): number {
  return typmod < 0 ? -1 : Math.min(typmod, 6);
}

export function roundTimestamp(ts: bigint, typmod: number): bigint {
  if (ts === TIMESTAMP_INFINITY || ts === TIMESTAMP_NEG_INFINITY || typmod < 0) return ts;
  return checkTimestamp(roundMicros(ts, precisionOf(typmod)));
}

export function roundTime(t: number, typmod: number): number {
  if (typmod < 0) return t;
  return Number(roundMicros(BigInt(t), precisionOf(typmod)));
}

// Interval typmod: range bits in the high 16 bits, precision (0xFFFF = full) in the low 16.
const MONTH = 1 << 1, YEAR = 1 << 2, DAY = 1 << 3, HOUR = 1 << 10, MINUTE = 1 << 11, SECOND = 1 << 12;
const FULL_RANGE = 0x7fff;

export function roundInterval(iv: Interval, typmod: number): Interval {
  if (typmod < 0) return iv;
  const range = (typmod >> 16) & 0x7fff;
  const precision = typmod & 0xffff;
  let { months, days, micros } = iv;
  if (range !== FULL_RANGE) {
    if (range === YEAR) { months = Math.trunc(months / 12) * 12; days = 0; micros = 0n; }
    else if (range === MONTH || range === (YEAR | MONTH)) { days = 0; micros = 0n; }
    else if (range === DAY) micros = 0n;
    else if (range === HOUR || range === (DAY | HOUR)) micros = (micros / USECS_PER_HOUR) * USECS_PER_HOUR;
    else if (range === MINUTE || range === (HOUR | MINUTE) || range === (DAY | HOUR | MINUTE)) micros = (micros / USECS_PER_MINUTE) * USECS_PER_MINUTE;
  }
  if ((range & SECOND) !== 0 || range === FULL_RANGE) {
    if (precision !== 0xffff) micros = roundMicros(micros, precision);
  }
  return { months, days, micros };
}

export function dateToTimestamp(days: number): bigint {
  if (days === Infinity) return TIMESTAMP_INFINITY;
  if (days === -Infinity) return TIMESTAMP_NEG_INFINITY;
  const ts = BigInt(days) * USECS_PER_DAY;
  // date2timestamp's own wording (a date past 294276 AD)
  try { return checkTimestamp(ts); } catch { throw pgError(SqlState.datetime_field_overflow, 'date out of range for timestamp'); }
}

export function timestampToDate(ts: bigint): number {
  if (ts === TIMESTAMP_INFINITY) return Infinity;
  if (ts === TIMESTAMP_NEG_INFINITY) return -Infinity;
  return checkDate(Number(floorDiv(ts, USECS_PER_DAY)));
}

export function timestampToTimestamptz(ts: bigint, zone: Zone): bigint {
  if (ts === TIMESTAMP_INFINITY || ts === TIMESTAMP_NEG_INFINITY) return ts;
  return checkTimestamp(localToUtc(zone, ts));
}

export function timestamptzToTimestamp(ts: bigint, zone: Zone): bigint {
  if (ts === TIMESTAMP_INFINITY || ts === TIMESTAMP_NEG_INFINITY) return ts;
  return checkTimestamp(utcToLocal(zone, ts));
}

/** µs since midnight of a local timestamp */
export function timeOfTimestamp(ts: bigint): number {
  return Number(ts - floorDiv(ts, USECS_PER_DAY) * USECS_PER_DAY);
}

let lastClock = 0n;
/** clock_timestamp(): wall clock µs, strictly increasing within this process. */
export function clockMicros(): bigint {
  const ms = BigInt(Date.now()) * 1000n;
  const sub = BigInt(Math.floor((performance.now() % 1) * 1000));
  let v = ms + sub;
  if (v <= lastClock) v = lastClock + 1n;
  lastClock = v;
  return v;
}

export function outOfRangeField(): Error {
  return pgError(SqlState.datetime_field_overflow, 'date/time field value out of range');
}
