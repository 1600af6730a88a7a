/**
 * float4/float8 text I/O as PostgreSQL 12+ does it: shortest round-trip digits (ryu) when
 * extra_float_digits > 0, printed fixed for decimal exponents in [-4, 15) (float8) or [-4, 6) (float4)
 * and as d.ddde±XX otherwise; %.{15|6 + extra}g when extra_float_digits ≤ 0.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/float.c
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/common/d2s.c
 */
import { GatewayError, invalidTextRepresentation } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

/** float8out */
export function float8Out(x: number, extraFloatDigits = 1): string {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (extraFloatDigits > 0) {
    if (x === 0) return Object.is(x, -0) ? '-0' : '0';
    const a = x < 0 ? -x : x;
    if (a >= 1e-4 && a < 1e15) return String(x); // JS prints these fixed with the same shortest digits
    let e = x.toExponential();
    // JS may pick a decimal exactly halfway to the neighbouring double; PostgreSQL's ryu never does.
    if (a >= 9007199254740992 && onDoubleBoundary(x, e)) {
      const digits = e.indexOf('e') - (e.charCodeAt(0) === 45 ? 2 : 1);
      for (let p = digits + 1; p <= 17; p++) {
        e = x.toExponential(p - 1);
        if (Number(e) === x && !onDoubleBoundary(x, e)) break;
      }
    }
    return fromExponential(e, 15);
  }
  return formatG(x, Math.max(1, 15 + extraFloatDigits));
}

/** float4out: shortest decimal that reads back to the same float32. */
export function float4Out(x: number, extraFloatDigits = 1): string {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (extraFloatDigits > 0) {
    if (x === 0) return Object.is(x, -0) ? '-0' : '0';
    if (Number.isInteger(x) && x < 1e6 && x > -1e6) return String(x);
    // round-tripping is monotone in the digit count, so binary-search the shortest p in 1..9
    let lo = 1, hi = 9;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const e = x.toExponential(mid - 1);
      const d = Number(e);
      if (Math.fround(d) === x && !onFloatBoundary(x, d)) hi = mid;
      else lo = mid + 1;
    }
    return fromExponential(tieToEven(x, x.toExponential(lo - 1)), 6);
  }
  return formatG(x, Math.max(1, 6 + extraFloatDigits));
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** d is exactly the midpoint between float32 x and one of its neighbours (ryu excludes the bounds). */
function onFloatBoundary(x: number, d: number): boolean {
  if (d === x) return false;
  f32[0] = x;
  const bits = u32[0]!;
  u32[0] = bits + 1;
  if ((x + f32[0]!) / 2 === d) return true;
  u32[0] = bits - 1;
  return (x + f32[0]!) / 2 === d;
}

/** for |x| ≥ 2^53 (integers): the decimal `e` lies exactly halfway between x and a neighbouring double */
function onDoubleBoundary(x: number, e: string): boolean {
  const ei = e.indexOf('e');
  const neg = e.charCodeAt(0) === 45;
  const mant = e.slice(neg ? 1 : 0, ei).replace('.', '');
  const q = Number(e.slice(ei + 1)) - (mant.length - 1);
  if (q < 0) return false;
  const D = BigInt(mant) * 10n ** BigInt(q);
  const X = BigInt(Math.abs(x));
  const diff = D > X ? D - X : X - D;
  if (diff === 0n) return false;
  const exp = Math.floor(Math.log2(Math.abs(x)));
  let pow = 2n ** BigInt(exp);
  if (pow * 2n <= X) pow *= 2n; // log2 rounding guard
  else if (pow > X) pow /= 2n;
  const ulp = pow >> 52n;
  // below a power of two the neighbouring double is only half an ulp away
  return diff * 2n === ulp || (D < X && X === pow && diff * 4n === ulp);
}

/**
 * toExponential rounds exact ties away from zero; ryu (PostgreSQL) picks the even digit. When |x| lies
 * exactly halfway between two p-digit decimals and the last digit is odd, step down to the even one.
 */
