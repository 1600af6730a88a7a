/**
 * sqrt, exp, ln, log and power over Numeric with numeric.c's result scales. Values are computed in bigint
 * fixed point with guard digits and then rounded half away from zero, so results match PostgreSQL's except,
 * in theory, when the exact value sits within 10^-(guard) of a rounding boundary.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/numeric.c (numeric_sqrt, numeric_exp, numeric_ln, numeric_power)
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { Numeric, decimalWeight, divRound, nbaseLead, pow10 } from './numeric.ts';

const MIN_SIG = 16;
const MAX_SCALE = 1000;
const GUARD = 12;

function clampScale(r: number): number {
  return Math.min(Math.max(r, 0), MAX_SCALE);
}

function err(code: string, msg: string): GatewayError {
  return new GatewayError(code, msg);
}

/** floor(sqrt(n)) for n ≥ 0: Newton's iteration from an estimate above the root. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = upperEstimate(n);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

function upperEstimate(n: bigint): bigint {
  const d = Number(n);
  if (d < 1e300) return BigInt(Math.ceil(Math.sqrt(d) * (1 + 1e-12))) + 1n;
  const shift = BigInt((n.toString(16).length - 200) * 4); // even, leaves ~800 bits
  return (upperEstimate(n >> shift) + 1n) << (shift / 2n);
}

/** numeric_sqrt: rscale = 16 - (weight+1)*4/2 + 1, at least the argument's dscale. */
export function numericSqrt(x: Numeric): Numeric {
  if (x.isNaN()) return x;
  if (x.signum() < 0) throw err(SqlState.invalid_argument_for_power_function, 'cannot take square root of a negative number');
  if (x.isInfinite()) return x;
  const { weight } = nbaseLead(x);
  const sweight = Math.trunc(((weight + 1) * 4) / 2) - 1;
  const rscale = clampScale(Math.max(MIN_SIG - sweight, x.scale));
  // sqrt(u·10^-s) at scale r+1 = isqrt(u·10^(2(r+1)-s)); the extra digit decides rounding.
  const e = 2 * (rscale + 1) - x.scale;
  const n = e >= 0 ? x.unscaled * pow10(e) : x.unscaled / pow10(-e);
  const r = isqrt(n);
  return Numeric.of(divRound(r, 10n), rscale);
}

/** ln(x) as a fixed-point bigint at scale w (x finite, > 0). */
function lnFixed(x: Numeric, w: number): bigint {
  const k = decimalWeight(x); // x = m · 10^k, 1 ≤ m < 10
  const wg = w + GUARD + 4;
  const m = toFixed(x, wg, -k);
  const lnm = lnMantissa(m, wg);
  const result = k === 0 ? lnm : lnm + BigInt(k) * ln10(wg);
  return divRound(result, pow10(wg - w));
}

const ln10Cache = new Map<number, bigint>();
function ln10(w: number): bigint {
  let v = ln10Cache.get(w);
  if (v === undefined) {
    v = lnMantissa(10n * pow10(w), w);
    ln10Cache.set(w, v);
  }
  return v;
}

/** ln(m) for m at fixed scale w, 0 < m ≤ ~10: square roots bring m near 1, then the atanh series. */
function lnMantissa(m: bigint, w: number): bigint {
  const one = pow10(w);
  const nearLow = one - one / 100n, nearHigh = one + one / 100n;
  let halvings = 0;
  while (m > nearHigh || m < nearLow) {
    m = isqrt(m * one);
    halvings++;
  }
  // ln m = 2 atanh(z), z = (m-1)/(m+1)
  const z = ((m - one) * one) / (m + one);
  const z2 = (z * z) / one;
  let term = z, sum = 0n, k = 1n;
  while (term !== 0n) {
    sum += term / k;
    term = (term * z2) / one;
    k += 2n;
  }
  return (2n * sum) << BigInt(halvings);
}

/** x · 10^shift at fixed scale w, truncated. */
function toFixed(x: Numeric, w: number, shift = 0): bigint {
  const e = w + shift - x.scale;
  return e >= 0 ? x.unscaled * pow10(e) : x.unscaled / pow10(-e);
}

