/**
 * Text input/output of date, time, timetz, timestamp and timestamptz (DateStyle ISO output; input in the
 * forms decodeDateTime knows, ordered by the DateStyle's MDY/DMY/YMD). Values use the representation of
 * values.ts: date = days since 1970-01-01, timestamps = bigint µs since 1970-01-01, time = µs since midnight.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/date.c and timestamp.c
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY, type TimeTz } from './values.ts';
import {
  USECS_PER_DAY, USECS_PER_DAY_N, civilFromDays, daysFromCivil, formatOffset, formatTimeOfDay, formatYmd, pad2,
} from './calendar.ts';
import { type DateTimeFields, dateOrder, decodeDateTime, invalidDateTime } from './datetime-parse.ts';
import { type TimeZone, localToUtcOffset, sessionTimeZone } from './timezone.ts';
import { dateStyleKind, formatStyled, zoneAbbreviation } from './datestyle-format.ts';

export interface DateTimeSettings {
  readonly dateStyle: string;
  readonly timeZone: string;
}

/**
 * PostgreSQL's range starts at 4714-11-24 00:00:00 BC (Julian day 0). It ends at 294277-01-01, but our
 * 1970-based int64 reaches TIMESTAMP_INFINITY in 294247, so the last 29 years are out of range here.
 */
const MIN_TIMESTAMP = -210866803200000000n;
const END_TIMESTAMP = TIMESTAMP_INFINITY;

function timestampOutOfRange(): GatewayError {
  return new GatewayError(SqlState.datetime_field_overflow, 'timestamp out of range');
}

function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** Local midnight of today/tomorrow/yesterday in `zone`, as days since 1970. */
function relativeDay(special: string, zone: TimeZone): number {
  const nowSec = Math.floor(Date.now() / 1000);
  const local = nowSec + zone.offsetAt(nowSec);
  const today = Math.floor(local / 86400);
  return special === 'tomorrow' ? today + 1 : special === 'yesterday' ? today - 1 : today;
}

// ---------------------------------------------------------------- date

export function dateIn(text: string, s: DateTimeSettings): number {
  const f = decodeDateTime(text, 'date', dateOrder(s.dateStyle));
  switch (f.special) {
    case 'infinity': return Infinity;
    case '-infinity': return -Infinity;
    case 'epoch': return 0;
    case 'now': case 'today': return relativeDay('today', sessionTimeZone(s.timeZone));
    case 'tomorrow': case 'yesterday': return relativeDay(f.special, sessionTimeZone(s.timeZone));
    case 'allballs': throw invalidDateTime('date', text);
  }
  if (f.year === undefined) throw invalidDateTime('date', text);
  const d = daysFromCivil(f.year, f.month!, f.day!);
  if (d < -2440588 || d >= 2145042906) throw new GatewayError(SqlState.datetime_field_overflow, `date out of range: "${text}"`);
  return d;
}

export function dateOut(days: number, s?: DateTimeSettings): string {
  if (days === Infinity) return 'infinity';
  if (days === -Infinity) return '-infinity';
  const style = s === undefined ? 'ISO' : s.dateStyle.toUpperCase();
  if (style.startsWith('ISO')) {
    const { text, bc } = formatYmd(days);
    return bc ? text + ' BC' : text;
  }
  const [y, m, d] = civilFromDays(days);
  const yy = String(y <= 0 ? 1 - y : y).padStart(4, '0');
  const bc = y <= 0 ? ' BC' : '';
  const dmy = dateOrder(s!.dateStyle) === 'DMY';
  if (style.startsWith('GERMAN')) return `${pad2(d)}.${pad2(m)}.${yy}${bc}`;
  if (style.startsWith('SQL')) return (dmy ? `${pad2(d)}/${pad2(m)}` : `${pad2(m)}/${pad2(d)}`) + `/${yy}${bc}`;
  return (dmy ? `${pad2(d)}-${pad2(m)}` : `${pad2(m)}-${pad2(d)}`) + `-${yy}${bc}`; // Postgres style
}

// ---------------------------------------------------------------- time / timetz

export function timeIn(text: string, s: DateTimeSettings): number {
  const f = decodeDateTime(text, 'time without time zone', dateOrder(s.dateStyle));
  if (f.special === 'allballs') return 0;
  if (f.special === 'now') return Number(localMicros(nowMicros(), sessionTimeZone(s.timeZone)) % USECS_PER_DAY_N);
  if (f.special !== undefined || f.time === undefined) throw invalidDateTime('time without time zone', text);
  return f.time;
}

export function timeOut(us: number): string {
  return formatTimeOfDay(us);
}

export function timetzIn(text: string, s: DateTimeSettings): TimeTz {
  const f = decodeDateTime(text, 'time with time zone', dateOrder(s.dateStyle));
  if (f.special === 'allballs') return { micros: 0, offsetSeconds: 0 };
  if (f.special !== undefined || f.time === undefined) throw invalidDateTime('time with time zone', text);
  let off = f.tzOffset;
  if (off === undefined) {
    const zone = f.tzZone ?? sessionTimeZone(s.timeZone);
    const day = f.year !== undefined ? daysFromCivil(f.year, f.month!, f.day!) : relativeDay('today', zone);
    off = localToUtcOffset(zone, day * 86400 + Math.floor(f.time / 1_000_000));
  }
  return { micros: f.time, offsetSeconds: off };
}

export function timetzOut(v: TimeTz): string {
  return formatTimeOfDay(v.micros) + formatOffset(v.offsetSeconds);
}

