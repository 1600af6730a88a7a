/**
 * textIn / textOut: PostgreSQL's text format of every supported type, dispatched by OID with a switch.
 * textOut is the wire hot path (DataRow text columns); the per-family work lives in scalar-text.ts,
 * float-text.ts, numeric.ts, json-text.ts, datetime-text.ts, interval-text.ts, array-text.ts, record-text.ts.
 * Typmods: numeric(p,s), time/timestamp precision and interval ranges are applied on input (as the *_in functions do);
 * char/varchar length checks belong to casts.
 */
import { GatewayError, notSupported } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import type { OutputSettings } from './output-settings.ts';
import { Oid } from './oids.ts';
import { typeLabel } from './type-label.ts';
import { type Interval, type PgArray, type PgRecord, type TimeTz, isPgArray, isPgRecord, TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY } from './values.ts';
import { DEFAULT_OUTPUT_SETTINGS } from './output-settings.ts';
import { Numeric } from './numeric.ts';
import { boolIn, boolOut, byteaIn, byteaOut, int8In, intIn, oidIn, uuidIn } from './scalar-text.ts';
import { float4Out, float8Out, floatIn } from './float-text.ts';
import { jsonIn, jsonbIn } from './json-text.ts';
import {
  dateIn, dateOut, timeIn, timeOut, timestampIn, timestampOut, timestamptzIn, timestamptzOut, timetzIn, timetzOut,
} from './datetime-text.ts';
import { intervalIn, intervalOut } from './interval-text.ts';
import { arrayIn, arrayOut } from './array-text.ts';
import { recordOut } from './record-text.ts';
import { elementTypeOf } from './registry.ts';
import { vectorIn, vectorOut } from './vector-text.ts';
import { intervalDefaultUnits, intervalTypmod } from './interval-typmod.ts';
import { cidrIn, cidrOut, inetIn } from './inet-value.ts';
import { cashIn, cashOut } from './money-text.ts';
import { bitIn } from './bit-text.ts';

/** Text → JS value (see values.ts) for a column/parameter of type `oid` with modifier `typmod`. */
export function textIn(oid: number, typmod: number, text: string, settings: OutputSettings = DEFAULT_OUTPUT_SETTINGS): unknown {
  switch (oid) {
    case Oid.bool: return boolIn(text);
    case Oid.int2: return intIn(text, 2);
    case Oid.int4: return intIn(text, 4);
    case Oid.int8: return int8In(text);
    case Oid.oid: case Oid.regproc: case Oid.regprocedure: case Oid.regoper: case Oid.regoperator:
    case Oid.regclass: case Oid.regtype: case Oid.regnamespace: case Oid.regrole: case Oid.regconfig:
    case Oid.regdictionary: case Oid.regcollation: case Oid.xid: case Oid.cid:
      return oidIn(text);
    case Oid.float4: return floatIn(text, true);
    case Oid.float8: return floatIn(text, false);
    case Oid.numeric: {
      const n = Numeric.parse(text);
      return typmod >= 4 ? n.applyAttTypmod(typmod) : n;
    }
    case Oid.text: case Oid.varchar: case Oid.bpchar: case Oid.xml: case Oid.unknown:
    case Oid.refcursor: case Oid.cstring:
      return text;
    case Oid.char: return charIn(text);
    case Oid.bytea: return byteaIn(text);
    case Oid.uuid: return uuidIn(text);
    case Oid.inet: return inetIn(text);
    case Oid.cidr: return cidrIn(text);
    case Oid.json: return jsonIn(text);
    case Oid.jsonb: return jsonbIn(text);
    case Oid.date: return dateIn(text, settings);
    case Oid.time: return roundTime(timeIn(text, settings), typmod);
    case Oid.timetz: {
      const v = timetzIn(text, settings);
      return typmod >= 0 ? { micros: roundTime(v.micros, typmod), offsetSeconds: v.offsetSeconds } : v;
    }
    case Oid.timestamp: return roundTimestamp(timestampIn(text, settings), typmod);
    case Oid.timestamptz: return roundTimestamp(timestamptzIn(text, settings), typmod);
    case Oid.interval: return intervalTypmod(intervalIn(intervalDefaultUnits(text, typmod), settings.intervalStyle), typmod);
    case Oid.xid8: return int8In(text);
    case Oid.int2vector: case Oid.oidvector: return vectorIn(oid, text);
    case Oid.name: return nameIn(text);
    case Oid.record: throw new GatewayError(SqlState.feature_not_supported, 'input of anonymous composite types is not implemented');
    case Oid.money: return cashIn(text);
    case Oid.bit: return bitIn(text, typmod, false);
    case Oid.varbit: return bitIn(text, typmod, true);
  }
  const elem = elementTypeOf(oid);
  if (elem !== 0) return arrayIn(text, elem, (s) => textIn(elem, typmod, s, settings));
  throw notSupported(`text input for type ${typeLabel(oid)}`);
}

