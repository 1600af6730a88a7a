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
    return fromExponential(x.toExponential(), 15);
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
    for (let p = 1; p < 9; p++) {
      const e = x.toExponential(p - 1);
      if (Math.fround(Number(e)) === x) return fromExponential(e, 6);
    }
    return fromExponential(x.toExponential(8), 6);
  }
  return formatG(x, Math.max(1, 6 + extraFloatDigits));
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
    case 'nan': return NaN;
    case 'infinity': case '+infinity': case 'inf': case '+inf': return Infinity;
    case '-infinity': case '-inf': return -Infinity;
  }
  if (!isDecimalSyntax(body)) throw invalidTextRepresentation(typeName, text);
  let v = Number(body);
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
