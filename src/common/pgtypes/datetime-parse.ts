/**
 * decodeDateTime: PostgreSQL's date/time input syntax (ParseDateTime + DecodeDateTime, the common forms)
 * turned into fields: ISO dates ('2024-01-31', '20240131'), DateStyle-ordered dates ('1/2/2024'),
 * month names ('Jan 31 2024', '31-Jan-2024'), times with fractions and AM/PM, the 'T' separator,
 * zones (Z, +02, -05:30, abbreviations, IANA names), BC/AD, and the special words.
 * @see https://www.postgresql.org/docs/15/datetime-input-rules.html
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { USECS_PER_HOUR, USECS_PER_MINUTE, civilFromDays, daysInMonth, rint } from './calendar.ts';
import { type TimeZone, abbreviationOffset, findTimeZone, parseOffset } from './timezone.ts';

export type SpecialWord = 'epoch' | 'infinity' | '-infinity' | 'now' | 'today' | 'tomorrow' | 'yesterday' | 'allballs';

export interface DateTimeFields {
  year?: number; // astronomical (1 BC = 0) once finished
  month?: number;
  day?: number;
  /** microseconds since midnight */
  time?: number;
  /** explicit zone: fixed offset (seconds east) or a named zone resolved at the date */
  tzOffset?: number;
  tzZone?: TimeZone;
  special?: SpecialWord;
  /** the year was written with one or two digits: 70–99 → 19xx, 0–69 → 20xx, unless BC */
  twoDigitYear?: boolean;
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11,
  dec: 12, december: 12,
};
const WEEKDAYS = new Set(['sun', 'mon', 'tue', 'tues', 'wed', 'wednesday', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sunday', 'monday', 'tuesday', 'thursday', 'friday', 'saturday']);
const SPECIALS = new Set<string>(['epoch', 'infinity', '-infinity', 'now', 'today', 'tomorrow', 'yesterday', 'allballs']);

export function invalidDateTime(typeName: string, text: string): GatewayError {
  return new GatewayError(SqlState.invalid_datetime_format, `invalid input syntax for type ${typeName}: "${text}"`);
}

export function fieldOutOfRange(text: string, hint = false): GatewayError {
  return new GatewayError(SqlState.datetime_field_overflow, `date/time field value out of range: "${text}"`,
    hint ? { hint: 'Perhaps you need a different "datestyle" setting.' } : {});
}

/** 'MDY' | 'DMY' | 'YMD' from a DateStyle such as 'ISO, MDY' */
let lastDateStyle = '';
let lastDateOrder: 'MDY' | 'DMY' | 'YMD' = 'MDY';

/** DateStyle's field order; the last answer is kept (every date/timestamp input asks, e.g. per COPY value) */
export function dateOrder(dateStyle: string): 'MDY' | 'DMY' | 'YMD' {
  if (dateStyle === lastDateStyle) return lastDateOrder;
  const order = computeDateOrder(dateStyle);
  lastDateStyle = dateStyle;
  lastDateOrder = order;
  return order;
}

function computeDateOrder(dateStyle: string): 'MDY' | 'DMY' | 'YMD' {
  const u = dateStyle.toUpperCase();
  if (u.includes('DMY') || (u.includes('EURO') && !u.includes('NONEURO'))) return 'DMY';
  if (u.includes('YMD')) return 'YMD';
  if (u.includes('GERMAN') && !u.includes('MDY')) return 'DMY';
  return 'MDY';
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/**
 * Decodes `text` for the type named `typeName` (used in error messages). Throws 22007 on bad syntax and
 * 22008 on out-of-range fields.
 */
export function decodeDateTime(text: string, typeName: string, order: 'MDY' | 'DMY' | 'YMD'): DateTimeFields {
  const fast = decodeIsoFast(text);
  if (fast !== undefined) return fast;
  const s = text.trim().toLowerCase();
  const bad = () => invalidDateTime(typeName, text);
  const timeOnly = typeName.startsWith('time ');
  const f: DateTimeFields = {};
  if (SPECIALS.has(s)) {
    f.special = s as SpecialWord;
    return f;
  }
  const numbers: string[] = []; // bare numbers, placed once month names are known
  let bc = false, ampm = 0; // 1 am, 2 pm
  let isoDateBefore = false; // 'T' separates a time only from a numeric token (not '16-Dec-24T…')
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 44) { i++; continue; }
    if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
      let j = i;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (isDigit(d) || d === 46 || d === 58 || d === 47) j++;
        else if (d === 45 && !s.slice(i, j).includes(':')) j++;
        else if (isAlpha(d) && s.charCodeAt(j - 1) === 45) { while (j < n && isAlpha(s.charCodeAt(j))) j++; }
        else break;
      }
      const tok = s.slice(i, j);
      i = j;
      isoDateBefore = /^[\d./-]+$/.test(tok) && !tok.includes(':');
      if (tok.includes(':')) {
        if (f.time !== undefined) throw bad();
        f.time = decodeTime(tok, text, bad);
      } else if (tok.includes('-') || tok.includes('/') || (tok.split('.').length === 3)) {
        if (f.year !== undefined) {
          // after a date: "-08" style zone without a time
          const off = parseOffset(tok);
          if (off === undefined) throw bad();
          f.tzOffset = off;
        } else decodeDate(tok, f, order, bad);
      } else if (tok.length === 8 && f.year === undefined && !tok.includes('.')) {
        f.year = Number(tok.slice(0, 4)); f.month = Number(tok.slice(4, 6)); f.day = Number(tok.slice(6));
      } else if (tok.length === 6 && (f.year !== undefined || timeOnly) && f.time === undefined && !tok.includes('.')) {
        f.time = decodeTime(tok.slice(0, 2) + ':' + tok.slice(2, 4) + ':' + tok.slice(4), text, bad); // HHMMSS
      } else if (tok.length === 6 && f.year === undefined && f.month === undefined && !tok.includes('.')) {
        f.year = Number(tok.slice(0, 2)); f.twoDigitYear = true; f.month = Number(tok.slice(2, 4)); f.day = Number(tok.slice(4)); // YYMMDD
      } else if (tok.length > 8 && f.year === undefined && f.month === undefined && !tok.includes('.')) {
        f.year = Number(tok.slice(0, -4)); f.month = Number(tok.slice(-4, -2)); f.day = Number(tok.slice(-2)); // YYYYYMMDD
      } else {
        if (tok.includes('.')) throw bad();
        numbers.push(tok);
      }
      continue;
    }
    if ((c === 43 || c === 45) && (f.time !== undefined || f.year !== undefined || f.month !== undefined || numbers.length > 0 || bc) && isDigit(s.charCodeAt(i + 1))) {
      let j = i + 1;
      while (j < n && (isDigit(s.charCodeAt(j)) || s.charCodeAt(j) === 58)) j++;
      const off = parseOffset(s.slice(i, j));
      if (off === undefined) {
        if (/^[+-]\d{1,2}(:?\d{2}){0,2}$/.test(s.slice(i, j))) {
          throw new GatewayError(SqlState.invalid_time_zone_displacement_value, `time zone displacement out of range: "${text}"`);
        }
        throw bad();
      }
      f.tzOffset = off;
      i = j;
      continue;
    }
    if (isAlpha(c)) {
      let j = i;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (isAlpha(d) || d === 95 || d === 47 || ((d === 43 || d === 45 || isDigit(d)) && s.slice(i, j).includes('/'))) j++;
        else break;
      }
      const word = s.slice(i, j);
      i = j;
      if (word === 't' && isDigit(s.charCodeAt(i)) && (isoDateBefore || i === 1)) continue;
      const month = MONTHS[word];
      if (month !== undefined && f.year === undefined && (s.charCodeAt(i) === 45 || s.charCodeAt(i) === 47) && isDigit(s.charCodeAt(i + 1))) {
        let k = i;
        while (k < n && (isDigit(s.charCodeAt(k)) || s.charCodeAt(k) === 45 || s.charCodeAt(k) === 47)) k++;
        decodeDate(word + s.slice(i, k), f, order, bad); // Jan-31-2024
        i = k;
        continue;
      }
      if (month !== undefined && f.month === undefined) { f.month = month; continue; }
      if (word === 'j' && isDigit(s.charCodeAt(i)) && f.year === undefined) {
        let k = i;
        while (k < n && isDigit(s.charCodeAt(k))) k++;
        const [y, m, d] = civilFromDays(Number(s.slice(i, k)) - 2440588); // Julian day number
        f.year = y; f.month = m; f.day = d;
        i = k;
        continue;
      }
      if (WEEKDAYS.has(word)) continue;
      if (word === 'am') { ampm = 1; continue; }
      if (word === 'pm') { ampm = 2; continue; }
      if (word === 'bc') { bc = true; continue; }
      if (word === 'ad') continue;
      if (word === 'at' || word === 'on') continue;
      if (SPECIALS.has(word) && word !== 'epoch' && word !== 'infinity') {
        if (word === 'allballs') { f.time = 0; f.tzOffset = 0; continue; }
        f.special = word as SpecialWord;
        continue;
      }
      const abbr = abbreviationOffset(word);
      if (abbr !== undefined) { f.tzOffset = abbr; continue; }
      if (word.includes('/')) {
        const zone = findTimeZone(word);
        if (zone === undefined) throw new GatewayError(SqlState.invalid_parameter_value, `time zone "${word}" not recognized`);
        f.tzZone = zone;
        continue;
      }
      throw bad();
    }
    throw bad();
  }
  // place bare numbers: a month name was given, or "2024 Jan 31" style
  for (const tok of numbers) {
    const v = Number(tok);
    if (f.day === undefined && tok.length <= 2 && f.month !== undefined) f.day = v;
    else if (f.year === undefined) { f.year = v; f.twoDigitYear = tok.length <= 2; }
    else if (f.day === undefined) f.day = v;
    else throw bad();
  }
  if (f.special !== undefined && (f.year !== undefined || f.month !== undefined)) throw bad();
  if (timeOnly && f.tzZone !== undefined && f.year === undefined) throw bad(); // a named zone needs a date
  if (ampm !== 0) {
    if (f.time === undefined) throw bad();
    const h = Math.floor(f.time / USECS_PER_HOUR);
    if (h > 12 || h < 0) throw fieldOutOfRange(text);
    if (ampm === 1 && h === 12) f.time -= 12 * USECS_PER_HOUR;
    else if (ampm === 2 && h !== 12) f.time += 12 * USECS_PER_HOUR;
  }
  if (f.year !== undefined || f.month !== undefined || f.day !== undefined) {
    if (f.year === undefined || f.month === undefined || f.day === undefined) throw bad();
    if (f.twoDigitYear === true && !bc) f.year = twoDigitYear(f.year);
    if (f.year === 0 && !bc) throw fieldOutOfRange(text);
    if (bc) f.year = 1 - f.year;
    if (f.month < 1 || f.month > 12) throw fieldOutOfRange(text, true);
    if (f.day < 1 || f.day > daysInMonth(f.year, f.month)) throw fieldOutOfRange(text, f.day > 31);
  } else if (bc) throw bad();
  return f;
}