/** JS value → text for a value of type `oid` (null is the caller's business: it has no text). */
export function textOut(oid: number, value: unknown, settings: OutputSettings = DEFAULT_OUTPUT_SETTINGS): string {
  switch (oid) {
    case Oid.bool: return boolOut(value as boolean);
    case Oid.int2: case Oid.int4: case Oid.oid: case Oid.int8: case Oid.xid: case Oid.cid: case Oid.xid8:
      return typeof value === 'string' ? value : String(value as number | bigint);
    case Oid.float4: return float4Out(value as number, settings.extraFloatDigits);
    case Oid.float8: return float8Out(value as number, settings.extraFloatDigits);
    case Oid.numeric: return numericText(value);
    case Oid.text: case Oid.varchar: case Oid.bpchar: case Oid.name: case Oid.json: case Oid.jsonb:
    case Oid.uuid: case Oid.xml: case Oid.unknown: case Oid.refcursor: case Oid.cstring: case Oid.inet:
      return value as string;
    case Oid.cidr: return cidrOut(value as string);
    case Oid.char: return charOut(value as string);
    case Oid.int2vector: case Oid.oidvector: return vectorOut(value as PgArray);
    case Oid.bytea: return byteaOut(value as Uint8Array, settings.byteaOutput);
    case Oid.date: return dateOut(value as number, settings);
    case Oid.time: return timeOut(value as number);
    case Oid.timetz: return timetzOut(value as TimeTz);
    case Oid.timestamp: return timestampOut(value as bigint, settings);
    case Oid.timestamptz: return timestamptzOut(value as bigint, settings);
    case Oid.interval: return intervalOut(value as Interval, settings.intervalStyle);
    case Oid.record: return recordText(value, settings);
    case Oid.void: return '';
    case Oid.money: return cashOut(value as bigint);
  }
  if (isPgArray(value)) return arrayText(value, settings);
  if (isPgRecord(value)) return recordText(value, settings);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Numeric.isNumeric(value)) return value.toString();
  throw notSupported(`text output for type ${typeLabel(oid)}`);
}

function numericText(v: unknown): string {
  if (Numeric.isNumeric(v)) return v.toString();
  if (typeof v === 'number') return Numeric.fromNumber(v).toString();
  return String(v as bigint);
}

function arrayText(a: PgArray, settings: OutputSettings): string {
  const elem = a.elementOid;
  return arrayOut(a, (v) => textOut(elem, v, settings));
}

function recordText(r: unknown, settings: OutputSettings): string {
  if (!isPgRecord(r)) throw new GatewayError(SqlState.datatype_mismatch, 'record value expected');
  return recordOut(r as PgRecord, (oid, v) => textOut(oid, v, settings));
}

const utf8 = new TextEncoder();

/** charin: one byte — the first byte of the input, or \ooo. High bytes become U+0080..U+00FF. */
function charIn(text: string): string {
  if (text.length === 4 && text.charCodeAt(0) === 92 && /^\\[0-3][0-7][0-7]$/.test(text)) {
    return String.fromCharCode(parseInt(text.slice(1), 8));
  }
  if (text.length === 0) return '';
  const c = text.charCodeAt(0);
  return c < 0x80 ? text[0]! : String.fromCharCode(utf8.encode(text)[0]!);
}

/** charout: bytes ≥ 0x80 print as \ooo */
function charOut(v: string): string {
  const c = v.charCodeAt(0);
  if (!(c >= 0x80)) return v;
  return '\\' + (c >> 6) + ((c >> 3) & 7) + (c & 7);
}

/** namein: truncated to NAMEDATALEN - 1 = 63 bytes at a character boundary */
function nameIn(text: string): string {
  if (text.length <= 21) return text; // ≤ 63 bytes whatever the characters
  const bytes = utf8.encode(text);
  if (bytes.length <= 63) return text;
  let out = '', n = 0;
  for (const ch of text) {
    const len = utf8.encode(ch).length;
    if (n + len > 63) break;
    out += ch;
    n += len;
  }
  return out;
}

/** AdjustTimeForTypmod: round to `typmod` fractional digits (half away from zero) */
function roundTime(us: number, typmod: number): number {
  if (typmod < 0 || typmod >= 6) return us;
  const scale = 10 ** (6 - typmod);
  return Math.round(us / scale) * scale;
}

/** AdjustTimestampForTypmod */
function roundTimestamp(ts: bigint, typmod: number): bigint {
  if (typmod < 0 || typmod >= 6 || ts === TIMESTAMP_INFINITY || ts === TIMESTAMP_NEG_INFINITY) return ts;
  const scale = 10n ** BigInt(6 - typmod);
  const half = scale / 2n;
  return ts >= 0n ? ((ts + half) / scale) * scale : -(((-ts + half) / scale) * scale);
}
