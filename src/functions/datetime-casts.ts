/**
 * Date/time casts (pg_cast entries of PostgreSQL 15) between date, time, timestamp, timestamptz and
 * interval, plus the length-coercion casts that apply a typmod (timestamp(p), time(p), interval fields/p).
 * timestamp ↔ timestamptz and date → timestamptz use the session TimeZone.
 */
import { Oid } from '../common/pgtypes/oids.ts';
import type { Interval } from '../common/pgtypes/values.ts';
import type { CastDef } from './registry-types.ts';
import { USECS_PER_DAY } from './datetime-fields.ts';
import {
  dateToTimestamp, roundInterval, roundTime, roundTimestamp, sessionZoneOf, timeOfTimestamp, timestampToDate,
  timestampToTimestamptz, timestamptzToTimestamp,
} from './datetime-support.ts';

const { date: DATE, time: TIME, timestamp: TS, timestamptz: TSTZ, interval: INTERVAL } = Oid;
const DAY = 86_400_000_000;

const cast = (source: number, target: number, context: CastDef['context'], impl: CastDef['impl']): CastDef =>
  ({ source, target, context, method: 'f', impl });

/** interval → time: the time part modulo a day (PostgreSQL's interval_time). */
function intervalToTime(iv: Interval): number {
  const t = Number(iv.micros % USECS_PER_DAY);
  return t < 0 ? t + DAY : t;
}

export const datetimeCasts: readonly CastDef[] = [
  cast(DATE, TS, 'i', (v, typmod) => roundTimestamp(dateToTimestamp(v as number), typmod)),
  cast(DATE, TSTZ, 'i', (v, typmod, ctx) => roundTimestamp(timestampToTimestamptz(dateToTimestamp(v as number), sessionZoneOf(ctx)), typmod)),
  cast(TS, DATE, 'a', (v) => timestampToDate(v as bigint)),
  cast(TSTZ, DATE, 'a', (v, _t, ctx) => timestampToDate(timestamptzToTimestamp(v as bigint, sessionZoneOf(ctx)))),
  cast(TS, TSTZ, 'i', (v, typmod, ctx) => roundTimestamp(timestampToTimestamptz(v as bigint, sessionZoneOf(ctx)), typmod)),
  cast(TSTZ, TS, 'a', (v, typmod, ctx) => roundTimestamp(timestamptzToTimestamp(v as bigint, sessionZoneOf(ctx)), typmod)),
  cast(TS, TIME, 'a', (v, typmod) => roundTime(timeOfTimestamp(v as bigint), typmod) % DAY),
  cast(TSTZ, TIME, 'a', (v, typmod, ctx) => roundTime(timeOfTimestamp(timestamptzToTimestamp(v as bigint, sessionZoneOf(ctx))), typmod) % DAY),
  cast(TIME, INTERVAL, 'i', (v, typmod) => roundInterval({ months: 0, days: 0, micros: BigInt(v as number) }, typmod)),
  cast(INTERVAL, TIME, 'a', (v, typmod) => roundTime(intervalToTime(v as Interval), typmod) % DAY),
  // length coercions (typmod application)
  cast(TS, TS, 'i', (v, typmod) => roundTimestamp(v as bigint, typmod)),
  cast(TSTZ, TSTZ, 'i', (v, typmod) => roundTimestamp(v as bigint, typmod)),
  cast(TIME, TIME, 'i', (v, typmod) => roundTime(v as number, typmod)),
  cast(INTERVAL, INTERVAL, 'i', (v, typmod) => roundInterval(v as Interval, typmod)),
];
