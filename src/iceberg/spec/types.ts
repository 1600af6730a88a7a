/**
 * Iceberg types → PostgreSQL types, and Iceberg values → lakegate JS values (common/pgtypes/values.ts).
 *
 * Mapping: boolean→bool, int→int4, long→int8, float→float4, double→float8, decimal(p,s)→numeric(p,s),
 * date→date, time→time, timestamp→timestamp, timestamptz→timestamptz, timestamp_ns/timestamptz_ns →
 * timestamp/timestamptz (PostgreSQL keeps µs: nanoseconds are truncated toward −∞), string→text,
 * uuid→uuid, fixed(n)/binary→bytea. Nested: list<T> → T[] (a PostgreSQL array of the element type; a list
 * of nested values becomes jsonb[]), struct and map → jsonb (text in PostgreSQL's normalized jsonb form;
 * structs keyed by field name, maps as objects with the key's text as property name).
 * v3: variant → jsonb (variant/variant-column.ts: PostgreSQL's normalized jsonb text, date/time values as
 * to_jsonb prints them), geometry(C) / geography(C, A) → bytea (the WKB as stored; PostGIS is absent, the
 * CRS and algorithm stay in the Iceberg schema), unknown → text (always NULL: never stored in data files).
 * Their manifest bounds (points, variant bound objects) are not single values: decodeSingleValue gives
 * undefined, so they never prune.
 */
import { pgError } from '../../common/errors.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { arrayTypeOf } from '../../common/pgtypes/registry.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergType, PrimitiveType } from './schema.ts';

const t = (oid: number, typmod = -1): SqlType => ({ oid, typmod });

export function toSqlType(type: IcebergType): SqlType {
  if (type.kind === 'struct' || type.kind === 'map') return t(Oid.jsonb);
  if (type.kind === 'list') {
    const el = toSqlType(type.element);
    const arr = arrayTypeOf(el.oid);
    return t(arr === 0 ? Oid._jsonb : arr, el.typmod);
  }
  switch (type.name) {
    case 'boolean': return t(Oid.bool);
    case 'int': return t(Oid.int4);
    case 'long': return t(Oid.int8);
    case 'float': return t(Oid.float4);
    case 'double': return t(Oid.float8);
    case 'decimal': return t(Oid.numeric, ((type.precision! << 16) | type.scale!) + 4);
    case 'date': return t(Oid.date);
    case 'time': return t(Oid.time);
    case 'timestamp': case 'timestamp_ns': return t(Oid.timestamp);
    case 'timestamptz': case 'timestamptz_ns': return t(Oid.timestamptz);
    case 'string': return t(Oid.text);
    case 'uuid': return t(Oid.uuid);
    case 'fixed': case 'binary': case 'geometry': case 'geography': return t(Oid.bytea);
    case 'variant': return t(Oid.jsonb);
    case 'unknown': return t(Oid.text);
    default: throw pgError('0A000', `Iceberg type "${type.name}" is not supported`);
  }
}

/** v3 types whose manifest bounds are not in the single-value form (§ Bounds for Geometry / for Variant), or absent */
const NO_SINGLE_VALUE = new Set(['variant', 'geometry', 'geography', 'unknown']);

/** Minimal big-endian two's complement → bigint (decimal bounds and Avro decimals). */
export function bigIntFromBE(b: Uint8Array): bigint {
  if (b.length === 0) return 0n;
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  if (b[0]! & 0x80) n -= 1n << BigInt(b.length * 8);
  return n;
}

const HEX = Array.from({ length: 256 }, (_v, i) => i.toString(16).padStart(2, '0'));
export function uuidFromBytes(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
    s += HEX[b[i]!];
  }
  return s;
}

/** ns → µs, truncating toward −∞ (floor) so ordering is preserved */
export function nanosToMicros(ns: bigint): bigint {
  const q = ns / 1000n;
  return ns < 0n && q * 1000n !== ns ? q - 1n : q;
}

