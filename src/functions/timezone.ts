/**
 * Time zones for the date/time functions: UTC offsets of IANA zones (via Intl.DateTimeFormat, cached per
 * zone), PostgreSQL's fixed-offset forms ('UTC', POSIX '+05' / 'UTC+3' = west of Greenwich, ISO
 * '+05:30' in timestamp input), and a few common abbreviations. Offsets are seconds east of UTC.
 * Local → UTC follows PostgreSQL's DetermineTimeZoneOffset: in a spring-forward gap the pre-transition
 * offset is used, in a fall-back overlap the post-transition one.
 * @see https://www.postgresql.org/docs/15/datetime-posix-timezone-specs.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { USECS_PER_SEC, floorDiv } from './datetime-fields.ts';

export type Zone = { readonly kind: 'fixed'; readonly offset: number; readonly name: string } | { readonly kind: 'iana'; readonly name: string; readonly fmt: Intl.DateTimeFormat };

/** PostgreSQL's default timezone_abbreviations entries we recognise (seconds east). */
const ABBREVIATIONS: Record<string, number> = {
  utc: 0, gmt: 0, z: 0, zulu: 0, ut: 0,
  est: -5 * 3600, edt: -4 * 3600, cst: -6 * 3600, cdt: -5 * 3600, mst: -7 * 3600, mdt: -6 * 3600,
  pst: -8 * 3600, pdt: -7 * 3600, akst: -9 * 3600, akdt: -8 * 3600, hst: -10 * 3600,
  cet: 3600, cest: 7200, met: 3600, mest: 7200, eet: 7200, eest: 10800, wet: 0, west: 3600, bst: 3600,
  msk: 10800, ist: 7200, jst: 9 * 3600, kst: 9 * 3600, nzst: 12 * 3600, nzdt: 13 * 3600,
  aest: 10 * 3600, aedt: 11 * 3600,
};

const zoneCache = new Map<string, Zone>();

function invalidZone(name: string): Error {
  return pgError(SqlState.invalid_parameter_value, `time zone "${name}" not recognized`);
}

/** Parses "[+-]hh[:mm[:ss]]" into seconds; null if not numeric. */
function parseHms(s: string): number | null {
  const m = /^([+-]?)(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(s);
  if (!m) return null;
  const v = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -v : v;
}

/** Resolves a time zone name as PostgreSQL's timezone(zone, ...) / SET TIME ZONE accept it. */
export function resolveZone(name: string): Zone {
  const cached = zoneCache.get(name);
  if (cached) return cached;
  const zone = resolveUncached(name.trim());
  zoneCache.set(name, zone);
  return zone;
}

function resolveUncached(name: string): Zone {
  const lower = name.toLowerCase();
  const abbr = ABBREVIATIONS[lower];
  if (abbr !== undefined) return { kind: 'fixed', offset: abbr, name };
  // POSIX: "+05", "UTC+3", "<+05>-05": the number is hours WEST of Greenwich.
  const posix = /^(?:[a-z]{3,}|<[^>]*>)?([+-]?\d{1,2}(?::?\d{2}){0,2})$/i.exec(name);
  if (posix?.[1] !== undefined) {
    const west = parseHms(posix[1]);
    if (west !== null && Math.abs(west) <= 15 * 3600 + 59 * 60) return { kind: 'fixed', offset: -west, name };
  }
  if (lower === 'localtime' || lower === 'etc/utc' || lower === 'etc/gmt') return { kind: 'fixed', offset: 0, name };
  try {
    const fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short',
    });
    return { kind: 'iana', name, fmt };
  } catch {
    throw invalidZone(name);
  }
}

/** Offset (seconds east of UTC) in force at a UTC instant given in seconds since 1970. */
export function offsetAtUtcSeconds(zone: Zone, utcSeconds: number): number {
  if (zone.kind === 'fixed') return zone.offset;
  // Intl covers ±8.64e15 ms; clamp far-away instants to the nearest representable one.
  const ms = Math.max(-8.64e15, Math.min(8.64e15, utcSeconds * 1000));
  const parts = zone.fmt.formatToParts(new Date(ms));
  let y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, bc = false;
  for (const p of parts) {
    switch (p.type) {
      case 'year': y = Number(p.value); break;
      case 'month': mo = Number(p.value); break;
      case 'day': d = Number(p.value); break;
      case 'hour': h = Number(p.value); break;
      case 'minute': mi = Number(p.value); break;
      case 'second': s = Number(p.value); break;
      case 'era': bc = p.value === 'BC' || p.value === 'B'; break;
    }
  }
  if (bc) y = 1 - y;
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo - 1, d);
  dt.setUTCHours(h, mi, s, 0);
  const localMs = dt.getTime();
  const utcFloor = Math.floor(ms / 1000) * 1000;
  return Math.round((localMs - utcFloor) / 1000);
}

