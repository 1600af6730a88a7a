/**
 * The bit string operations of PostgreSQL 15's varbit.c on lakegate's bit / varbit values (strings of '0' / '1',
 * values.ts): length coercions (bit(n) pads or truncates only when explicit), bitwise operators, shifts, substring /
 * overlay / position, get_bit / set_bit, and the int4 / int8 conversions. Errors carry varbit.c's SQLSTATE and wording.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/varbit.c
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

/** VARBITMAXLEN: the largest typmod bit(n) / bit varying(n) accepts */
export const VARBIT_MAX_LEN = 83886080;

/** bit(bit, int4, bool): the length coercion of bit(n); only an explicit cast pads with zeros or truncates */
export function bitLengthCoerce(bits: string, typmod: number, explicit: boolean): string {
  if (typmod <= 0 || typmod > VARBIT_MAX_LEN || bits.length === typmod) return bits;
  if (!explicit) {
    throw new GatewayError(SqlState.string_data_length_mismatch, `bit string length ${bits.length} does not match type bit(${typmod})`);
  }
  return bits.length > typmod ? bits.slice(0, typmod) : bits + '0'.repeat(typmod - bits.length);
}

/** varbit(varbit, int4, bool): bit varying(n) truncates on an explicit cast, refuses a longer value otherwise */
export function varbitLengthCoerce(bits: string, typmod: number, explicit: boolean): string {
  if (typmod <= 0 || bits.length <= typmod) return bits;
  if (!explicit) throw new GatewayError(SqlState.string_data_right_truncation, `bit string too long for type bit varying(${typmod})`);
  return bits.slice(0, typmod);
}

const OP_NAMES = { '&': 'AND', '|': 'OR', '#': 'XOR' } as const;

/** bit_and / bit_or / bitxor: both operands must have the same length */
export function bitBitwise(op: '&' | '|' | '#', a: string, b: string): string {
  if (a.length !== b.length) {
    throw new GatewayError(SqlState.string_data_length_mismatch, `cannot ${OP_NAMES[op]} bit strings of different sizes`);
  }
  let out = '';
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i) === 49;
    const y = b.charCodeAt(i) === 49;
    out += (op === '&' ? x && y : op === '|' ? x || y : x !== y) ? '1' : '0';
  }
  return out;
}

/** bitnot */
export function bitNot(a: string): string {
  let out = '';
  for (let i = 0; i < a.length; i++) out += a.charCodeAt(i) === 49 ? '0' : '1';
  return out;
}

/** bitshiftleft (a negative count shifts right); the length stays the same */
export function bitShiftLeft(a: string, n: number): string {
  if (n < 0) return bitShiftRight(a, -Math.max(n, -VARBIT_MAX_LEN));
  if (n >= a.length) return '0'.repeat(a.length);
  return a.slice(n) + '0'.repeat(n);
}

/** bitshiftright (a negative count shifts left) */
export function bitShiftRight(a: string, n: number): string {
  if (n < 0) return bitShiftLeft(a, -Math.max(n, -VARBIT_MAX_LEN));
  if (n >= a.length) return '0'.repeat(a.length);
  return '0'.repeat(n) + a.slice(0, a.length - n);
}

function negativeLength(): GatewayError {
  return new GatewayError('22011', // substring_error
    'negative substring length not allowed');
}

/** bitsubstring: SQL substring semantics (start before 1 shortens the result); `length` undefined runs to the end */
export function bitSubstring(a: string, start: number, length?: number): string {
  const s1 = Math.max(start, 1);
  let e1: number;
  if (length === undefined) e1 = a.length + 1;
  else if (length < 0) throw negativeLength();
  else e1 = Math.min(start + length, a.length + 1); // JS numbers: no int32 overflow to guard
  if (s1 > a.length || e1 <= s1) return '';
  return a.slice(s1 - 1, e1 - 1);
}

/** bitoverlay / bitoverlay_no_len (`length` defaults to the placed string's length) */
export function bitOverlay(a: string, placing: string, start: number, length = placing.length): string {
  if (start <= 0) throw negativeLength();
  const end = start + length;
  if (end > 2147483647 || end < -2147483648) throw new GatewayError(SqlState.numeric_value_out_of_range, 'integer out of range');
  return bitSubstring(a, 1, start - 1) + placing + bitSubstring(a, end);
}

/** bitposition: 1-based position of `sub` in `a`, 0 when absent; an empty `sub` is at 1 unless `a` is empty */
export function bitPosition(a: string, sub: string): number {
  if (a.length === 0 || sub.length > a.length) return 0;
  return a.indexOf(sub) + 1;
}

function checkIndex(a: string, n: number): void {
  if (n < 0 || n >= a.length) {
    throw new GatewayError(SqlState.array_subscript_error, `bit index ${n} out of valid range (0..${a.length - 1})`);
  }
}

/** bitgetbit */
export function bitGetBit(a: string, n: number): number {
  checkIndex(a, n);
  return a.charCodeAt(n) === 49 ? 1 : 0;
}

/** bitsetbit */
export function bitSetBit(a: string, n: number, value: number): string {
  checkIndex(a, n);
  if (value !== 0 && value !== 1) throw new GatewayError(SqlState.invalid_parameter_value, 'new bit must be 0 or 1');
  return a.slice(0, n) + (value === 1 ? '1' : '0') + a.slice(n + 1);
}

/** bit_bit_count */
export function bitCount(a: string): bigint {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) === 49) n++;
  return BigInt(n);
}

/**
 * bitfromint4 / bitfromint8: the low `typmod` bits of the two's complement value (`width` 32 or 64), the sign bit
 * repeated when bit(n) is wider; a missing typmod means bit(1)
 */
export function bitFromInt(value: number | bigint, width: 32 | 64, typmod: number): string {
  const len = typmod <= 0 || typmod > VARBIT_MAX_LEN ? 1 : typmod;
  const v = BigInt.asUintN(width, BigInt(value));
  const sign = v >> BigInt(width - 1) === 1n ? '1' : '0';
  const own = v.toString(2).padStart(width, '0');
  return len > width ? sign.repeat(len - width) + own : own.slice(width - len);
}

/** bittoint4 / bittoint8: the bits as an unsigned number wrapped to the signed width; more bits than fit is 22003 */
export function bitToInt(a: string, width: 32 | 64): number | bigint {
  if (a.length > width) {
    throw new GatewayError(SqlState.numeric_value_out_of_range, width === 32 ? 'integer out of range' : 'bigint out of range');
  }
  const v = a.length === 0 ? 0n : BigInt.asIntN(width, BigInt('0b' + a));
  return width === 32 ? Number(v) : v;
}