// ---------------------------------------------------------------- timestamp / timestamptz

function fieldsToLocal(f: DateTimeFields, text: string, typeName: string): bigint {
  if (f.year === undefined) throw invalidDateTime(typeName, text);
  const days = daysFromCivil(f.year, f.month!, f.day!);
  return BigInt(days) * USECS_PER_DAY_N + BigInt(f.time ?? 0);
}

function checkRange(ts: bigint): bigint {
  if (ts < MIN_TIMESTAMP || ts >= END_TIMESTAMP) throw timestampOutOfRange();
  return ts;
}

export function timestampIn(text: string, s: DateTimeSettings): bigint {
  const f = decodeDateTime(text, 'timestamp', dateOrder(s.dateStyle));
  switch (f.special) {
    case 'infinity': return TIMESTAMP_INFINITY;
    case '-infinity': return TIMESTAMP_NEG_INFINITY;
    case 'epoch': return 0n;
    case 'now': return localMicros(nowMicros(), sessionTimeZone(s.timeZone));
    case 'today': case 'tomorrow': case 'yesterday':
      return BigInt(relativeDay(f.special, sessionTimeZone(s.timeZone))) * USECS_PER_DAY_N;
    case 'allballs': throw invalidDateTime('timestamp', text);
  }
  return checkRange(fieldsToLocal(f, text, 'timestamp'));
}

export function timestamptzIn(text: string, s: DateTimeSettings): bigint {
  const typeName = 'timestamp with time zone';
  const f = decodeDateTime(text, typeName, dateOrder(s.dateStyle));
  switch (f.special) {
    case 'infinity': return TIMESTAMP_INFINITY;
    case '-infinity': return TIMESTAMP_NEG_INFINITY;
    case 'epoch': return 0n;
    case 'now': return nowMicros();
    case 'today': case 'tomorrow': case 'yesterday': {
      const zone = sessionTimeZone(s.timeZone);
      const local = relativeDay(f.special, zone) * 86400;
      return BigInt(local - localToUtcOffset(zone, local)) * 1_000_000n;
    }
    case 'allballs': throw invalidDateTime(typeName, text);
  }
  const local = fieldsToLocal(f, text, typeName);
  let off = f.tzOffset;
  if (off === undefined) {
    const zone = f.tzZone ?? sessionTimeZone(s.timeZone);
    off = localToUtcOffset(zone, Number(floorDiv(local, 1_000_000n)));
  }
  return checkRange(local - BigInt(off) * 1_000_000n);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** UTC µs → local wall-clock µs in `zone` */
function localMicros(utc: bigint, zone: TimeZone): bigint {
  const off = zone.offsetAt(Number(floorDiv(utc, 1_000_000n)));
  return utc + BigInt(off) * 1_000_000n;
}

/** "YYYY-MM-DD HH:MM:SS[.f]" (+ " BC") of wall-clock µs; `zone` text goes before " BC" */
function formatLocal(local: bigint, offsetText: string): string {
  const days = Number(floorDiv(local, USECS_PER_DAY_N));
  const tod = Number(local - BigInt(days) * USECS_PER_DAY_N);
  const { text, bc } = formatYmd(days);
  const out = text + ' ' + formatTimeOfDay(tod) + offsetText;
  return bc ? out + ' BC' : out;
}

export function timestampOut(ts: bigint, s?: DateTimeSettings): string {
  if (ts === TIMESTAMP_INFINITY) return 'infinity';
  if (ts === TIMESTAMP_NEG_INFINITY) return '-infinity';
  if (s !== undefined && s.dateStyle.charCodeAt(0) !== 73 /* I */ && dateStyleKind(s.dateStyle) !== 'ISO') {
    const days = Number(floorDiv(ts, USECS_PER_DAY_N));
    return formatStyled(days, Number(ts - BigInt(days) * USECS_PER_DAY_N), dateStyleKind(s.dateStyle), dateOrder(s.dateStyle) === 'DMY', undefined);
  }
  // fast path for the common range: Number arithmetic is exact below 2^53 µs (year 2255)
  if (ts >= 0n && ts < 9007199254740992n) {
    const n = Number(ts);
    const days = Math.floor(n / USECS_PER_DAY);
    const { text, bc } = formatYmd(days);
    const out = text + ' ' + formatTimeOfDay(n - days * USECS_PER_DAY);
    return bc ? out + ' BC' : out;
  }
  return formatLocal(ts, '');
}

/** timestamptz_out in the session TimeZone: ISO offset "+01", "+05:30", "+00:09:21"; other DateStyles use abbreviations */
export function timestamptzOut(ts: bigint, s: DateTimeSettings): string {
  if (ts === TIMESTAMP_INFINITY) return 'infinity';
  if (ts === TIMESTAMP_NEG_INFINITY) return '-infinity';
  const zone = sessionTimeZone(s.timeZone);
  const utcSeconds = Number(floorDiv(ts, 1_000_000n));
  const off = zone.offsetAt(utcSeconds);
  const local = ts + BigInt(off) * 1_000_000n;
  if (s.dateStyle.charCodeAt(0) !== 73 /* I */ && dateStyleKind(s.dateStyle) !== 'ISO') {
    const days = Number(floorDiv(local, USECS_PER_DAY_N));
    return formatStyled(days, Number(local - BigInt(days) * USECS_PER_DAY_N), dateStyleKind(s.dateStyle),
      dateOrder(s.dateStyle) === 'DMY', zoneAbbreviation(zone, utcSeconds, off));
  }
  return formatLocal(local, formatOffset(off));
}