/** Offset in force at a UTC instant in µs. */
export function offsetAtUtc(zone: Zone, utcMicros: bigint): number {
  if (zone.kind === 'fixed') return zone.offset;
  return offsetAtUtcSeconds(zone, Number(floorDiv(utcMicros, USECS_PER_SEC)));
}

/** Offset to subtract from a local wall-clock time (µs) to get UTC, with PostgreSQL's gap/overlap rule. */
export function offsetForLocal(zone: Zone, localMicros: bigint): number {
  if (zone.kind === 'fixed') return zone.offset;
  const local = Number(floorDiv(localMicros, USECS_PER_SEC));
  const before = offsetAtUtcSeconds(zone, local - 86400);
  const after = offsetAtUtcSeconds(zone, local + 86400);
  if (before === after) {
    // No transition nearby at day granularity; still verify (two transitions within a day are rare).
    return offsetAtUtcSeconds(zone, local - before) === before ? before : offsetAtUtcSeconds(zone, local - before);
  }
  const validBefore = offsetAtUtcSeconds(zone, local - before) === before;
  const validAfter = offsetAtUtcSeconds(zone, local - after) === after;
  if (validBefore && validAfter) return after; // fall-back overlap: PostgreSQL takes the later (standard) reading
  if (validAfter) return after;
  return before; // valid only before, or a spring-forward gap
}

/** timestamp (local wall clock in zone) → timestamptz (UTC µs) */
export function localToUtc(zone: Zone, localMicros: bigint): bigint {
  return localMicros - BigInt(offsetForLocal(zone, localMicros)) * USECS_PER_SEC;
}

/** timestamptz (UTC µs) → local wall-clock µs in zone */
export function utcToLocal(zone: Zone, utcMicros: bigint): bigint {
  return utcMicros + BigInt(offsetAtUtc(zone, utcMicros)) * USECS_PER_SEC;
}

const ABBR_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU'];
const abbrCache = new Map<string, Intl.DateTimeFormat[]>();
function abbrFormatters(name: string): Intl.DateTimeFormat[] {
  let f = abbrCache.get(name);
  if (!f) abbrCache.set(name, (f = ABBR_LOCALES.map((loc) => new Intl.DateTimeFormat(loc, { timeZone: name, timeZoneName: 'short' }))));
  return f;
}

/** Zones whose tzdata abbreviation no ICU English locale prints. */
const FIXED_ABBREVIATIONS: Record<string, string> = {
  'Asia/Tokyo': 'JST', 'Asia/Seoul': 'KST', 'Asia/Shanghai': 'CST', 'Asia/Hong_Kong': 'HKT', 'Europe/Moscow': 'MSK',
  'Asia/Manila': 'PST', 'Asia/Karachi': 'PKT', 'Asia/Jakarta': 'WIB', 'Africa/Johannesburg': 'SAST',
};

/** Abbreviation shown by to_char's TZ pattern (the zone's tzdata abbreviation, e.g. EST / CET; else the offset as "-03"). */
export function zoneAbbreviation(zone: Zone, utcMicros: bigint): string {
  const off = offsetAtUtc(zone, utcMicros);
  if (zone.kind === 'fixed') {
    const abbr = zone.name.toUpperCase();
    if (/^[A-Z]{3,5}$/.test(abbr)) return abbr;
    return formatOffset(off, false);
  }
  if (/^(etc\/)?(utc|uct|zulu|universal)$/i.test(zone.name)) return 'UTC';
  const date = new Date(Number(floorDiv(utcMicros, 1000n)));
  for (const f of abbrFormatters(zone.name)) {
    const name = f.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (/^[A-Z]{2,5}$/.test(name)) return name;
  }
  const fixed = FIXED_ABBREVIATIONS[zone.name];
  return fixed ? fixed : formatOffset(off, false);
}

/** "+05", "-03:30", "+05:30:15" as PostgreSQL prints offsets (hours always, minutes/seconds when non-zero). */
export function formatOffset(offsetSeconds: number, alwaysMinutes: boolean): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const a = Math.abs(offsetSeconds);
  const h = Math.floor(a / 3600), m = Math.floor((a % 3600) / 60), s = a % 60;
  let out = sign + String(h).padStart(2, '0');
  if (m !== 0 || s !== 0 || alwaysMinutes) out += ':' + String(m).padStart(2, '0');
  if (s !== 0) out += ':' + String(s).padStart(2, '0');
  return out;
}

/** The session's TimeZone setting, resolved. */
export function sessionZone(getSetting: (name: string) => string | null): Zone {
  return resolveZone(getSetting('TimeZone') ?? 'UTC');
}
