/**
 * The non-ISO DateStyles for timestamp / timestamptz output (EncodeDateTime): SQL ('01/31/2024 10:11:12.5 CET'),
 * German ('31.01.2024 10:11:12.5 CET') and Postgres ('Wed Jan 31 10:11:12.5 2024 CET'), with MDY/DMY order.
 * Zone abbreviations come from Intl (best effort: PostgreSQL's come from tzdata, so e.g. Asia/Dubai prints
 * '+04' there and may print 'GST' here).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/datetime.c (EncodeDateTime)
 */
import { civilFromDays, formatTimeOfDay, pad2, pad4 } from './calendar.ts';
import type { TimeZone } from './timezone.ts';

const DOW = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export type DateStyleKind = 'ISO' | 'SQL' | 'German' | 'Postgres';

export function dateStyleKind(dateStyle: string): DateStyleKind {
  const u = dateStyle.toUpperCase();
  if (u.startsWith('SQL')) return 'SQL';
  if (u.startsWith('GERMAN')) return 'German';
  if (u.startsWith('POSTGRES')) return 'Postgres';
  return 'ISO';
}

/** days/time-of-day of a local timestamp in a non-ISO style; `zoneText` (abbreviation) goes before " BC" */
export function formatStyled(days: number, tod: number, style: DateStyleKind, dmy: boolean, zoneText: string | undefined): string {
  const [y, m, d] = civilFromDays(days);
  const bc = y <= 0;
  const year = pad4(bc ? 1 - y : y);
  const time = formatTimeOfDay(tod);
  let out: string;
  if (style === 'SQL') out = (dmy ? `${pad2(d)}/${pad2(m)}` : `${pad2(m)}/${pad2(d)}`) + `/${year} ${time}`;
  else if (style === 'German') out = `${pad2(d)}.${pad2(m)}.${year} ${time}`;
  else {
    const dow = DOW[(((days + 4) % 7) + 7) % 7]!;
    out = dmy ? `${dow} ${pad2(d)} ${MON[m - 1]} ${time} ${year}` : `${dow} ${MON[m - 1]} ${pad2(d)} ${time} ${year}`;
  }
  if (zoneText !== undefined) out += ' ' + zoneText;
  return bc ? out + ' BC' : out;
}

const fmtCache = new Map<string, Intl.DateTimeFormat | null>();
function shortName(locale: string, zone: string, ms: number): string | undefined {
  const key = locale + '|' + zone;
  let f = fmtCache.get(key);
  if (f === undefined) {
    try { f = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }); } catch { f = null; }
    fmtCache.set(key, f);
  }
  return f?.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value;
}

/** tzdata abbreviations Intl does not spell out (zones without DST) */
const FIXED_ABBREV: Readonly<Record<string, string>> = {
  'Asia/Tokyo': 'JST', 'Asia/Seoul': 'KST', 'Asia/Shanghai': 'CST', 'Asia/Chongqing': 'CST', 'Asia/Harbin': 'CST',
  'Asia/Taipei': 'CST', 'Asia/Hong_Kong': 'HKT', 'Asia/Macau': 'CST', 'Asia/Karachi': 'PKT', 'Asia/Manila': 'PST',
  'Asia/Jakarta': 'WIB', 'Asia/Kolkata': 'IST', 'Asia/Calcutta': 'IST', 'Africa/Johannesburg': 'SAST',
  'Europe/Moscow': 'MSK', 'Africa/Lagos': 'WAT', 'Africa/Nairobi': 'EAT', 'Pacific/Honolulu': 'HST', 'UTC': 'UTC',
  'Etc/UTC': 'UTC', 'GMT': 'GMT', 'Etc/GMT': 'GMT',
};

/** which Intl locale spells a region's tzdata abbreviations */
function localeFor(zone: string): string | undefined {
  if (zone.startsWith('America/') || zone.startsWith('US/') || zone.startsWith('Canada/') || /^[A-Z]{3}\d[A-Z]{3}$/.test(zone)) return 'en-US';
  if (zone.startsWith('Europe/') || zone.startsWith('Africa/') || zone === 'GB' || zone === 'WET' || zone === 'CET' || zone === 'EET' || zone === 'MET') return 'en-GB';
  if (zone.startsWith('Australia/')) return 'en-AU';
  if (zone === 'Pacific/Auckland' || zone === 'NZ') return 'en-NZ';
  if (zone === 'Asia/Jerusalem' || zone === 'Asia/Tel_Aviv' || zone === 'Israel') return 'en-IL';
  return undefined;
}

/** Zone abbreviation at an instant (best effort): tzdata's letters where Intl or our table has them, else "+04"/"+0530". */
export function zoneAbbreviation(zone: TimeZone, utcSeconds: number, offset: number): string {
  if (offset === 0 && /^(utc|z|zulu|etc\/utc)$/i.test(zone.name)) return 'UTC';
  if (offset === 0 && /^(etc\/)?gmt$/i.test(zone.name)) return 'GMT';
  const fixed = FIXED_ABBREV[zone.name];
  if (fixed !== undefined) return fixed;
  const locale = localeFor(zone.name);
  if (locale !== undefined) {
    const n = shortName(locale, zone.name, utcSeconds * 1000);
    if (n !== undefined && /^[A-Z]{2,5}$/.test(n)) return n;
  }
  const a = Math.abs(offset);
  const h = Math.floor(a / 3600), mi = Math.floor((a % 3600) / 60);
  return (offset < 0 ? '-' : '+') + pad2(h) + (mi !== 0 ? pad2(mi) : '');
}
