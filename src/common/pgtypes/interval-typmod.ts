/**
 * AdjustIntervalForTypmod: interval(p) and field-restricted intervals ('interval year', 'day to minute')
 * drop the fields below the range and round the seconds to p digits (half away from zero).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/timestamp.c (AdjustIntervalForTypmod)
 */
import type { Interval } from './values.ts';

// datetime.h INTERVAL_MASK bits
const MONTH = 1 << 1, YEAR = 1 << 2, DAY = 1 << 3, HOUR = 1 << 10, MINUTE = 1 << 11; // SECOND-ending ranges keep every field
const FULL_RANGE = 0x7fff, FULL_PRECISION = 0xffff;
const USECS_HOUR = 3_600_000_000n, USECS_MINUTE = 60_000_000n;

function truncTo(us: bigint, unit: bigint): bigint {
  return (us / unit) * unit; // BigInt division truncates toward zero, as C does
}

export function intervalTypmod(v: Interval, typmod: number): Interval {
  if (typmod < 0) return v;
  const range = (typmod >> 16) & 0x7fff;
  const precision = typmod & 0xffff;
  let { months, days, micros } = v;
  if (range !== FULL_RANGE) {
    if (range === YEAR) { months = Math.trunc(months / 12) * 12; days = 0; micros = 0n; }
    else if (range === MONTH || range === (YEAR | MONTH)) { days = 0; micros = 0n; }
    else if (range === DAY) micros = 0n;
    else if (range === HOUR || range === (DAY | HOUR)) micros = truncTo(micros, USECS_HOUR);
    else if (range === MINUTE || range === (DAY | HOUR | MINUTE) || range === (HOUR | MINUTE)) micros = truncTo(micros, USECS_MINUTE);
  }
  if (precision !== FULL_PRECISION && precision < 6) {
    const scale = 10n ** BigInt(6 - precision);
    const half = scale / 2n;
    micros = micros >= 0n ? ((micros + half) / scale) * scale : -(((-micros + half) / scale) * scale);
  }
  if (months === v.months && days === v.days && micros === v.micros) return v;
  return { months: months === 0 ? 0 : months, days: days === 0 ? 0 : days, micros };
}

/**
 * DecodeInterval: a number without units takes the rightmost field of the typmod's range
 * (INTERVAL '90' DAY is 90 days, INTERVAL '2' HOUR 2 hours); other input is returned unchanged.
 */
export function intervalDefaultUnits(text: string, typmod: number): string {
  if (typmod < 0 || !/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(text)) return text;
  const range = (typmod >> 16) & 0x7fff;
  let unit: string;
  if (range === YEAR) unit = 'years';
  else if (range === MONTH || range === (YEAR | MONTH)) unit = 'months';
  else if (range === DAY) unit = 'days';
  else if (range === HOUR || range === (DAY | HOUR)) unit = 'hours';
  else if (range === MINUTE || range === (HOUR | MINUTE) || range === (DAY | HOUR | MINUTE)) unit = 'minutes';
  else return text;
  return `${text.trim()} ${unit}`;
}
