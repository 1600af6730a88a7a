/**
 * Proleptic Gregorian calendar arithmetic shared by the date/time text and binary codecs: days since
 * 1970-01-01 ↔ (year, month, day) with astronomical years (1 BC = year 0), and fixed-width digit output.
 * @see https://howardhinnant.github.io/date_algorithms.html (days_from_civil / civil_from_days)
 */

export const USECS_PER_SEC = 1_000_000;
export const USECS_PER_MINUTE = 60_000_000;
export const USECS_PER_HOUR = 3_600_000_000;
export const USECS_PER_DAY = 86_400_000_000;
export const USECS_PER_DAY_N = 86_400_000_000n;
/** 2000-01-01 minus 1970-01-01, PostgreSQL's epoch for the binary formats */
export const PG_EPOCH_DAYS = 10957;
export const PG_EPOCH_USECS = 946_684_800_000_000n;

/** days since 1970-01-01 of a civil date (month 1–12) */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** a civil date written by civilInto */
export interface CivilDate { y: number; m: number; d: number }

/** civil date of days since 1970-01-01 into `out` (no array made: per-row kernels call it) */
export function civilInto(z: number, out: CivilDate): void {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp + (mp < 10 ? 3 : -9);
  out.y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  out.m = m;
  out.d = doy - Math.floor((153 * mp + 2) / 5) + 1;
}

const CIVIL: CivilDate = { y: 0, m: 0, d: 0 };

/** civil date of days since 1970-01-01; returns [year, month, day] */
export function civilFromDays(z: number): [number, number, number] {
  civilInto(z, CIVIL);
  return [CIVIL.y, CIVIL.m, CIVIL.d];
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MDAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : MDAYS[m - 1]!;
}

const TWO = Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' + i : String(i)));

/** zero-padded to 2 digits (0–99 fast path) */
export function pad2(n: number): string {
  return n < 100 ? TWO[n]! : String(n);
}

export function pad4(n: number): string {
  if (n >= 1000) return String(n);
  return n >= 100 ? '0' + n : n >= 10 ? '00' + n : '000' + n;
}

/** ".ffffff" without trailing zeros, or "" when there is no fraction */
export function fraction(usec: number): string {
  if (usec === 0) return '';
  let s = String(usec + 1_000_000).slice(1);
  let end = 6;
  while (s.charCodeAt(end - 1) === 48) end--;
  s = s.slice(0, end);
  return '.' + s;
}

/** ISO date part "YYYY-MM-DD" and whether the year is BC */
export function formatYmd(days: number): { text: string; bc: boolean } {
  const [y, m, d] = civilFromDays(days);
  const bc = y <= 0;
  return { text: pad4(bc ? 1 - y : y) + '-' + pad2(m) + '-' + pad2(d), bc };
}

/** "HH:MM:SS[.ffffff]" of microseconds within a day */
export function formatTimeOfDay(us: number): string {
  const h = Math.floor(us / USECS_PER_HOUR);
  us -= h * USECS_PER_HOUR;
  const mi = Math.floor(us / USECS_PER_MINUTE);
  us -= mi * USECS_PER_MINUTE;
  const s = Math.floor(us / USECS_PER_SEC);
  return pad2(h) + ':' + pad2(mi) + ':' + pad2(s) + fraction(us - s * USECS_PER_SEC);
}

/** "+HH[:MM[:SS]]" of an offset in seconds east of UTC */
export function formatOffset(sec: number): string {
  const sign = sec < 0 ? '-' : '+';
  let a = sec < 0 ? -sec : sec;
  const h = Math.floor(a / 3600);
  a -= h * 3600;
  const m = Math.floor(a / 60);
  const s = a - m * 60;
  let out = sign + pad2(h);
  if (m !== 0 || s !== 0) out += ':' + pad2(m);
  if (s !== 0) out += ':' + pad2(s);
  return out;
}

/** C rint(): round half to even */
export function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
