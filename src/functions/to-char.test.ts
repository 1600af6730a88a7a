/**
 * to_char / to_date / to_timestamp against answers copied from PostgreSQL 15 (testdata/fill-expected.mjs).
 */
import { describe, expect, it } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { datetimeFunctions } from './datetime-functions.ts';
import { callFn, iv, render, testContext, ts, tstz } from './test-support.ts';

const { timestamp: TS, timestamptz: TSTZ, interval: INTERVAL, text: TEXT, int4: INT4, int8: INT8, float8: FLOAT8, float4: FLOAT4, numeric: NUMERIC, date: DATE } = Oid;
type Case = [sql: string, expected: string, oid: number, run: (ctx: ReturnType<typeof testContext>) => unknown, zone: string];
const cases: Case[] = [];
const c = (sql: string, expected: string, oid: number, run: (ctx: ReturnType<typeof testContext>) => unknown, zone = 'UTC'): void => {
  cases.push([sql, expected, oid, run, zone]);
};
const f = (name: string, args: number[], vals: unknown[]) => (ctx: ReturnType<typeof testContext>) => callFn(datetimeFunctions, name, args, vals, ctx);
const tc = (v: bigint, fmt: string) => f('to_char', [TS, TEXT], [v, fmt]);
const tcz = (v: bigint, fmt: string) => f('to_char', [TSTZ, TEXT], [v, fmt]);
const N = (s: string) => Numeric.parse(s);
const tn = (v: string, fmt: string) => f('to_char', [NUMERIC, TEXT], [N(v), fmt]);

// datetime patterns
c("select to_char(timestamp '2024-03-05 14:07:09.123456', 'YYYY-MM-DD HH24:MI:SS.MS US')", "2024-03-05 14:07:09.123 123456", TEXT, tc(ts('2024-03-05 14:07:09.123456'), 'YYYY-MM-DD HH24:MI:SS.MS US'));
c("select to_char(timestamp '2024-03-05 14:07:09', 'HH12:MI AM am P.M. hh pm')", "02:07 PM pm P.M. 02 pm", TEXT, tc(ts('2024-03-05 14:07:09'), 'HH12:MI AM am P.M. hh pm'));
c("select to_char(timestamp '2024-03-05 00:07:09', 'HH12 AM')", "12 AM", TEXT, tc(ts('2024-03-05 00:07:09'), 'HH12 AM'));
c("select to_char(timestamp '2024-03-05', 'Month|MONTH|month|Mon|MON|mon|FMMonth|')", "March    |MARCH    |march    |Mar|MAR|mar|March|", TEXT, tc(ts('2024-03-05'), 'Month|MONTH|month|Mon|MON|mon|FMMonth|'));
c("select to_char(timestamp '2024-03-05', 'Day|DAY|day|Dy|DY|dy|FMDay|D|ID')", "Tuesday  |TUESDAY  |tuesday  |Tue|TUE|tue|Tuesday|3|2", TEXT, tc(ts('2024-03-05'), 'Day|DAY|day|Dy|DY|dy|FMDay|D|ID'));
c("select to_char(timestamp '2024-12-30', 'DDD IDDD IW IYYY IYY IY I WW W Q CC J')", "365 001 01 2025 025 25 5 53 5 4 21 2460675", TEXT, tc(ts('2024-12-30'), 'DDD IDDD IW IYYY IYY IY I WW W Q CC J'));
c("select to_char(timestamp '2021-01-03', 'IYYY-IW-ID YYYY-WW')", "2020-53-7 2021-01", TEXT, tc(ts('2021-01-03'), 'IYYY-IW-ID YYYY-WW'));
c("select to_char(timestamp '2024-03-05', 'FMDD FMMM DDth DDTH FMDDth Y,YYY YYY YY Y')", "5 3 05th 05TH 5th 2,024 024 24 4", TEXT, tc(ts('2024-03-05'), 'FMDD FMMM DDth DDTH FMDDth Y,YYY YYY YY Y'));
c("select to_char(timestamp '2024-03-22', 'DDth FMDDth')", "22nd 22nd", TEXT, tc(ts('2024-03-22'), 'DDth FMDDth'));
c("select to_char(timestamp '2024-03-05 01:02:03', '\"Day\" DD \"of\" Month, \"HH\"HH24')", "Day 05 of March    , HH01", TEXT, tc(ts('2024-03-05 01:02:03'), '"Day" DD "of" Month, "HH"HH24'));
c("select to_char(timestamp '0044-03-15 BC', 'YYYY BC B.C. ad')", "0044 BC B.C. bc", TEXT, tc(ts('0044-03-15 BC'), 'YYYY BC B.C. ad'));
c("select to_char(timestamp '2024-03-05 14:07:09', 'SSSS RM rm FF3 TZ')", "50829 III  iii  000 ", TEXT, tc(ts('2024-03-05 14:07:09'), 'SSSS RM rm FF3 TZ'));
c("select to_char(timestamptz '2024-07-01 12:00+00', 'YYYY-MM-DD HH24:MI TZ tz OF TZH:TZM')", "2024-07-01 08:00 EDT edt -04 -04:00", TEXT, tcz(tstz('2024-07-01 12:00'), 'YYYY-MM-DD HH24:MI TZ tz OF TZH:TZM'), 'America/New_York');
c("select to_char(timestamptz '2024-01-01 12:00+00', 'HH24:MI TZ OF')", "07:00 EST -05", TEXT, tcz(tstz('2024-01-01 12:00'), 'HH24:MI TZ OF'), 'America/New_York');
c("select to_char(timestamptz '2024-01-01 12:00+00', 'HH24:MI OF')", "17:30 +05:30", TEXT, tcz(tstz('2024-01-01 12:00'), 'HH24:MI OF'), 'Asia/Kolkata');
c("select to_char(timestamptz '2024-01-01 12:00+00', 'HH24:MI TZ')", "12:00 UTC", TEXT, tcz(tstz('2024-01-01 12:00'), 'HH24:MI TZ'), 'UTC');
c("select to_char(interval '1 year 2 mons 3 days 27:04:05.5', 'YYYY MM DD HH24 HH12 MI SS MS')", "0001 02 03 27 03 04 05 500", TEXT, f('to_char', [INTERVAL, TEXT], [iv('1 year 2 mons 3 days 27:04:05.5'), 'YYYY MM DD HH24 HH12 MI SS MS']));
c("select to_char(interval '-3 days -04:05:06', 'DD HH24:MI:SS')", "-3 -04:-05:-06", TEXT, f('to_char', [INTERVAL, TEXT], [iv('-3 days -04:05:06'), 'DD HH24:MI:SS']));
c("select to_char(timestamp 'infinity', 'YYYY') is null", "t", Oid.bool, (ctx) => f('to_char', [TS, TEXT], [9223372036854775807n, 'YYYY'])(ctx) === null);

