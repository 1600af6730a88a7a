/**
 * jsonb → Parquet Variant binary encoding (VariantEncoding.md), so that variant-decode.ts reads the same
 * jsonb back: strings → short string (< 64 bytes) or string; numbers → the smallest of int8/16/32/64 when
 * integral and in range, else decimal4/8/16 with the number's own scale (1.50 keeps scale 2; jsonb numbers
 * are plain numeric text, never exponents); a number needing more than 38 digits cannot be a variant
 * decimal (22003). Objects: one metadata dictionary per value, keys sorted (sorted_strings set), field ids
 * in key order as the spec requires; offsets and ids use the fewest bytes that fit.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { JsonbObject, JsonbValue } from '../../common/pgtypes/json-text.ts';
// the spec orders keys by their UTF-8 bytes = code point order, which is Iceberg's string order
import { compareStrings as compareUtf8 } from '../write/column-metrics.ts';

const enc = new TextEncoder();

/** bytes needed for an unsigned value (1–4) */
function widthOf(n: number): number {
  return n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4;
}

function putUint(out: Uint8Array, at: number, n: number, size: number): void {
  for (let i = 0; i < size; i++) { out[at + i] = n & 0xff; n = Math.floor(n / 256); }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

const isObject = (v: JsonbValue): v is JsonbObject => typeof v === 'object' && v !== null && !Array.isArray(v) && !('num' in v);

function collectKeys(v: JsonbValue, keys: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) collectKeys(x, keys);
  else if (isObject(v)) v.keys.forEach((k, i) => { keys.add(k); collectKeys(v.values[i]!, keys); });
}

function intBytes(n: bigint, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = BigInt.asUintN(size * 8, n);
  for (let i = 0; i < size; i++) { out[i] = Number(x & 0xffn); x >>= 8n; }
  return out;
}

const INT_TYPES: readonly [id: number, bytes: number][] = [[3, 1], [4, 2], [5, 4], [6, 8]];
const DECIMAL_TYPES: readonly [id: number, bytes: number, digits: number][] = [[8, 4, 9], [9, 8, 18], [10, 16, 38]];

/** int8 / int16 / int32 without BigInt (most JSON numbers) */
function smallInt(n: number): Uint8Array {
  if (n >= -128 && n < 128) return Uint8Array.of(3 << 2, n & 0xff);
  if (n >= -32768 && n < 32768) return Uint8Array.of(4 << 2, n & 0xff, (n >> 8) & 0xff);
  return Uint8Array.of(5 << 2, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);
}

function numberValue(text: string): Uint8Array {
  if (text.length <= 10 && /^-?\d+$/.test(text)) {
    const n = Number(text);
    if (n >= -2147483648 && n <= 2147483647) return smallInt(n);
  }
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (m === null) throw pgError(SqlState.numeric_value_out_of_range, `number ${text} cannot be stored in a variant`);
  const frac = m[3] ?? '';
  const unscaled = BigInt(`${m[1]}${m[2]}${frac}`);
  if (frac === '') {
    for (const [id, bytes] of INT_TYPES) {
      const lim = 1n << BigInt(bytes * 8 - 1);
      if (unscaled >= -lim && unscaled < lim) return concat([Uint8Array.of(id << 2), intBytes(unscaled, bytes)]);
    }
  }
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().length;
  for (const [id, bytes, max] of DECIMAL_TYPES) {
    if (digits <= max && frac.length <= 38) return concat([Uint8Array.of(id << 2, frac.length), intBytes(unscaled, bytes)]);
  }
  throw pgError(SqlState.numeric_value_out_of_range, `number ${text.length > 60 ? text.slice(0, 57) + '...' : text} cannot be stored in a variant`, {
    detail: 'Variant decimals hold at most 38 digits.',
  });
}

function stringValue(s: string): Uint8Array {
  const b = enc.encode(s);
  if (b.length < 64) return concat([Uint8Array.of(1 | (b.length << 2)), b]);
  const h = new Uint8Array(5);
  h[0] = 16 << 2;
  putUint(h, 1, b.length, 4);
  return concat([h, b]);
}

/** array or object: header, count, [field ids], offsets, values */
function container(values: readonly Uint8Array[], ids: readonly number[] | null, dictSize: number): Uint8Array {
  const n = values.length;
  let total = 0;
  for (const v of values) total += v.length;
  const offSize = widthOf(total);
  const large = n > 255;
  const countSize = large ? 4 : 1;
  const idSize = ids === null ? 0 : widthOf(Math.max(0, dictSize - 1));
  const headerBits = ids === null
    ? ((large ? 1 : 0) << 2) | (offSize - 1)
    : ((large ? 1 : 0) << 4) | ((idSize - 1) << 2) | (offSize - 1);
  const head = new Uint8Array(1 + countSize + n * idSize + (n + 1) * offSize);
  head[0] = (ids === null ? 3 : 2) | (headerBits << 2);
  putUint(head, 1, n, countSize);
  let at = 1 + countSize;
  if (ids !== null) for (const id of ids) { putUint(head, at, id, idSize); at += idSize; }
  let off = 0;
  for (let i = 0; i <= n; i++) {
    putUint(head, at, off, offSize);
    at += offSize;
    if (i < n) off += values[i]!.length;
  }
  return concat([head, ...values]);
}

function valueBytes(v: JsonbValue, ids: ReadonlyMap<string, number>, dictSize: number): Uint8Array {
  if (v === null) return Uint8Array.of(0);
  if (v === true) return Uint8Array.of(1 << 2);
  if (v === false) return Uint8Array.of(2 << 2);
  if (typeof v === 'string') return stringValue(v);
  if (Array.isArray(v)) return container(v.map((x) => valueBytes(x, ids, dictSize)), null, dictSize);
  if ('num' in v) return numberValue(v.num);
  const order = v.keys.map((_k, i) => i).sort((a, b) => compareUtf8(v.keys[a]!, v.keys[b]!));
  return container(order.map((i) => valueBytes(v.values[i]!, ids, dictSize)), order.map((i) => ids.get(v.keys[i]!)!), dictSize);
}

/** one jsonb value → its variant metadata and value */
export function encodeVariant(v: JsonbValue): { metadata: Uint8Array; value: Uint8Array } {
  const { metadata, values } = encodeVariants([v]);
  return { metadata, value: values[0]! };
}

/**
 * several jsonb values sharing one metadata dictionary (the pieces of one shredded variant: each `value`
 * of a row is decoded with the row's top-level metadata)
 */
export function encodeVariants(vs: readonly JsonbValue[]): { metadata: Uint8Array; values: Uint8Array[] } {
  const keySet = new Set<string>();
  for (const v of vs) collectKeys(v, keySet);
  const keys = [...keySet].sort(compareUtf8);
  const ids = new Map(keys.map((k, i) => [k, i] as const));
  const strings = keys.map((k) => enc.encode(k));
  let bytes = 0;
  for (const s of strings) bytes += s.length;
  const size = widthOf(Math.max(bytes, keys.length));
  const metadata = new Uint8Array(1 + size * (keys.length + 2) + bytes);
  metadata[0] = 1 | (keys.length > 0 ? 1 << 4 : 0) | ((size - 1) << 6);
  putUint(metadata, 1, keys.length, size);
  let off = 0;
  let at = 1 + size;
  for (let i = 0; i <= keys.length; i++) {
    putUint(metadata, at, off, size);
    at += size;
    if (i < keys.length) off += strings[i]!.length;
  }
  for (const s of strings) { metadata.set(s, at); at += s.length; }
  return { metadata, values: vs.map((v) => valueBytes(v, ids, keys.length)) };
}
