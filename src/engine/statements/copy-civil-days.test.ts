/**
 * COPY's date tables (copy-civil-days.ts) against the JS Date's own calendar, for every month of years 0–9999, and
 * the date field parser built on them (copy-field-scanners.ts) against PostgreSQL's date input function for every
 * day of the years where the Gregorian rules differ (century, 400-year, leap and common years, TPC-H's 1992–1998),
 * and for the days just past each month's end.
 */
import { describe, expect, it } from 'vitest';
import { CIVIL_DAYS_BEFORE_MONTH, CIVIL_LEAP, CIVIL_MONTH_LENGTH, CIVIL_YEAR_DAYS } from './copy-civil-days.ts';
import { CopyColumnSink } from './copy-column-sinks.ts';
import { materializeColumn } from '../../iceberg/write/typed-columns.ts';
import { textIn } from '../../common/pgtypes/index.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../../common/pgtypes/output-settings.ts';
import { toGatewayError } from '../../common/errors.ts';

const DAY_MS = 86_400_000;

/** days from 1970-01-01 by the JS Date (setUTCFullYear: years below 100 are not taken as 19xx) */
function jsDays(y: number, m: number, d: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return Math.round(t.getTime() / DAY_MS);
}

describe('civil day tables', () => {
  it('every month of years 0–9999: first day, length, and days counted one by one', () => {
    let next = jsDays(0, 1, 1);
    for (let y = 0; y <= 9999; y++) {
      const leap = CIVIL_LEAP[y]!;
      for (let m = 1; m <= 12; m++) {
        const k = leap * 13 + m;
        const first = CIVIL_YEAR_DAYS[y]! + CIVIL_DAYS_BEFORE_MONTH[k]!;
        const length = CIVIL_MONTH_LENGTH[k]!;
        if (first !== next || first !== jsDays(y, m, 1) || length !== jsDays(y, m + 1, 1) - first) {
          expect({ y, m, first, length }).toEqual({ y, m, first: jsDays(y, m, 1), length: jsDays(y, m + 1, 1) - jsDays(y, m, 1) });
        }
        next = first + length;
      }
    }
    expect(next).toBe(jsDays(10000, 1, 1));
  });
});

/** what PostgreSQL's date input gives: the value, or the error's code */
function oracle(s: string): unknown {
  try {
    return textIn(Oid.date, -1, s, DEFAULT_OUTPUT_SETTINGS);
  } catch (e) {
    return toGatewayError(e).code;
  }
}

const enc = new TextEncoder();

describe('date field parser', () => {
  it('every day (and the day past each month) of the years where the rules differ = the input function', () => {
    const years = [1, 2, 3, 4, 99, 100, 400, 1582, 1900, 1969, 1970, 1992, 1993, 1994, 1995, 1996, 1997, 1998, 2000, 2024, 2100, 9996, 9999];
    const fields: string[] = [];
    for (const y of years) {
      for (let m = 1; m <= 12; m++) {
        for (let d = 0; d <= 32; d++) fields.push(`${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
      }
    }
    fields.push('0000-01-01', '2020-00-10', '2020-13-01', '2020-1a-01', '2020-01-0/', '2020-01-0:', '202/-01-01');
    for (const field of fields) {
      const sink = new CopyColumnSink({ oid: Oid.date, typmod: -1 }, 1);
      const bytes = enc.encode(`${field},`);
      const end = sink.scan(bytes, 0, bytes.length, 44);
      const want = oracle(field);
      // the scanner takes the canonical spellings of real days and leaves everything else to the input function
      if (end < 0) expect([field, typeof want === 'string' || field.startsWith('0000') ? 'left' : want]).toEqual([field, 'left']);
      else expect([field, end, materializeColumn(sink.finish(false))[0]]).toEqual([field, 10, want]);
    }
  });
});
