/**
 * Iceberg values as jsonb text: nested columns read from Parquet (struct / map / nested lists) and the
 * metadata-table columns Trino types as map/row (metric maps, decoded bounds, partition tuples). Exact
 * numbers (long, decimal) stay exact JSON numbers; dates, times and timestamps are ISO strings; binary
 * values are `\x…` hex strings (as jsonb shows bytea).
 */
import { jsonbIn } from '../../common/pgtypes/json-text.ts';
import { dateOut, timeOut, timestampOut } from '../../common/pgtypes/datetime-text.ts';
import type { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergType } from './schema.ts';

/** JSON number text that must not go through JS numbers */
class JsonNumber {
  constructor(readonly text: string) {}
}

/** Already-serialized JSON (e.g. a jsonb column) embedded verbatim in a larger document */
export function rawJson(text: string): unknown {
  return new JsonNumber(text);
}

/** A decoded Iceberg value (spec/types.ts decodeSingleValue / fromAvroValue) → JSON-ready value. */
export function jsonLeaf(type: IcebergType | undefined, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (type === undefined || type.kind !== 'primitive') return typeof v === 'bigint' ? new JsonNumber(String(v)) : v;
  switch (type.name) {
    case 'long': return new JsonNumber(String(v));
    case 'decimal': return new JsonNumber((v as Numeric).toString());
    case 'float': case 'double': return Number.isFinite(v as number) ? v : String(v);
    case 'date': return dateOut(v as number);
    case 'time': return timeOut(v as number);
    case 'timestamp': case 'timestamp_ns': return timestampOut(v as bigint).replace(' ', 'T');
    case 'timestamptz': case 'timestamptz_ns': return timestampOut(v as bigint).replace(' ', 'T') + '+00:00';
    case 'fixed': case 'binary': return '\\x' + Buffer.from(v as Uint8Array).toString('hex');
    default: return typeof v === 'bigint' ? new JsonNumber(String(v)) : v;
  }
}

/** JSON text of JSON-shaped values (a Map key that is not a string is written as its JSON text) */
export function jsonText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof JsonNumber) return v.text;
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return '[' + v.map(jsonText).join(',') + ']';
  if (v instanceof Map) return '{' + [...v].map(([k, x]) => JSON.stringify(String(k)) + ':' + jsonText(x)).join(',') + '}';
  if (typeof v === 'object') return '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ':' + jsonText(x)).join(',') + '}';
  return JSON.stringify(v);
}

/** jsonb text (PostgreSQL's normalized form) of JSON-shaped values: Map or plain record for objects, arrays, jsonLeaf values. */
export function toJsonb(v: unknown): string {
  return jsonbIn(jsonText(v));
}
