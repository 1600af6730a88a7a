/**
 * money arithmetic as PostgreSQL 15's cash.c does it on a 64-bit count of cents (bigint, values.ts): + and - with
 * overflow checks, * and / by integers (C truncating division) and by floats (rint of the float product/quotient),
 * money / money as float8, the numeric and integer conversions, and cash_words. Errors carry cash.c's SQLSTATE and
 * wording ("money out of range" 22003, "division by zero" 22012).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/cash.c
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { Numeric } from './numeric.ts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** FLOAT8_FITS_IN_INT64: [-2^63, 2^63) */
const TWO_63 = 9223372036854775808;

export function moneyOutOfRange(): GatewayError {
  return new GatewayError(SqlState.numeric_value_out_of_range, 'money out of range');
}

export function divisionByZero(): GatewayError {
  return new GatewayError(SqlState.division_by_zero, 'division by zero');
}

function checkCash(v: bigint): bigint {
  if (v < INT64_MIN || v > INT64_MAX) throw moneyOutOfRange();
  return v;
}

/** cash_pl / cash_mi */
export function cashAdd(a: bigint, b: bigint): bigint {
  return checkCash(a + b);
}
export function cashSub(a: bigint, b: bigint): bigint {
  return checkCash(a - b);
}

/** cash_mul_int8 / int4 / int2 (pg_mul_s64_overflow) */
export function cashMulInt(c: bigint, i: number | bigint): bigint {
  return checkCash(c * BigInt(i));
}

/** cash_div_int8 / int4 / int2: C division truncates toward zero, as BigInt's does; INT64_MIN / -1 traps in C */
export function cashDivInt(c: bigint, i: number | bigint): bigint {
  const d = BigInt(i);
  if (d === 0n) throw divisionByZero();
  if (c === INT64_MIN && d === -1n) {
    throw new GatewayError(SqlState.floating_point_exception, 'floating-point exception', {
      detail: 'An invalid floating-point operation was signaled. This probably means an out-of-range result or an invalid operation, such as division by zero.',
    });
  }
  return c / d;
}

/** C rint(): round half to even */
function rint(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function fromFloat(res: number): bigint {
  if (Number.isNaN(res) || res < -TWO_63 || res >= TWO_63) throw moneyOutOfRange();
  return BigInt(rint(res));
}

/** cash_mul_flt8 / flt4: rint(float8_mul(c, f)) — float8_mul's own overflow check first */
export function cashMulFloat(c: bigint, f: number): bigint {
  const cf = Number(c);
  const r = cf * f;
  if (!Number.isFinite(r) && !Number.isNaN(r) && Number.isFinite(f)) {
    throw new GatewayError(SqlState.numeric_value_out_of_range, 'value out of range: overflow');
  }
  return fromFloat(r);
}

/** cash_div_flt8 / flt4: rint(float8_div(c, f)) */
export function cashDivFloat(c: bigint, f: number): bigint {
  if (f === 0) throw divisionByZero();
  return fromFloat(Number(c) / f);
}

/** cash_div_cash: a float8 quotient */
export function cashDivCash(a: bigint, b: bigint): number {
  if (b === 0n) throw divisionByZero();
  return Number(a) / Number(b);
}

/** cash_numeric: cents as numeric with scale 2 */
export function cashToNumeric(c: bigint): Numeric {
  return Numeric.of(c, 2);
}

/** numeric_cash: numeric × 100 rounded by numeric_int8 (half away from zero; "bigint out of range" past int64) */
export function numericToCash(n: Numeric): bigint {
  return n.mul(Numeric.fromBigInt(100n)).toBigInt();
}

/** int4_cash / int8_cash: int8mul(amount, 100) */
export function intToCash(i: number | bigint): bigint {
  const v = BigInt(i) * 100n;
  if (v < INT64_MIN || v > INT64_MAX) throw new GatewayError(SqlState.numeric_value_out_of_range, 'bigint out of range');
  return v;
}

const SMALL = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen',
  'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty',
  'seventy', 'eighty', 'ninety',
];
/** big[k] = small[18 + k]: tens words by their digit */
const big = (k: number): string => SMALL[18 + k]!;

/** num_word: 0..999 in words, with cash.c's "hundred and" for 1..19 after the hundreds */
function numWord(value: number): string {
  const tu = value % 100;
  if (value <= 20) return SMALL[value]!;
  const hundreds = SMALL[Math.floor(value / 100)]!;
  if (tu === 0) return `${hundreds} hundred`;
  let rest: string;
  if (value % 10 === 0 && tu > 10) rest = big(tu / 10);
  else if (tu < 20) rest = value > 99 ? `and ${SMALL[tu]!}` : SMALL[tu]!;
  else rest = `${big(Math.floor(tu / 10))} ${SMALL[tu % 10]!}`;
  return value > 99 ? `${hundreds} hundred ${rest}` : rest;
}

const GROUPS: ReadonlyArray<readonly [bigint, string]> = [
  [100000000000000000n, 'quadrillion'], [100000000000000n, 'trillion'], [100000000000n, 'billion'],
  [100000000n, 'million'], [100000n, 'thousand'],
];

/** cash_words: the amount in English words, capitalized (its spacing quirks included: "One million  dollars") */
export function cashWords(value: bigint): string {
  let buf = '';
  const val = value < 0n ? -value : value; // unsigned in C: -INT64_MIN fits
  if (value < 0n) buf = 'minus ';
  const start = buf.length;
  for (const [scale, name] of GROUPS) {
    const m = Number((val / scale) % 1000n);
    if (m !== 0) buf += `${numWord(m)} ${name} `;
  }
  const m1 = Number((val / 100n) % 1000n);
  if (m1 !== 0) buf += numWord(m1);
  if (buf.length === start) buf += 'zero';
  const cents = Number(val % 100n);
  buf += val / 100n === 1n ? ' dollar and ' : ' dollars and ';
  buf += numWord(cents) + (cents === 1 ? ' cent' : ' cents');
  return buf[0]!.toUpperCase() + buf.slice(1);
}