/** exp(t) for t a fixed-point bigint at scale w; result at scale w. */
function expFixed(t: bigint, w: number): bigint {
  const one = pow10(w);
  const neg = t < 0n;
  if (neg) t = -t;
  let k = 0;
  const limit = one / 1000n;
  while (t > limit) { t >>= 1n; k++; }
  // Taylor series for small t
  let sum = one, term = one, i = 1n;
  for (;;) {
    term = (term * t) / (one * i);
    if (term === 0n) break;
    sum += term;
    i++;
  }
  for (let j = 0; j < k; j++) sum = (sum * sum) / one;
  return neg ? (one * one) / sum : sum;
}

/** estimate_ln_dweight */
function estimateLnDweight(x: Numeric): number {
  if (x.signum() <= 0) return 0;
  if (x.compare(Numeric.parse('0.9')) >= 0 && x.compare(Numeric.parse('1.1')) <= 0) {
    const d = x.sub(Numeric.ONE);
    return d.isZero() ? 0 : decimalWeight(d);
  }
  const s = (x.unscaled < 0n ? -x.unscaled : x.unscaled).toString();
  const { weight } = nbaseLead(x);
  const e = s.length - 1 - x.scale;
  // first one or two base-10000 digits, as a double
  const firstLen = e - 4 * weight + 1;
  let digits = Number(s.slice(0, firstLen).padEnd(firstLen, '0'));
  let dweight = weight * 4;
  if (s.length > firstLen && s.slice(firstLen).replace(/0+$/, '').length > 0) {
    digits = digits * 10000 + Number(s.slice(firstLen, firstLen + 4).padEnd(4, '0'));
    dweight -= 4;
  }
  const lnVar = Math.log(digits) + dweight * 2.302585092994046;
  return Math.trunc(Math.log10(Math.abs(lnVar)));
}

function checkLnArg(x: Numeric): void {
  const s = x.signum();
  if (s === 0) throw err(SqlState.invalid_argument_for_logarithm, 'cannot take logarithm of zero');
  if (s < 0) throw err(SqlState.invalid_argument_for_logarithm, 'cannot take logarithm of a negative number');
}

/** numeric_ln */
export function numericLn(x: Numeric): Numeric {
  if (x.isNaN()) return x;
  if (x.isInfinite()) {
    if (x.signum() < 0) throw err(SqlState.invalid_argument_for_logarithm, 'cannot take logarithm of a negative number');
    return x;
  }
  checkLnArg(x);
  const rscale = clampScale(Math.max(MIN_SIG - estimateLnDweight(x), x.scale));
  return Numeric.of(lnFixed(x, rscale), rscale);
}

/** numeric_log(base, x) = ln(x) / ln(base) */
export function numericLog(base: Numeric, x: Numeric): Numeric {
  if (base.isNaN() || x.isNaN()) return Numeric.NaN;
  if (!base.isFinite() || !x.isFinite()) {
    if (base.signum() < 0 || x.signum() < 0) throw err(SqlState.invalid_argument_for_logarithm, 'cannot take logarithm of a negative number');
    if (base.isZero() || x.isZero()) throw err(SqlState.invalid_argument_for_logarithm, 'cannot take logarithm of zero');
    if (base.isInfinite()) return x.isInfinite() ? Numeric.NaN : Numeric.ZERO;
    return x; // log(finite base, +Infinity)
  }
  checkLnArg(base);
  checkLnArg(x);
  if (base.equals(Numeric.ONE)) throw new GatewayError(SqlState.division_by_zero, 'division by zero');
  const rdw = estimateLnDweight(x) - estimateLnDweight(base);
  const rscale = clampScale(Math.max(MIN_SIG - rdw, base.scale, x.scale));
  const w = rscale + GUARD + Math.max(0, rdw) + 8;
  const lnx = lnFixed(x, w), lnb = lnFixed(base, w);
  return Numeric.of(divRound(lnx * pow10(rscale), lnb), rscale);
}

/** numeric_exp: rscale = 16 - (int)(x · log10 e), at least x's dscale. */
export function numericExp(x: Numeric): Numeric {
  if (x.isNaN()) return x;
  if (x.isInfinite()) return x.signum() > 0 ? x : Numeric.ZERO;
  let val = x.toNumber() * 0.434294481903252;
  val = Math.max(Math.min(val, 2000), -2000);
  if (val > 131072) throw err(SqlState.numeric_value_out_of_range, 'value overflows numeric format');
  const rscale = clampScale(Math.max(MIN_SIG - Math.trunc(val), x.scale));
  return expToScale(x, rscale, Math.abs(val));
}

function expToScale(x: Numeric, rscale: number, absDweight: number): Numeric {
  const w = rscale + GUARD + Math.ceil(absDweight) + 10;
  const r = expFixed(toFixed(x, w), w);
  return Numeric.of(divRound(r, pow10(w - rscale)), rscale);
}

