/**
 * Date/time functions, operators and casts against answers copied from PostgreSQL 15
 * (testdata/fill-expected.mjs filled the expected column from a scratch cluster).
 */
import { describe, expect, it } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import { datetimeCasts, datetimeFunctions, datetimeOperators } from './datetime-functions.ts';
import { callFn, callOp, date, iv, render, testContext, time, ts, tstz } from './test-support.ts';

const { date: DATE, time: TIME, timestamp: TS, timestamptz: TSTZ, interval: INTERVAL, text: TEXT, int4: INT4, float8: FLOAT8, numeric: NUMERIC, bool: BOOL } = Oid;
type Case = [sql: string, expected: string, oid: number, run: (ctx: ReturnType<typeof testContext>) => unknown, zone: string];
const cases: Case[] = [];
const c = (sql: string, expected: string, oid: number, run: (ctx: ReturnType<typeof testContext>) => unknown, zone = 'UTC'): void => {
  cases.push([sql, expected, oid, run, zone]);
};
const f = (name: string, args: number[], vals: unknown[]) => (ctx: ReturnType<typeof testContext>) => callFn(datetimeFunctions, name, args, vals, ctx);
const o = (name: string, l: number, r: number, lv: unknown, rv: unknown) => (ctx: ReturnType<typeof testContext>) => callOp(datetimeOperators, name, l, r, lv, rv, ctx);
const cast = (src: number, dst: number, v: unknown, typmod = -1) => (ctx: ReturnType<typeof testContext>) => {
  const def = datetimeCasts.find((x) => x.source === src && x.target === dst);
  if (!def) throw new Error('no cast');
  return def.impl(v, typmod, ctx);
};
const NY = 'America/New_York';
const PARIS = 'Europe/Paris';

// date_trunc
c("select date_trunc('week', timestamp '2024-03-10 12:34:56.789')", "2024-03-04 00:00:00", TS, f('date_trunc', [TEXT, TS], ['week', ts('2024-03-10 12:34:56.789')]));
c("select date_trunc('week', timestamp '2021-01-03 00:00')", "2020-12-28 00:00:00", TS, f('date_trunc', [TEXT, TS], ['week', ts('2021-01-03 00:00')]));
c("select date_trunc('milliseconds', timestamp '2024-03-10 12:34:56.789123')", "2024-03-10 12:34:56.789", TS, f('date_trunc', [TEXT, TS], ['milliseconds', ts('2024-03-10 12:34:56.789123')]));
c("select date_trunc('quarter', timestamp '2024-08-10 12:34')", "2024-07-01 00:00:00", TS, f('date_trunc', [TEXT, TS], ['quarter', ts('2024-08-10 12:34')]));
c("select date_trunc('decade', timestamp '2024-08-10 12:34')", "2020-01-01 00:00:00", TS, f('date_trunc', [TEXT, TS], ['decade', ts('2024-08-10 12:34')]));
c("select date_trunc('century', timestamp '2000-08-10 12:34')", "1901-01-01 00:00:00", TS, f('date_trunc', [TEXT, TS], ['century', ts('2000-08-10 12:34')]));
c("select date_trunc('millennium', timestamp '2024-08-10 12:34')", "2001-01-01 00:00:00", TS, f('date_trunc', [TEXT, TS], ['millennium', ts('2024-08-10 12:34')]));
c("select date_trunc('century', timestamp '0050-05-01 BC')", "0100-01-01 00:00:00 BC", TS, f('date_trunc', [TEXT, TS], ['century', ts('0050-05-01 BC')]));
c("select date_trunc('decade', timestamp '0005-05-01 BC')", "0011-01-01 00:00:00 BC", TS, f('date_trunc', [TEXT, TS], ['decade', ts('0005-05-01 BC')]));
c("select date_trunc('HOUR', timestamp '2024-08-10 12:34')", "2024-08-10 12:00:00", TS, f('date_trunc', [TEXT, TS], ['HOUR', ts('2024-08-10 12:34')]));
c("select date_trunc('xx', timestamp '2024-08-10 12:34')", "ERROR 22023: unit \"xx\" not recognized for type timestamp without time zone", TS, f('date_trunc', [TEXT, TS], ['xx', ts('2024-08-10 12:34')]));
c("select date_trunc('dow', timestamp '2024-08-10 12:34')", "ERROR 22023: unit \"dow\" not recognized for type timestamp without time zone", TS, f('date_trunc', [TEXT, TS], ['dow', ts('2024-08-10 12:34')]));
c("select date_trunc('day', timestamptz '2024-03-10 12:00-04')", "2024-03-10 00:00:00-05", TSTZ, f('date_trunc', [TEXT, TSTZ], ['day', tstz('2024-03-10 16:00')]), 'America/New_York');
c("select date_trunc('day', timestamptz '2024-11-03 12:00-05')", "2024-11-03 00:00:00-04", TSTZ, f('date_trunc', [TEXT, TSTZ], ['day', tstz('2024-11-03 17:00')]), 'America/New_York');
c("select date_trunc('hour', timestamptz '2024-11-03 01:30-05')", "2024-11-03 01:00:00-05", TSTZ, f('date_trunc', [TEXT, TSTZ], ['hour', tstz('2024-11-03 06:30')]), 'America/New_York');
c("select date_trunc('month', timestamptz '2024-03-31 12:00+02')", "2024-03-01 00:00:00+01", TSTZ, f('date_trunc', [TEXT, TSTZ], ['month', tstz('2024-03-31 10:00')]), 'Europe/Paris');
c("select date_trunc('day', timestamptz '2024-03-10 12:00+00', 'Europe/Paris')", "2024-03-09 18:00:00-05", TSTZ, f('date_trunc', [TEXT, TSTZ, TEXT], ['day', tstz('2024-03-10 12:00'), 'Europe/Paris']), 'America/New_York');
c("select date_trunc('xx', now())", "ERROR 22023: unit \"xx\" not recognized for type timestamp with time zone", TSTZ, f('date_trunc', [TEXT, TSTZ], ['xx', 0n]));
c("select date_trunc('hour', interval '1 year 2 mons 3 days 04:05:06.789')", "1 year 2 mons 3 days 04:00:00", INTERVAL, f('date_trunc', [TEXT, INTERVAL], ['hour', iv('1 year 2 mons 3 days 04:05:06.789')]));
c("select date_trunc('quarter', interval '1 year 5 mons 3 days')", "1 year 3 mons", INTERVAL, f('date_trunc', [TEXT, INTERVAL], ['quarter', iv('1 year 5 mons 3 days')]));
c("select date_trunc('decade', interval '-27 years -5 mons')", "-20 years", INTERVAL, f('date_trunc', [TEXT, INTERVAL], ['decade', iv('-27 years -5 mons')]));
c("select date_trunc('week', interval '1 day')", "ERROR 0A000: unit \"week\" not supported for type interval", INTERVAL, f('date_trunc', [TEXT, INTERVAL], ['week', iv('1 day')]));
c("select date_trunc('xx', interval '1 day')", "ERROR 22023: unit \"xx\" not recognized for type interval", INTERVAL, f('date_trunc', [TEXT, INTERVAL], ['xx', iv('1 day')]));
c("select date_trunc('day', timestamp 'infinity')", "infinity", TS, f('date_trunc', [TEXT, TS], ['day', 9223372036854775807n]));

