/**
 * Text forms of date/time values in DateStyle ISO and IntervalStyle postgres (PostgreSQL's defaults),
 * used by to_json (which needs them in F2's area) and by tests. Kept local because common/pgtypes had no
 * date/time output yet when this was written; switch to pgtypes' textOut once it lands.
 */
import { TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY, type Interval } from '../common/pgtypes/values.ts';
import { timestampToTm } from './datetime-fields.ts';
import { formatOffset, offsetAtUtc, resolveZone, type Zone } from './timezone.ts';

const p2 = (n: number): string => String(n).padStart(2, '0');

function fraction(micro: number): string {
  return micro === 0 ? '' : '.' + String(micro).padStart(6, '0').replace(/0+$/, '');
}

export function dateText(d: number): string {
  if (d === Infinity) return 'infinity';
  if (d === -Infinity) return '-infinity';
  const tm = timestampToTm(BigInt(d) * 86_400_000_000n);
  const bc = tm.year <= 0;
  return `${String(bc ? 1 - tm.year : tm.year).padStart(4, '0')}-${p2(tm.month)}-${p2(tm.day)}${bc ? ' BC' : ''}`;
}

export function timestampText(ts: bigint, zoneName: Zone | string | null = null, isoT = false): string {
  if (ts === TIMESTAMP_INFINITY) return 'infinity';
  if (ts === TIMESTAMP_NEG_INFINITY) return '-infinity';
  const zone = zoneName === null ? null : typeof zoneName === 'string' ? resolveZone(zoneName) : zoneName;
  const off = zone ? offsetAtUtc(zone, ts) : 0;
  const tm = timestampToTm(ts + BigInt(off) * 1_000_000n);
  const bc = tm.year <= 0;
  return `${String(bc ? 1 - tm.year : tm.year).padStart(4, '0')}-${p2(tm.month)}-${p2(tm.day)}${isoT ? 'T' : ' '}${p2(tm.hour)}:${p2(tm.minute)}:${p2(tm.second)}${fraction(tm.micro)}${zone ? formatOffset(off, isoT) : ''}${bc ? ' BC' : ''}`;
}

export function timeText(t: number): string {
  const micro = t % 1_000_000;
  const s = Math.floor(t / 1_000_000);
  return `${p2(Math.floor(s / 3600))}:${p2(Math.floor(s / 60) % 60)}:${p2(s % 60)}${fraction(micro)}`;
}

/** IntervalStyle postgres */
export function intervalText(iv: Interval): string {
  const parts: string[] = [];
  let isBefore = false;
  const add = (v: number, unit: string): void => {
    if (v === 0) return;
    parts.push(`${isBefore && v > 0 ? '+' : ''}${v} ${unit}${v === 1 ? '' : 's'}`);
    if (v < 0) isBefore = true;
  };
  const years = Math.trunc(iv.months / 12);
  add(years, 'year');
  add(iv.months - years * 12, 'mon');
  add(iv.days, 'day');
  if (iv.micros !== 0n || parts.length === 0) {
    const neg = iv.micros < 0n;
    let t = neg ? -iv.micros : iv.micros;
    const h = t / 3_600_000_000n; t -= h * 3_600_000_000n;
    const m = t / 60_000_000n; t -= m * 60_000_000n;
    const s = t / 1_000_000n; t -= s * 1_000_000n;
    parts.push(`${neg ? '-' : isBefore ? '+' : ''}${String(h).padStart(2, '0')}:${p2(Number(m))}:${p2(Number(s))}${fraction(Number(t))}`);
  }
  return parts.join(' ');
}

