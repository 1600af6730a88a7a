/**
 * interval text I/O: output in the four IntervalStyles (postgres, postgres_verbose, sql_standard,
 * iso_8601) and input in PostgreSQL's forms ('1 day 02:03:04', '2 hours 30 minutes', '1-2', '@ 1 hour ago',
 * 'P1Y2M3DT4H5M6S', 'P0001-02-03T04:05:06'), with fractional units spilling into smaller ones as in
 * DecodeInterval (1.5 months = 1 mon 15 days).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/datetime.c (EncodeInterval, DecodeInterval, DecodeISO8601Interval)
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import type { Interval } from './values.ts';
import { rint } from './calendar.ts';

const USEC_HOUR = 3_600_000_000n;
const USEC_MIN = 60_000_000n;
const USEC_SEC = 1_000_000n;

function bad(text: string): GatewayError {
  return new GatewayError(SqlState.invalid_datetime_format, `invalid input syntax for type interval: "${text}"`);
}

function overflow(): GatewayError {
  return new GatewayError(SqlState.datetime_field_overflow, 'interval field value out of range');
}

// ---------------------------------------------------------------- output

interface Parts {
  year: number; mon: number; mday: number; hour: bigint; min: number; sec: number; fsec: number;
}

function split(v: Interval): Parts {
  const year = Math.trunc(v.months / 12), mon = v.months % 12;
  if (v.micros <= 9007199254740991n && v.micros >= -9007199254740991n) {
    // Number arithmetic is exact here and avoids BigInt division on the hot path
    let n = Number(v.micros);
    const hour = Math.trunc(n / 3_600_000_000);
    n -= hour * 3_600_000_000;
    const min = Math.trunc(n / 60_000_000);
    n -= min * 60_000_000;
    const sec = Math.trunc(n / 1_000_000);
    return { year, mon, mday: v.days, hour: BigInt(hour), min, sec, fsec: n - sec * 1_000_000 };
  }
  let t = v.micros;
  const hour = t / USEC_HOUR;
  t -= hour * USEC_HOUR;
  const min = Number(t / USEC_MIN);
  t -= BigInt(min) * USEC_MIN;
  const sec = Number(t / USEC_SEC);
  const fsec = Number(t - BigInt(sec) * USEC_SEC);
  return { year: Math.trunc(v.months / 12), mon: v.months % 12, mday: v.days, hour, min, sec, fsec };
}

function absB(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** AppendSeconds: |sec|[.ffffff trimmed], zero-filled to 2 digits when fill */
function seconds(sec: number, fsec: number, fill: boolean): string {
  const s = Math.abs(sec);
  let out = fill && s < 10 ? '0' + s : String(s);
  if (fsec !== 0) {
    let f = String(Math.abs(fsec) + 1_000_000).slice(1);
    let end = 6;
    while (f.charCodeAt(end - 1) === 48) end--;
    f = f.slice(0, end);
    out += '.' + f;
  }
  return out;
}

function two(n: number): string {
  const a = Math.abs(n);
  return a < 10 ? '0' + a : String(a);
}

/** interval_out in the given IntervalStyle */
export function intervalOut(v: Interval, style = 'postgres'): string {
  const p = split(v);
  switch (style) {
    case 'iso_8601': return iso(p);
    case 'sql_standard': return sqlStandard(p);
    case 'postgres_verbose': return verbose(p);
    default: return postgres(p);
  }
}

function postgres(p: Parts): string {
  let out = '';
  let isZero = true, isBefore = false;
  const part = (value: number, unit: string) => {
    if (value === 0) return;
    out += (isZero ? '' : ' ') + (isBefore && value > 0 ? '+' : '') + value + ' ' + unit + (value !== 1 ? 's' : '');
    isBefore = value < 0;
    isZero = false;
  };
  part(p.year, 'year');
  part(p.mon, 'mon');
  part(p.mday, 'day');
  if (isZero || p.hour !== 0n || p.min !== 0 || p.sec !== 0 || p.fsec !== 0) {
    const minus = p.hour < 0n || p.min < 0 || p.sec < 0 || p.fsec < 0;
    const h = absB(p.hour);
    out += (isZero ? '' : ' ') + (minus ? '-' : isBefore ? '+' : '') + (h < 10n ? '0' + h : String(h)) + ':' + two(p.min) + ':' + seconds(p.sec, p.fsec, true);
  }
  return out;
}

