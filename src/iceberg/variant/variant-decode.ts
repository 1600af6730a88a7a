/**
 * Parquet Variant binary encoding (metadata + value, VariantEncoding.md) → JSON text, which the caller
 * normalizes as jsonb (jsonbIn: keys by length then bytewise, numbers re-printed as numeric).
 *
 * Primitives map the way PostgreSQL prints the nearest SQL type cast to jsonb (to_jsonb), with TimeZone UTC:
 * int8/16/32/64 and decimal4/8/16 → exact JSON numbers (a decimal keeps its scale: 1.50), double / float →
 * numbers in float8out / float4out digits (NaN and ±Infinity → strings "NaN", "Infinity"), date →
 * "2024-01-02", timestamp → "2024-01-02T03:04:05.123456", timestamptz → "…+00:00", time → "03:04:05.123456",
 * the nanosecond timestamps likewise with all nine digits kept (trailing zeros dropped as PostgreSQL does
 * for µs), binary → "\\x0102" (bytea's hex form), uuid → "f24f9b64-…", strings, booleans and null as such.
 *
 * Malformed bytes throw VariantFormatError (the column reader turns it into XX001 naming the file).
 */
import { float4Out, float8Out } from '../../common/pgtypes/float-text.ts';
import { dateOut, timeOut, timestampOut } from '../../common/pgtypes/datetime-text.ts';
import { escapeJson } from '../../common/pgtypes/json-text.ts';
import { uuidFromBytes } from '../spec/types.ts';

export class VariantFormatError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** unsigned little-endian integer of `size` (1–4) bytes */
function uintLE(b: Uint8Array, at: number, size: number): number {
  if (at + size > b.length) throw new VariantFormatError(`truncated variant (${size}-byte field at byte ${at} of ${b.length})`);
  let n = 0;
  for (let i = size - 1; i >= 0; i--) n = n * 256 + b[at + i]!;
  return n;
}

function text(b: Uint8Array, from: number, to: number): string {
  if (to > b.length || from > to) throw new VariantFormatError(`truncated variant string (bytes ${from}..${to} of ${b.length})`);
  try {
    return utf8.decode(b.subarray(from, to));
  } catch {
    throw new VariantFormatError('variant string is not valid UTF-8');
  }
}

/** the metadata dictionary (§ Metadata encoding) */
export function variantDictionary(metadata: Uint8Array): string[] {
  if (metadata.length === 0) throw new VariantFormatError('empty variant metadata');
  const header = metadata[0]!;
  if ((header & 0x0f) !== 1) throw new VariantFormatError(`unsupported variant metadata version ${header & 0x0f}`);
  const size = ((header >> 6) & 3) + 1;
  const n = uintLE(metadata, 1, size);
  const offsAt = 1 + size;
  const bytesAt = offsAt + (n + 1) * size;
  if (bytesAt > metadata.length) throw new VariantFormatError(`variant metadata too short for ${n} dictionary strings`);
  const out = new Array<string>(n);
  let prev = uintLE(metadata, offsAt, size);
  for (let i = 0; i < n; i++) {
    const next = uintLE(metadata, offsAt + (i + 1) * size, size);
    out[i] = text(metadata, bytesAt + prev, bytesAt + next);
    prev = next;
  }
  return out;
}

const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

function need(b: Uint8Array, at: number, n: number): void {
  if (at + n > b.length) throw new VariantFormatError(`truncated variant value (${n} bytes at byte ${at} of ${b.length})`);
}

/** two's complement little-endian integer of `n` bytes */
function intLE(b: Uint8Array, at: number, n: number): bigint {
  need(b, at, n);
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[at + i]!);
  if (b[at + n - 1]! & 0x80) v -= 1n << BigInt(n * 8);
  return v;
}

/** unscaled × 10^-scale as numeric text */
export function decimalText(unscaled: bigint, scale: number): string {
  if (scale < 0 || scale > 38) throw new VariantFormatError(`variant decimal scale ${scale} out of range`);
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }
  return neg ? `-${digits}` : digits;
}

/** "2024-01-02T03:04:05.123456789": µs text with nanosecond digits appended (trailing zeros trimmed) */
function nanosTimestampText(ns: bigint): string {
  const us = ns >= 0n ? ns / 1000n : -((-ns + 999n) / 1000n);
  const extra = Number(ns - us * 1000n);
  let t = timestampOut(us).replace(' ', 'T');
  if (extra === 0) return t;
  const dot = t.indexOf('.', t.indexOf('T'));
  const frac = (dot < 0 ? '000000' : t.slice(dot + 1).padEnd(6, '0')) + String(extra).padStart(3, '0');
  t = (dot < 0 ? t : t.slice(0, dot)) + '.' + frac.replace(/0+$/, '');
  return t;
}

const floatText = (x: number, out: (x: number) => string): string => (Number.isFinite(x) ? out(x) : `"${out(x)}"`);

