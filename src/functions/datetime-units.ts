/**
 * date_trunc and date_part/extract over broken-down fields, with PostgreSQL's unit names (and their
 * abbreviations), BC-year conventions and error wording. Results of extraction are exact decimals
 * ({ value, scale } = value / 10^scale) so extract() can return numeric and date_part() float8.
 * @see https://www.postgresql.org/docs/15/functions-datetime.html#FUNCTIONS-DATETIME-EXTRACT
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { Interval } from '../common/pgtypes/values.ts';
import {
  USECS_PER_DAY, dayOfWeek, dayOfYear, daysFromCivil, isoWeek, isoYearStart, timestampDays, timestampToTm, tmToTimestamp, type Tm,
} from './datetime-fields.ts';

export type Unit =
  | 'microseconds' | 'milliseconds' | 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year'
  | 'decade' | 'century' | 'millennium' | 'epoch' | 'dow' | 'isodow' | 'doy' | 'isoyear' | 'julian'
  | 'timezone' | 'timezone_hour' | 'timezone_minute';

const UNIT_ALIASES: Record<string, Unit> = {};
const addAliases = (unit: Unit, names: string[]): void => { for (const n of names) UNIT_ALIASES[n] = unit; };
addAliases('microseconds', ['microsecond', 'microseconds', 'microsecon', 'us', 'usec', 'usecs', 'useconds']);
addAliases('milliseconds', ['millisecond', 'milliseconds', 'millisecon', 'ms', 'msec', 'msecs', 'mseconds']);
addAliases('second', ['second', 'seconds', 's', 'sec', 'secs']);
addAliases('minute', ['minute', 'minutes', 'm', 'min', 'mins']);
addAliases('hour', ['hour', 'hours', 'h', 'hr', 'hrs']);
addAliases('day', ['day', 'days', 'd']);
addAliases('week', ['week', 'weeks', 'w']);
addAliases('month', ['month', 'months', 'mon', 'mons']);
addAliases('quarter', ['quarter', 'qtr']);
addAliases('year', ['year', 'years', 'y', 'yr', 'yrs']);
addAliases('decade', ['decade', 'decades', 'dec', 'decs']);
addAliases('century', ['century', 'centuries', 'c', 'cent']);
addAliases('millennium', ['millennium', 'millennia', 'mil', 'mils', 'millenia', 'millenniums']);
addAliases('epoch', ['epoch']);
addAliases('dow', ['dow']);
addAliases('isodow', ['isodow']);
addAliases('doy', ['doy']);
addAliases('isoyear', ['isoyear']);
addAliases('julian', ['julian', 'j']);
addAliases('timezone', ['timezone']);
addAliases('timezone_hour', ['timezone_h', 'timezone_hour']);
addAliases('timezone_minute', ['timezone_m', 'timezone_minute']);

export const TYPE_TIMESTAMP = 'timestamp without time zone';
export const TYPE_TIMESTAMPTZ = 'timestamp with time zone';
export const TYPE_INTERVAL = 'interval';
export const TYPE_DATE = 'date';
export const TYPE_TIME = 'time without time zone';

export function parseUnit(text: string, typeName: string): Unit {
  const u = UNIT_ALIASES[text.toLowerCase()];
  if (u === undefined) throw unitNotRecognized(text, typeName);
  return u;
}

export function unitNotRecognized(text: string, typeName: string): Error {
  return pgError(SqlState.invalid_parameter_value, `unit "${text.toLowerCase()}" not recognized for type ${typeName}`);
}

export function unitNotSupported(unit: string, typeName: string, detail?: string): Error {
  return pgError(SqlState.feature_not_supported, `unit "${unit}" not supported for type ${typeName}`, detail === undefined ? {} : { detail });
}

const TRUNC_UNITS: ReadonlySet<Unit> = new Set<Unit>(['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year', 'decade', 'century', 'millennium']);

/** date_trunc on a (local) timestamp. */
export function truncTimestamp(unit: Unit, unitText: string, ts: bigint, typeName: string): bigint {
  if (!TRUNC_UNITS.has(unit)) throw unitNotRecognized(unitText, typeName);
  const tm = timestampToTm(ts);
  if (unit === 'week') {
    const monday = isoYearStart(isoWeek(timestampDays(ts)).isoYear) + (isoWeek(timestampDays(ts)).week - 1) * 7;
    return BigInt(monday) * USECS_PER_DAY;
  }
  truncTm(unit, tm, false);
  return tmToTimestamp(tm);
}