// zone abbreviations and offsets across DST
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2023-12-31 19:00 EST -05", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'America/New_York');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-06-30 20:00 EDT -04", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'America/New_York');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 01:00 CET +01", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Europe/Paris');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 02:00 CEST +02", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Europe/Paris');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 00:00 GMT +00", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Europe/London');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 01:00 BST +01", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Europe/London');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 05:30 IST +05:30", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Asia/Kolkata');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 05:30 IST +05:30", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Asia/Kolkata');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 09:00 JST +09", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Asia/Tokyo');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 09:00 JST +09", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Asia/Tokyo');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 11:00 AEDT +11", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Australia/Sydney');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 10:00 AEST +10", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Australia/Sydney');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2023-12-31 21:00 -03 -03", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'America/Sao_Paulo');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-06-30 21:00 -03 -03", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'America/Sao_Paulo');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 00:00 UTC +00", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Etc/UTC');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 00:00 UTC +00", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Etc/UTC');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 03:00 MSK +03", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Europe/Moscow');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 03:00 MSK +03", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Europe/Moscow');
c("select to_char(timestamptz '2024-01-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-01-01 08:00 CST +08", TEXT, tcz(tstz('2024-01-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Asia/Shanghai');
c("select to_char(timestamptz '2024-07-01 00:00+00', 'YYYY-MM-DD HH24:MI TZ OF')", "2024-07-01 08:00 CST +08", TEXT, tcz(tstz('2024-07-01 00:00'), 'YYYY-MM-DD HH24:MI TZ OF'), 'Asia/Shanghai');

// numeric patterns
c("select to_char(123, '999')", " 123", TEXT, f('to_char', [INT4, TEXT], [123, '999']));
c("select to_char(-12, '999')", " -12", TEXT, f('to_char', [INT4, TEXT], [-12, '999']));
c("select to_char(-12.5, '9999.99')", "  -12.50", TEXT, tn('-12.5', '9999.99'));
c("select to_char(1234, '9,999')", " 1,234", TEXT, f('to_char', [INT4, TEXT], [1234, '9,999']));
c("select to_char(12, '9,999')", "    12", TEXT, f('to_char', [INT4, TEXT], [12, '9,999']));
c("select to_char(12, 'FM9,999')", "12", TEXT, f('to_char', [INT4, TEXT], [12, 'FM9,999']));
c("select to_char(12.5, 'FM999.99')", "12.5", TEXT, tn('12.5', 'FM999.99'));
c("select to_char(12, 'FM999.99')", "12.", TEXT, tn('12', 'FM999.99'));
c("select to_char(-12, 'S999')", " -12", TEXT, tn('-12', 'S999'));
c("select to_char(12, 'S999')", " +12", TEXT, tn('12', 'S999'));
c("select to_char(12, '999S')", " 12+", TEXT, tn('12', '999S'));
c("select to_char(-12, '999PR')", " <12>", TEXT, tn('-12', '999PR'));
c("select to_char(12, '999PR')", "  12 ", TEXT, tn('12', '999PR'));
c("select to_char(12, '0009')", " 0012", TEXT, tn('12', '0009'));
c("select to_char(12, '9099')", "  012", TEXT, tn('12', '9099'));
c("select to_char(0.5, '9.99')", "  .50", TEXT, tn('0.5', '9.99'));
c("select to_char(0.5, '0.99')", " 0.50", TEXT, tn('0.5', '0.99'));
c("select to_char(12345, '999')", " ###", TEXT, tn('12345', '999'));
c("select to_char(12345.678, '99.9')", " ##.#", TEXT, tn('12345.678', '99.9'));
c("select to_char(-0.5, 'FM9.9')", "-.5", TEXT, tn('-0.5', 'FM9.9'));
c("select to_char(1234.5, 'L9999.99')", "  1234.50", TEXT, tn('1234.5', 'L9999.99'));
c("select to_char(1234.5, '9.99EEEE')", " 1.23e+03", TEXT, tn('1234.5', '9.99EEEE'));
c("select to_char(-0.000123, '9.99EEEE')", "-1.23e-04", TEXT, tn('-0.000123', '9.99EEEE'));
c("select to_char(0, '9.99')", "  .00", TEXT, tn('0', '9.99'));
c("select to_char(0, 'FM9.99')", "0.", TEXT, tn('0', 'FM9.99'));
c("select to_char(1, 'FM9.00')", "1.00", TEXT, tn('1', 'FM9.00'));
c("select to_char(-12, 'MI999')", "- 12", TEXT, tn('-12', 'MI999'));
c("select to_char(12, 'PL999')", "+  12", TEXT, tn('12', 'PL999'));
c("select to_char(12, 'SG999')", "+ 12", TEXT, tn('12', 'SG999'));
c("select to_char(1234.5, '99G999D9')", "  1,234.5", TEXT, tn('1234.5', '99G999D9'));
c("select to_char(5, '9th')", " 5th", TEXT, tn('5', '9th'));
c("select to_char(12, '\"abc\"99x')", "abc 12x", TEXT, tn('12', '"abc"99x'));
c("select to_char(12.345, '99V99')", " 1235", TEXT, tn('12.345', '99V99'));
c("select to_char(2.5, '9')", " 3", TEXT, tn('2.5', '9'));
c("select to_char(-0.5, '9')", "-1", TEXT, tn('-0.5', '9'));
c("select to_char(0.05, 'FM0.0')", "0.1", TEXT, tn('0.05', 'FM0.0'));
c("select to_char(1234567.891, '9,999,999.99')", " 1,234,567.89", TEXT, tn('1234567.891', '9,999,999.99'));
c("select to_char(-1234567.891, 'FM9,999,999.99')", "-1,234,567.89", TEXT, tn('-1234567.891', 'FM9,999,999.99'));
c("select to_char(485, 'FM999th')", "485th", TEXT, tn('485', 'FM999th'));
c("select to_char(3.14159, 'FM990.000')", "3.142", TEXT, tn('3.14159', 'FM990.000'));
c("select to_char(-3.5, '990.0PR')", "  <3.5>", TEXT, tn('-3.5', '990.0PR'));
c("select to_char(100, 'FM999.990')", "100.000", TEXT, tn('100', 'FM999.990'));
c("select to_char(148.5, '999.999S')", "148.500+", TEXT, tn('148.5', '999.999S'));
c("select to_char(-148.5, 'S999.999')", "-148.500", TEXT, tn('-148.5', 'S999.999'));
c("select to_char(123456789012::int8, '999999999999')", " 123456789012", TEXT, f('to_char', [INT8, TEXT], [123456789012n, '999999999999']));
c("select to_char(2.5::float8, '9')", " 2", TEXT, f('to_char', [FLOAT8, TEXT], [2.5, '9']));
c("select to_char(3.5::float8, '9')", " 4", TEXT, f('to_char', [FLOAT8, TEXT], [3.5, '9']));
c("select to_char(1234.5::float8, '99999.9')", "  1234.5", TEXT, f('to_char', [FLOAT8, TEXT], [1234.5, '99999.9']));
c("select to_char(0.1::float8, '0.99999999999999999999')", " 0.10000000000000", TEXT, f('to_char', [FLOAT8, TEXT], [0.1, '0.99999999999999999999']));
c("select to_char(123.456::float4, '999.999')", " 123.456", TEXT, f('to_char', [FLOAT4, TEXT], [Math.fround(123.456), '999.999']));
c("select to_char(1.5e10::float8, '9.9EEEE')", " 1.5e+10", TEXT, f('to_char', [FLOAT8, TEXT], [1.5e10, '9.9EEEE']));

// to_timestamp / to_date
const tt = (s: string, fmt: string) => f('to_timestamp', [TEXT, TEXT], [s, fmt]);
const td = (s: string, fmt: string) => f('to_date', [TEXT, TEXT], [s, fmt]);
c("select to_timestamp('2024-03-10 02:30:00', 'YYYY-MM-DD HH24:MI:SS')", "2024-03-10 03:30:00-04", TSTZ, tt('2024-03-10 02:30:00', 'YYYY-MM-DD HH24:MI:SS'), 'America/New_York');
c("select to_timestamp('20240102', 'YYYYMMDD')", "2024-01-02 00:00:00-05", TSTZ, tt('20240102', 'YYYYMMDD'), 'America/New_York');
c("select to_timestamp('2000 JUN 3 1:05:06.5 PM', 'YYYY MON DD HH12:MI:SS.MS AM')", "2000-06-03 13:05:06.5+02", TSTZ, tt('2000 JUN 3 1:05:06.5 PM', 'YYYY MON DD HH12:MI:SS.MS AM'), 'Europe/Paris');
c("select to_timestamp('2024-01-02 03:04:05 +05:30', 'YYYY-MM-DD HH24:MI:SS TZH:TZM')", "2024-01-01 21:34:05+00", TSTZ, tt('2024-01-02 03:04:05 +05:30', 'YYYY-MM-DD HH24:MI:SS TZH:TZM'));
c("select to_timestamp('2024 1 2 13', 'YYYY MM DD HH')", "ERROR 22007: hour \"13\" is invalid for the 12-hour clock", TSTZ, tt('2024 1 2 13', 'YYYY MM DD HH'));
c("select to_timestamp('2024-01-02 123456', 'YYYY-MM-DD US')", "2024-01-02 00:00:00.123456+00", TSTZ, tt('2024-01-02 123456', 'YYYY-MM-DD US'));
c("select to_date('05 Dec 2000', 'DD Mon YYYY')", "2000-12-05", DATE, td('05 Dec 2000', 'DD Mon YYYY'));
c("select to_date('2024-13-01', 'YYYY-MM-DD')", "ERROR 22008: date/time field value out of range: \"2024-13-01\"", DATE, td('2024-13-01', 'YYYY-MM-DD'));
c("select to_date('2024-02-30', 'YYYY-MM-DD')", "ERROR 22008: date/time field value out of range: \"2024-02-30\"", DATE, td('2024-02-30', 'YYYY-MM-DD'));
c("select to_date('2024-02-29', 'YYYY-MM-DD')", "2024-02-29", DATE, td('2024-02-29', 'YYYY-MM-DD'));
c("select to_date('abcd-01-01', 'YYYY-MM-DD')", "ERROR 22007: invalid value \"abcd\" for \"YYYY\"", DATE, td('abcd-01-01', 'YYYY-MM-DD'));
c("select to_date('24-1-2', 'YY-MM-DD')", "2024-01-02", DATE, td('24-1-2', 'YY-MM-DD'));
c("select to_date('2024 100', 'YYYY DDD')", "2024-04-09", DATE, td('2024 100', 'YYYY DDD'));
c("select to_date('2024/1/2', 'YYYY-MM-DD')", "2024-01-02", DATE, td('2024/1/2', 'YYYY-MM-DD'));
c("select to_date('  2024-01-02', 'YYYY-MM-DD')", "2024-01-02", DATE, td('  2024-01-02', 'YYYY-MM-DD'));
c("select to_date('2024-Foo-02', 'YYYY-Mon-DD')", "ERROR 22007: invalid value \"Foo-02\" for \"Mon\"", DATE, td('2024-Foo-02', 'YYYY-Mon-DD'));
c("select to_date('2024-01-02 EST', 'YYYY-MM-DD TZ')", "ERROR 0A000: formatting field \"TZ\" is only supported in to_char", DATE, td('2024-01-02 EST', 'YYYY-MM-DD TZ'));
c("select to_date('March 15, 2024', 'Month DD, YYYY')", "2024-03-15", DATE, td('March 15, 2024', 'Month DD, YYYY'));
c("select to_date('2460380', 'J')", "2024-03-10", DATE, td('2460380', 'J'));
c("select to_date('2024-W10-3', 'IYYY-\"W\"IW-ID')", "2024-03-06", DATE, td('2024-W10-3', 'IYYY-"W"IW-ID'));
c("select to_date('0044-03-15 BC', 'YYYY-MM-DD BC')", "0044-03-15 BC", DATE, td('0044-03-15 BC', 'YYYY-MM-DD BC'));

c("select to_timestamp('12:30', 'HH24:MI')", "0001-01-01 12:30:00-04:56:02 BC", TSTZ, tt('12:30', 'HH24:MI'), 'America/New_York');
c("select to_timestamp('2024', 'YYYYMMDD')", "2024-01-01 00:00:00+00", TSTZ, tt('2024', 'YYYYMMDD'), 'UTC');
c("select to_timestamp('20240102123456', 'YYYYMMDDHH24MISS')", "2024-01-02 12:34:56+00", TSTZ, tt('20240102123456', 'YYYYMMDDHH24MISS'), 'UTC');
c("select to_timestamp('2024-01-02T03:04:05.123', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS')", "2024-01-02 03:04:05.123+00", TSTZ, tt('2024-01-02T03:04:05.123', 'YYYY-MM-DD"T"HH24:MI:SS.MS'), 'UTC');
c("select to_timestamp('2024-11-03 01:30', 'YYYY-MM-DD HH24:MI')", "2024-11-03 01:30:00-05", TSTZ, tt('2024-11-03 01:30', 'YYYY-MM-DD HH24:MI'), 'America/New_York');
c("select to_timestamp('1999-12-31 11:59:59 PM', 'YYYY-MM-DD HH:MI:SS AM')", "1999-12-31 23:59:59+00", TSTZ, tt('1999-12-31 11:59:59 PM', 'YYYY-MM-DD HH:MI:SS AM'), 'UTC');
c("select to_timestamp('12 AM 2024-01-01', 'HH AM YYYY-MM-DD')", "2024-01-01 00:00:00+00", TSTZ, tt('12 AM 2024-01-01', 'HH AM YYYY-MM-DD'), 'UTC');
c("select to_timestamp('2024-01-01 25:00', 'YYYY-MM-DD HH24:MI')", "ERROR 22008: date/time field value out of range: \"2024-01-01 25:00\"", TSTZ, tt('2024-01-01 25:00', 'YYYY-MM-DD HH24:MI'), 'UTC');
c("select to_date('2024-1-5', 'FMYYYY-FMMM-FMDD')", "2024-01-05", DATE, td('2024-1-5', 'FMYYYY-FMMM-FMDD'), 'UTC');
c("select to_date('Tuesday, 05 March 2024', 'Day, DD Month YYYY')", "2024-03-05", DATE, td('Tuesday, 05 March 2024', 'Day, DD Month YYYY'), 'UTC');
c("select to_date('99-12-31', 'YY-MM-DD')", "1999-12-31", DATE, td('99-12-31', 'YY-MM-DD'), 'UTC');
c("select to_date('2,024-03-05', 'Y,YYY-MM-DD')", "2024-03-05", DATE, td('2,024-03-05', 'Y,YYY-MM-DD'), 'UTC');

describe('to_char / to_date / to_timestamp match PostgreSQL 15', () => {
  it.each(cases)('%s', (_sql, expected, oid, run, zone) => {
    const ctx = testContext(zone);
    expect(render(() => run(ctx), oid, zone)).toBe(expected);
  });
});
