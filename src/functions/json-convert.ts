/**
 * SQL value → JSON (PostgreSQL's datum_to_json / datum_to_jsonb): numbers unquoted (NaN/Infinity as
 * strings), booleans, json embedded verbatim, arrays as JSON arrays, records as objects (f1, f2, ...),
 * dates/timestamps in ISO 8601 with 'T' (timestamptz in the session zone, offset as +HH:MM), everything
 * else as its text output in a JSON string.
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { isPgArray, isPgRecord, type PgArray } from '../common/pgtypes/values.ts';
import { DEFAULT_OUTPUT_SETTINGS, textOut } from '../common/pgtypes/index.ts';
import { escapeJson, normalize, parseJson, type JsonValue } from './json-value.ts';
import type { Zone } from './timezone.ts';

function out(oid: number, v: unknown, zone: Zone): string {
  return textOut(oid, v, { ...DEFAULT_OUTPUT_SETTINGS, timeZone: zone.name });
}

/** JSON's timestamp layout (XSD): 'T' between date and time, offsets as +HH:MM. */
function isoTimestamp(text: string, withOffset: boolean): string {
  if (text === 'infinity' || text === '-infinity') return text;
  const t = text.replace(' ', 'T');
  return withOffset ? t.replace(/([+-]\d{2})(?=$| BC)/, '$1:00') : t;
}

/** Text of a scalar for JSON: [text, needsQuotes]. */
function scalarText(oid: number, v: unknown, zone: Zone): [string, boolean] {
  switch (oid) {
    case Oid.bool: return [v ? 'true' : 'false', false];
    case Oid.int2: case Oid.int4: case Oid.int8: case Oid.oid: return [String(v), false];
    case Oid.float4: case Oid.float8: return [out(oid, v, zone), !Number.isFinite(v as number)];
    case Oid.numeric: {
      const n = v as Numeric;
      return [n.toString(), !n.isFinite()];
    }
    case Oid.timestamp: return [isoTimestamp(out(oid, v, zone), false), true];
    case Oid.timestamptz: return [isoTimestamp(out(oid, v, zone), true), true];
    default:
      if (typeof v === 'boolean') return [v ? 'true' : 'false', false];
      if (Numeric.isNumeric(v)) return [v.toString(), !v.isFinite()];
      if (typeof v === 'bigint') return [String(v), false];
      return [out(oid, v, zone), true];
  }
}

function arrayToJson(a: PgArray, zone: Zone): string {
  if (a.dims.length === 0) return '[]';
  let pos = 0;
  const build = (dim: number): string => {
    const items: string[] = [];
    for (let i = 0; i < a.dims[dim]!; i++) items.push(dim === a.dims.length - 1 ? toJsonText(a.elementOid, a.values[pos++] ?? null, zone) : build(dim + 1));
    return '[' + items.join(',') + ']';
  };
  return build(0);
}

/** to_json(value of type oid) as json text (compact: arrays `[1,2]`, records `{"f1":1}`). */
export function toJsonText(oid: number, v: unknown, zone: Zone): string {
  if (v === null || v === undefined) return 'null';
  if (oid === Oid.json || oid === Oid.jsonb) return v as string;
  if (isPgArray(v)) return arrayToJson(v, zone);
  if (isPgRecord(v)) return '{' + v.values.map((x, i) => `${escapeJson(v.fieldNames?.[i] ?? `f${i + 1}`)}:${toJsonText(v.fieldOids[i] ?? Oid.text, x ?? null, zone)}`).join(',') + '}';
  const [text, quoted] = scalarText(oid, v, zone);
  return quoted ? escapeJson(text) : text;
}

/** to_jsonb(value of type oid) as a normalized JSON value. */
export function toJsonValue(oid: number, v: unknown, zone: Zone): JsonValue {
  if (v === null || v === undefined) return { t: 'null' };
  if (oid === Oid.json || oid === Oid.jsonb) return normalize(parseJson(v as string));
  if (isPgArray(v)) {
    if (v.dims.length === 0) return { t: 'arr', items: [] };
    let pos = 0;
    const build = (dim: number): JsonValue => {
      const items: JsonValue[] = [];
      for (let i = 0; i < v.dims[dim]!; i++) items.push(dim === v.dims.length - 1 ? toJsonValue(v.elementOid, v.values[pos++] ?? null, zone) : build(dim + 1));
      return { t: 'arr', items };
    };
    return build(0);
  }
  if (isPgRecord(v)) {
    return normalize({ t: 'obj', entries: v.values.map((x, i) => [v.fieldNames?.[i] ?? `f${i + 1}`, toJsonValue(v.fieldOids[i] ?? Oid.text, x ?? null, zone)]) });
  }
  const [text, quoted] = scalarText(oid, v, zone);
  if (quoted) return { t: 'str', v: text };
  if (text === 'true' || text === 'false') return { t: 'bool', v: text === 'true' };
  return { t: 'num', text: Numeric.parse(text).toString() };
}