function iso(p: Parts): string {
  if (p.year === 0 && p.mon === 0 && p.mday === 0 && p.hour === 0n && p.min === 0 && p.sec === 0 && p.fsec === 0) return 'PT0S';
  let out = 'P';
  if (p.year !== 0) out += p.year + 'Y';
  if (p.mon !== 0) out += p.mon + 'M';
  if (p.mday !== 0) out += p.mday + 'D';
  if (p.hour !== 0n || p.min !== 0 || p.sec !== 0 || p.fsec !== 0) out += 'T';
  if (p.hour !== 0n) out += p.hour + 'H';
  if (p.min !== 0) out += p.min + 'M';
  if (p.sec !== 0 || p.fsec !== 0) out += (p.sec < 0 || p.fsec < 0 ? '-' : '') + seconds(p.sec, p.fsec, false) + 'S';
  return out;
}

function sqlStandard(p: Parts): string {
  let { year, mon, mday, hour, min, sec, fsec } = p;
  const hasNeg = year < 0 || mon < 0 || mday < 0 || hour < 0n || min < 0 || sec < 0 || fsec < 0;
  const hasPos = year > 0 || mon > 0 || mday > 0 || hour > 0n || min > 0 || sec > 0 || fsec > 0;
  const hasYM = year !== 0 || mon !== 0;
  const hasDT = mday !== 0 || hour !== 0n || min !== 0 || sec !== 0 || fsec !== 0;
  const standard = !(hasNeg && hasPos) && !(hasYM && hasDT);
  let out = '';
  if (hasNeg && standard) {
    out = '-';
    year = -year; mon = -mon; mday = -mday; hour = -hour; min = -min; sec = -sec; fsec = -fsec;
  }
  if (!hasNeg && !hasPos) return '0';
  if (!standard) {
    const ys = year < 0 || mon < 0 ? '-' : '+';
    const ds = mday < 0 ? '-' : '+';
    const ss = hour < 0n || min < 0 || sec < 0 || fsec < 0 ? '-' : '+';
    return `${ys}${Math.abs(year)}-${Math.abs(mon)} ${ds}${Math.abs(mday)} ${ss}${absB(hour)}:${two(min)}:${seconds(sec, fsec, true)}`;
  }
  if (hasYM) return `${out}${year}-${mon}`;
  if (mday !== 0) return `${out}${mday} ${hour}:${two(min)}:${seconds(sec, fsec, true)}`;
  return `${out}${hour}:${two(min)}:${seconds(sec, fsec, true)}`;
}

function verbose(p: Parts): string {
  let out = '@';
  let isZero = true, isBefore = false;
  const part = (value: number, unit: string) => {
    if (value === 0) return;
    if (isZero) { isBefore = value < 0; value = Math.abs(value); } else if (isBefore) value = -value;
    out += ` ${value} ${unit}${value === 1 ? '' : 's'}`;
    isZero = false;
  };
  part(p.year, 'year');
  part(p.mon, 'mon');
  part(p.mday, 'day');
  part(Number(p.hour), 'hour');
  part(p.min, 'min');
  if (p.sec !== 0 || p.fsec !== 0) {
    out += ' ';
    if (p.sec < 0 || (p.sec === 0 && p.fsec < 0)) {
      if (isZero) isBefore = true;
      else if (!isBefore) out += '-';
    } else if (isBefore) out += '-';
    out += seconds(p.sec, p.fsec, false) + ` sec${Math.abs(p.sec) !== 1 || p.fsec !== 0 ? 's' : ''}`;
    isZero = false;
  }
  if (isZero) out += ' 0';
  if (isBefore) out += ' ago';
  return out;
}

// ---------------------------------------------------------------- input

/** units → [months, days, micros] per 1 */
const UNITS: Readonly<Record<string, readonly [number, number, number]>> = {};
function unit(names: string[], v: readonly [number, number, number]): void {
  for (const n of names) (UNITS as Record<string, readonly [number, number, number]>)[n] = v;
}
unit(['microsecond', 'microseconds', 'us', 'usec', 'usecs', 'useconds', 'microsecon'], [0, 0, 1]);
unit(['millisecond', 'milliseconds', 'ms', 'msec', 'msecs', 'mseconds', 'millisecon'], [0, 0, 1000]);
unit(['second', 'seconds', 's', 'sec', 'secs'], [0, 0, 1e6]);
unit(['minute', 'minutes', 'm', 'min', 'mins'], [0, 0, 60e6]);
unit(['hour', 'hours', 'h', 'hr', 'hrs'], [0, 0, 3600e6]);
unit(['day', 'days', 'd'], [0, 1, 0]);
unit(['week', 'weeks', 'w'], [0, 7, 0]);
unit(['month', 'months', 'mon', 'mons'], [1, 0, 0]);
unit(['year', 'years', 'y', 'yr', 'yrs'], [12, 0, 0]);
unit(['decade', 'decades', 'dec', 'decs'], [120, 0, 0]);
unit(['century', 'centuries', 'c', 'cent'], [1200, 0, 0]);
unit(['millennium', 'millennia', 'mil', 'mils'], [12000, 0, 0]);

