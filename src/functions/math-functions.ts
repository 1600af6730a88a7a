/**
 * Mathematical functions of PostgreSQL 15 (abs, round, trunc, sqrt, exp, ln, log, power, trig, random,
 * gcd/lcm, width_bucket, factorial, scale ...) for the integer, float8 and numeric overloads, with
 * PostgreSQL's error codes (2201E logarithm, 2201F power/sqrt, 2201G width_bucket, 22003 range).
 * @see https://www.postgresql.org/docs/15/functions-math.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { numericExp, numericLn, numericLog, numericPower, numericSqrt } from '../common/pgtypes/numeric-math.ts';
import { GatewayError, divisionByZero, outOfRange } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { RoutineDef, ScalarFunctionDef } from './registry-types.ts';
import { checkFloat8, checkInt2, checkInt4, checkInt8, floatPower, intArith } from './int-arith.ts';
import { rint } from './casts-numeric.ts';
import { float8Sqrt } from './operators-numeric.ts';
import { compareValues } from './compare-values.ts';
import type { PgArray } from '../common/pgtypes/values.ts';
import { elementTypeOf } from '../common/pgtypes/registry.ts';

const { int2, int4, int8, float4, float8, numeric } = Oid;
type Impl = ScalarFunctionDef['impl'];

function fn(oid: number, name: string, args: number[], returns: number, impl: Impl, volatility: 'i' | 'v' = 'i'): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility, impl };
}

const f = (a: unknown[], i = 0): number => a[i] as number;
const nm = (a: unknown[], i = 0): Numeric => a[i] as Numeric;

function inputOutOfRange(): GatewayError {
  return new GatewayError(SqlState.numeric_value_out_of_range, 'input is out of range');
}

function logError(x: number): void {
  if (x === 0) throw new GatewayError(SqlState.invalid_argument_for_logarithm, 'cannot take logarithm of zero');
  if (x < 0) throw new GatewayError(SqlState.invalid_argument_for_logarithm, 'cannot take logarithm of a negative number');
}

function dexp(x: number): number {
  const r = Math.exp(x);
  return checkFloat8(r, x, 0, x === -Infinity || Number.isNaN(x));
}

/** Trig function with PostgreSQL's domain check ("input is out of range"). */
function trig(g: (x: number) => number, lo = -Infinity, hi = Infinity): Impl {
  return (a) => {
    const x = f(a);
    if (Number.isNaN(x)) return NaN;
    if (x < lo || x > hi) throw inputOutOfRange();
    const r = g(x);
    if (Number.isNaN(r)) throw inputOutOfRange();
    return r;
  };
}

const RAD = Math.PI / 180;
/** sind & co. return exact values at multiples of 30/45 degrees as PostgreSQL does. */
function exactDeg(r: number): number {
  const rounded = Math.round(r * 1e15) / 1e15;
  return [0, 0.5, 1, -0.5, -1].includes(rounded) ? rounded : r;
}

function numericMinScale(n: Numeric): number {
  if (!n.isFinite()) return 0;
  let u = n.unscaled;
  let s = n.scale;
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s--;
  }
  return u === 0n ? 0 : s;
}

