import { describe, expect, it } from 'vitest';
import { textIn, textOut } from './text-io.ts';
import { Oid } from './oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from './output-settings.ts';
import { GatewayError } from '../errors.ts';

const Z = (timeZone: string, dateStyle = 'ISO, MDY') => ({ ...DEFAULT_OUTPUT_SETTINGS, timeZone, dateStyle });
const U = Z('UTC');
const rt = (oid: number, text: string, sIn = U, sOut = sIn, typmod = -1) => textOut(oid, textIn(oid, typmod, text, sIn), sOut);

// [oid, input, input zone, output zone, PostgreSQL 15.18 output]
const CASES: [number, string, string, string, string][] = [
  [Oid.timestamptz, '2024-01-31 10:00:00+00', 'UTC', '+02', '2024-01-31 12:00:00+02'],
  [Oid.timestamptz, '2024-01-31 10:00:00.5+00', 'UTC', 'Asia/Kolkata', '2024-01-31 15:30:00.5+05:30'],
  [Oid.timestamptz, '2024-01-31 10:00:00', 'Asia/Kolkata', 'Asia/Kolkata', '2024-01-31 10:00:00+05:30'],
  [Oid.timestamptz, '2024-07-31 10:00:00+00', 'UTC', 'America/St_Johns', '2024-07-31 07:30:00-02:30'],
  [Oid.timestamptz, '2024-03-31 02:30:00', 'Europe/Paris', 'Europe/Paris', '2024-03-31 03:30:00+02'],
  [Oid.timestamptz, '2024-10-27 02:30:00', 'Europe/Paris', 'Europe/Paris', '2024-10-27 02:30:00+01'],
  [Oid.timestamptz, '1900-01-01 00:00', 'Europe/Paris', 'Europe/Paris', '1900-01-01 00:00:00+00:09:21'],
  [Oid.timestamptz, '0001-01-01 00:00+00', 'Europe/Paris', 'Europe/Paris', '0001-01-01 00:09:21+00:09:21'],
  [Oid.timestamptz, '2024-01-31 10:11:12 BC', 'Europe/Paris', 'Europe/Paris', '2024-01-31 10:11:12+00:09:21 BC'],
  [Oid.timestamptz, 'epoch', 'Europe/Paris', 'Europe/Paris', '1970-01-01 01:00:00+01'],
  [Oid.timestamptz, '2024-01-31T10:11:12Z', 'UTC', 'UTC', '2024-01-31 10:11:12+00'],
  [Oid.timestamptz, '2024-01-31 10:11:12+02', 'UTC', 'UTC', '2024-01-31 08:11:12+00'],
  [Oid.timestamptz, '2024-01-31 10:11:12.5 Europe/Paris', 'UTC', 'UTC', '2024-01-31 09:11:12.5+00'],
  [Oid.timestamptz, '2024-01-31 10:11:12 +0530', 'UTC', 'UTC', '2024-01-31 04:41:12+00'],
  [Oid.timestamptz, 'infinity', 'UTC', 'UTC', 'infinity'],
  [Oid.timestamp, '2024-01-31 10:11:12.5', 'UTC', 'UTC', '2024-01-31 10:11:12.5'],
  [Oid.timestamp, '-infinity', 'UTC', 'UTC', '-infinity'],
  [Oid.timestamp, '2024-01-31 10:11:12.1234565', 'UTC', 'UTC', '2024-01-31 10:11:12.123456'],
  [Oid.timestamp, 'January 5, 2024 3:04 PM', 'UTC', 'UTC', '2024-01-05 15:04:00'],
  [Oid.timestamp, '2024-01-31 10:11:12+02', 'UTC', 'UTC', '2024-01-31 10:11:12'],
  [Oid.timestamp, '1999-01-08 04:05:06', 'UTC', 'UTC', '1999-01-08 04:05:06'],
  [Oid.date, 'Jan 31 2024', 'UTC', 'UTC', '2024-01-31'],
  [Oid.date, 'epoch', 'UTC', 'UTC', '1970-01-01'],
  [Oid.date, 'infinity', 'UTC', 'UTC', 'infinity'],
  [Oid.date, '20240131', 'UTC', 'UTC', '2024-01-31'],
  [Oid.date, '1/2/2024', 'UTC', 'UTC', '2024-01-02'],
  [Oid.date, '0001-01-01 BC', 'UTC', 'UTC', '0001-01-01 BC'],
  [Oid.date, '31-Jan-2024', 'UTC', 'UTC', '2024-01-31'],
  [Oid.date, '2024-02-29', 'UTC', 'UTC', '2024-02-29'],
  [Oid.time, 'allballs', 'UTC', 'UTC', '00:00:00'],
  [Oid.time, '24:00:00', 'UTC', 'UTC', '24:00:00'],
  [Oid.time, '10:11:12.123456789', 'UTC', 'UTC', '10:11:12.123457'],
  [Oid.time, '10:11:12 pm', 'UTC', 'UTC', '22:11:12'],
  [Oid.time, '12:00 am', 'UTC', 'UTC', '00:00:00'],
  [Oid.timetz, '10:11+05:30', 'UTC', 'UTC', '10:11:00+05:30'],
  [Oid.timetz, '10:11:12-08', 'UTC', 'UTC', '10:11:12-08'],
];

