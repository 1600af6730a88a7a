/**
 * Calendar days for COPY's date fast paths (copy-field-scanners.ts). A `YYYY-MM-DD` field's day number comes from
 * tables instead of days_from_civil's divisions: the record loop is too big for V8 to inline a call into it, and
 * the call was ≈ 9 % of decoding TPC-H lineitem (three dates per row, ≈ 21 ns each).
 */

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

/** the years a four-digit field spells: 0–9999 */
const YEARS = 10000;

/** per year 0–9999: 1 in a leap year, else 0 */
export const CIVIL_LEAP: Uint8Array = new Uint8Array(YEARS);
/** per year 0–9999: the days from 1970-01-01 to its January 1st */
export const CIVIL_YEAR_DAYS: Int32Array = new Int32Array(YEARS);
for (let y = 0; y < YEARS; y++) {
  CIVIL_LEAP[y] = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 1 : 0;
  CIVIL_YEAR_DAYS[y] = daysFromCivil(y, 1, 1);
}

/** at leap * 13 + m (m 1–12): the month's length in days */
export const CIVIL_MONTH_LENGTH: Int32Array = new Int32Array(26);
/** at leap * 13 + m (m 1–12): the days of the year before the month's first day */
export const CIVIL_DAYS_BEFORE_MONTH: Int32Array = new Int32Array(26);
for (let leap = 0; leap < 2; leap++) {
  let before = 0;
  for (let m = 1; m <= 12; m++) {
    const length = MONTH_DAYS[m]! + (leap === 1 && m === 2 ? 1 : 0);
    CIVIL_MONTH_LENGTH[leap * 13 + m] = length;
    CIVIL_DAYS_BEFORE_MONTH[leap * 13 + m] = before;
    before += length;
  }
}
