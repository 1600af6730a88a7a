import { describe, expect, it } from 'vitest';
import { intervalIn, intervalOut } from './interval-text.ts';
import { binaryIn, binaryOut } from './binary-io.ts';
import { Oid } from './oids.ts';
import { GatewayError } from '../errors.ts';

const INPUTS = ['1 year 2 mons 3 days 04:05:06.5', '-1 days +02:00:00', '1 day', '2 hours 30 minutes', '1-2', 'P1Y2M', '01:02:03', '@ 1 hour ago', '0',
  '-1 year -2 mons +3 days -04:05:06', '1.5 months', '1.5 years', '1.5 days', '1 week', 'P1Y2M3DT4H5M6.5S', '-00:00:01.5', '1 2:03:04', '100 hours', '5',
  '1 mon -1 days', '3 days ago', '1 day 2 hours ago', 'PT0S', '1 millisecond', '2 decades 1 century', '1.5', 'P0001-02-03T04:05:06', '-1-2', '1 year -1 mon'];

// outputs of `SET IntervalStyle = …; SELECT '<input>'::interval` on PostgreSQL 15.18
const EXPECTED: Record<string, string> = {
  postgres: '1 year 2 mons 3 days 04:05:06.5|-1 days +02:00:00|1 day|02:30:00|1 year 2 mons|1 year 2 mons|01:02:03|-01:00:00|00:00:00|-1 years -2 mons +3 days -04:05:06|1 mon 15 days|1 year 6 mons|1 day 12:00:00|7 days|1 year 2 mons 3 days 04:05:06.5|-00:00:01.5|1 day 02:03:04|100:00:00|00:00:05|1 mon -1 days|-3 days|-1 days -02:00:00|00:00:00|00:00:00.001|120 years|00:00:01.5|1 year 2 mons 3 days 04:05:06|-1 years -2 mons|11 mons',
  iso_8601: 'P1Y2M3DT4H5M6.5S|P-1DT2H|P1D|PT2H30M|P1Y2M|P1Y2M|PT1H2M3S|PT-1H|PT0S|P-1Y-2M3DT-4H-5M-6S|P1M15D|P1Y6M|P1DT12H|P7D|P1Y2M3DT4H5M6.5S|PT-1.5S|P1DT2H3M4S|PT100H|PT5S|P1M-1D|P-3D|P-1DT-2H|PT0S|PT0.001S|P120Y|PT1.5S|P1Y2M3DT4H5M6S|P-1Y-2M|P11M',
  sql_standard: '+1-2 +3 +4:05:06.5|+0-0 -1 +2:00:00|1 0:00:00|2:30:00|1-2|1-2|1:02:03|-1:00:00|0|-1-2 +3 -4:05:06|+0-1 +15 +0:00:00|1-6|1 12:00:00|7 0:00:00|+1-2 +3 +4:05:06.5|-0:00:01.5|1 2:03:04|100:00:00|0:00:05|+0-1 -1 +0:00:00|-3 0:00:00|-1 2:00:00|0|0:00:00.001|120-0|0:00:01.5|+1-2 +3 +4:05:06|-1-2|0-11',
  postgres_verbose: '@ 1 year 2 mons 3 days 4 hours 5 mins 6.5 secs|@ 1 day -2 hours ago|@ 1 day|@ 2 hours 30 mins|@ 1 year 2 mons|@ 1 year 2 mons|@ 1 hour 2 mins 3 secs|@ 1 hour ago|@ 0|@ 1 year 2 mons -3 days 4 hours 5 mins 6 secs ago|@ 1 mon 15 days|@ 1 year 6 mons|@ 1 day 12 hours|@ 7 days|@ 1 year 2 mons 3 days 4 hours 5 mins 6.5 secs|@ 1.5 secs ago|@ 1 day 2 hours 3 mins 4 secs|@ 100 hours|@ 5 secs|@ 1 mon -1 days|@ 3 days ago|@ 1 day 2 hours ago|@ 0|@ 0.001 secs|@ 120 years|@ 1.5 secs|@ 1 year 2 mons 3 days 4 hours 5 mins 6 secs|@ 1 year 2 mons ago|@ 11 mons',
};

const CASES = Object.entries(EXPECTED).flatMap(([style, out]) => {
  const want = out.split('|');
  return INPUTS.map((input, k) => [style, input, want[k]!] as const);
});

describe('interval text (verified on PostgreSQL 15.18)', () => {
  it.each(CASES)('%s %j → %j', (style, input, out) => expect(intervalOut(intervalIn(input, style), style)).toBe(out));

  it('re-reads its own output in every style', () => {
    for (const style of Object.keys(EXPECTED)) {
      for (const input of INPUTS) {
        const v = intervalIn(input, style);
        expect(intervalIn(intervalOut(v, style), style), `${style} ${input}`).toEqual(v);
        expect(binaryIn(Oid.interval, binaryOut(Oid.interval, v))).toEqual(v);
      }
    }
  });

  it.each(['xyz', '1 fortnight', '', '1 day xyz', 'P', '@'])('rejects %j with 22007', (s) => {
    try { intervalIn(s); expect.fail(); } catch (e) {
      expect((e as GatewayError).code).toBe('22007');
      expect((e as GatewayError).message).toBe(`invalid input syntax for type interval: "${s}"`);
    }
  });
});