/** unit spelling → the field it sets, for duplicate detection */
const UNIT_FIELD: Record<string, string> = {};
for (const [field, names] of Object.entries({
  microsecond: ['microsecond', 'microseconds', 'us', 'usec', 'usecs', 'useconds', 'microsecon'],
  millisecond: ['millisecond', 'milliseconds', 'ms', 'msec', 'msecs', 'mseconds', 'millisecon'],
  second: ['second', 'seconds', 's', 'sec', 'secs'], minute: ['minute', 'minutes', 'm', 'min', 'mins'],
  hour: ['hour', 'hours', 'h', 'hr', 'hrs'], day: ['day', 'days', 'd'], week: ['week', 'weeks', 'w'],
  month: ['month', 'months', 'mon', 'mons'], year: ['year', 'years', 'y', 'yr', 'yrs'],
  decade: ['decade', 'decades', 'dec', 'decs'], century: ['century', 'centuries', 'c', 'cent'],
  millennium: ['millennium', 'millennia', 'mil', 'mils'],
})) for (const n of names) UNIT_FIELD[n] = field;

class Acc {
  months = 0;
  days = 0;
  micros = 0n;

  /** adds value × unit with DecodeInterval's fraction spill (month fraction → 30-day days, day fraction → time) */
  add(value: number, u: readonly [number, number, number]): void {
    const [m, d, us] = u;
    if (m !== 0) {
      const total = value * m;
      const whole = Math.trunc(total);
      this.months += whole;
      this.addDays((total - whole) * 30);
    } else if (d !== 0) {
      this.addDays(value * d);
    } else {
      this.micros += BigInt(rint(value * us));
    }
  }

  addDays(v: number): void {
    const whole = Math.trunc(v);
    this.days += whole;
    const frac = v - whole;
    if (frac !== 0) this.micros += BigInt(rint(frac * 86400e6));
  }
}

/** interval_in */
export function intervalIn(text: string, style = 'postgres'): Interval {
  const s = text.trim().toLowerCase();
  if (s.length === 0) throw bad(text);
  const acc = new Acc();
  if (s.charCodeAt(0) === 112 /* p */) {
    parseIso(s, text, acc);
  } else {
    parsePostgres(s, text, acc, style === 'sql_standard');
  }
  if (!Number.isSafeInteger(acc.months) || Math.abs(acc.months) > 2147483647 || Math.abs(acc.days) > 2147483647) throw overflow();
  return { months: acc.months === 0 ? 0 : acc.months, days: acc.days === 0 ? 0 : acc.days, micros: acc.micros };
}

function parseNumber(tok: string, text: string): number {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(tok)) throw bad(text);
  return Number(tok);
}

/** [+-]h:mm[:ss[.f]] or [+-]mm:ss.f → µs */
function parseTimeField(tok: string, text: string): bigint {
  let neg = false;
  if (tok[0] === '-' || tok[0] === '+') { neg = tok[0] === '-'; tok = tok.slice(1); }
  const parts = tok.split(':');
  if (parts.length < 2 || parts.length > 3) throw bad(text);
  let h: string, m: string, sec: string;
  if (parts.length === 2 && parts[1]!.includes('.')) { h = '0'; m = parts[0]!; sec = parts[1]!; } else { h = parts[0]!; m = parts[1]!; sec = parts[2] ?? '0'; }
  if (!/^\d+$/.test(h) || !/^\d+$/.test(m) || !/^(\d+\.?\d*|\.\d+)$/.test(sec)) throw bad(text);
  const mm = Number(m), ss = Number(sec);
  if (mm > 59 || ss >= 60) throw new GatewayError(SqlState.interval_field_overflow, `interval field value out of range: "${text}"`);
  const us = BigInt(h) * USEC_HOUR + BigInt(mm) * USEC_MIN + BigInt(rint(ss * 1e6));
  return neg ? -us : us;
}