/** The shared fall-through of PostgreSQL's timestamp_trunc / interval_trunc. */
function truncTm(unit: Unit, tm: Tm, isInterval: boolean): void {
  const order: Unit[] = ['millennium', 'century', 'decade', 'year', 'quarter', 'month', 'day', 'hour', 'minute', 'second', 'milliseconds', 'microseconds'];
  const start = order.indexOf(unit);
  const y = tm.year;
  if (!isInterval) {
    if (unit === 'millennium') tm.year = y > 0 ? Math.trunc((y + 999) / 1000) * 1000 - 999 : -Math.trunc((999 - (y - 1)) / 1000) * 1000 + 1;
    if (unit === 'century') tm.year = y > 0 ? Math.trunc((y + 99) / 100) * 100 - 99 : -Math.trunc((99 - (y - 1)) / 100) * 100 + 1;
    if (unit === 'decade') tm.year = y > 0 ? Math.trunc(y / 10) * 10 : -Math.trunc((8 - (y - 1)) / 10) * 10;
  } else {
    if (start <= 0) tm.year = Math.trunc(tm.year / 1000) * 1000;
    if (start <= 1) tm.year = Math.trunc(tm.year / 100) * 100;
    if (start <= 2) tm.year = Math.trunc(tm.year / 10) * 10;
  }
  const firstMonth = isInterval ? 0 : 1;
  const firstDay = isInterval ? 0 : 1;
  for (let i = Math.max(start, 3); i < order.length; i++) {
    switch (order[i]) {
      case 'year': tm.month = firstMonth; break;
      case 'quarter': tm.month = isInterval ? 3 * Math.trunc(tm.month / 3) : 3 * Math.trunc((tm.month - 1) / 3) + 1; break;
      case 'month': tm.day = firstDay; break;
      case 'day': tm.hour = 0; break;
      case 'hour': tm.minute = 0; break;
      case 'minute': tm.second = 0; break;
      case 'second': tm.micro = 0; break;
      case 'milliseconds': tm.micro = Math.trunc(tm.micro / 1000) * 1000; break;
      default: break;
    }
  }
}

export function intervalToTm(iv: Interval): Tm {
  const year = Math.trunc(iv.months / 12);
  let t = iv.micros;
  const hour = t / 3_600_000_000n; t -= hour * 3_600_000_000n;
  const minute = t / 60_000_000n; t -= minute * 60_000_000n;
  const second = t / 1_000_000n; t -= second * 1_000_000n;
  return { year, month: iv.months - year * 12, day: iv.days, hour: Number(hour), minute: Number(minute), second: Number(second), micro: Number(t) };
}

export function truncInterval(unit: Unit, unitText: string, iv: Interval): Interval {
  if (unit === 'week') throw unitNotSupported('week', TYPE_INTERVAL, 'Months usually have fractional weeks.');
  if (!TRUNC_UNITS.has(unit)) throw unitNotRecognized(unitText, TYPE_INTERVAL);
  const tm = intervalToTm(iv);
  truncTm(unit, tm, true);
  const micros = BigInt((tm.hour * 60 + tm.minute) * 60 + tm.second) * 1_000_000n + BigInt(tm.micro);
  return { months: tm.year * 12 + tm.month, days: tm.day, micros };
}

/** An exact decimal: value / 10^scale. */
export interface Dec { readonly value: bigint; readonly scale: number }
const dec = (value: bigint | number, scale = 0): Dec => ({ value: BigInt(value), scale });

