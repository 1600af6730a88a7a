/**
 * to_char(timestamp | timestamptz | interval, text): PostgreSQL's datetime template patterns
 * (formatting.c DCH_*), with the FM / TH / th / TM modifiers and quoted or backslash-escaped literals.
 * @see https://www.postgresql.org/docs/15/functions-formatting.html#FUNCTIONS-FORMATTING-DATETIME-TABLE
 */
import type { Interval } from '../common/pgtypes/values.ts';
import { dayOfWeek, dayOfYear, isInfiniteTs, isoWeek, isoYearStart, timestampDays, timestampToTm, type Tm } from './datetime-fields.ts';
import { intervalToTm } from './datetime-units.ts';
import { formatOffset, offsetAtUtc, zoneAbbreviation, type Zone } from './timezone.ts';

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

/** Keywords in matching order (longest first where prefixes collide), upper-case; matching ignores case. */
export const DCH_KEYWORDS = [
  'A.D.', 'A.M.', 'AD', 'AM', 'B.C.', 'BC', 'CC', 'DAY', 'DDD', 'DD', 'DY', 'D', 'FF1', 'FF2', 'FF3', 'FF4', 'FF5', 'FF6',
  'FX', 'HH24', 'HH12', 'HH', 'IDDD', 'ID', 'IW', 'IYYY', 'IYY', 'IY', 'I', 'J', 'MI', 'MM', 'MONTH', 'MON', 'MS', 'OF',
  'P.M.', 'PM', 'Q', 'RM', 'SSSSS', 'SSSS', 'SS', 'TZH', 'TZM', 'TZ', 'US', 'WW', 'W', 'Y,YYY', 'YYYY', 'YYY', 'YY', 'Y',
] as const;
export type DchKeyword = (typeof DCH_KEYWORDS)[number];

export type FormatNode =
  | { kind: 'literal'; text: string }
  | { kind: 'field'; key: DchKeyword; raw: string; fm: boolean; th: '' | 'TH' | 'th'; fx: boolean };

/** Splits a template into keywords and literal text (parse_format for DCH). */
export function parseDateFormat(format: string): FormatNode[] {
  const nodes: FormatNode[] = [];
  let i = 0;
  let fm = false;
  const lit = (t: string): void => {
    const last = nodes[nodes.length - 1];
    if (last?.kind === 'literal') last.text += t;
    else nodes.push({ kind: 'literal', text: t });
  };
  while (i < format.length) {
    const rest = format.slice(i);
    const upper = rest.toUpperCase();
    if (upper.startsWith('FM')) { fm = true; i += 2; continue; }
    if (upper.startsWith('TM')) { i += 2; continue; }
    const key = DCH_KEYWORDS.find((k) => upper.startsWith(k));
    if (key !== undefined) {
      if (key === 'FX') { i += 2; continue; }
      const raw = rest.slice(0, key.length);
      i += key.length;
      let th: '' | 'TH' | 'th' = '';
      const suffix = format.slice(i, i + 2);
      if (suffix === 'TH' || suffix === 'th') { th = suffix; i += 2; }
      nodes.push({ kind: 'field', key, raw, fm, th, fx: false });
      fm = false;
      continue;
    }
    const ch = format[i]!;
    if (ch === '"') {
      let j = i + 1;
      let text = '';
      while (j < format.length && format[j] !== '"') {
        if (format[j] === '\\' && j + 1 < format.length) j++;
        text += format[j];
        j++;
      }
      lit(text);
      i = j + 1;
      continue;
    }
    if (ch === '\\' && format[i + 1] === '"') { lit('"'); i += 2; continue; }
    lit(ch);
    i++;
  }
  return nodes;
}

function ordinal(n: number, upper: boolean): string {
  const a = Math.abs(n);
  let s = 'th';
  if (a % 100 < 11 || a % 100 > 13) s = a % 10 === 1 ? 'st' : a % 10 === 2 ? 'nd' : a % 10 === 3 ? 'rd' : 'th';
  return upper ? s.toUpperCase() : s;
}