/** numeric_power with PostgreSQL's special cases and result scales. */
export function numericPower(base: Numeric, exp: Numeric): Numeric {
  if (base.isNaN()) return exp.isZero() ? Numeric.ONE : base;
  if (exp.isNaN()) return base.equals(Numeric.ONE) ? Numeric.ONE : exp;
  if (base.isZero() && exp.signum() < 0) {
    throw err(SqlState.invalid_argument_for_power_function, 'zero raised to a negative power is undefined');
  }
  const expIsInt = exp.isFinite() && exp.trunc(0).equals(exp);
  if (base.signum() < 0 && exp.isFinite() && !expIsInt) {
    throw err(SqlState.invalid_argument_for_power_function, 'a negative number raised to a non-integer power yields a complex result');
  }
  if (!base.isFinite() || !exp.isFinite()) return powerSpecial(base, exp, expIsInt);
  if (expIsInt) {
    const n = exp.round(0).unscaled;
    if (n >= -2147483648n && n <= 2147483647n) return powerInt(base, Number(n));
  }
  const rscaleBase = Math.max(base.scale, exp.scale);
  if (base.isZero()) return Numeric.of(0n, clampScale(Math.max(MIN_SIG, rscaleBase)));
  // weight estimate from a low-precision exp·ln(base)
  const approx = Number(exp.toString()) * Math.log(Number(base.toString()));
  const val = approx * 0.434294481903252;
  if (val > 131072) throw err(SqlState.numeric_value_out_of_range, 'value overflows numeric format');
  const rscale = clampScale(Math.max(MIN_SIG - Math.trunc(val), rscaleBase));
  const w = rscale + GUARD + Math.ceil(Math.abs(val)) + 10 + exp.unscaled.toString().length;
  const t = (lnFixed(base, w) * exp.unscaled) / pow10(exp.scale);
  const r = expFixed(t, w);
  return Numeric.of(divRound(r, pow10(w - rscale)), rscale);
}

function powerInt(base: Numeric, n: number): Numeric {
  const rscale = clampScale(Math.max(MIN_SIG, base.scale));
  if (n === 0) return Numeric.of(pow10(rscale), rscale);
  if (base.isZero()) return Numeric.of(0n, rscale);
  const f = n * Math.log10(Math.abs(Number(base.toString())) || 1);
  if (f > 131072) throw err(SqlState.numeric_value_out_of_range, 'value overflows numeric format');
  if (f + 1 < -MAX_SCALE) return Numeric.of(0n, MAX_SCALE);
  const digits = base.unscaled.toString().length * Math.abs(n);
  if (digits > 50000) {
    // too big to expand exactly: go through exp(n·ln|base|), fixing the sign for odd n
    const abs = base.abs();
    const w = rscale + GUARD + Math.ceil(Math.abs(f)) + 10;
    const r = expFixed(lnFixed(abs, w) * BigInt(n), w);
    const v = Numeric.of(divRound(r, pow10(w - rscale)), rscale);
    return base.signum() < 0 && n % 2 !== 0 ? v.neg() : v;
  }
  const m = BigInt(Math.abs(n));
  const num = base.unscaled ** m; // scale = base.scale · |n|
  const scale = base.scale * Math.abs(n);
  if (n > 0) return Numeric.of(num, scale).round(rscale);
  // base^-n = 10^scale / num
  return Numeric.of(divRound(pow10(scale + rscale), num), rscale);
}

function powerSpecial(base: Numeric, exp: Numeric, expIsInt: boolean): Numeric {
  if (exp.isInfinite()) {
    const absCmp = base.abs().compare(Numeric.ONE);
    if (base.equals(Numeric.ONE.neg()) || absCmp === 0) return Numeric.ONE;
    if (exp.signum() > 0) return absCmp > 0 ? Numeric.POSITIVE_INFINITY : Numeric.ZERO;
    return absCmp > 0 ? Numeric.ZERO : Numeric.POSITIVE_INFINITY;
  }
  // base is ±Infinity, exp finite
  if (exp.isZero()) return Numeric.ONE;
  if (exp.signum() < 0) return Numeric.ZERO;
  if (base.signum() > 0) return base;
  const odd = expIsInt && exp.round(0).unscaled % 2n !== 0n;
  return odd ? Numeric.NEGATIVE_INFINITY : Numeric.POSITIVE_INFINITY;
}