function twoDigitYear(y: number): number {
  return y < 70 ? 2000 + y : y < 100 ? 1900 + y : y;
}

function decodeDate(tok: string, f: DateTimeFields, order: 'MDY' | 'DMY' | 'YMD', bad: () => GatewayError): void {
  const parts = tok.split(/[-/.]/);
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) throw bad();
  const [a, b, c] = parts as [string, string, string];
  const monthOf = (p: string): number | undefined => (isDigit(p.charCodeAt(0)) ? undefined : MONTHS[p]);
  const num = (p: string): number => {
    if (!/^\d+$/.test(p)) throw bad();
    return Number(p);
  };
  const mb = monthOf(b);
  if (mb !== undefined) {
    // 31-jan-2024 or 2024-jan-31
    if (a.length >= 3) { f.year = num(a); f.day = num(c); } else { f.day = num(a); yearOf(c, num, f); }
    f.month = mb;
    return;
  }
  const ma = monthOf(a);
  if (ma !== undefined) { f.month = ma; f.day = num(b); yearOf(c, num, f); return; }
  if (a.length >= 3 || order === 'YMD') { yearOf(a, num, f); f.month = num(b); f.day = num(c); return; }
  if (order === 'DMY') { f.day = num(a); f.month = num(b); } else { f.month = num(a); f.day = num(b); }
  yearOf(c, num, f);
}

