/**
 * pg_timezone_names: the IANA zones the runtime knows (Intl), with their current abbreviation, UTC offset
 * (an interval) and DST flag. Rows are recomputed at most once a minute and the formatters are kept: building them is the costly part.
 * @see https://www.postgresql.org/docs/15/view-pg-timezone-names.html
 */
import type { Interval } from '../../common/pgtypes/index.ts';
import type { CatalogRow } from '../system-table.ts';

interface ZoneFormatters { readonly offset: Intl.DateTimeFormat; readonly short: Intl.DateTimeFormat }
const formatters = new Map<string, ZoneFormatters>();

function zoneFormatters(zone: string): ZoneFormatters {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = {
      offset: new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }),
      short: new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }),
    };
    formatters.set(zone, f);
  }
  return f;
}

function offsetMinutes(zone: string, at: Date): number {
  const part = zoneFormatters(zone).offset.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(part);
  return m === null ? 0 : (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** PostgreSQL's numeric abbreviation when the zone has no letters one: +0530, -03 */
function numericAbbrev(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  return abs % 60 === 0 ? `${sign}${hh}` : `${sign}${hh}${String(abs % 60).padStart(2, '0')}`;
}

let cache: { at: number; rows: CatalogRow[] } | undefined;

export function pgTimezoneNamesRows(): Iterable<CatalogRow> {
  const now = Date.now();
  if (cache !== undefined && now - cache.at < 60_000) return cache.rows;
  const at = new Date(now);
  const year = at.getUTCFullYear();
  const zones = new Set<string>(Intl.supportedValuesOf('timeZone'));
  zones.add('UTC');
  const rows: CatalogRow[] = [];
  for (const name of [...zones].sort()) {
    const off = offsetMinutes(name, at);
    const standard = Math.min(offsetMinutes(name, new Date(Date.UTC(year, 0, 1))), offsetMinutes(name, new Date(Date.UTC(year, 6, 1))));
    const short = zoneFormatters(name).short.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const utcOffset: Interval = { months: 0, days: 0, micros: BigInt(off) * 60_000_000n };
    rows.push({ name, abbrev: /^[A-Z]{2,5}$/.test(short) ? short : off === 0 ? 'UTC' : numericAbbrev(off), utc_offset: utcOffset, is_dst: off !== standard });
  }
  cache = { at: now, rows };
  return rows;
}