/** C's "%0*d": the width includes the minus sign. */
const pad = (n: number, width: number, fm: boolean): string => {
  if (fm) return String(n);
  return n < 0 ? '-' + String(-n).padStart(width - 1, '0') : String(n).padStart(width, '0');
};
/** Fields PostgreSQL prints one wider when negative (intervals): HH24, MI, SS, YYYY. */
const padSigned = (n: number, width: number, fm: boolean): string => pad(n, n < 0 ? width + 1 : width, fm);

function casedName(name: string, raw: string, width: number, fm: boolean): string {
  const out = raw === raw.toUpperCase() ? name.toUpperCase() : raw[0] === raw[0]!.toUpperCase() ? name : name.toLowerCase();
  return fm ? out : out.padEnd(width, ' ');
}

interface Ctx {
  tm: Tm;
  interval: boolean;
  days: number | null; // days since 1970 (null for intervals)
  zone: Zone | null;
  utc: bigint;
  hasTz: boolean;
}

function formatField(node: Extract<FormatNode, { kind: 'field' }>, c: Ctx): string {
  const { tm } = c;
  const fm = node.fm;
  const year = c.interval ? tm.year : tm.year <= 0 ? -(tm.year - 1) : tm.year;
  const bc = !c.interval && tm.year <= 0;
  const isUpperRaw = node.raw === node.raw.toUpperCase();
  let num: number | null = null;
  let s: string;
  switch (node.key) {
    case 'HH24': num = tm.hour; s = padSigned(tm.hour, 2, fm); break;
    case 'HH': case 'HH12': {
      const h = tm.hour % 12 === 0 ? 12 : tm.hour % 12;
      num = h; s = padSigned(c.interval ? tm.hour % 12 : h, 2, fm); break;
    }
    case 'MI': num = tm.minute; s = padSigned(tm.minute, 2, fm); break;
    case 'SS': num = tm.second; s = padSigned(tm.second, 2, fm); break;
    case 'MS': num = Math.trunc(tm.micro / 1000); s = pad(num, 3, fm); break;
    case 'US': num = tm.micro; s = pad(num, 6, fm); break;
    case 'FF1': case 'FF2': case 'FF3': case 'FF4': case 'FF5': case 'FF6': {
      const d = Number(node.key[2]);
      num = Math.trunc(tm.micro / 10 ** (6 - d)); s = pad(num, d, fm); break;
    }
    case 'SSSS': case 'SSSSS': num = tm.hour * 3600 + tm.minute * 60 + tm.second; s = String(num); break;
    case 'AM': case 'PM': s = tm.hour % 24 >= 12 ? 'PM' : 'AM'; if (!isUpperRaw) s = s.toLowerCase(); break;
    case 'A.M.': case 'P.M.': s = tm.hour % 24 >= 12 ? 'P.M.' : 'A.M.'; if (!isUpperRaw) s = s.toLowerCase(); break;
    case 'AD': case 'BC': s = bc ? 'BC' : 'AD'; if (!isUpperRaw) s = s.toLowerCase(); break;
    case 'A.D.': case 'B.C.': s = bc ? 'B.C.' : 'A.D.'; if (!isUpperRaw) s = s.toLowerCase(); break;
    case 'Y,YYY': s = `${Math.trunc(year / 1000)},${String(Math.abs(year) % 1000).padStart(3, '0')}`; break;
    case 'YYYY': num = year; s = padSigned(year, 4, fm); break;
    case 'YYY': num = year % 1000; s = pad(num, 3, fm); break;
    case 'YY': num = year % 100; s = pad(num, 2, fm); break;
    case 'Y': num = year % 10; s = String(num); break;
    case 'IYYY': case 'IYY': case 'IY': case 'I': {
      if (c.days === null) return '';
      let iy = isoWeek(c.days).isoYear;
      iy = iy <= 0 ? -(iy - 1) : iy;
      const w = node.key.length;
      num = w === 4 ? iy : iy % 10 ** w; s = pad(num, w, fm); break;
    }
    case 'MONTH': if (tm.month === 0) return ''; s = casedName(MONTH_NAMES[tm.month - 1]!, node.raw, 9, fm); break;
    case 'MON': if (tm.month === 0) return ''; s = casedName(MONTH_NAMES[tm.month - 1]!.slice(0, 3), node.raw, 3, true); break;
    case 'MM': num = tm.month; s = pad(tm.month, 2, fm); break;
    case 'RM': {
      if (tm.month === 0) return '';
      const r = ROMAN[tm.month - 1]!;
      s = isUpperRaw ? r : r.toLowerCase(); if (!fm) s = s.padEnd(4, ' '); break;
    }
    case 'DAY': if (c.days === null) return ''; s = casedName(DAY_NAMES[dayOfWeek(c.days)]!, node.raw, 9, fm); break;
    case 'DY': if (c.days === null) return ''; s = casedName(DAY_NAMES[dayOfWeek(c.days)]!.slice(0, 3), node.raw, 3, true); break;
    case 'DDD': num = c.days === null ? tm.day : dayOfYear(c.days); s = pad(num, 3, fm); break;
    case 'IDDD': {
      if (c.days === null) return '';
      num = c.days - isoYearStart(isoWeek(c.days).isoYear) + 1; s = pad(num, 3, fm); break;
    }
    case 'DD': num = tm.day; s = pad(tm.day, 2, fm); break;
    case 'D': if (c.days === null) return ''; num = dayOfWeek(c.days) + 1; s = String(num); break;
    case 'ID': if (c.days === null) return ''; num = dayOfWeek(c.days) || 7; s = String(num); break;
    case 'W': num = Math.trunc((tm.day - 1) / 7) + 1; s = String(num); break;
    case 'WW': num = c.days === null ? 0 : Math.trunc((dayOfYear(c.days) - 1) / 7) + 1; s = pad(num, 2, fm); break;
    case 'IW': if (c.days === null) return ''; num = isoWeek(c.days).week; s = pad(num, 2, fm); break;
    case 'Q': if (c.interval && tm.month === 0) return ''; num = Math.trunc((tm.month - 1) / 3) + 1; if (c.interval) num = Math.trunc(tm.month / 3) + 1; s = String(num); break;
    case 'CC': {
      num = c.interval ? Math.trunc(tm.year / 100) : tm.year > 0 ? Math.trunc((tm.year + 99) / 100) : -Math.trunc((99 - (tm.year - 1)) / 100);
      s = pad(num, 2, fm); break;
    }
    case 'J': num = c.days === null ? 0 : c.days + 2440588; s = String(num); break;
    case 'TZ': s = c.hasTz && c.zone ? zoneAbbreviation(c.zone, c.utc) : ''; if (node.raw === 'tz') s = s.toLowerCase(); break;
    case 'TZH': case 'TZM': case 'OF': {
      if (!c.hasTz || !c.zone) return '';
      const off = offsetAtUtc(c.zone, c.utc);
      if (node.key === 'TZH') s = (off < 0 ? '-' : '+') + String(Math.trunc(Math.abs(off) / 3600)).padStart(2, '0');
      else if (node.key === 'TZM') s = String(Math.trunc((Math.abs(off) % 3600) / 60)).padStart(2, '0');
      else s = formatOffset(off, false);
      break;
    }
    case 'FX': s = ''; break;
  }
  if (node.th && num !== null) s += ordinal(num, node.th === 'TH');
  return s;
}

function render(format: string, c: Ctx): string {
  let out = '';
  for (const node of parseDateFormat(format)) out += node.kind === 'literal' ? node.text : formatField(node, c);
  return out;
}

/** to_char(timestamp[tz], text); zone is the session zone for timestamptz, null for timestamp. */
export function toCharTimestamp(ts: bigint, format: string, zone: Zone | null): string | null {
  if (isInfiniteTs(ts)) return null;
  if (format === '') return null;
  const local = zone ? ts + BigInt(offsetAtUtc(zone, ts)) * 1_000_000n : ts;
  return render(format, { tm: timestampToTm(local), interval: false, days: timestampDays(local), zone, utc: ts, hasTz: zone !== null });
}

export function toCharInterval(iv: Interval, format: string): string | null {
  if (format === '') return null;
  return render(format, { tm: intervalToTm(iv), interval: true, days: null, zone: null, utc: 0n, hasTz: false });
}