/** Timestamp fields (local wall clock). `epochSeconds` is what 'epoch' reports (UTC for timestamptz). */
export function extractTimestamp(unit: Unit, unitText: string, ts: bigint, typeName: string, utcTs: bigint, offsetSeconds: number | null): Dec | { julianMicros: bigint; jday: number } {
  const tm = timestampToTm(ts);
  const y = tm.year;
  const days = timestampDays(ts);
  switch (unit) {
    case 'microseconds': return dec(tm.second * 1_000_000 + tm.micro);
    case 'milliseconds': return dec(tm.second * 1_000_000 + tm.micro, 3);
    case 'second': return dec(tm.second * 1_000_000 + tm.micro, 6);
    case 'minute': return dec(tm.minute);
    case 'hour': return dec(tm.hour);
    case 'day': return dec(tm.day);
    case 'month': return dec(tm.month);
    case 'quarter': return dec(Math.trunc((tm.month - 1) / 3) + 1);
    case 'week': return dec(isoWeek(days).week);
    case 'year': return dec(y > 0 ? y : y - 1);
    case 'decade': return dec(y >= 0 ? Math.trunc(y / 10) : -Math.trunc((8 - (y - 1)) / 10));
    case 'century': return dec(y > 0 ? Math.trunc((y + 99) / 100) : -Math.trunc((99 - (y - 1)) / 100));
    case 'millennium': return dec(y > 0 ? Math.trunc((y + 999) / 1000) : -Math.trunc((999 - (y - 1)) / 1000));
    case 'julian': return { jday: daysFromCivil(tm.year, tm.month, tm.day) + 2440588, julianMicros: ts - BigInt(days) * USECS_PER_DAY };
    case 'isoyear': { const iy = isoWeek(days).isoYear; return dec(iy > 0 ? iy : iy - 1); }
    case 'dow': return dec(dayOfWeek(days));
    case 'isodow': { const d = dayOfWeek(days); return dec(d === 0 ? 7 : d); }
    case 'doy': return dec(dayOfYear(days));
    case 'epoch': return dec(utcTs, 6);
    case 'timezone':
    case 'timezone_hour':
    case 'timezone_minute': {
      if (offsetSeconds === null) throw unitNotSupported(unit, typeName);
      if (unit === 'timezone') return dec(offsetSeconds);
      if (unit === 'timezone_hour') return dec(Math.trunc(offsetSeconds / 3600));
      return dec(Math.trunc((offsetSeconds % 3600) / 60));
    }
  }
  void unitText;
  throw unitNotSupported(unit, typeName);
}

export function extractInterval(unit: Unit, iv: Interval): Dec {
  const tm = intervalToTm(iv);
  switch (unit) {
    case 'microseconds': return dec(tm.second * 1_000_000 + tm.micro);
    case 'milliseconds': return dec(tm.second * 1_000_000 + tm.micro, 3);
    case 'second': return dec(tm.second * 1_000_000 + tm.micro, 6);
    case 'minute': return dec(tm.minute);
    case 'hour': return dec(tm.hour);
    case 'day': return dec(tm.day);
    case 'month': return dec(tm.month);
    case 'quarter': return dec(Math.trunc(tm.month / 3) + 1);
    case 'year': return dec(tm.year);
    case 'decade': return dec(Math.trunc(tm.year / 10));
    case 'century': return dec(Math.trunc(tm.year / 100));
    case 'millennium': return dec(Math.trunc(tm.year / 1000));
    case 'epoch': {
      // 365.25 days per year, 30 per month: count hundredths of a day (864e6 µs each)
      const dayHundredths = 36525n * BigInt(Math.trunc(iv.months / 12)) + 3000n * BigInt(iv.months % 12) + 100n * BigInt(iv.days);
      return dec(dayHundredths * 864_000_000n + iv.micros, 6);
    }
    default:
      throw unitNotSupported(unit, TYPE_INTERVAL);
  }
}

export function decToNumber(d: Dec): number {
  return Number(d.value) / 10 ** d.scale;
}

/** Decimal text of a Dec, keeping its scale (e.g. 1.500000). */
export function decToString(d: Dec): string {
  const neg = d.value < 0n;
  let digits = (neg ? -d.value : d.value).toString();
  if (d.scale === 0) return (neg ? '-' : '') + digits;
  digits = digits.padStart(d.scale + 1, '0');
  return (neg ? '-' : '') + digits.slice(0, -d.scale) + '.' + digits.slice(-d.scale);
}
