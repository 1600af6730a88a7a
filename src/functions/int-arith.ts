/**
 * Checked integer and float arithmetic with PostgreSQL's overflow rules (int.c, int8.c, float.h):
 * int2/int4 are JS numbers, int8 is bigint; every result is range-checked into its result type.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/include/utils/float.h
 */
import { GatewayError, divisionByZero, outOfRange } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid } from '../common/pgtypes/oids.ts';

const INT2_MIN = -32768;
const INT2_MAX = 32767;
const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;
const INT8_MIN = -9223372036854775808n;
const INT8_MAX = 9223372036854775807n;

export function checkInt2(v: number): number {
  if (v < INT2_MIN || v > INT2_MAX || Number.isNaN(v)) throw outOfRange('smallint');
  return v === 0 ? 0 : v;
}

export function checkInt4(v: number): number {
  if (v < INT4_MIN || v > INT4_MAX || Number.isNaN(v)) throw outOfRange('integer');
  return v === 0 ? 0 : v;
}

export function checkInt8(v: bigint): bigint {
  if (v < INT8_MIN || v > INT8_MAX) throw outOfRange('bigint');
  return v;
}

export function floatOverflow(): GatewayError {
  return new GatewayError(SqlState.numeric_value_out_of_range, 'value out of range: overflow');
}

export function floatUnderflow(): GatewayError {
  return new GatewayError(SqlState.numeric_value_out_of_range, 'value out of range: underflow');
}

/** float8 result check (float_overflow_error / float_underflow_error as float.h's check_float8_val). */
export function checkFloat8(r: number, a: number, b: number, zeroOk: boolean): number {
  if (!Number.isFinite(r) && !Number.isNaN(r) && Number.isFinite(a) && Number.isFinite(b)) throw floatOverflow();
  if (r === 0 && !zeroOk) throw floatUnderflow();
  return r;
}

/** float4 result: rounded to single precision, then checked the same way. */
export function checkFloat4(r: number, a: number, b: number, zeroOk: boolean): number {
  const f = Math.fround(r);
  if (!Number.isFinite(f) && !Number.isNaN(f) && Number.isFinite(a) && Number.isFinite(b)) throw floatOverflow();
  if (f === 0 && !zeroOk) throw floatUnderflow();
  return f;
}

export type ArithOp = '+' | '-' | '*' | '/' | '%';

/** One integer operation computed in the result type `result` (int2, int4 or int8). */
export function intArith(op: ArithOp, result: number, a: number | bigint, b: number | bigint): number | bigint {
  if (result === Oid.int8) {
    const x = BigInt(a);
    const y = BigInt(b);
    switch (op) {
      case '+': return checkInt8(x + y);
      case '-': return checkInt8(x - y);
      case '*': return checkInt8(x * y);
      case '/':
        if (y === 0n) throw divisionByZero();
        return checkInt8(x / y);
      case '%':
        if (y === 0n) throw divisionByZero();
        return y === -1n ? 0n : x % y;
    }
  }
  const x = Number(a);
  const y = Number(b);
  const check = result === Oid.int2 ? checkInt2 : checkInt4;
  switch (op) {
    case '+': return check(x + y);
    case '-': return check(x - y);
    case '*': return check(x * y);
    case '/':
      if (y === 0) throw divisionByZero();
      return check(Math.trunc(x / y));
    case '%':
      if (y === 0) throw divisionByZero();
      return y === -1 ? 0 : (x % y) + 0;
  }
}

/** One float operation in float4 or float8 (float.h float8_pl ... float8_div). */
export function floatArith(op: Exclude<ArithOp, '%'>, result: number, a: number, b: number): number {
  const check = result === Oid.float4 ? checkFloat4 : checkFloat8;
  switch (op) {
    case '+': return check(a + b, a, b, true);
    case '-': return check(a - b, a, b, true);
    case '*': return check(a * b, a, b, a === 0 || b === 0);
    case '/':
      if (b === 0 && !Number.isNaN(a)) throw divisionByZero();
      return check(a / b, a, b, a === 0 || !Number.isFinite(b));
  }
}

/** dpow: POSIX pow() semantics plus PostgreSQL's 2201F errors. */
export function floatPower(x: number, y: number): number {
  if (Number.isNaN(x)) return y === 0 ? 1 : NaN;
  if (Number.isNaN(y)) return x === 1 ? 1 : NaN;
  if (x === 0 && y < 0) {
    throw new GatewayError(SqlState.invalid_argument_for_power_function, 'zero raised to a negative power is undefined');
  }
  if (x < 0 && Number.isFinite(x) && Number.isFinite(y) && !Number.isInteger(y)) {
    throw new GatewayError(SqlState.invalid_argument_for_power_function, 'a negative number raised to a non-integer power yields a complex result');
  }
  if (!Number.isFinite(y) && Math.abs(x) === 1) return 1;
  const r = Math.pow(x, y);
  if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y)) throw floatOverflow();
  if (r === 0 && x !== 0 && Number.isFinite(x) && Number.isFinite(y)) throw floatUnderflow();
  return r;
}
