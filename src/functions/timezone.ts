/**
 * Time zones for the date/time functions, on top of common/pgtypes/timezone.ts (IANA offsets through
 * Intl, PostgreSQL's DetermineTimeZoneOffset gap/overlap rule). Adds what the functions need beyond the
 * session TimeZone: the zone argument of timezone()/AT TIME ZONE, date_trunc(..., zone) and
 * make_timestamptz(..., zone) — where abbreviations come first and numeric forms are POSIX ('+05' and
 * 'UTC+3' are west of Greenwich) — and the abbreviations to_char's TZ prints. Offsets are seconds east.
 * @see https://www.postgresql.org/docs/15/datetime-posix-timezone-specs.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { abbreviationOffset, findTimeZone, localToUtcOffset, sessionTimeZone, type TimeZone } from '../common/pgtypes/timezone.ts';
import { USECS_PER_SEC, floorDiv } from './datetime-fields.ts';

/** A resolved zone: pgtypes' TimeZone (name + offsetAt). */
export type Zone = TimeZone;

const fixedCache = new Map<string, Zone>();
function fixed(name: string, offset: number): Zone {
  const key = `${name}\u0000${offset}`;
  let z = fixedCache.get(key);
  if (!z) fixedCache.set(key, (z = { name, offsetAt: () => offset }));
  return z;
}

/** "[+-]hh[:mm[:ss]]" → seconds; null if not of that form. */
function parseHms(s: string): number | null {
  const m = /^([+-]?)(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(s);
  if (!m) return null;
  const v = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -v : v;
}

const argCache = new Map<string, Zone>();

/** Resolves a zone given as a function argument (timezone(zone, ...), date_trunc's third argument). */
export function resolveZone(name: string): Zone {
  let z = argCache.get(name);
  if (!z) {
    z = resolveArgument(name.trim());
    if (argCache.size > 1000) argCache.clear();
    argCache.set(name, z);
  }
  return z;
}

function resolveArgument(name: string): Zone {
  // timestamptz_zone: a timezone abbreviation first, then a full name or POSIX spec
  const abbr = abbreviationOffset(name);
  if (abbr !== undefined) return fixed(name, abbr);
  const posix = /^(?:[a-z]{3,}|<[^>]*>)?([+-]?\d{1,2}(?::?\d{2}){0,2})$/i.exec(name);
  if (posix?.[1] !== undefined) {
    const west = parseHms(posix[1]);
    if (west !== null && Math.abs(west) <= 15 * 3600 + 59 * 60) return fixed(name, west === 0 ? 0 : -west);
  }
  const z = findTimeZone(name);
  if (z === undefined) throw pgError(SqlState.invalid_parameter_value, `time zone "${name}" not recognized`);
  return z;
}

/** The session's TimeZone setting, resolved exactly as the output functions resolve it. */
export function resolveSessionZone(setting: string): Zone {
  return sessionTimeZone(setting);
}

/** Offset (seconds east of UTC) in force at a UTC instant in µs. */
export function offsetAtUtc(zone: Zone, utcMicros: bigint): number {
  return zone.offsetAt(Number(floorDiv(utcMicros, USECS_PER_SEC)));
}

/** timestamp (local wall clock in zone) → timestamptz (UTC µs), PostgreSQL's gap/overlap rule. */
export function localToUtc(zone: Zone, localMicros: bigint): bigint {
  const off = localToUtcOffset(zone, Number(floorDiv(localMicros, USECS_PER_SEC)));
  return localMicros - BigInt(off) * USECS_PER_SEC;
}

/** timestamptz (UTC µs) → local wall-clock µs in zone */
export function utcToLocal(zone: Zone, utcMicros: bigint): bigint {
  return utcMicros + BigInt(offsetAtUtc(zone, utcMicros)) * USECS_PER_SEC;
}

const ABBR_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU'];
const abbrCache = new Map<string, Intl.DateTimeFormat[]>();
/** Short-name formatters for an IANA zone (empty when the name is not one). */
function abbrFormatters(name: string): Intl.DateTimeFormat[] {
  let f = abbrCache.get(name);
  if (!f) {
    try {
      f = ABBR_LOCALES.map((loc) => new Intl.DateTimeFormat(loc, { timeZone: name, timeZoneName: 'short' }));
    } catch {
      f = [];
    }
    abbrCache.set(name, f);
  }
  return f;
}

/** Zones whose tzdata abbreviation no ICU English locale prints. */
const FIXED_ABBREVIATIONS: Record<string, string> = {
  'Asia/Tokyo': 'JST', 'Asia/Seoul': 'KST', 'Asia/Shanghai': 'CST', 'Asia/Hong_Kong': 'HKT', 'Europe/Moscow': 'MSK',
  'Asia/Manila': 'PST', 'Asia/Karachi': 'PKT', 'Asia/Jakarta': 'WIB', 'Africa/Johannesburg': 'SAST',
};

/** Abbreviation shown by to_char's TZ pattern (the zone's tzdata abbreviation, e.g. EST / CET; else "-03"). */
export function zoneAbbreviation(zone: Zone, utcMicros: bigint): string {
  const off = offsetAtUtc(zone, utcMicros);
  const utcName = /^(?:etc\/)?(utc|uct|zulu|universal|gmt|z)$/i.exec(zone.name);
  if (utcName) return utcName[1]!.toLowerCase() === 'gmt' ? 'GMT' : 'UTC';
  const formatters = abbrFormatters(zone.name);
  if (formatters.length > 0) {
    const date = new Date(Number(floorDiv(utcMicros, 1000n)));
    for (const f of formatters) {
      const name = f.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
      if (/^[A-Z]{2,5}$/.test(name)) return name;
    }
    const known = FIXED_ABBREVIATIONS[zone.name];
    if (known) return known;
  } else if (/^[A-Za-z]{3,5}$/.test(zone.name)) {
    return zone.name.toUpperCase();
  }
  return formatOffset(off, false);
}

/** "+05", "-03:30", "+05:30:15" as PostgreSQL prints offsets (minutes/seconds only when non-zero). */
export function formatOffset(offsetSeconds: number, alwaysMinutes: boolean): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const a = Math.abs(offsetSeconds);
  const h = Math.floor(a / 3600), m = Math.floor((a % 3600) / 60), s = a % 60;
  let out = sign + String(h).padStart(2, '0');
  if (m !== 0 || s !== 0 || alwaysMinutes) out += ':' + String(m).padStart(2, '0');
  if (s !== 0) out += ':' + String(s).padStart(2, '0');
  return out;
}