/** one primitive (§ Variant primitive types) at `at` (after the header byte): JSON text */
function primitive(b: Uint8Array, id: number, at: number): string {
  switch (id) {
    case 0: return 'null';
    case 1: return 'true';
    case 2: return 'false';
    case 3: return String(intLE(b, at, 1));
    case 4: return String(intLE(b, at, 2));
    case 5: return String(intLE(b, at, 4));
    case 6: return String(intLE(b, at, 8));
    case 7: need(b, at, 8); return floatText(dv(b).getFloat64(at, true), float8Out);
    case 8: case 9: case 10: {
      need(b, at, 1);
      return decimalText(intLE(b, at + 1, id === 8 ? 4 : id === 9 ? 8 : 16), b[at]!);
    }
    case 11: need(b, at, 4); return `"${dateOut(dv(b).getInt32(at, true))}"`;
    case 12: need(b, at, 8); return `"${timestampOut(dv(b).getBigInt64(at, true)).replace(' ', 'T')}+00:00"`;
    case 13: need(b, at, 8); return `"${timestampOut(dv(b).getBigInt64(at, true)).replace(' ', 'T')}"`;
    case 14: need(b, at, 4); return floatText(dv(b).getFloat32(at, true), float4Out);
    case 15: {
      const n = uintLE(b, at, 4);
      need(b, at + 4, n);
      return `"\\\\x${Buffer.from(b.buffer, b.byteOffset + at + 4, n).toString('hex')}"`;
    }
    case 16: {
      const n = uintLE(b, at, 4);
      return escapeJson(text(b, at + 4, at + 4 + n));
    }
    case 17: need(b, at, 8); return `"${timeOut(Number(dv(b).getBigInt64(at, true)))}"`;
    case 18: need(b, at, 8); return `"${nanosTimestampText(dv(b).getBigInt64(at, true))}+00:00"`;
    case 19: need(b, at, 8); return `"${nanosTimestampText(dv(b).getBigInt64(at, true))}"`;
    case 20: need(b, at, 16); return `"${uuidFromBytes(b.subarray(at, at + 16))}"`;
    default: throw new VariantFormatError(`unknown variant primitive type ${id}`);
  }
}

/** the value starting at `at` → JSON text; `depth` guards against hostile nesting */
function valueText(b: Uint8Array, at: number, dict: readonly string[], depth: number): string {
  need(b, at, 1);
  if (depth > 1000) throw new VariantFormatError('variant nested too deeply');
  const h = b[at]!;
  const basic = h & 3;
  const header = h >> 2;
  if (basic === 0) return primitive(b, header, at + 1);
  if (basic === 1) return escapeJson(text(b, at + 1, at + 1 + header));
  const isObject = basic === 2;
  const offSize = (header & 3) + 1;
  const idSize = ((header >> 2) & 3) + 1;
  const large = isObject ? (header >> 4) & 1 : (header >> 2) & 1;
  const countSize = large ? 4 : 1;
  const n = uintLE(b, at + 1, countSize);
  const idsAt = at + 1 + countSize;
  const offsAt = idsAt + (isObject ? n * idSize : 0);
  const dataAt = offsAt + (n + 1) * offSize;
  const kind = isObject ? 'object' : 'array';
  if (dataAt > b.length) throw new VariantFormatError(`variant ${kind} of ${n} elements runs past the value (header needs ${dataAt} of ${b.length} bytes)`);
  const end = dataAt + uintLE(b, offsAt + n * offSize, offSize);
  if (end > b.length) throw new VariantFormatError(`variant ${kind} runs past the value (${end} > ${b.length} bytes)`);
  const parts: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const off = uintLE(b, offsAt + i * offSize, offSize);
    if (dataAt + off >= end) throw new VariantFormatError(`variant field offset ${off} out of range`);
    const v = valueText(b.subarray(0, end), dataAt + off, dict, depth + 1);
    if (!isObject) { parts[i] = v; continue; }
    const id = uintLE(b, idsAt + i * idSize, idSize);
    const key = dict[id];
    if (key === undefined) throw new VariantFormatError(`variant field id ${id} not in the metadata dictionary (${dict.length} strings)`);
    parts[i] = `${escapeJson(key)}:${v}`;
  }
  return isObject ? `{${parts.join(',')}}` : `[${parts.join(',')}]`;
}

/** a variant (metadata, value) → JSON text (not yet jsonb-normalized) */
export function variantToJson(metadata: Uint8Array, value: Uint8Array): string {
  return valueText(value, 0, variantDictionary(metadata), 0);
}

/** the dictionary of one metadata buffer, reused while consecutive rows share identical metadata bytes */
export class DictionaryCache {
  private last: Uint8Array | null = null;
  private dict: string[] = [];

  get(metadata: Uint8Array): string[] {
    const l = this.last;
    if (l !== null && l.length === metadata.length && Buffer.compare(l, metadata) === 0) return this.dict;
    this.dict = variantDictionary(metadata);
    this.last = metadata;
    return this.dict;
  }
}

/** like variantToJson with a dictionary already decoded */
export function variantValueToJson(value: Uint8Array, dict: readonly string[]): string {
  return valueText(value, 0, dict, 0);
}

/**
 * The fields of a variant object as (key, JSON text) pairs, or null when the value is not an object (a
 * partially shredded object's `value` holds the fields its `typed_value` does not)
 */
export function variantObjectEntries(value: Uint8Array, dict: readonly string[]): [string, string][] | null {
  need(value, 0, 1);
  if ((value[0]! & 3) !== 2) return null;
  valueText(value, 0, dict, 0); // checks the whole object (bounds, dictionary ids) before it is split
  const h = value[0]! >> 2;
  const offSize = (h & 3) + 1;
  const idSize = ((h >> 2) & 3) + 1;
  const countSize = (h >> 4) & 1 ? 4 : 1;
  const n = uintLE(value, 1, countSize);
  const idsAt = 1 + countSize;
  const offsAt = idsAt + n * idSize;
  const dataAt = offsAt + (n + 1) * offSize;
  const end = dataAt + uintLE(value, offsAt + n * offSize, offSize);
  const out: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const key = dict[uintLE(value, idsAt + i * idSize, idSize)]!;
    out.push([key, valueText(value.subarray(0, end), dataAt + uintLE(value, offsAt + i * offSize, offSize), dict, 1)]);
  }
  return out;
}
