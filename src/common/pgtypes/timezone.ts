/**
 * Time zones: the session TimeZone (IANA names through Intl, or fixed offsets like 'UTC', '+02', '-05:30')
 * turned into UTC offsets, and local wall-clock time resolved to UTC the way PostgreSQL's
 * DetermineTimeZoneOffset does (spring-forward gaps use the offset before, fall-back overlaps the one after).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/datetime.c (DetermineTimeZoneOffsetInternal)
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

export interface TimeZone {
  readonly name: string;
  /** UTC offset (seconds east) in effect at a UTC instant in seconds since 1970 */
  offsetAt(utcSeconds: number): number;
}

function fixedZone(name: string, offset: number): TimeZone {
  return { name, offsetAt: () => offset }; // memoized by findTimeZone
}

/** "+HH", "+HH:MM", "+HHMM", "+HH:MM:SS" → seconds east, or undefined */
export function parseOffset(s: string): number | undefined {
  const sign = s.charCodeAt(0) === 45 ? -1 : s.charCodeAt(0) === 43 ? 1 : 0;
  if (sign === 0) return undefined;
  const body = s.slice(1);
  let h: number, m = 0, sec = 0;
  if (body.includes(':')) {
    const parts = body.split(':');
    if (parts.length > 3 || parts.some((p) => p.length === 0 || p.length > 2 || !/^\d+$/.test(p))) return undefined;
    h = Number(parts[0]); m = Number(parts[1] ?? 0); sec = Number(parts[2] ?? 0);
  } else {
    if (!/^\d+$/.test(body) || body.length > 6) return undefined;
    if (body.length <= 2) h = Number(body);
    else if (body.length <= 4) { h = Number(body.slice(0, body.length - 2)); m = Number(body.slice(-2)); }
    else { h = Number(body.slice(0, body.length - 4)); m = Number(body.slice(-4, -2)); sec = Number(body.slice(-2)); }
  }
  if (h > 15 || m > 59 || sec > 59) return undefined;
  return sign * (h * 3600 + m * 60 + sec);
}

/** Common abbreviations (PostgreSQL's Default timezone_abbreviations set, the frequent ones). */
const ABBREVIATIONS: Readonly<Record<string, number>> = {
  utc: 0, gmt: 0, z: 0, zulu: 0, ut: 0,
  est: -5 * 3600, edt: -4 * 3600, cst: -6 * 3600, cdt: -5 * 3600, mst: -7 * 3600, mdt: -6 * 3600,
  pst: -8 * 3600, pdt: -7 * 3600, akst: -9 * 3600, akdt: -8 * 3600, hst: -10 * 3600,
  cet: 3600, cest: 7200, met: 3600, mest: 7200, eet: 7200, eest: 10800, wet: 0, west: 3600,
  bst: 3600, ist: 7200, msk: 10800, jst: 9 * 3600, kst: 9 * 3600, aest: 10 * 3600, aedt: 11 * 3600, nzst: 12 * 3600, nzdt: 13 * 3600,
};

export function abbreviationOffset(word: string): number | undefined {
  return ABBREVIATIONS[word.toLowerCase()];
}

const zoneCache = new Map<string, TimeZone | null>();

/** Resolves a TimeZone setting or an input zone name; undefined when unknown. */
export function findTimeZone(name: string): TimeZone | undefined {
  const cached = zoneCache.get(name);
  if (cached !== undefined) return cached ?? undefined;
  const z = resolve(name);
  if (zoneCache.size > 1000) zoneCache.clear();
  zoneCache.set(name, z ?? null);
  return z;
}

/** The session zone: an unknown name is 22023 like SET TIME ZONE's check. */
export function sessionTimeZone(name: string): TimeZone {
  const z = findTimeZone(name);
  if (z === undefined) throw new GatewayError(SqlState.invalid_parameter_value, `invalid value for parameter "TimeZone": "${name}"`);
  return z;
}

/**
 * check_timezone's order: a plain number is hours east (SQL convention: '+02', '-7', '5.5'); then IANA names
 * through Intl; then POSIX specs ('-05:30', 'UTC+2', '<+03>-03'), whose sign is west-positive.
 */
function resolve(name: string): TimeZone | undefined {
  const trimmed = name.trim();
  const lower = trimmed.toLowerCase();
  if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return fixedZone(trimmed, Math.round(Number(trimmed) * 3600));
  if (lower === 'utc' || lower === 'gmt' || lower === 'z' || lower === 'etc/utc' || lower === 'zulu') return fixedZone(trimmed, 0);
  try {
    const fmt = new Intl.DateTimeFormat('en-US', { timeZone: trimmed, timeZoneName: 'longOffset', year: 'numeric' });
    return ianaZone(trimmed, fmt);
  } catch {
    // not an IANA name
  }
  const posix = /^(<[^>]+>|[A-Za-z]{3,})?([+-]?\d{1,2}(?::\d{2}(?::\d{2})?)?)$/.exec(trimmed);
  if (posix !== null) {
    const spec = posix[2]!;
    const off = parseOffset(spec[0] === '+' || spec[0] === '-' ? spec : '+' + spec);
    if (off !== undefined) return fixedZone(trimmed, off === 0 ? 0 : -off);
  }
  const abbr = abbreviationOffset(trimmed);
  return abbr === undefined ? undefined : fixedZone(trimmed, abbr);
}

/**
 * Offsets through Intl (formatToParts is slow, ~µs): memoized per UTC day when the offset is the same at both
 * ends of the day (no transition inside), else per UTC minute (transitions fall on minute boundaries in practice).
 */
function ianaZone(name: string, fmt: Intl.DateTimeFormat): TimeZone {
  const byDay = new Map<number, number | null>();
  const byMinute = new Map<number, number>();
  const minuteOffset = (minute: number): number => {
    let o = byMinute.get(minute);
    if (o === undefined) {
      o = intlOffset(fmt, minute * 60_000);
      if (byMinute.size > 50_000) byMinute.clear();
      byMinute.set(minute, o);
    }
    return o;
  };
  return {
    name,
    offsetAt(utcSeconds: number): number {
      const day = Math.floor(utcSeconds / 86400);
      let d = byDay.get(day);
      if (d === undefined) {
        const start = minuteOffset(day * 1440);
        d = start === minuteOffset(day * 1440 + 1439) ? start : null;
        if (byDay.size > 100_000) byDay.clear();
        byDay.set(day, d);
      }
      return d ?? minuteOffset(Math.floor(utcSeconds / 60));
    },
  };
}

function intlOffset(fmt: Intl.DateTimeFormat, ms: number): number {
  const parts = fmt.formatToParts(ms);
  const tz = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  if (tz === 'GMT') return 0;
  return parseOffset(tz.slice(3)) ?? 0;
}

/** UTC seconds of a local wall-clock time (seconds since 1970 as if UTC) in `zone`. */
export function localToUtcOffset(zone: TimeZone, localSeconds: number): number {
  const before = zone.offsetAt(localSeconds - 86400);
  const after = zone.offsetAt(localSeconds + 86400);
  if (before === after) {
    const o = zone.offsetAt(localSeconds - before);
    if (o === before) return before;
  }
  const beforeOk = zone.offsetAt(localSeconds - before) === before;
  const afterOk = zone.offsetAt(localSeconds - after) === after;
  if (beforeOk && !afterOk) return before;
  if (afterOk && !beforeOk) return after;
  // both valid: fall-back overlap → "after"; neither: spring-forward gap → "before"
  return beforeOk ? after : before;
}