/**
 * § Appendix D binary single-value serialization (bounds, partition summaries) → JS value of toSqlType(type).
 * Returns undefined for nested types (they have no single-value form).
 */
export function decodeSingleValue(type: IcebergType, b: Uint8Array): unknown {
  if (type.kind !== 'primitive' || NO_SINGLE_VALUE.has(type.name)) return undefined;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  switch (type.name) {
    case 'boolean': return b[0] !== 0;
    case 'int': return dv.getInt32(0, true);
    case 'date': return dv.getInt32(0, true);
    case 'long': return b.length === 4 ? BigInt(dv.getInt32(0, true)) : dv.getBigInt64(0, true);
    case 'float': return Math.fround(dv.getFloat32(0, true));
    case 'double': return b.length === 4 ? dv.getFloat32(0, true) : dv.getFloat64(0, true);
    case 'time': return Number(dv.getBigInt64(0, true));
    case 'timestamp': case 'timestamptz': return dv.getBigInt64(0, true);
    case 'timestamp_ns': case 'timestamptz_ns': return nanosToMicros(dv.getBigInt64(0, true));
    case 'string': return new TextDecoder().decode(b);
    case 'uuid': return uuidFromBytes(b);
    case 'fixed': case 'binary': return Uint8Array.from(b);
    case 'decimal': return Numeric.of(bigIntFromBE(b), type.scale ?? 0);
    default: throw pgError('0A000', `Iceberg type "${type.name}" is not supported`);
  }
}

/** A value decoded by avsc from a manifest partition tuple (Avro int/long/string/bytes/fixed…) → JS value. */
export function fromAvroValue(type: IcebergType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (type.kind !== 'primitive') return v;
  const p: PrimitiveType = type;
  switch (p.name) {
    case 'boolean': return Boolean(v);
    case 'int': case 'date': return Number(v);
    case 'long': case 'timestamp': case 'timestamptz': return BigInt(v as bigint);
    case 'timestamp_ns': case 'timestamptz_ns': return nanosToMicros(BigInt(v as bigint));
    case 'time': return Number(v);
    case 'float': return Math.fround(Number(v));
    case 'double': return Number(v);
    case 'string': return String(v);
    case 'uuid': return v instanceof Uint8Array ? uuidFromBytes(v) : String(v).toLowerCase();
    case 'fixed': case 'binary': return Uint8Array.from(v as Uint8Array);
    case 'decimal': return Numeric.of(bigIntFromBE(v as Uint8Array), p.scale ?? 0);
    default: return v;
  }
}

/** § Appendix D JSON single-value form (v3 initial-default) → JS value. Nested defaults are kept as jsonb text. */
export function fromJsonSingleValue(type: IcebergType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (type.kind !== 'primitive') return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x));
  switch (type.name) {
    case 'boolean': return Boolean(v);
    case 'int': return Number(v);
    case 'long': return BigInt(v as number);
    case 'float': return Math.fround(Number(v));
    case 'double': return Number(v);
    case 'decimal': return Numeric.parse(String(v));
    case 'date': return Math.floor(Date.parse(`${String(v)}T00:00:00Z`) / 86_400_000);
    case 'time': {
      const [h, m, s] = String(v).split(':').map(Number);
      return Math.round(((h! * 60 + m!) * 60 + (s ?? 0)) * 1e6);
    }
    case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns': {
      const text = String(v);
      const m = /^(.*?)(?:\.(\d+))?([+-]\d\d:\d\d|Z)?$/.exec(text)!;
      const ms = BigInt(Date.parse(`${m[1]}${m[3] ?? 'Z'}`));
      return ms * 1000n + BigInt((m[2] ?? '').padEnd(6, '0').slice(0, 6) || '0');
    }
    case 'string': return String(v);
    case 'uuid': return String(v).toLowerCase();
    case 'fixed': case 'binary': return Uint8Array.from(Buffer.from(String(v), 'hex'));
    default: return v;
  }
}