function parsePostgres(s: string, text: string, acc: Acc, sqlStandard: boolean): void {
  let body = s;
  let ago = false;
  if (body.startsWith('@')) body = body.slice(1).trim();
  if (body.endsWith(' ago') || body === 'ago') { ago = true; body = body.slice(0, -3).trim(); }
  // "1day" style: split digit/letter boundaries
  const raw = body.replace(/(\d)([a-z])/g, '$1 $2').split(/\s+/).filter((t) => t.length > 0);
  // a sign standing alone ("- 1 day") belongs to the next number
  const toks: string[] = [];
  for (let k = 0; k < raw.length; k++) {
    const t = raw[k]!;
    if ((t === '-' || t === '+') && k + 1 < raw.length) { toks.push(t + raw[++k]!); continue; }
    toks.push(t);
  }
  if (toks.length === 0) throw bad(text);
  // sql_standard: a leading minus applies to every field that has no sign of its own
  const leadingMinus = sqlStandard && toks[0]!.startsWith('-');
  let sawAny = false;
  const seen = new Set<string>();
  const mark = (field: string) => {
    if (seen.has(field)) throw bad(text); // each field at most once, as DecodeInterval's fmask
    seen.add(field);
  };
  for (let i = 0; i < toks.length; i++) {
    let tok = toks[i]!;
    if (leadingMinus && i > 0 && tok[0] !== '-' && tok[0] !== '+' && /^\d/.test(tok)) tok = '-' + tok;
    if (tok.includes(':')) {
      mark('hour'); mark('minute'); mark('second');
      acc.micros += parseTimeField(tok, text);
      sawAny = true;
      continue;
    }
    const ym = /^([+-]?)(\d+)-(\d+)$/.exec(tok);
    if (ym !== null) {
      const months = Number(ym[2]) * 12 + Number(ym[3]);
      if (Number(ym[3]) > 11) throw new GatewayError(SqlState.interval_field_overflow, `interval field value out of range: "${text}"`);
      mark('year'); mark('month');
      acc.months += ym[1] === '-' ? -months : months;
      sawAny = true;
      continue;
    }
    if (/^[a-z]/.test(tok)) throw bad(text);
    const value = parseNumber(tok, text);
    const next = toks[i + 1];
    const u = next === undefined ? undefined : UNITS[next];
    if (u !== undefined) {
      mark(UNIT_FIELD[next!] ?? next!);
      acc.add(value, u);
      i++;
    } else if (next !== undefined && /^[a-z]/.test(next)) {
      throw bad(text);
    } else if (next !== undefined && next.includes(':') && !tok.includes('.')) {
      mark('day');
      acc.add(value, UNITS.day!); // "1 2:03:04": days before a time
    } else {
      mark('second');
      acc.add(value, UNITS.second!); // a bare number is seconds
    }
    sawAny = true;
  }
  if (!sawAny) throw bad(text);
  if (ago) { acc.months = -acc.months; acc.days = -acc.days; acc.micros = -acc.micros; }
}

function parseIso(s: string, text: string, acc: Acc): void {
  let i = 1;
  let inTime = false;
  if (/^p\d{4}-\d{2}-\d{2}(t\d{2}:\d{2}:\d{2}(\.\d+)?)?$/.test(s)) {
    // alternative format P0001-02-03T04:05:06
    acc.months += Number(s.slice(1, 5)) * 12 + Number(s.slice(6, 8));
    acc.days += Number(s.slice(9, 11));
    if (s.length > 11) acc.micros += parseTimeField(s.slice(12), text);
    return;
  }
  if (i >= s.length) throw bad(text);
  while (i < s.length) {
    if (s[i] === 't') { if (inTime) throw bad(text); inTime = true; i++; continue; }
    let j = i;
    if (s[j] === '-' || s[j] === '+') j++;
    while (j < s.length && ((s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) || s[j] === '.')) j++;
    const value = parseNumber(s.slice(i, j), text);
    const d = s[j];
    if (d === undefined) throw bad(text);
    if (!inTime) {
      if (d === 'y') acc.add(value, UNITS.year!);
      else if (d === 'm') acc.add(value, UNITS.month!);
      else if (d === 'w') acc.add(value, UNITS.week!);
      else if (d === 'd') acc.add(value, UNITS.day!);
      else throw bad(text);
    } else if (d === 'h') acc.add(value, UNITS.hour!);
    else if (d === 'm') acc.add(value, UNITS.minute!);
    else if (d === 's') acc.add(value, UNITS.second!);
    else throw bad(text);
    i = j + 1;
  }
}