function tieToEven(x: number, e: string): string {
  const ei = e.indexOf('e');
  const neg = e.charCodeAt(0) === 45;
  const mant = e.slice(neg ? 1 : 0, ei).replace('.', '');
  if ((mant.charCodeAt(mant.length - 1) - 48) % 2 === 0) return e;
  const q = Number(e.slice(ei + 1)) - (mant.length - 1); // value = M · 10^q
  // cheap filter: the decimal midpoint (M - 1/2)·10^q must at least parse to |x|
  const lowerDigits = mant.length > 1 ? mant.slice(0, -1) + String.fromCharCode(mant.charCodeAt(mant.length - 1) - 1) : String(Number(mant) - 1);
  if (Number(lowerDigits + '5e' + (q - 1)) !== Math.abs(x)) return e;
  const M = BigInt(mant);
  // |x| = m · 2^k exactly
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(x));
  const bits = dv.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  let k: number;
  if (expBits === 0) k = -1074; else { m |= 1n << 52n; k = expBits - 1075; }
  // tie iff 2·m·2^k == (2M - 1)·10^q
  let lhs = 2n * m, rhs = 2n * M - 1n;
  if (k >= 0) lhs <<= BigInt(k); else rhs <<= BigInt(-k);
  if (q >= 0) rhs *= 10n ** BigInt(q); else lhs *= 10n ** BigInt(-q);
  if (lhs !== rhs) return e;
  const lower = (M - 1n).toString().padStart(mant.length, '0');
  const digits = lower.length > 1 ? lower[0] + '.' + lower.slice(1) : lower;
  return (neg ? '-' : '') + digits + e.slice(ei);
}

/** "d.ddde+N" (JS) → PostgreSQL's text: fixed when -4 ≤ N < fixedLimit, else exponent with ≥ 2 digits. */
function fromExponential(s: string, fixedLimit: number): string {
  const ei = s.indexOf('e');
  const exp = Number(s.slice(ei + 1));
  const neg = s.charCodeAt(0) === 45;
  let mant = s.slice(neg ? 1 : 0, ei);
  if (exp >= -4 && exp < fixedLimit) {
    const digits = mant.replace('.', '');
    let out: string;
    if (exp < 0) out = '0.' + '0'.repeat(-exp - 1) + digits;
    else if (digits.length <= exp + 1) out = digits + '0'.repeat(exp + 1 - digits.length);
    else out = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
    return neg ? '-' + out : out;
  }
  if (mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '');
  const ae = exp < 0 ? -exp : exp;
  return (neg ? '-' : '') + mant + (exp < 0 ? 'e-' : 'e+') + (ae < 10 ? '0' + ae : String(ae));
}

/** C's %.{p}g */
function formatG(x: number, p: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const e = x.toExponential(p - 1);
  const exp = Number(e.slice(e.indexOf('e') + 1));
  if (exp < -4 || exp >= p) return fromExponential(e, -100);
  let f = x.toFixed(Math.max(0, p - 1 - exp));
  if (f.includes('.')) f = f.replace(/0+$/, '').replace(/\.$/, '');
  return f;
}

/** float8in / float4in */
export function floatIn(text: string, isFloat4: boolean): number {
  const typeName = isFloat4 ? 'real' : 'double precision';
  let i = 0, end = text.length;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  while (end > i && isSpace(text.charCodeAt(end - 1))) end--;
  const body = text.slice(i, end);
  const lower = body.toLowerCase();
  switch (lower) {
    case 'nan': case '+nan': case '-nan': return NaN;
    case 'infinity': case '+infinity': case 'inf': case '+inf': return Infinity;
    case '-infinity': case '-inf': return -Infinity;
  }
  let v: number;
  if (/^[+-]?0x[0-9a-f]+$/.test(lower)) {
    v = parseInt(lower, 16); // strtod accepts hexadecimal
  } else {
    if (!isDecimalSyntax(body)) throw invalidTextRepresentation(typeName, text);
    v = Number(body);
  }
  const outOfRange = () => new GatewayError(SqlState.numeric_value_out_of_range, `"${body}" is out of range for type ${typeName}`);
  if (!Number.isFinite(v) || (v === 0 && hasNonZeroDigit(body))) throw outOfRange();
  if (isFloat4) {
    const f = Math.fround(v);
    if (!Number.isFinite(f) || (f === 0 && v !== 0)) throw outOfRange();
    v = f;
  }
  return v;
}

/** [+-] digits [. digits] [e [+-] digits] with at least one mantissa digit */
function isDecimalSyntax(s: string): boolean {
  let i = 0;
  const n = s.length;
  if (i < n && (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45)) i++;
  let digits = 0;
  while (i < n && isDigit(s.charCodeAt(i))) { i++; digits++; }
  if (i < n && s.charCodeAt(i) === 46) {
    i++;
    while (i < n && isDigit(s.charCodeAt(i))) { i++; digits++; }
  }
  if (digits === 0) return false;
  if (i < n && (s.charCodeAt(i) | 32) === 101) {
    i++;
    if (i < n && (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45)) i++;
    let ed = 0;
    while (i < n && isDigit(s.charCodeAt(i))) { i++; ed++; }
    if (ed === 0) return false;
  }
  return i === n;
}

function hasNonZeroDigit(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 101 || c === 69) return false;
    if (c > 48 && c <= 57) return true;
  }
  return false;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