function yearOf(p: string, num: (p: string) => number, f: DateTimeFields): void {
  f.year = num(p);
  f.twoDigitYear = p.length <= 2;
}

/** hh:mm[:ss[.ffffff]] → microseconds (24:00:00 allowed, fractions rounded half-even to µs) */
export function decodeTime(tok: string, text: string, bad: () => GatewayError): number {
  const parts = tok.split(':');
  if (parts.length < 2 || parts.length > 3) throw bad();
  const h = parts[0]!, m = parts[1]!, sec = parts[2];
  if (!/^\d{1,2}$/.test(h) || !/^\d{1,2}$/.test(m)) throw bad();
  let secs = 0, frac = 0;
  if (sec !== undefined) {
    const dot = sec.indexOf('.');
    const whole = dot < 0 ? sec : sec.slice(0, dot);
    if (!/^\d{1,2}$/.test(whole)) throw bad();
    secs = Number(whole);
    if (dot >= 0) {
      const digits = sec.slice(dot + 1);
      if (digits.length > 0 && !/^\d+$/.test(digits)) throw bad();
      frac = digits.length === 0 ? 0 : rint(Number('0.' + digits) * 1e6);
    }
  }
  const hh = Number(h), mm = Number(m);
  if (hh > 24 || mm > 59 || secs > 60 || (hh === 24 && (mm > 0 || secs > 0 || frac > 0))) throw fieldOutOfRange(text);
  return hh * USECS_PER_HOUR + mm * USECS_PER_MINUTE + secs * 1_000_000 + frac;
}

function digitsAt(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * Fast path for the machine-written forms 'YYYY-MM-DD' and 'YYYY-MM-DD HH:MM:SS[.ffffff]' (space or T),
 * which is what COPY and drivers send; anything else (or out-of-range fields) takes the general path.
 */
function decodeIsoFast(s: string): DateTimeFields | undefined {
  const n = s.length;
  if (n < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return undefined;
  const year = digitsAt(s, 0, 4), month = digitsAt(s, 5, 2), day = digitsAt(s, 8, 2);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (n === 10) return { year, month, day };
  const sep = s.charCodeAt(10);
  if ((sep !== 32 && sep !== 84) || n < 19 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const h = digitsAt(s, 11, 2), mi = digitsAt(s, 14, 2), sec = digitsAt(s, 17, 2);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) return undefined;
  let frac = 0;
  if (n > 19) {
    if (s.charCodeAt(19) !== 46 || n === 20 || n > 26) return undefined;
    const f = digitsAt(s, 20, n - 20);
    if (f < 0) return undefined;
    frac = f * 10 ** (26 - n);
  }
  return { year, month, day, time: h * USECS_PER_HOUR + mi * USECS_PER_MINUTE + sec * 1_000_000 + frac };
}
