/**
 * Arrow → lakegate JS values (common/pgtypes/values.ts), driven by the Iceberg type the column must have
 * (so promoted columns convert: an int32 file column read as `long` gives bigint). Converts one Arrow Data
 * chunk at a time, columnar. Raw buffers are used where arrow-js `get()` would lose precision
 * (timestamps/times in µs or ns, Date32 days, Decimal128).
 * Nested: list<primitive> → PgArray; struct, map and lists of nested values → jsonb text.
 * v3: variant groups → jsonb text (variant/variant-column.ts), geometry/geography → bytea (WKB bytes),
 * unknown → NULL whatever the file holds (§ Parquet: "any corresponding column must be ignored").
 */
import { makeVector, Type, type Data, type DataType, type Field } from 'apache-arrow';
import { pgError } from '../../common/errors.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { jsonLeaf, jsonText, rawJson, toJsonb } from '../spec/json-values.ts';
import type { IcebergType, PrimitiveType } from '../spec/schema.ts';
import { toSqlType, uuidFromBytes, nanosToMicros } from '../spec/types.ts';
import { fastPrimitiveValues } from './arrow-fast-columns.ts';
import { variantColumnValues } from '../variant/variant-column.ts';

export const FIELD_ID_KEY = 'PARQUET:field_id';

export function fieldIdOf(f: Field): number | null {
  const v = f.metadata.get(FIELD_ID_KEY);
  return v === undefined ? null : Number(v);
}

const isNull = (d: Data, i: number): boolean => d.nullCount > 0 && !d.getValid(i);

/** TimeUnit SECOND=0 MILLISECOND=1 MICROSECOND=2 NANOSECOND=3 → µs */
function toMicros(v: bigint, unit: number): bigint {
  switch (unit) {
    case 0: return v * 1_000_000n;
    case 1: return v * 1000n;
    case 2: return v;
    default: return nanosToMicros(v);
  }
}

function decimalUnscaled(d: Data, i: number): bigint {
  const words = (d.type as DataType & { bitWidth?: number }).bitWidth === 256 ? 8 : 4;
  const vals = d.values as Uint32Array;
  let n = 0n;
  for (let w = words - 1; w >= 0; w--) n = (n << 32n) | BigInt(vals[i * words + w]!);
  const bits = BigInt(words * 32);
  if (n >> (bits - 1n)) n -= 1n << bits;
  return n;
}

function primitiveValues(d: Data, t: PrimitiveType, uri?: string): unknown[] {
  if (t.name === 'variant') return variantColumnValues(d, primitiveValues, uri === undefined ? {} : { uri });
  if (t.name === 'unknown') return new Array<unknown>(d.length).fill(null);
  const fast = fastPrimitiveValues(d, t);
  if (fast !== null) return fast;
  const out = new Array<unknown>(d.length);
  const tid = d.typeId;
  const unit = (d.type as DataType & { unit?: number }).unit ?? 2;
  let vec: ReturnType<typeof makeVector> | null = null;
  const get = (i: number): unknown => (vec ??= makeVector(d)).get(i);
  for (let i = 0; i < d.length; i++) {
    if (isNull(d, i)) { out[i] = null; continue; }
    switch (t.name) {
      case 'boolean': out[i] = Boolean(get(i)); break;
      case 'int': out[i] = Number(get(i)); break;
      case 'long': { const v = get(i); out[i] = typeof v === 'bigint' ? v : BigInt(v as number); break; }
      case 'float': out[i] = Math.fround(Number(get(i))); break;
      case 'double': out[i] = Number(get(i)); break;
      case 'date':
        out[i] = tid === Type.Date && unit === 0 /* DAY */ ? (d.values as Int32Array)[i]!
          : tid === Type.Date ? Math.floor(Number((d.values as BigInt64Array)[i]!) / 86_400_000) : Number(get(i));
        break;
      case 'time': {
        const raw = (d.values as Int32Array | BigInt64Array)[i]!;
        out[i] = Number(toMicros(BigInt(raw), unit));
        break;
      }
      case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns':
        if (tid === Type.Timestamp) out[i] = toMicros((d.values as BigInt64Array)[i]!, unit);
        else if (tid === Type.Date) out[i] = BigInt((d.values as Int32Array)[i]!) * 86_400_000_000n; // v3 date→timestamp promotion
        else throw pgError('XX000', `cannot read Arrow ${String(d.type)} as Iceberg ${t.name}`);
        break;
      case 'decimal':
        out[i] = tid === Type.Decimal ? Numeric.of(decimalUnscaled(d, i), t.scale ?? 0) : Numeric.of(BigInt(get(i) as number | bigint), t.scale ?? 0);
        break;
      case 'string': out[i] = String(get(i)); break;
      case 'uuid': { const v = get(i); out[i] = v instanceof Uint8Array ? uuidFromBytes(v) : String(v).toLowerCase(); break; }
      case 'fixed': case 'binary': case 'geometry': case 'geography': out[i] = Uint8Array.from(get(i) as Uint8Array); break;
      default: throw pgError('0A000', `Iceberg type "${t.name}" is not supported`);
    }
  }
  return out;
}

