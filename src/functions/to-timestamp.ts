/**
 * to_timestamp(text, text) and to_date(text, text): PostgreSQL's DCH_from_char / do_to_timestamp.
 * Template separators match any single separator in the input (or none); fields skip leading spaces;
 * a numeric field directly followed by another numeric field reads exactly its width.
 * @see https://www.postgresql.org/docs/15/functions-formatting.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { USECS_PER_DAY, checkTimestamp, daysFromCivil, daysInMonth, isoYearStart } from './datetime-fields.ts';
import { DAY_NAMES, MONTH_NAMES, parseDateFormat, type DchKeyword, type FormatNode } from './to-char.ts';
import { localToUtc, type Zone } from './timezone.ts';

interface Parsed {
  year?: number; yearDigits?: number; bc?: boolean; month?: number; day?: number; doy?: number;
  hour?: number; hour12?: boolean; pm?: boolean; minute?: number; second?: number; usec?: number;
  julian?: number; isoYear?: number; isoWeek?: number; isoDow?: number; tzSeconds?: number; tzSign?: number; ssss?: number;
}

const WIDTH: Partial<Record<DchKeyword, number>> = {
  YYYY: 4, IYYY: 4, YYY: 3, IYY: 3, YY: 2, IY: 2, Y: 1, I: 1, MM: 2, DD: 2, DDD: 3, IDDD: 3, HH: 2, HH12: 2, HH24: 2,
  MI: 2, SS: 2, MS: 3, US: 6, FF1: 1, FF2: 2, FF3: 3, FF4: 4, FF5: 5, FF6: 6, IW: 2, WW: 2, W: 1, D: 1, ID: 1, Q: 1, CC: 2,
  J: 0, SSSS: 0, SSSSS: 0, TZH: 3, TZM: 2,
};

const isSep = (c: string | undefined): boolean => c !== undefined && !/[A-Za-z0-9]/.test(c);

function invalidValue(value: string, key: string, detail: string): Error {
  return pgError(SqlState.invalid_datetime_format, `invalid value "${value}" for "${key}"`, { detail });
}

export function parseToTimestamp(input: string, format: string, kind: 'timestamptz' | 'date', zone: Zone): bigint | number {
  const nodes = parseDateFormat(format);
  const r: Parsed = {};
  let s = 0;
  for (let ni = 0; ni < nodes.length; ni++) {
    const node = nodes[ni]!;
    if (node.kind === 'literal') {
      for (const ch of node.text) {
        if (ch === ' ') { while (input[s] === ' ') s++; continue; }
        if (isSep(ch)) { if (isSep(input[s]) && input[s] !== ' ') s++; else while (input[s] === ' ') s++; continue; }
        if (s < input.length) s++;
      }
      continue;
    }
    while (input[s] === ' ') s++;
    if (s >= input.length) break; // PostgreSQL ignores template fields past the end of the input
    s = readField(node, nodes[ni + 1], input, s, r);
  }
  return build(r, input, kind, zone);
}

function readField(node: Extract<FormatNode, { kind: 'field' }>, next: FormatNode | undefined, input: string, s: number, r: Parsed): number {
  const key = node.key;
  const rest = input.slice(s);
  const nameMatch = (names: string[], len: number | null): number => {
    const lower = rest.toLowerCase();
    for (let i = 0; i < names.length; i++) {
      const n = (len === null ? names[i]! : names[i]!.slice(0, len)).toLowerCase();
      if (lower.startsWith(n)) return i;
    }
    throw invalidValue(rest, node.raw, 'The given value did not match any of the allowed values for this field.');
  };
  switch (key) {
    case 'MONTH': { const i = nameMatch(MONTH_NAMES, null); r.month = i + 1; return s + MONTH_NAMES[i]!.length; }
    case 'MON': { const i = nameMatch(MONTH_NAMES, 3); r.month = i + 1; return s + 3; }
    case 'DAY': { const i = nameMatch(DAY_NAMES, null); return s + DAY_NAMES[i]!.length; }
    case 'DY': { nameMatch(DAY_NAMES, 3); return s + 3; }
    case 'AM': case 'PM': case 'A.M.': case 'P.M.': {
      const u = rest.slice(0, key.length).toUpperCase();
      if (u !== 'AM' && u !== 'PM' && u !== 'A.M.' && u !== 'P.M.') throw invalidValue(rest, node.raw, 'The given value did not match any of the allowed values for this field.');
      r.pm = u.startsWith('P');
      return s + key.length;
    }
    case 'AD': case 'BC': case 'A.D.': case 'B.C.': {
      const u = rest.slice(0, key.length).toUpperCase();
      r.bc = u.startsWith('B');
      return s + key.length;
    }
    case 'TZ': case 'OF':
      throw pgError(SqlState.feature_not_supported, `formatting field "${node.raw}" is only supported in to_char`);
    case 'RM': {
      const romans = ['XII', 'XI', 'X', 'IX', 'VIII', 'VII', 'VI', 'V', 'IV', 'III', 'II', 'I'];
      const m = romans.find((x) => rest.toUpperCase().startsWith(x));
      if (!m) throw invalidValue(rest, node.raw, 'The given value did not match any of the allowed values for this field.');
      r.month = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1][romans.indexOf(m)];
      return s + m.length;
    }
    case 'Y,YYY': {
      const m = /^(\d+),(\d{3})/.exec(rest);
      if (!m) throw invalidValue(rest, node.raw, 'Value must be an integer.');
      r.year = Number(m[1]) * 1000 + Number(m[2]); r.yearDigits = 4;
      return s + m[0].length;
    }
    default: break;
  }
  // numeric fields
  const width = WIDTH[key] ?? 0;
  const fixed = width > 0 && next?.kind === 'field' && WIDTH[next.key] !== undefined;
  let j = s;
  if (key === 'TZH' && (input[j] === '+' || input[j] === '-' || input[j] === ' ')) j++;
  else if (input[j] === '-' && (key === 'YYYY' || key === 'J')) j++;
  const startDigits = j;
  while (j < input.length && /\d/.test(input[j]!) && (!fixed || j - startDigits < (key === 'TZH' ? 2 : width))) j++;
  if (j === startDigits) {
    if (s >= input.length) throw pgError(SqlState.invalid_datetime_format, `source string too short for "${node.raw}" formatting field`, { detail: `Field requires ${width} characters, but only 0 remain.`, hint: 'If your source string is not fixed-width, try using the "FM" modifier.' });
    const bad = /^\S+/.exec(rest)?.[0] ?? rest;
    throw invalidValue(bad.split(/[^A-Za-z0-9]/)[0] || bad, node.raw, 'Value must be an integer.');
  }
  const text = input.slice(s, j);
  const v = Number(input.slice(startDigits, j));
  const neg = input[s] === '-';
  const digits = j - startDigits;
  switch (key) {
    case 'YYYY': case 'YYY': case 'YY': case 'Y': r.year = neg ? -v : v; r.yearDigits = key === 'YYYY' ? 4 : digits < key.length ? digits : key.length; break;
    case 'IYYY': case 'IYY': case 'IY': case 'I': r.isoYear = v; break;
    case 'MM': r.month = v; break;
    case 'DD': r.day = v; break;
    case 'DDD': r.doy = v; break;
    case 'HH': case 'HH12': r.hour = v; r.hour12 = true; break;
    case 'HH24': r.hour = v; break;
    case 'MI': r.minute = v; break;
    case 'SS': r.second = v; break;
    case 'MS': r.usec = (r.usec ?? 0) + v * 10 ** (3 - digits) * 1000; break;
    case 'US': r.usec = (r.usec ?? 0) + v * 10 ** (6 - digits); break;
    case 'FF1': case 'FF2': case 'FF3': case 'FF4': case 'FF5': case 'FF6': r.usec = (r.usec ?? 0) + v * 10 ** (6 - digits); break;
    case 'SSSS': case 'SSSSS': r.ssss = v; break;
    case 'J': r.julian = neg ? -v : v; break;
    case 'IW': r.isoWeek = v; break;
    case 'ID': r.isoDow = v; break;
    case 'TZH': r.tzSign = text.startsWith('-') ? -1 : 1; r.tzSeconds = (r.tzSeconds ?? 0) + v * 3600; break;
    case 'TZM': r.tzSeconds = (r.tzSeconds ?? 0) + v * 60; break;
    default: break; // D, W, WW, Q, CC: accepted and ignored as in PostgreSQL when a full date is given
  }
  return j;
}

function build(r: Parsed, input: string, kind: 'timestamptz' | 'date', zone: Zone): bigint | number {
  const outOfRange = (): Error => pgError(SqlState.datetime_field_overflow, `date/time field value out of range: "${input}"`);
  let year = r.year ?? 0;
  if (r.year !== undefined && r.yearDigits !== undefined && r.yearDigits < 4 && !r.bc) {
    if (r.yearDigits === 2) year = year < 70 ? year + 2000 : year + 1900;
    else if (r.yearDigits === 3) year = year < 520 ? year + 2000 : year + 1000;
    else if (r.yearDigits === 1) year += 2000;
  }
  if (r.year === undefined && r.isoYear !== undefined) year = r.isoYear;
  // astronomical year: input year n BC is 1 - n
  let astro = r.bc ? 1 - year : year;
  if (r.year === undefined && r.isoYear === undefined && r.julian === undefined) astro = 0;
  let days: number;
  if (r.julian !== undefined) days = r.julian - 2440588;
  else if (r.isoYear !== undefined && r.isoWeek !== undefined) days = isoYearStart(r.isoYear) + (r.isoWeek - 1) * 7 + ((r.isoDow ?? 1) - 1);
  else if (r.doy !== undefined && r.month === undefined) days = daysFromCivil(astro, 1, 1) + r.doy - 1;
  else {
    const month = r.month ?? 1, day = r.day ?? 1;
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(astro, month)) throw outOfRange();
    days = daysFromCivil(astro, month, day);
  }
  if (kind === 'date') return days;
  let hour = r.hour ?? 0;
  if (r.hour12) {
    if (hour < 1 || hour > 12) {
      throw pgError(SqlState.invalid_datetime_format, `hour "${hour}" is invalid for the 12-hour clock`, { hint: 'Use the 24-hour clock, or give an hour between 1 and 12.' });
    }
    if (r.pm && hour < 12) hour += 12;
    else if (!r.pm && hour === 12) hour = 0;
  } else if (r.pm !== undefined) {
    if (r.pm && hour < 12) hour += 12;
    else if (!r.pm && hour === 12) hour = 0;
  }
  let secs = hour * 3600 + (r.minute ?? 0) * 60 + (r.second ?? 0);
  if (r.ssss !== undefined) secs = r.ssss;
  if (hour > 24 || (r.minute ?? 0) > 59 || (r.second ?? 0) > 60) throw outOfRange();
  const local = BigInt(days) * USECS_PER_DAY + BigInt(secs) * 1_000_000n + BigInt(r.usec ?? 0);
  if (r.tzSeconds !== undefined) return checkTimestamp(local - BigInt((r.tzSign ?? 1) * r.tzSeconds) * 1_000_000n);
  return checkTimestamp(localToUtc(zone, local));
}
