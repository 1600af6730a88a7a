/** Calendar days for COPY's date fast paths (copy-column-sinks.ts, copy-field-scanners.ts). */

/** days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil) */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** days per month of a common year (index 1–12) */
export const MONTH_DAYS: readonly number[] = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