function offsetsOf(d: Data): (i: number) => number {
  const o = d.valueOffsets as Int32Array | BigInt64Array;
  return (i) => Number(o[i]!);
}

/** JSON-shaped values (Map for objects, JsonNumber for exact numbers) of a chunk, for jsonb. */
function jsonValues(d: Data, t: IcebergType): unknown[] {
  if (t.kind === 'primitive' && t.name === 'variant') return primitiveValues(d, t).map((v) => (v === null ? null : rawJson(v as string)));
  if (t.kind === 'primitive') return primitiveValues(d, t).map((v) => jsonLeaf(t, v));
  const out = new Array<unknown>(d.length);
  if (t.kind === 'list') {
    const child = jsonValues(d.children[0]!, t.element);
    const off = offsetsOf(d);
    for (let i = 0; i < d.length; i++) out[i] = isNull(d, i) ? null : child.slice(off(i), off(i + 1));
    return out;
  }
  if (t.kind === 'map') {
    const entries = d.children[0]!;
    const keys = jsonValues(entries.children[0]!, t.key);
    const vals = jsonValues(entries.children[1]!, t.value);
    const off = offsetsOf(d);
    for (let i = 0; i < d.length; i++) {
      if (isNull(d, i)) { out[i] = null; continue; }
      const m = new Map<string, unknown>();
      for (let j = off(i); j < off(i + 1); j++) {
        const k = keys[j];
        m.set(typeof k === 'string' ? k : jsonText(k), vals[j]);
      }
      out[i] = m;
    }
    return out;
  }
  // struct: children by field id, else by name; a field missing from the file is null
  const arrowFields = (d.type as DataType & { children: Field[] }).children;
  const cols = t.fields.map((f) => {
    let k = arrowFields.findIndex((af) => fieldIdOf(af) === f.id);
    if (k < 0) k = arrowFields.findIndex((af) => af.name === f.name && fieldIdOf(af) === null);
    return k < 0 ? null : jsonValues(d.children[k]!, f.type);
  });
  for (let i = 0; i < d.length; i++) {
    if (isNull(d, i)) { out[i] = null; continue; }
    out[i] = new Map(t.fields.map((f, c) => [f.name, cols[c]?.[i] ?? null]));
  }
  return out;
}

/** One Arrow chunk → JS values of toSqlType(t); `uri` names the file in data errors (malformed variants: XX001). */
export function arrowDataToValues(d: Data, t: IcebergType, uri?: string): unknown[] {
  if (t.kind === 'primitive') return primitiveValues(d, t, uri);
  if (t.kind === 'list' && t.element.kind === 'primitive') {
    const child = primitiveValues(d.children[0]!, t.element);
    const off = offsetsOf(d);
    const elemOid = toSqlType(t.element).oid;
    const out = new Array<unknown>(d.length);
    for (let i = 0; i < d.length; i++) out[i] = isNull(d, i) ? null : pgArray(elemOid, child.slice(off(i), off(i + 1)));
    return out;
  }
  if (t.kind === 'list') {
    const child = jsonValues(d.children[0]!, t.element);
    const off = offsetsOf(d);
    const out = new Array<unknown>(d.length);
    for (let i = 0; i < d.length; i++) {
      out[i] = isNull(d, i) ? null : pgArray(Oid.jsonb, child.slice(off(i), off(i + 1)).map((v) => (v === null ? null : toJsonb(v))));
    }
    return out;
  }
  return jsonValues(d, t).map((v) => (v === null ? null : toJsonb(v)));
}
