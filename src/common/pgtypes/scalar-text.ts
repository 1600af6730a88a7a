/**
 * Text input/output of the simple scalar types: bool, int2/int4/int8, oid, uuid, bytea, "char".
 * Output functions avoid regexes and intermediate allocations: they run once per value on the wire.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/ (bool.c, int.c, int8.c, numutils.c, oid.c, uuid.c, varlena.c)
 */
import { GatewayError, invalidTextRepresentation } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

/** boolin: any prefix of true/false/yes/no, on/off (≥ 2 chars), 1/0; trimmed, case-insensitive. */
export function boolIn(text: string): boolean {
  let i = 0, end = text.length;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  while (end > i && isSpace(text.charCodeAt(end - 1))) end--;
  const len = end - i;
  if (len > 0) {
    const v = text.slice(i, end).toLowerCase();
    switch (v.charCodeAt(0)) {
      case 116: if ('true'.startsWith(v)) return true; break; // t
      case 121: if ('yes'.startsWith(v)) return true; break; // y
      case 102: if ('false'.startsWith(v)) return false; break; // f
      case 110: if ('no'.startsWith(v)) return false; break; // n
      case 111: // o
        if (len >= 2 && 'on'.startsWith(v)) return true;
        if (len >= 2 && 'off'.startsWith(v)) return false;
        break;
      case 49: if (len === 1) return true; break;
      case 48: if (len === 1) return false; break;
    }
  }
  throw invalidTextRepresentation('boolean', text);
}

export function boolOut(v: boolean): string {
  return v ? 't' : 'f';
}

const INT_NAMES = { 2: 'smallint', 4: 'integer' } as const;

/** int2in / int4in (pg_strtoint16/32): optional spaces, sign, decimal digits, optional spaces. */
export function intIn(text: string, bytes: 2 | 4): number {
  const typeName = INT_NAMES[bytes];
  let i = 0;
  const n = text.length;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  let neg = false;
  if (i < n && (text.charCodeAt(i) === 45 || text.charCodeAt(i) === 43)) { neg = text.charCodeAt(i) === 45; i++; }
  let v = 0, digits = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
    digits++;
    i++;
    if (v > 1e10) { // keep going only to validate syntax
      while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      break;
    }
  }
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (digits === 0 || i !== n) throw invalidTextRepresentation(typeName, text);
  if (neg) v = -v;
  const max = bytes === 2 ? 32767 : 2147483647;
  if (v > max || v < -max - 1) {
    throw new GatewayError(SqlState.numeric_value_out_of_range, `value "${text}" is out of range for type ${typeName}`);
  }
  return v === 0 ? 0 : v;
}

const INT8_MIN = -9223372036854775808n, INT8_MAX = 9223372036854775807n;

/** int8in */
export function int8In(text: string): bigint {
  let i = 0, end = text.length;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  while (end > i && isSpace(text.charCodeAt(end - 1))) end--;
  let j = i;
  if (j < end && (text.charCodeAt(j) === 45 || text.charCodeAt(j) === 43)) j++;
  if (j === end) throw invalidTextRepresentation('bigint', text);
  for (let k = j; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) throw invalidTextRepresentation('bigint', text);
  }
  const v = BigInt(text.slice(i, end));
  if (v < INT8_MIN || v > INT8_MAX) {
    throw new GatewayError(SqlState.numeric_value_out_of_range, `value "${text}" is out of range for type bigint`);
  }
  return v;
}

/** oidin: strtoul semantics, so "-1" is 4294967295. */
export function oidIn(text: string): number {
  let v: bigint;
  try {
    v = int8In(text);
  } catch {
    throw invalidTextRepresentation('oid', text);
  }
  if (v < -2147483648n || v > 4294967295n) {
    throw new GatewayError(SqlState.numeric_value_out_of_range, `value "${text}" is out of range for type oid`);
  }
  return v < 0n ? Number(v) + 4294967296 : Number(v);
}

/** uuid_in: 32 hex digits, optional braces, optional hyphen after any group of four digits. */
export function uuidIn(text: string): string {
  let i = 0, end = text.length;
  const braces = text.charCodeAt(0) === 123;
  if (braces) { i = 1; end--; if (text.charCodeAt(end) !== 125) throw invalidTextRepresentation('uuid', text); }
  let out = '';
  let count = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 45 && count > 0 && count % 4 === 0 && i + 1 < end && text.charCodeAt(i - 1) !== 45) { i++; continue; }
    const h = hexVal(c);
    if (h < 0 || count >= 32) throw invalidTextRepresentation('uuid', text);
    out += HEX[h];
    count++;
    if (count === 8 || count === 12 || count === 16 || count === 20) out += '-';
    i++;
  }
  if (count !== 32) throw invalidTextRepresentation('uuid', text);
  return out;
}

const HEX = '0123456789abcdef';
const BYTE_HEX: string[] = [];
for (let b = 0; b < 256; b++) BYTE_HEX.push(HEX[b >> 4]! + HEX[b & 15]!);

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

/** byteaout: hex (\x…) or escape format. */
export function byteaOut(b: Uint8Array, format: 'hex' | 'escape' = 'hex'): string {
  if (format === 'hex') {
    let s = '\\x';
    for (let i = 0; i < b.length; i++) s += BYTE_HEX[b[i]!];
    return s;
  }
  let s = '';
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 92) s += '\\\\';
    else if (c < 0x20 || c > 0x7e) s += '\\' + (c >> 6) + ((c >> 3) & 7) + (c & 7);
    else s += String.fromCharCode(c);
  }
  return s;
}

/** byteain: "\x" hex (whitespace allowed between digit pairs) or the escape format (\\ and \ooo). */
export function byteaIn(text: string): Uint8Array {
  if (text.charCodeAt(0) === 92 && text.charCodeAt(1) === 120) {
    const out = new Uint8Array((text.length - 2) >> 1);
    let n = 0;
    for (let i = 2; i < text.length; ) {
      const c = text.charCodeAt(i);
      if (isSpace(c)) { i++; continue; }
      const hi = hexVal(c);
      if (hi < 0) throw new GatewayError(SqlState.invalid_parameter_value, `invalid hexadecimal digit: "${text[i]}"`);
      if (i + 1 >= text.length) throw new GatewayError(SqlState.invalid_parameter_value, 'invalid hexadecimal data: odd number of digits');
      const lo = hexVal(text.charCodeAt(i + 1));
      if (lo < 0) throw new GatewayError(SqlState.invalid_parameter_value, `invalid hexadecimal digit: "${text[i + 1]}"`);
      out[n++] = (hi << 4) | lo;
      i += 2;
    }
    return out.subarray(0, n);
  }
  const src = new TextEncoder().encode(text);
  const out = new Uint8Array(src.length);
  let n = 0;
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c !== 92) { out[n++] = c; i++; continue; }
    const c1 = src[i + 1];
    if (c1 === 92) { out[n++] = 92; i += 2; continue; }
    const c2 = src[i + 2], c3 = src[i + 3];
    if (c1 !== undefined && c2 !== undefined && c3 !== undefined && c1 >= 48 && c1 <= 51 && c2 >= 48 && c2 <= 55 && c3 >= 48 && c3 <= 55) {
      out[n++] = ((c1 - 48) << 6) | ((c2 - 48) << 3) | (c3 - 48);
      i += 4;
      continue;
    }
    throw new GatewayError(SqlState.invalid_text_representation, 'invalid input syntax for type bytea');
  }
  return out.subarray(0, n);
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