describe('date/time text (outputs verified on PostgreSQL 15.18)', () => {
  it.each(CASES)('%i %j (%s → %s)', (oid, input, zin, zout, out) => expect(rt(oid, input, Z(zin), Z(zout))).toBe(out));

  it('DateStyle DMY input order and SQL/German output', () => {
    expect(rt(Oid.date, '1/2/2024', Z('UTC', 'ISO, DMY'))).toBe('2024-02-01');
    expect(rt(Oid.date, '2024-01-31', Z('UTC', 'SQL, MDY'))).toBe('01/31/2024');
    expect(rt(Oid.date, '2024-01-31', Z('UTC', 'German, DMY'))).toBe('31.01.2024');
  });

  it('TimeZone settings: numbers are hours east, POSIX specs are west-positive (PostgreSQL 15.18)', () => {
    const at = (tz: string) => rt(Oid.timestamptz, '2024-01-31 10:00:00+00', U, Z(tz));
    expect(at('+02')).toBe('2024-01-31 12:00:00+02');
    expect(at('-05:30')).toBe('2024-01-31 15:30:00+05:30');
    expect(at('UTC+2')).toBe('2024-01-31 08:00:00-02');
    expect(at('5.5')).toBe('2024-01-31 15:30:00+05:30');
    expect(at('<+03>-03')).toBe('2024-01-31 13:00:00+03');
    expect(at('EST5EDT')).toBe('2024-01-31 05:00:00-05');
    expect(at('-7')).toBe('2024-01-31 03:00:00-07');
    expect(at('America/New_York')).toBe('2024-01-31 05:00:00-05');
  });

  it('typmod rounds fractional seconds', () => {
    expect(rt(Oid.timestamp, '2024-01-31 10:11:12.56789', U, U, 2)).toBe('2024-01-31 10:11:12.57');
    expect(rt(Oid.time, '10:11:12.5', U, U, 0)).toBe('10:11:13');
  });

  it('relative words', () => {
    expect(typeof textIn(Oid.timestamptz, -1, 'now', U)).toBe('bigint');
    const today = textIn(Oid.date, -1, 'today', U) as number;
    expect(textIn(Oid.date, -1, 'tomorrow', U)).toBe(today + 1);
    expect(textIn(Oid.timestamp, -1, 'today', U)).toBe(BigInt(today) * 86400000000n);
  });

  it.each([
    [Oid.time, '25:00', '22008', 'date/time field value out of range: "25:00"'],
    [Oid.date, 'foo', '22007', 'invalid input syntax for type date: "foo"'],
    [Oid.timestamp, '2024-13-01', '22008', 'date/time field value out of range: "2024-13-01"'],
    [Oid.date, '2024-02-30', '22008', 'date/time field value out of range: "2024-02-30"'],
    [Oid.timetz, '10:00 XYZ', '22007', 'invalid input syntax for type time with time zone: "10:00 XYZ"'],
    [Oid.timestamptz, '', '22007', 'invalid input syntax for type timestamp with time zone: ""'],
  ])('%i %j → %s', (oid, input, code, msg) => {
    try { textIn(oid, -1, input, U); expect.fail(); } catch (e) {
      expect((e as GatewayError).code).toBe(code);
      expect((e as GatewayError).message).toBe(msg);
    }
  });
});