// extract (numeric) and date_part (float8)
c("select extract(microseconds from timestamp '2024-12-30 12:34:56.5')", "56500000", NUMERIC, f('extract', [TEXT, TS], ['microseconds', ts('2024-12-30 12:34:56.5')]));
c("select date_part('microseconds', timestamp '2021-01-03 23:04:05.25')", "5250000", FLOAT8, f('date_part', [TEXT, TS], ['microseconds', ts('2021-01-03 23:04:05.25')]));
c("select extract(milliseconds from timestamp '2024-12-30 12:34:56.5')", "56500.000", NUMERIC, f('extract', [TEXT, TS], ['milliseconds', ts('2024-12-30 12:34:56.5')]));
c("select date_part('milliseconds', timestamp '2021-01-03 23:04:05.25')", "5250", FLOAT8, f('date_part', [TEXT, TS], ['milliseconds', ts('2021-01-03 23:04:05.25')]));
c("select extract(second from timestamp '2024-12-30 12:34:56.5')", "56.500000", NUMERIC, f('extract', [TEXT, TS], ['second', ts('2024-12-30 12:34:56.5')]));
c("select date_part('second', timestamp '2021-01-03 23:04:05.25')", "5.25", FLOAT8, f('date_part', [TEXT, TS], ['second', ts('2021-01-03 23:04:05.25')]));
c("select extract(minute from timestamp '2024-12-30 12:34:56.5')", "34", NUMERIC, f('extract', [TEXT, TS], ['minute', ts('2024-12-30 12:34:56.5')]));
c("select date_part('minute', timestamp '2021-01-03 23:04:05.25')", "4", FLOAT8, f('date_part', [TEXT, TS], ['minute', ts('2021-01-03 23:04:05.25')]));
c("select extract(hour from timestamp '2024-12-30 12:34:56.5')", "12", NUMERIC, f('extract', [TEXT, TS], ['hour', ts('2024-12-30 12:34:56.5')]));
c("select date_part('hour', timestamp '2021-01-03 23:04:05.25')", "23", FLOAT8, f('date_part', [TEXT, TS], ['hour', ts('2021-01-03 23:04:05.25')]));
c("select extract(day from timestamp '2024-12-30 12:34:56.5')", "30", NUMERIC, f('extract', [TEXT, TS], ['day', ts('2024-12-30 12:34:56.5')]));
c("select date_part('day', timestamp '2021-01-03 23:04:05.25')", "3", FLOAT8, f('date_part', [TEXT, TS], ['day', ts('2021-01-03 23:04:05.25')]));
c("select extract(month from timestamp '2024-12-30 12:34:56.5')", "12", NUMERIC, f('extract', [TEXT, TS], ['month', ts('2024-12-30 12:34:56.5')]));
c("select date_part('month', timestamp '2021-01-03 23:04:05.25')", "1", FLOAT8, f('date_part', [TEXT, TS], ['month', ts('2021-01-03 23:04:05.25')]));
c("select extract(quarter from timestamp '2024-12-30 12:34:56.5')", "4", NUMERIC, f('extract', [TEXT, TS], ['quarter', ts('2024-12-30 12:34:56.5')]));
c("select date_part('quarter', timestamp '2021-01-03 23:04:05.25')", "1", FLOAT8, f('date_part', [TEXT, TS], ['quarter', ts('2021-01-03 23:04:05.25')]));
c("select extract(week from timestamp '2024-12-30 12:34:56.5')", "1", NUMERIC, f('extract', [TEXT, TS], ['week', ts('2024-12-30 12:34:56.5')]));
c("select date_part('week', timestamp '2021-01-03 23:04:05.25')", "53", FLOAT8, f('date_part', [TEXT, TS], ['week', ts('2021-01-03 23:04:05.25')]));
c("select extract(year from timestamp '2024-12-30 12:34:56.5')", "2024", NUMERIC, f('extract', [TEXT, TS], ['year', ts('2024-12-30 12:34:56.5')]));
c("select date_part('year', timestamp '2021-01-03 23:04:05.25')", "2021", FLOAT8, f('date_part', [TEXT, TS], ['year', ts('2021-01-03 23:04:05.25')]));
c("select extract(decade from timestamp '2024-12-30 12:34:56.5')", "202", NUMERIC, f('extract', [TEXT, TS], ['decade', ts('2024-12-30 12:34:56.5')]));
c("select date_part('decade', timestamp '2021-01-03 23:04:05.25')", "202", FLOAT8, f('date_part', [TEXT, TS], ['decade', ts('2021-01-03 23:04:05.25')]));
c("select extract(century from timestamp '2024-12-30 12:34:56.5')", "21", NUMERIC, f('extract', [TEXT, TS], ['century', ts('2024-12-30 12:34:56.5')]));
c("select date_part('century', timestamp '2021-01-03 23:04:05.25')", "21", FLOAT8, f('date_part', [TEXT, TS], ['century', ts('2021-01-03 23:04:05.25')]));
c("select extract(millennium from timestamp '2024-12-30 12:34:56.5')", "3", NUMERIC, f('extract', [TEXT, TS], ['millennium', ts('2024-12-30 12:34:56.5')]));
c("select date_part('millennium', timestamp '2021-01-03 23:04:05.25')", "3", FLOAT8, f('date_part', [TEXT, TS], ['millennium', ts('2021-01-03 23:04:05.25')]));
c("select extract(julian from timestamp '2024-12-30 12:34:56.5')", "2460675.52426504629629629630", NUMERIC, f('extract', [TEXT, TS], ['julian', ts('2024-12-30 12:34:56.5')]));
c("select date_part('julian', timestamp '2021-01-03 23:04:05.25')", "2459218.961171875", FLOAT8, f('date_part', [TEXT, TS], ['julian', ts('2021-01-03 23:04:05.25')]));
c("select extract(isoyear from timestamp '2024-12-30 12:34:56.5')", "2025", NUMERIC, f('extract', [TEXT, TS], ['isoyear', ts('2024-12-30 12:34:56.5')]));
c("select date_part('isoyear', timestamp '2021-01-03 23:04:05.25')", "2020", FLOAT8, f('date_part', [TEXT, TS], ['isoyear', ts('2021-01-03 23:04:05.25')]));
c("select extract(dow from timestamp '2024-12-30 12:34:56.5')", "1", NUMERIC, f('extract', [TEXT, TS], ['dow', ts('2024-12-30 12:34:56.5')]));
c("select date_part('dow', timestamp '2021-01-03 23:04:05.25')", "0", FLOAT8, f('date_part', [TEXT, TS], ['dow', ts('2021-01-03 23:04:05.25')]));
c("select extract(isodow from timestamp '2024-12-30 12:34:56.5')", "1", NUMERIC, f('extract', [TEXT, TS], ['isodow', ts('2024-12-30 12:34:56.5')]));
c("select date_part('isodow', timestamp '2021-01-03 23:04:05.25')", "7", FLOAT8, f('date_part', [TEXT, TS], ['isodow', ts('2021-01-03 23:04:05.25')]));
c("select extract(doy from timestamp '2024-12-30 12:34:56.5')", "365", NUMERIC, f('extract', [TEXT, TS], ['doy', ts('2024-12-30 12:34:56.5')]));
c("select date_part('doy', timestamp '2021-01-03 23:04:05.25')", "3", FLOAT8, f('date_part', [TEXT, TS], ['doy', ts('2021-01-03 23:04:05.25')]));
c("select extract(epoch from timestamp '2024-12-30 12:34:56.5')", "1735562096.500000", NUMERIC, f('extract', [TEXT, TS], ['epoch', ts('2024-12-30 12:34:56.5')]));
c("select date_part('epoch', timestamp '2021-01-03 23:04:05.25')", "1609715045.25", FLOAT8, f('date_part', [TEXT, TS], ['epoch', ts('2021-01-03 23:04:05.25')]));
c("select extract(year from timestamp '0001-01-01 BC')", "-1", NUMERIC, f('extract', [TEXT, TS], ['year', ts('0001-01-01 BC')]));
c("select extract(century from timestamp '0001-01-01 BC')", "-1", NUMERIC, f('extract', [TEXT, TS], ['century', ts('0001-01-01 BC')]));
c("select extract(decade from timestamp '0001-01-01 BC')", "0", NUMERIC, f('extract', [TEXT, TS], ['decade', ts('0001-01-01 BC')]));
c("select extract(millennium from timestamp '0001-01-01 BC')", "-1", NUMERIC, f('extract', [TEXT, TS], ['millennium', ts('0001-01-01 BC')]));
c("select extract(isoyear from timestamp '0001-01-01 BC')", "-2", NUMERIC, f('extract', [TEXT, TS], ['isoyear', ts('0001-01-01 BC')]));
c("select extract(epoch from timestamptz '2024-07-01 03:04:05+00')", "1719803045.000000", NUMERIC, f('extract', [TEXT, TSTZ], ['epoch', tstz('2024-07-01 03:04:05')]), 'America/New_York');
c("select extract(timezone from timestamptz '2024-07-01 03:04:05+00')", "-14400", NUMERIC, f('extract', [TEXT, TSTZ], ['timezone', tstz('2024-07-01 03:04:05')]), 'America/New_York');
c("select extract(timezone_hour from timestamptz '2024-07-01 03:04:05+00')", "-4", NUMERIC, f('extract', [TEXT, TSTZ], ['timezone_hour', tstz('2024-07-01 03:04:05')]), 'America/New_York');
c("select extract(timezone_minute from timestamptz '2024-07-01 03:04:05+00')", "0", NUMERIC, f('extract', [TEXT, TSTZ], ['timezone_minute', tstz('2024-07-01 03:04:05')]), 'America/New_York');
c("select extract(hour from timestamptz '2024-07-01 03:04:05+00')", "23", NUMERIC, f('extract', [TEXT, TSTZ], ['hour', tstz('2024-07-01 03:04:05')]), 'America/New_York');
c("select extract(day from timestamptz '2024-07-01 03:04:05+00')", "30", NUMERIC, f('extract', [TEXT, TSTZ], ['day', tstz('2024-07-01 03:04:05')]), 'America/New_York');
c("select extract(timezone from timestamptz '2024-07-01 03:04:05+00')", "19800", NUMERIC, f('extract', [TEXT, TSTZ], ['timezone', tstz('2024-07-01 03:04:05')]), 'Asia/Kolkata');
c("select extract(timezone from timestamp '2024-01-01')", "ERROR 0A000: unit \"timezone\" not supported for type timestamp without time zone", NUMERIC, f('extract', [TEXT, TS], ['timezone', ts('2024-01-01')]));
c("select extract(xx from timestamp '2024-01-01')", "ERROR 22023: unit \"xx\" not recognized for type timestamp without time zone", NUMERIC, f('extract', [TEXT, TS], ['xx', ts('2024-01-01')]));
c("select extract(epoch from interval '-13 years -5 mons 40 days 27:03:04.5')", "-419655415.500000", NUMERIC, f('extract', [TEXT, INTERVAL], ['epoch', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(year from interval '-13 years -5 mons 40 days 27:03:04.5')", "-13", NUMERIC, f('extract', [TEXT, INTERVAL], ['year', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(month from interval '-13 years -5 mons 40 days 27:03:04.5')", "-5", NUMERIC, f('extract', [TEXT, INTERVAL], ['month', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(day from interval '-13 years -5 mons 40 days 27:03:04.5')", "40", NUMERIC, f('extract', [TEXT, INTERVAL], ['day', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(hour from interval '-13 years -5 mons 40 days 27:03:04.5')", "27", NUMERIC, f('extract', [TEXT, INTERVAL], ['hour', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(minute from interval '-13 years -5 mons 40 days 27:03:04.5')", "3", NUMERIC, f('extract', [TEXT, INTERVAL], ['minute', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(second from interval '-13 years -5 mons 40 days 27:03:04.5')", "4.500000", NUMERIC, f('extract', [TEXT, INTERVAL], ['second', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(milliseconds from interval '-13 years -5 mons 40 days 27:03:04.5')", "4500.000", NUMERIC, f('extract', [TEXT, INTERVAL], ['milliseconds', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(quarter from interval '-13 years -5 mons 40 days 27:03:04.5')", "0", NUMERIC, f('extract', [TEXT, INTERVAL], ['quarter', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(decade from interval '-13 years -5 mons 40 days 27:03:04.5')", "-1", NUMERIC, f('extract', [TEXT, INTERVAL], ['decade', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select extract(century from interval '-13 years -5 mons 40 days 27:03:04.5')", "0", NUMERIC, f('extract', [TEXT, INTERVAL], ['century', iv('-13 years -5 mons 40 days 27:03:04.5')]));
c("select date_part('epoch', interval '1 year 2 mons 3 days 04:05:06.5')", "37015506.5", FLOAT8, f('date_part', [TEXT, INTERVAL], ['epoch', iv('1 year 2 mons 3 days 04:05:06.5')]));
c("select extract(dow from interval '1 day')", "ERROR 0A000: unit \"dow\" not supported for type interval", NUMERIC, f('extract', [TEXT, INTERVAL], ['dow', iv('1 day')]));
c("select extract(julian from date '2024-03-10')", "2460380", NUMERIC, f('extract', [TEXT, DATE], ['julian', date('2024-03-10')]));
c("select extract(epoch from date '2024-03-10')", "1710028800", NUMERIC, f('extract', [TEXT, DATE], ['epoch', date('2024-03-10')]));
c("select extract(doy from date '2024-12-31')", "366", NUMERIC, f('extract', [TEXT, DATE], ['doy', date('2024-12-31')]));
c("select extract(hour from date '2024-03-10')", "ERROR 0A000: unit \"hour\" not supported for type date", NUMERIC, f('extract', [TEXT, DATE], ['hour', date('2024-03-10')]));
c("select date_part('hour', date '2024-03-10')", "0", FLOAT8, f('date_part', [TEXT, DATE], ['hour', date('2024-03-10')]));
c("select extract(second from time '12:34:56.123')", "56.123000", NUMERIC, f('extract', [TEXT, TIME], ['second', time('12:34:56.123')]));
c("select extract(epoch from time '12:34:56.123')", "45296.123000", NUMERIC, f('extract', [TEXT, TIME], ['epoch', time('12:34:56.123')]));
c("select extract(dow from time '12:00')", "ERROR 0A000: unit \"dow\" not supported for type time without time zone", NUMERIC, f('extract', [TEXT, TIME], ['dow', time('12:00')]));
c("select extract(year from timestamp 'infinity')", "Infinity", NUMERIC, f('extract', [TEXT, TS], ['year', 9223372036854775807n]));
c("select extract(month from timestamp 'infinity') is null", "t", BOOL, (ctx) => f('extract', [TEXT, TS], ['month', 9223372036854775807n])(ctx) === null);

// age
c("select age(timestamp '2024-03-31', timestamp '2024-02-29 12:00')", "1 mon 1 day 12:00:00", INTERVAL, f('age', [TS, TS], [ts('2024-03-31'), ts('2024-02-29 12:00')]));
c("select age(timestamp '2024-01-31', timestamp '2024-03-01')", "-1 mons -1 days", INTERVAL, f('age', [TS, TS], [ts('2024-01-31'), ts('2024-03-01')]));
c("select age(timestamp '2001-04-10', timestamp '1957-06-13')", "43 years 9 mons 27 days", INTERVAL, f('age', [TS, TS], [ts('2001-04-10'), ts('1957-06-13')]));
c("select age(timestamp '1957-06-13', timestamp '2001-04-10 11:12:13')", "-43 years -9 mons -27 days -11:12:13", INTERVAL, f('age', [TS, TS], [ts('1957-06-13'), ts('2001-04-10 11:12:13')]));
c("select age(timestamp '2023-03-01', timestamp '2023-01-31')", "1 mon 1 day", INTERVAL, f('age', [TS, TS], [ts('2023-03-01'), ts('2023-01-31')]));
c("select age(timestamptz '2024-03-11 00:00-04', timestamptz '2024-03-10 00:00-05')", "1 day", INTERVAL, f('age', [TSTZ, TSTZ], [tstz('2024-03-11 04:00'), tstz('2024-03-10 05:00')]), 'America/New_York');

// make_*, justify, date_bin, isfinite, timezone, to_timestamp(float)
c("select make_date(2024, 2, 29)", "2024-02-29", DATE, f('make_date', [INT4, INT4, INT4], [2024, 2, 29]));
c("select make_date(2023, 2, 29)", "ERROR 22008: date field value out of range: 2023-02-29", DATE, f('make_date', [INT4, INT4, INT4], [2023, 2, 29]));
c("select make_date(-44, 3, 15)", "0044-03-15 BC", DATE, f('make_date', [INT4, INT4, INT4], [-44, 3, 15]));
c("select make_date(0, 1, 1)", "ERROR 22008: date field value out of range: 0-01-01", DATE, f('make_date', [INT4, INT4, INT4], [0, 1, 1]));
c("select make_time(23, 59, 59.999999)", "23:59:59.999999", TIME, f('make_time', [INT4, INT4, FLOAT8], [23, 59, 59.999999]));
c("select make_time(25, 0, 0)", "ERROR 22008: time field value out of range: 25:00:00", TIME, f('make_time', [INT4, INT4, FLOAT8], [25, 0, 0]));
c("select make_timestamp(2024, 2, 29, 12, 30, 45.5)", "2024-02-29 12:30:45.5", TS, f('make_timestamp', [INT4, INT4, INT4, INT4, INT4, FLOAT8], [2024, 2, 29, 12, 30, 45.5]));
c("select make_timestamp(2024, 2, 30, 0, 0, 0)", "ERROR 22008: date field value out of range: 2024-02-30", TS, f('make_timestamp', [INT4, INT4, INT4, INT4, INT4, FLOAT8], [2024, 2, 30, 0, 0, 0]));
c("select make_timestamptz(2024, 3, 10, 2, 30, 0)", "2024-03-10 03:30:00-04", TSTZ, f('make_timestamptz', [INT4, INT4, INT4, INT4, INT4, FLOAT8], [2024, 3, 10, 2, 30, 0]), 'America/New_York');
c("select make_timestamptz(2024, 10, 27, 2, 30, 0, 'Europe/Paris')", "2024-10-27 01:30:00+00", TSTZ, f('make_timestamptz', [INT4, INT4, INT4, INT4, INT4, FLOAT8, TEXT], [2024, 10, 27, 2, 30, 0, 'Europe/Paris']));
c("select make_interval(1, 2, 3, 4, 5, 6, 7.5)", "1 year 2 mons 25 days 05:06:07.5", INTERVAL, f('make_interval', [INT4, INT4, INT4, INT4, INT4, INT4, FLOAT8], [1, 2, 3, 4, 5, 6, 7.5]));
c("select make_interval(secs => -1.5)", "-00:00:01.5", INTERVAL, f('make_interval', [INT4, INT4, INT4, INT4, INT4, INT4, FLOAT8], [0, 0, 0, 0, 0, 0, -1.5]));
c("select justify_interval(interval '1 mon -1 hour')", "29 days 23:00:00", INTERVAL, f('justify_interval', [INTERVAL], [iv('1 mon -01:00:00')]));
c("select justify_days(interval '-35 days')", "-1 mons -5 days", INTERVAL, f('justify_days', [INTERVAL], [iv('-35 days')]));
c("select justify_hours(interval '-27 hours')", "-1 days -03:00:00", INTERVAL, f('justify_hours', [INTERVAL], [iv('-27:00:00')]));
c("select justify_interval(interval '-1 mon 35 days 30:00:00')", "6 days 06:00:00", INTERVAL, f('justify_interval', [INTERVAL], [iv('-1 mon 35 days 30:00:00')]));
c("select date_bin('15 min', timestamp '2024-01-01 12:07:03', timestamp '2000-01-01 00:02')", "2024-01-01 12:02:00", TS, f('date_bin', [INTERVAL, TS, TS], [iv('00:15:00'), ts('2024-01-01 12:07:03'), ts('2000-01-01 00:02')]));
c("select date_bin('1 day', timestamp '1999-12-31 12:07:03', timestamp '2000-01-01 00:02')", "1999-12-31 00:02:00", TS, f('date_bin', [INTERVAL, TS, TS], [iv('1 day'), ts('1999-12-31 12:07:03'), ts('2000-01-01 00:02')]));
c("select date_bin('1 month', timestamp '2024-01-01', timestamp '2020-01-01')", "ERROR 0A000: timestamps cannot be binned into intervals containing months or years", TS, f('date_bin', [INTERVAL, TS, TS], [iv('1 mon'), ts('2024-01-01'), ts('2020-01-01')]));
c("select date_bin('0 s', timestamp '2024-01-01', timestamp '2020-01-01')", "ERROR 22008: stride must be greater than zero", TS, f('date_bin', [INTERVAL, TS, TS], [iv('0 secs'), ts('2024-01-01'), ts('2020-01-01')]));
c("select isfinite(date 'infinity')", "f", BOOL, f('isfinite', [DATE], [Infinity]));
c("select isfinite(timestamp '2024-01-01')", "t", BOOL, f('isfinite', [TS], [ts('2024-01-01')]));
c("select timezone('Europe/Paris', timestamp '2024-03-31 02:30')", "2024-03-30 21:30:00-04", TSTZ, f('timezone', [TEXT, TS], ['Europe/Paris', ts('2024-03-31 02:30')]), 'America/New_York');
c("select timezone('Europe/Paris', timestamp '2024-10-27 02:30')", "2024-10-26 21:30:00-04", TSTZ, f('timezone', [TEXT, TS], ['Europe/Paris', ts('2024-10-27 02:30')]), 'America/New_York');
c("select timezone('America/New_York', timestamp '2024-03-10 02:30')", "2024-03-10 07:30:00+00", TSTZ, f('timezone', [TEXT, TS], ['America/New_York', ts('2024-03-10 02:30')]));
c("select timezone('America/New_York', timestamp '2024-11-03 01:30')", "2024-11-03 06:30:00+00", TSTZ, f('timezone', [TEXT, TS], ['America/New_York', ts('2024-11-03 01:30')]));
c("select timezone('Europe/Paris', timestamptz '2024-07-01 12:00+00')", "2024-07-01 14:00:00", TS, f('timezone', [TEXT, TSTZ], ['Europe/Paris', tstz('2024-07-01 12:00')]));
c("select timezone('+05', timestamp '2024-01-01 00:00')", "2024-01-01 05:00:00+00", TSTZ, f('timezone', [TEXT, TS], ['+05', ts('2024-01-01 00:00')]));
c("select timezone('UTC+3', timestamptz '2024-01-01 00:00+00')", "2023-12-31 21:00:00", TS, f('timezone', [TEXT, TSTZ], ['UTC+3', tstz('2024-01-01 00:00')]));
c("select timezone('EST', timestamptz '2024-06-01 00:00+00')", "2024-05-31 19:00:00", TS, f('timezone', [TEXT, TSTZ], ['EST', tstz('2024-06-01 00:00')]));
c("select timezone('Mars/Olympus', timestamptz '2024-06-01 00:00+00')", "ERROR 22023: time zone \"Mars/Olympus\" not recognized", TS, f('timezone', [TEXT, TSTZ], ['Mars/Olympus', tstz('2024-06-01 00:00')]));
c("select timezone(interval '05:30', timestamptz '2024-06-01 00:00+00')", "2024-06-01 05:30:00", TS, f('timezone', [INTERVAL, TSTZ], [iv('05:30:00'), tstz('2024-06-01 00:00')]));
c("select to_timestamp(1710072001.5)", "2024-03-10 13:00:01.5+01", TSTZ, f('to_timestamp', [FLOAT8], [1710072001.5]), 'Europe/Paris');
c("select to_timestamp('nan'::float8)", "ERROR 22008: timestamp cannot be NaN", TSTZ, f('to_timestamp', [FLOAT8], [NaN]));
c("select to_timestamp('-infinity'::float8)", "-infinity", TSTZ, f('to_timestamp', [FLOAT8], [-Infinity]));

// operators
c("select date '2024-02-28' + 1", "2024-02-29", DATE, o('+', DATE, INT4, date('2024-02-28'), 1));
c("select 1 + date '2024-12-31'", "2025-01-01", DATE, o('+', INT4, DATE, 1, date('2024-12-31')));
c("select date '2024-03-01' - 1", "2024-02-29", DATE, o('-', DATE, INT4, date('2024-03-01'), 1));
c("select date '2024-03-01' - date '2023-03-01'", "366", INT4, o('-', DATE, DATE, date('2024-03-01'), date('2023-03-01')));
c("select date '2024-03-01' + time '12:34:56'", "2024-03-01 12:34:56", TS, o('+', DATE, TIME, date('2024-03-01'), time('12:34:56')));
c("select date '2024-01-31' + interval '1 mon'", "2024-02-29 00:00:00", TS, o('+', DATE, INTERVAL, date('2024-01-31'), iv('1 mon')));
c("select date '2024-03-31' - interval '1 mon'", "2024-02-29 00:00:00", TS, o('-', DATE, INTERVAL, date('2024-03-31'), iv('1 mon')));
c("select timestamp '2023-01-31 10:00' + interval '1 mon 1 day 01:00'", "2023-03-01 11:00:00", TS, o('+', TS, INTERVAL, ts('2023-01-31 10:00'), iv('1 mon 1 day 01:00:00')));
c("select timestamp '2024-02-29' + interval '1 year'", "2025-02-28 00:00:00", TS, o('+', TS, INTERVAL, ts('2024-02-29'), iv('1 year')));
c("select timestamp '2024-02-29' - interval '-1 year -1 day'", "2025-03-01 00:00:00", TS, o('-', TS, INTERVAL, ts('2024-02-29'), iv('-1 year -1 day')));
c("select timestamptz '2024-03-10 00:00-05' + interval '1 day'", "2024-03-11 00:00:00-04", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-03-10 05:00'), iv('1 day')), 'America/New_York');
c("select timestamptz '2024-03-10 00:00-05' + interval '24 hours'", "2024-03-11 01:00:00-04", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-03-10 05:00'), iv('24:00:00')), 'America/New_York');
c("select timestamptz '2024-10-26 12:00+02' + interval '1 day'", "2024-10-27 12:00:00+01", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-10-26 10:00'), iv('1 day')), 'Europe/Paris');
c("select timestamptz '2024-03-30 02:30+01' + interval '1 day'", "2024-03-31 03:30:00+02", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-03-30 01:30'), iv('1 day')), 'Europe/Paris');
c("select timestamp '2024-03-01 10:00' - timestamp '2024-01-31 12:00'", "29 days 22:00:00", INTERVAL, o('-', TS, TS, ts('2024-03-01 10:00'), ts('2024-01-31 12:00')));
c("select timestamp '2024-01-01' - timestamp '2024-03-01 10:00'", "-60 days -10:00:00", INTERVAL, o('-', TS, TS, ts('2024-01-01'), ts('2024-03-01 10:00')));
c("select timestamptz '2024-03-11 00:00-04' - timestamptz '2024-03-10 00:00-05'", "23:00:00", INTERVAL, o('-', TSTZ, TSTZ, tstz('2024-03-11 04:00'), tstz('2024-03-10 05:00')), 'America/New_York');
c("select time '23:00' + interval '3 hours'", "02:00:00", TIME, o('+', TIME, INTERVAL, time('23:00'), iv('03:00:00')));
c("select time '01:00' - interval '3 hours'", "22:00:00", TIME, o('-', TIME, INTERVAL, time('01:00'), iv('03:00:00')));
c("select time '01:00' - time '03:30'", "-02:30:00", INTERVAL, o('-', TIME, TIME, time('01:00'), time('03:30')));
c("select interval '1 mon 2 days' + interval '-3 days 04:00'", "1 mon -1 days +04:00:00", INTERVAL, o('+', INTERVAL, INTERVAL, iv('1 mon 2 days'), iv('-3 days 04:00:00')));
c("select interval '1 mon' - interval '1 day 00:00:01'", "1 mon -1 days -00:00:01", INTERVAL, o('-', INTERVAL, INTERVAL, iv('1 mon'), iv('1 day 00:00:01')));
c("select - interval '1 year -2 days 03:00'", "-1 years +2 days -03:00:00", INTERVAL, o('-', 0, INTERVAL, null as unknown, iv('1 year -2 days 03:00:00')));
c("select interval '1 mon' * 1.5", "1 mon 15 days", INTERVAL, o('*', INTERVAL, FLOAT8, iv('1 mon'), 1.5));
c("select interval '1 mon 1 day' * -0.3", "-9 days -07:12:00", INTERVAL, o('*', INTERVAL, FLOAT8, iv('1 mon 1 day'), -0.3));
c("select 2.5 * interval '1 day 01:00'", "2 days 14:30:00", INTERVAL, o('*', FLOAT8, INTERVAL, 2.5, iv('1 day 01:00:00')));
c("select interval '1 day 3 hours' / 7", "03:51:25.714286", INTERVAL, o('/', INTERVAL, FLOAT8, iv('1 day 03:00:00'), 7));
c("select interval '1 year' / 0", "ERROR 22012: division by zero", INTERVAL, o('/', INTERVAL, FLOAT8, iv('1 year'), 0));
c("select interval '1 year 1 mon' / 7", "1 mon 25 days 17:08:34.3104", INTERVAL, o('/', INTERVAL, FLOAT8, iv('1 year 1 mon'), 7));

// casts
c("select timestamp '2024-03-10 02:30'::timestamptz", "2024-03-10 03:30:00-04", TSTZ, cast(TS, TSTZ, ts('2024-03-10 02:30')), 'America/New_York');
c("select timestamp '2024-11-03 01:30'::timestamptz", "2024-11-03 01:30:00-05", TSTZ, cast(TS, TSTZ, ts('2024-11-03 01:30')), 'America/New_York');
c("select timestamptz '2024-07-01 03:00+00'::date", "2024-06-30", DATE, cast(TSTZ, DATE, tstz('2024-07-01 03:00')), 'America/New_York');
c("select timestamptz '2024-07-01 03:00+00'::timestamp", "2024-07-01 05:00:00", TS, cast(TSTZ, TS, tstz('2024-07-01 03:00')), 'Europe/Paris');
c("select date '2024-07-01'::timestamptz", "2024-07-01 00:00:00+02", TSTZ, cast(DATE, TSTZ, date('2024-07-01')), 'Europe/Paris');
c("select timestamp '2024-07-01 12:34:56.789'::time", "12:34:56.789", TIME, cast(TS, TIME, ts('2024-07-01 12:34:56.789')));
c("select timestamp '2024-07-01 12:34:56.789'::timestamp(1)", "2024-07-01 12:34:56.8", TS, cast(TS, TS, ts('2024-07-01 12:34:56.789'), 1));
c("select timestamp '2024-07-01 12:34:56.5'::timestamp(0)", "2024-07-01 12:34:57", TS, cast(TS, TS, ts('2024-07-01 12:34:56.5'), 0));
c("select time '12:34:56.789'::time(2)", "12:34:56.79", TIME, cast(TIME, TIME, time('12:34:56.789'), 2));
c("select time '12:34:56'::interval", "12:34:56", INTERVAL, cast(TIME, INTERVAL, time('12:34:56')));
c("select interval '-1 day -01:00'::time", "23:00:00", TIME, cast(INTERVAL, TIME, iv('-1 day -01:00:00')));
c("select interval '1 year 2 mons 3 days 04:05:06.789'::interval year", "1 year", INTERVAL, cast(INTERVAL, INTERVAL, iv('1 year 2 mons 3 days 04:05:06.789'), (4 << 16) | 0xffff));
c("select interval '1 year 2 mons 3 days 04:05:06.789'::interval day to hour", "1 year 2 mons 3 days 04:00:00", INTERVAL, cast(INTERVAL, INTERVAL, iv('1 year 2 mons 3 days 04:05:06.789'), (((1 << 3) | (1 << 10)) << 16) | 0xffff));
c("select interval '1 year 2 mons 3 days 04:05:06.789'::interval(1)", "1 year 2 mons 3 days 04:05:06.8", INTERVAL, cast(INTERVAL, INTERVAL, iv('1 year 2 mons 3 days 04:05:06.789'), (0x7fff << 16) | 1));

// DST transitions, leap years, month-end clamping, negative intervals
c("select timestamptz '2024-11-03 00:30-04' + interval '1 hour'", "2024-11-03 01:30:00-04", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-11-03 04:30'), iv('01:00:00')), 'America/New_York');
c("select timestamptz '2024-11-03 00:30-04' + interval '1 day'", "2024-11-04 00:30:00-05", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-11-03 04:30'), iv('1 day')), 'America/New_York');
c("select timestamptz '2024-11-04 00:30-05' - interval '1 day'", "2024-11-03 00:30:00-04", TSTZ, o('-', TSTZ, INTERVAL, tstz('2024-11-04 05:30'), iv('1 day')), 'America/New_York');
c("select timestamptz '2024-03-09 02:30-05' + interval '1 day'", "2024-03-10 03:30:00-04", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-03-09 07:30'), iv('1 day')), 'America/New_York');
c("select timestamptz '2024-02-29 12:00+01' + interval '1 mon'", "2024-03-29 12:00:00+01", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-02-29 11:00'), iv('1 mon')), 'Europe/Paris');
c("select timestamptz '2024-10-27 01:30+02' + interval '1 hour'", "2024-10-27 02:30:00+02", TSTZ, o('+', TSTZ, INTERVAL, tstz('2024-10-26 23:30'), iv('01:00:00')), 'Europe/Paris');
c("select date_trunc('week', timestamptz '2024-03-13 12:00+00')", "2024-03-11 00:00:00-04", TSTZ, f('date_trunc', [TEXT, TSTZ], ['week', tstz('2024-03-13 12:00')]), 'America/New_York');
c("select date_trunc('day', timestamptz '2024-10-27 12:00+00')", "2024-10-27 00:00:00+02", TSTZ, f('date_trunc', [TEXT, TSTZ], ['day', tstz('2024-10-27 12:00')]), 'Europe/Paris');
c("select date_trunc('year', timestamptz '2024-10-27 12:00+00')", "2024-01-01 00:00:00+01", TSTZ, f('date_trunc', [TEXT, TSTZ], ['year', tstz('2024-10-27 12:00')]), 'Europe/Paris');
c("select extract(hour from timestamptz '2024-03-31 01:30+00')", "3", NUMERIC, f('extract', [TEXT, TSTZ], ['hour', tstz('2024-03-31 01:30')]), 'Europe/Paris');
c("select extract(timezone_hour from timestamptz '2024-03-31 01:30+00')", "2", NUMERIC, f('extract', [TEXT, TSTZ], ['timezone_hour', tstz('2024-03-31 01:30')]), 'Europe/Paris');
c("select extract(timezone_minute from timestamptz '2024-03-31 01:30+00')", "-30", NUMERIC, f('extract', [TEXT, TSTZ], ['timezone_minute', tstz('2024-03-31 01:30')]), 'America/St_Johns');
c("select age(timestamptz '2024-11-04 00:00-05', timestamptz '2024-11-03 00:00-04')", "1 day", INTERVAL, f('age', [TSTZ, TSTZ], [tstz('2024-11-04 05:00'), tstz('2024-11-03 04:00')]), 'America/New_York');
c("select timestamptz '2024-11-04 00:00-05' - timestamptz '2024-11-03 00:00-04'", "1 day 01:00:00", INTERVAL, o('-', TSTZ, TSTZ, tstz('2024-11-04 05:00'), tstz('2024-11-03 04:00')), 'America/New_York');
c("select timestamp '2023-02-28' + interval '1 day'", "2023-03-01 00:00:00", TS, o('+', TS, INTERVAL, ts('2023-02-28'), iv('1 day')));
c("select timestamp '2024-02-28' + interval '1 day'", "2024-02-29 00:00:00", TS, o('+', TS, INTERVAL, ts('2024-02-28'), iv('1 day')));
c("select timestamp '1900-02-28' + interval '1 day'", "1900-03-01 00:00:00", TS, o('+', TS, INTERVAL, ts('1900-02-28'), iv('1 day')));
c("select timestamp '2000-02-28' + interval '1 day'", "2000-02-29 00:00:00", TS, o('+', TS, INTERVAL, ts('2000-02-28'), iv('1 day')));
c("select timestamp '2024-03-31' - interval '1 mon'", "2024-02-29 00:00:00", TS, o('-', TS, INTERVAL, ts('2024-03-31'), iv('1 mon')));
c("select timestamp '2024-05-31' + interval '-1 mon'", "2024-04-30 00:00:00", TS, o('+', TS, INTERVAL, ts('2024-05-31'), iv('-1 mon')));
c("select timestamp '2024-01-31' + interval '13 mons'", "2025-02-28 00:00:00", TS, o('+', TS, INTERVAL, ts('2024-01-31'), iv('13 mons')));
c("select timestamp '2024-12-31 23:59:59' + interval '-1 year -2 mons -3 days -04:05:06'", "2023-10-28 19:54:53", TS, o('+', TS, INTERVAL, ts('2024-12-31 23:59:59'), iv('-1 year -2 mons -3 days -04:05:06')));
c("select date '2024-02-29' + interval '1 year'", "2025-02-28 00:00:00", TS, o('+', DATE, INTERVAL, date('2024-02-29'), iv('1 year')));
c("select date '2024-12-31' - date '2024-01-01'", "365", INT4, o('-', DATE, DATE, date('2024-12-31'), date('2024-01-01')));
c("select date '2023-12-31' - date '2023-01-01'", "364", INT4, o('-', DATE, DATE, date('2023-12-31'), date('2023-01-01')));
c("select extract(doy from timestamp '2024-12-31')", "366", NUMERIC, f('extract', [TEXT, TS], ['doy', ts('2024-12-31')]));
c("select extract(week from timestamp '2024-12-30')", "1", NUMERIC, f('extract', [TEXT, TS], ['week', ts('2024-12-30')]));
c("select extract(isoyear from timestamp '2027-01-01')", "2026", NUMERIC, f('extract', [TEXT, TS], ['isoyear', ts('2027-01-01')]));
c("select extract(week from timestamp '2027-01-01')", "53", NUMERIC, f('extract', [TEXT, TS], ['week', ts('2027-01-01')]));
c("select age(timestamp '2024-03-01', timestamp '2023-02-28')", "1 year 1 day", INTERVAL, f('age', [TS, TS], [ts('2024-03-01'), ts('2023-02-28')]));
c("select age(timestamp '2025-02-28', timestamp '2024-02-29')", "11 mons 28 days", INTERVAL, f('age', [TS, TS], [ts('2025-02-28'), ts('2024-02-29')]));
c("select age(timestamp '2024-02-29', timestamp '2025-02-28')", "-11 mons -28 days", INTERVAL, f('age', [TS, TS], [ts('2024-02-29'), ts('2025-02-28')]));
c("select interval '-1 mon -2 days -03:00' * 2.5", "-2 mons -20 days -07:30:00", INTERVAL, o('*', INTERVAL, FLOAT8, iv('-1 mon -2 days -03:00:00'), 2.5));
c("select interval '-7 days -03:00' / 2", "-3 days -13:30:00", INTERVAL, o('/', INTERVAL, FLOAT8, iv('-7 days -03:00:00'), 2));
c("select justify_interval(interval '-1 mon 40 days -01:00')", "9 days 23:00:00", INTERVAL, f('justify_interval', [INTERVAL], [iv('-1 mon 40 days -01:00:00')]));
c("select date_trunc('month', interval '-1 year -5 mons -3 days')", "-1 years -5 mons", INTERVAL, f('date_trunc', [TEXT, INTERVAL], ['month', iv('-1 year -5 mons -3 days')]));
c("select extract(hour from interval '-27:03:00')", "-27", NUMERIC, f('extract', [TEXT, INTERVAL], ['hour', iv('-27:03:00')]));
c("select date_part('epoch', timestamptz '1969-12-31 23:59:59.5+00')", "-0.5", FLOAT8, f('date_part', [TEXT, TSTZ], ['epoch', tstz('1969-12-31 23:59:59.5')]));
c("select extract(epoch from timestamp '1900-01-01')", "-2208988800.000000", NUMERIC, f('extract', [TEXT, TS], ['epoch', ts('1900-01-01')]));
c("select extract(dow from timestamp '1900-01-01')", "1", NUMERIC, f('extract', [TEXT, TS], ['dow', ts('1900-01-01')]));
c("select timestamptz '2024-07-01 12:00:00.123456+00'::timestamptz(3)", "2024-07-01 12:00:00.123+00", TSTZ, cast(TSTZ, TSTZ, tstz('2024-07-01 12:00:00.123456'), 3));
c("select timestamp '2024-12-31 23:59:59.9999996'::timestamp(6)", "2025-01-01 00:00:00", TS, cast(TS, TS, ts('2024-12-31 23:59:59.999999'), 0));
c("select make_timestamptz(2024, 11, 3, 1, 30, 0)", "2024-11-03 01:30:00-05", TSTZ, f('make_timestamptz', [INT4, INT4, INT4, INT4, INT4, FLOAT8], [2024, 11, 3, 1, 30, 0]), 'America/New_York');

// overlaps
c("select (date '2024-01-01', date '2024-02-01') overlaps (date '2024-01-31', date '2024-03-01')", "t", BOOL, f('overlaps', [DATE, DATE, DATE, DATE], [date('2024-01-01'), date('2024-02-01'), date('2024-01-31'), date('2024-03-01')]));
c("select (date '2024-01-01', date '2024-02-01') overlaps (date '2024-02-01', date '2024-03-01')", "f", BOOL, f('overlaps', [DATE, DATE, DATE, DATE], [date('2024-01-01'), date('2024-02-01'), date('2024-02-01'), date('2024-03-01')]));
c("select (timestamp '2024-02-01', timestamp '2024-01-01') overlaps (timestamp '2024-01-15', null::timestamp)", "t", BOOL, (ctx) => callFn(datetimeFunctions, 'overlaps', [TS, TS, TS, TS], [ts('2024-02-01'), ts('2024-01-01'), ts('2024-01-15'), null], ctx));
c("select (timestamp '2024-01-01', null::timestamp) overlaps (timestamp '2024-01-15', timestamp '2024-02-01')", "", BOOL, (ctx) => callFn(datetimeFunctions, 'overlaps', [TS, TS, TS, TS], [ts('2024-01-01'), null, ts('2024-01-15'), ts('2024-02-01')], ctx));
c("select (timestamp '2024-01-01', interval '1 mon') overlaps (timestamp '2024-01-31', interval '1 day')", "t", BOOL, f('overlaps', [TS, INTERVAL, TS, INTERVAL], [ts('2024-01-01'), iv('1 mon'), ts('2024-01-31'), iv('1 day')]));
c("select (time '10:00', time '12:00') overlaps (time '12:00', time '13:00')", "f", BOOL, f('overlaps', [TIME, TIME, TIME, TIME], [time('10:00'), time('12:00'), time('12:00'), time('13:00')]));
c("select (time '10:00', time '10:00') overlaps (time '10:00', time '10:00')", "t", BOOL, f('overlaps', [TIME, TIME, TIME, TIME], [time('10:00'), time('10:00'), time('10:00'), time('10:00')]));

describe('datetime functions match PostgreSQL 15', () => {
  it.each(cases)('%s', (_sql, expected, oid, run, zone) => {
    const ctx = testContext(zone);
    expect(render(() => run(ctx), oid, zone)).toBe(expected);
  });
});

describe('current time family', () => {
  it('reads the transaction clock and the session zone', () => {
    const ctx = testContext(NY, tstz('2024-07-01 03:04:05.678901'));
    expect(callFn(datetimeFunctions, 'now', [], [], ctx)).toBe(tstz('2024-07-01 03:04:05.678901'));
    expect(render(() => callFn(datetimeFunctions, 'current_date', [], [], ctx), DATE)).toBe('2024-06-30');
    expect(render(() => callFn(datetimeFunctions, 'localtimestamp', [INT4], [2], ctx), TS)).toBe('2024-06-30 23:04:05.68');
    expect(render(() => callFn(datetimeFunctions, 'current_time', [INT4], [0], ctx), Oid.timetz)).toBe('23:04:06-04');
    expect(render(() => callFn(datetimeFunctions, 'localtime', [], [], ctx), TIME)).toBe('23:04:05.678901');
    const a = callFn(datetimeFunctions, 'clock_timestamp', [], [], ctx) as bigint;
    const b = callFn(datetimeFunctions, 'clock_timestamp', [], [], ctx) as bigint;
    expect(b > a).toBe(true);
  });
  it('age(ts) counts from midnight of current_date', () => {
    const ctx = testContext(PARIS, tstz('2024-03-31 22:30'));
    expect(render(() => callFn(datetimeFunctions, 'age', [TS], [ts('2000-02-29')], ctx), INTERVAL)).toBe('24 years 1 mon 1 day');
  });
});