function gcdBig(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function intGcd(a: unknown[], lcm: boolean, type: number): number | bigint {
  const x = BigInt(a[0] as number | bigint);
  const y = BigInt(a[1] as number | bigint);
  const g = gcdBig(x, y);
  let r: bigint;
  if (!lcm) r = g;
  else r = x === 0n || y === 0n ? 0n : (x / g) * y;
  if (r < 0n) r = -r;
  if (type === int8) return checkInt8(r);
  if (r > 2147483647n) throw outOfRange('integer');
  return Number(r);
}

function numericGcd(a: Numeric, b: Numeric, lcm: boolean): Numeric {
  if (!a.isFinite() || !b.isFinite()) return Numeric.NaN;
  const s = Math.max(a.scale, b.scale);
  const x = a.round(s).unscaled;
  const y = b.round(s).unscaled;
  const g = gcdBig(x, y);
  if (!lcm) return Numeric.of(g, s);
  if (x === 0n || y === 0n) return Numeric.of(0n, s);
  const l = (x / g) * y;
  return Numeric.of(l < 0n ? -l : l, s);
}

function widthBucket(op: number, lo: number, hi: number, count: number): number {
  if (count <= 0) throw new GatewayError('2201G', 'count must be greater than zero');
  if (Number.isNaN(op) || Number.isNaN(lo) || Number.isNaN(hi)) {
    throw new GatewayError('2201G', 'operand, lower bound, and upper bound cannot be NaN');
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new GatewayError('2201G', 'lower and upper bounds must be finite');
  if (lo === hi) throw new GatewayError('2201G', 'lower bound cannot equal upper bound');
  let r: number;
  if (lo < hi) r = op < lo ? 0 : op >= hi ? count + 1 : Math.floor(((op - lo) / (hi - lo)) * count) + 1;
  else r = op > lo ? 0 : op <= hi ? count + 1 : Math.floor(((lo - op) / (lo - hi)) * count) + 1;
  return checkInt4(r);
}

function widthBucketNumeric(op: Numeric, lo: Numeric, hi: Numeric, count: number): number {
  if (count <= 0) throw new GatewayError('2201G', 'count must be greater than zero');
  if (op.isNaN() || lo.isNaN() || hi.isNaN()) throw new GatewayError('2201G', 'operand, lower bound, and upper bound cannot be NaN');
  if (!lo.isFinite() || !hi.isFinite()) throw new GatewayError('2201G', 'lower and upper bounds must be finite');
  const c = lo.compare(hi);
  if (c === 0) throw new GatewayError('2201G', 'lower bound cannot equal upper bound');
  const cnt = Numeric.of(BigInt(count));
  let r: number;
  if (c < 0) {
    if (op.compare(lo) < 0) r = 0;
    else if (op.compare(hi) >= 0) r = count + 1;
    else r = Number(op.sub(lo).mul(cnt).divTrunc(hi.sub(lo)).unscaled) + 1;
  } else if (op.compare(lo) > 0) r = 0;
  else if (op.compare(hi) <= 0) r = count + 1;
  else r = Number(lo.sub(op).mul(cnt).divTrunc(lo.sub(hi)).unscaled) + 1;
  return checkInt4(r);
}

/** width_bucket(operand, thresholds): how many thresholds are <= operand (binary search). */
function widthBucketArray(op: unknown, a: PgArray, elemType: number): number {
  if (a.dims.length > 1) throw new GatewayError(SqlState.array_subscript_error, 'thresholds must be one-dimensional array');
  if (a.values.some((v) => v === null)) throw new GatewayError(SqlState.null_value_not_allowed, 'thresholds array must not contain NULLs');
  let lo = 0;
  let hi = a.values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareValues(elemType, a.values[mid], op) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function factorial(n: bigint): Numeric {
  if (n < 0n) throw new GatewayError(SqlState.numeric_value_out_of_range, 'factorial of a negative number is undefined');
  if (n > 32177n) throw new GatewayError(SqlState.numeric_value_out_of_range, 'value overflows numeric format');
  let r = 1n;
  for (let i = 2n; i <= n; i++) r *= i;
  return Numeric.of(r);
}

// random()/setseed(): a seedable xorshift128+ (process-wide; PostgreSQL keeps one per session)
let seeded = false;
let s0 = 0n;
let s1 = 0n;
function random(): number {
  if (!seeded) return Math.random();
  let x = s0;
  const y = s1;
  s0 = y;
  x ^= (x << 23n) & 0xffffffffffffffffn;
  s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n);
  return Number((s1 + y) & 0x1fffffffffffffn) / 2 ** 53;
}
function setseed(seed: number): null {
  if (seed < -1 || seed > 1 || Number.isNaN(seed)) {
    throw new GatewayError(SqlState.invalid_parameter_value, `setseed parameter ${seed} is out of allowed range [-1,1]`);
  }
  const bits = BigInt(Math.round((seed + 1) * 2 ** 31));
  s0 = (bits * 0x9e3779b97f4a7c15n + 1n) & 0xffffffffffffffffn;
  s1 = (s0 * 0xbf58476d1ce4e5b9n + 7n) & 0xffffffffffffffffn;
  seeded = true;
  return null;
}

const absInt = (check: (v: number) => number): Impl => (a) => check(Math.abs(f(a)));

export const mathFunctions: readonly RoutineDef[] = [
  fn(1398, 'abs', [int2], int2, absInt(checkInt2)),
  fn(1397, 'abs', [int4], int4, absInt(checkInt4)),
  fn(1396, 'abs', [int8], int8, (a) => checkInt8((a[0] as bigint) < 0n ? -(a[0] as bigint) : (a[0] as bigint))),
  fn(1394, 'abs', [float4], float4, (a) => Math.abs(f(a))),
  fn(1395, 'abs', [float8], float8, (a) => Math.abs(f(a))),
  fn(1705, 'abs', [numeric], numeric, (a) => nm(a).abs()),
  fn(2308, 'ceil', [float8], float8, (a) => Math.ceil(f(a))),
  fn(1711, 'ceil', [numeric], numeric, (a) => nm(a).ceil()),
  fn(2320, 'ceiling', [float8], float8, (a) => Math.ceil(f(a))),
  fn(2167, 'ceiling', [numeric], numeric, (a) => nm(a).ceil()),
  fn(2309, 'floor', [float8], float8, (a) => Math.floor(f(a))),
  fn(1712, 'floor', [numeric], numeric, (a) => nm(a).floor()),
  fn(1342, 'round', [float8], float8, (a) => rint(f(a))),
  fn(1708, 'round', [numeric], numeric, (a) => nm(a).round(0)),
  fn(1707, 'round', [numeric, int4], numeric, (a) => nm(a).round(f(a, 1))),
  fn(1343, 'trunc', [float8], float8, (a) => Math.trunc(f(a))),
  fn(1710, 'trunc', [numeric], numeric, (a) => nm(a).trunc(0)),
  fn(1709, 'trunc', [numeric, int4], numeric, (a) => nm(a).trunc(f(a, 1))),
  fn(2310, 'sign', [float8], float8, (a) => (Number.isNaN(f(a)) ? NaN : Math.sign(f(a)) + 0)),
  fn(1706, 'sign', [numeric], numeric, (a) => nm(a).sign()),
  fn(1344, 'sqrt', [float8], float8, (a) => float8Sqrt(f(a))),
  fn(1730, 'sqrt', [numeric], numeric, (a) => numericSqrt(nm(a))),
  fn(1345, 'cbrt', [float8], float8, (a) => Math.cbrt(f(a))),
  fn(1368, 'power', [float8, float8], float8, (a) => floatPower(f(a), f(a, 1))),
  fn(2169, 'power', [numeric, numeric], numeric, (a) => numericPower(nm(a), nm(a, 1))),
  fn(1346, 'pow', [float8, float8], float8, (a) => floatPower(f(a), f(a, 1))),
  fn(1738, 'pow', [numeric, numeric], numeric, (a) => numericPower(nm(a), nm(a, 1))),
  fn(1347, 'exp', [float8], float8, (a) => dexp(f(a))),
  fn(1732, 'exp', [numeric], numeric, (a) => numericExp(nm(a))),
  fn(1341, 'ln', [float8], float8, (a) => (logError(f(a)), Math.log(f(a)))),
  fn(1734, 'ln', [numeric], numeric, (a) => numericLn(nm(a))),
  fn(1340, 'log', [float8], float8, (a) => (logError(f(a)), Math.log10(f(a)))),
  fn(1741, 'log', [numeric], numeric, (a) => numericLog(Numeric.of(10n), nm(a))),
  fn(1736, 'log', [numeric, numeric], numeric, (a) => numericLog(nm(a), nm(a, 1))),
  fn(1194, 'log10', [float8], float8, (a) => (logError(f(a)), Math.log10(f(a)))),
  fn(1481, 'log10', [numeric], numeric, (a) => numericLog(Numeric.of(10n), nm(a))),
  fn(940, 'mod', [int2, int2], int2, (a) => intArith('%', int2, f(a), f(a, 1))),
  fn(941, 'mod', [int4, int4], int4, (a) => intArith('%', int4, f(a), f(a, 1))),
  fn(947, 'mod', [int8, int8], int8, (a) => intArith('%', int8, a[0] as bigint, a[1] as bigint)),
  fn(1728, 'mod', [numeric, numeric], numeric, (a) => nm(a).mod(nm(a, 1))),
  fn(1973, 'div', [numeric, numeric], numeric, (a) => {
    if (nm(a, 1).isZero()) throw divisionByZero();
    return nm(a).divTrunc(nm(a, 1));
  }),
  fn(1610, 'pi', [], float8, () => Math.PI),
  fn(1608, 'degrees', [float8], float8, (a) => f(a) / RAD),
  fn(1609, 'radians', [float8], float8, (a) => f(a) * RAD),
  fn(1604, 'sin', [float8], float8, trig(Math.sin)),
  fn(1605, 'cos', [float8], float8, trig(Math.cos)),
  fn(1606, 'tan', [float8], float8, trig(Math.tan)),
  fn(1607, 'cot', [float8], float8, trig((x) => 1 / Math.tan(x))),
  fn(1600, 'asin', [float8], float8, trig(Math.asin, -1, 1)),
  fn(1601, 'acos', [float8], float8, trig(Math.acos, -1, 1)),
  fn(1602, 'atan', [float8], float8, trig(Math.atan)),
  fn(1603, 'atan2', [float8, float8], float8, (a) => Math.atan2(f(a), f(a, 1))),
  fn(2735, 'sind', [float8], float8, trig((x) => exactDeg(Math.sin(x * RAD)))),
  fn(2736, 'cosd', [float8], float8, trig((x) => exactDeg(Math.cos(x * RAD)))),
  fn(2737, 'tand', [float8], float8, trig((x) => Math.tan(x * RAD))),
  fn(2731, 'asind', [float8], float8, trig((x) => Math.asin(x) / RAD, -1, 1)),
  fn(2732, 'acosd', [float8], float8, trig((x) => Math.acos(x) / RAD, -1, 1)),
  fn(2733, 'atand', [float8], float8, trig((x) => Math.atan(x) / RAD)),
  fn(2734, 'atan2d', [float8, float8], float8, (a) => Math.atan2(f(a), f(a, 1)) / RAD),
  fn(2462, 'sinh', [float8], float8, (a) => Math.sinh(f(a))),
  fn(2463, 'cosh', [float8], float8, (a) => Math.cosh(f(a))),
  fn(2464, 'tanh', [float8], float8, (a) => Math.tanh(f(a))),
  fn(2465, 'asinh', [float8], float8, (a) => Math.asinh(f(a))),
  fn(2466, 'acosh', [float8], float8, trig(Math.acosh, 1)),
  fn(2467, 'atanh', [float8], float8, trig(Math.atanh, -1, 1)),
  fn(1598, 'random', [], float8, () => random(), 'v'),
  fn(1599, 'setseed', [float8], Oid.void, (a) => setseed(f(a)), 'v'),
  fn(5044, 'gcd', [int4, int4], int4, (a) => intGcd(a, false, int4)),
  fn(5045, 'gcd', [int8, int8], int8, (a) => intGcd(a, false, int8)),
  fn(5048, 'gcd', [numeric, numeric], numeric, (a) => numericGcd(nm(a), nm(a, 1), false)),
  fn(5046, 'lcm', [int4, int4], int4, (a) => intGcd(a, true, int4)),
  fn(5047, 'lcm', [int8, int8], int8, (a) => intGcd(a, true, int8)),
  fn(5049, 'lcm', [numeric, numeric], numeric, (a) => numericGcd(nm(a), nm(a, 1), true)),
  fn(320, 'width_bucket', [float8, float8, float8, int4], int4, (a) => widthBucket(f(a), f(a, 1), f(a, 2), f(a, 3))),
  fn(2170, 'width_bucket', [numeric, numeric, numeric, int4], int4, (a) => widthBucketNumeric(nm(a), nm(a, 1), nm(a, 2), f(a, 3))),
  fn(3218, 'width_bucket', [Oid.anycompatible, Oid.anycompatiblearray], int4, (a, _c, t) => widthBucketArray(a[0], a[1] as PgArray, elementTypeOf(t[1]?.oid ?? 0) || (a[1] as PgArray).elementOid)),
  fn(1376, 'factorial', [int8], numeric, (a) => factorial(a[0] as bigint)),
  fn(3281, 'scale', [numeric], int4, (a) => (nm(a).isFinite() ? nm(a).scale : null)),
  fn(5042, 'min_scale', [numeric], int4, (a) => (nm(a).isFinite() ? numericMinScale(nm(a)) : null)),
  fn(5043, 'trim_scale', [numeric], numeric, (a) => (nm(a).isFinite() ? nm(a).trunc(numericMinScale(nm(a))) : nm(a))),
];
