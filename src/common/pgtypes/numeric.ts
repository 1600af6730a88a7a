/**
 * Numeric: PostgreSQL's arbitrary-precision decimal, as an unscaled bigint plus the display scale (dscale),
 * with NaN and ±Infinity (PostgreSQL 14+). Arithmetic follows numeric.c's result-scale rules so that
 * results print exactly as PostgreSQL prints them. Transcendental functions live in numeric-math.ts.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/numeric.c
 */
import { GatewayError, divisionByZero, invalidTextRepresentation } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

const NUMERIC_MIN_SIG_DIGITS = 16;
const NUMERIC_MAX_DISPLAY_SCALE = 1000;
const NUMERIC_BRAND = Symbol.for('lakegate/Numeric');

/** 0 finite, 1 NaN, 2 +Infinity, 3 -Infinity */
type Kind = 0 | 1 | 2 | 3;
const FINITE = 0, NAN = 1, PINF = 2, NINF = 3;

const POW10: bigint[] = [1n];
/** 10^n as bigint (cached for small n). */
export function pow10(n: number): bigint {
  if (n < 64) {
    for (let i = POW10.length; i <= n; i++) POW10.push(POW10[i - 1]! * 10n);
    return POW10[n]!;
  }
  return 10n ** BigInt(n);
}

/** a / b rounded half away from zero (b != 0). */
export function divRound(a: bigint, b: bigint): bigint {
  if (b < 0n) { a = -a; b = -b; }
  const q = a / b;
  const r = a - q * b;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= b) return a < 0n ? q - 1n : q + 1n;
  return q;
}

export class Numeric {
  readonly [NUMERIC_BRAND] = true;
  /** value = unscaled × 10^-scale (finite values only) */
  readonly unscaled: bigint;
  /** display scale (dscale), ≥ 0 */
  readonly scale: number;
  readonly kind: Kind;

  private constructor(kind: Kind, unscaled: bigint, scale: number) {
    this.kind = kind;
    this.unscaled = unscaled;
    this.scale = scale;
  }

  static readonly NaN = new Numeric(NAN, 0n, 0);
  static readonly POSITIVE_INFINITY = new Numeric(PINF, 0n, 0);
  static readonly NEGATIVE_INFINITY = new Numeric(NINF, 0n, 0);
  static readonly ZERO = new Numeric(FINITE, 0n, 0);
  static readonly ONE = new Numeric(FINITE, 1n, 0);

  static isNumeric(v: unknown): v is Numeric {
    return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[NUMERIC_BRAND] === true;
  }

  /** A finite value unscaled × 10^-scale. */
  static of(unscaled: bigint, scale = 0): Numeric {
    if (scale < 0) return new Numeric(FINITE, unscaled * pow10(-scale), 0);
    return new Numeric(FINITE, unscaled, scale);
  }

  /** numeric_in: leading/trailing spaces, sign, digits, point, exponent, NaN, [+-]Infinity/inf. */
  static parse(text: string): Numeric {
    const r = parseNumeric(text);
    if (r === undefined) throw invalidTextRepresentation('numeric', text);
    return r;
  }

  /**
   * float8 → numeric as PostgreSQL's float8_numeric does it: through "%.15g" (DBL_DIG significant digits,
   * trailing zeros dropped), so (1/3)::numeric = 0.333333333333333. Pass 6 (FLT_DIG) for float4.
   */
  static fromNumber(n: number, significantDigits = 15): Numeric {
    if (Number.isNaN(n)) return Numeric.NaN;
    if (n === Infinity) return Numeric.POSITIVE_INFINITY;
    if (n === -Infinity) return Numeric.NEGATIVE_INFINITY;
    if (Number.isInteger(n) && Math.abs(n) < 10 ** significantDigits) return new Numeric(FINITE, BigInt(n), 0);
    let s = n.toPrecision(significantDigits);
    const e = s.indexOf('e');
    let mant = e < 0 ? s : s.slice(0, e);
    if (mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '');
    s = e < 0 ? mant : mant + s.slice(e);
    return Numeric.parse(s);
  }

  static fromBigInt(n: bigint): Numeric {
    return new Numeric(FINITE, n, 0);
  }

  isNaN(): boolean { return this.kind === NAN; }
  isFinite(): boolean { return this.kind === FINITE; }
  isInfinite(): boolean { return this.kind === PINF || this.kind === NINF; }
  isZero(): boolean { return this.kind === FINITE && this.unscaled === 0n; }

  /** -1, 0, 1 (NaN → NaN) */
  signum(): number {
    if (this.kind === NAN) return NaN;
    if (this.kind === PINF) return 1;
    if (this.kind === NINF) return -1;
    return this.unscaled > 0n ? 1 : this.unscaled < 0n ? -1 : 0;
  }

  /** unscaled value rescaled to `scale` ≥ this.scale (exact) */
  private at(scale: number): bigint {
    return scale === this.scale ? this.unscaled : this.unscaled * pow10(scale - this.scale);
  }

  add(o: Numeric): Numeric {
    if (this.kind !== FINITE || o.kind !== FINITE) return specialAdd(this, o);
    const s = Math.max(this.scale, o.scale);
    return new Numeric(FINITE, this.at(s) + o.at(s), s);
  }

  /** this - o directly (same results as add(o.neg()) without the negated temporary) */
  sub(o: Numeric): Numeric {
    if (this.kind !== FINITE || o.kind !== FINITE) return specialSub(this, o);
    const s = Math.max(this.scale, o.scale);
    return new Numeric(FINITE, this.at(s) - o.at(s), s);
  }

  mul(o: Numeric): Numeric {
    if (this.kind !== FINITE || o.kind !== FINITE) {
      if (this.kind === NAN || o.kind === NAN) return Numeric.NaN;
      const s = this.signum() * o.signum();
      return s === 0 ? Numeric.NaN : s > 0 ? Numeric.POSITIVE_INFINITY : Numeric.NEGATIVE_INFINITY;
    }
    return new Numeric(FINITE, this.unscaled * o.unscaled, Math.min(this.scale + o.scale, 0x3fff)); // NUMERIC_DSCALE_MAX
  }

  /** numeric_div: result scale by select_div_scale, rounded half away from zero; 22012 on zero divisor. */
  div(o: Numeric): Numeric {
    if (this.kind !== FINITE || o.kind !== FINITE) {
      if (this.kind === NAN || o.kind === NAN) return Numeric.NaN;
      if (this.kind !== FINITE) {
        if (o.kind !== FINITE) return Numeric.NaN;
        if (o.unscaled === 0n) throw divisionByZero();
        return this.signum() * o.signum() > 0 ? Numeric.POSITIVE_INFINITY : Numeric.NEGATIVE_INFINITY;
      }
      return Numeric.ZERO; // finite / ±Infinity
    }
    if (o.unscaled === 0n) throw divisionByZero();
    return this.divScale(o, selectDivScale(this, o));
  }

  /** this / o rounded to `rscale` decimals (finite, o != 0). */
  divScale(o: Numeric, rscale: number): Numeric {
    const k = o.scale + rscale - this.scale;
    const num = k >= 0 ? this.unscaled * pow10(k) : this.unscaled;
    const den = k >= 0 ? o.unscaled : o.unscaled * pow10(-k);
    return new Numeric(FINITE, divRound(num, den), rscale);
  }

  /** numeric_div_trunc: integer quotient, truncated toward zero (div()). */
  divTrunc(o: Numeric): Numeric {
    if (this.kind !== FINITE || o.kind !== FINITE) return this.div(o).trunc(0);
    if (o.unscaled === 0n) throw divisionByZero();
    const s = Math.max(this.scale, o.scale);
    return new Numeric(FINITE, this.at(s) / o.at(s), 0);
  }

  /** numeric_mod: x - trunc(x/y)*y, scale max(s1,s2). */
  mod(o: Numeric): Numeric {
    if (this.kind !== FINITE || o.kind !== FINITE) {
      if (this.kind !== FINITE) return Numeric.NaN;
      if (o.kind === NAN) return Numeric.NaN;
      return this; // x % ±Infinity = x
    }
    if (o.unscaled === 0n) throw divisionByZero();
    const s = Math.max(this.scale, o.scale);
    return new Numeric(FINITE, this.at(s) % o.at(s), s);
  }

  neg(): Numeric {
    if (this.kind === FINITE) return new Numeric(FINITE, -this.unscaled, this.scale);
    return this.kind === PINF ? Numeric.NEGATIVE_INFINITY : this.kind === NINF ? Numeric.POSITIVE_INFINITY : this;
  }

  abs(): Numeric {
    if (this.kind === NINF) return Numeric.POSITIVE_INFINITY;
    return this.kind === FINITE && this.unscaled < 0n ? this.neg() : this;
  }

  /** cmp_numerics: NaN sorts above +Infinity and equals itself. */
  compare(o: Numeric): number {
    if (this.kind !== FINITE || o.kind !== FINITE) return rank(this) - rank(o);
    if (this.scale === o.scale) return this.unscaled < o.unscaled ? -1 : this.unscaled > o.unscaled ? 1 : 0;
    const s = Math.max(this.scale, o.scale);
    const a = this.at(s), b = o.at(s);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  equals(o: Numeric): boolean {
    return this.compare(o) === 0;
  }

  /** round(x, s): half away from zero; negative s rounds left of the point; dscale = max(s, 0). */
  round(scale = 0): Numeric {
    if (this.kind !== FINITE) return this;
    scale = Math.max(Math.min(scale, NUMERIC_MAX_DISPLAY_SCALE), -NUMERIC_MAX_DISPLAY_SCALE);
    if (scale >= this.scale) return new Numeric(FINITE, this.at(scale), scale);
    const f = pow10(this.scale - scale);
    const q = divRound(this.unscaled, f);
    return scale >= 0 ? new Numeric(FINITE, q, scale) : new Numeric(FINITE, q * pow10(-scale), 0);
  }

  /** trunc(x, s): toward zero; dscale = max(s, 0). */
  trunc(scale = 0): Numeric {
    if (this.kind !== FINITE) return this;
    scale = Math.max(Math.min(scale, NUMERIC_MAX_DISPLAY_SCALE), -NUMERIC_MAX_DISPLAY_SCALE);
    if (scale >= this.scale) return new Numeric(FINITE, this.at(scale), scale);
    const q = this.unscaled / pow10(this.scale - scale);
    return scale >= 0 ? new Numeric(FINITE, q, scale) : new Numeric(FINITE, q * pow10(-scale), 0);
  }

  ceil(): Numeric {
    if (this.kind !== FINITE) return this;
    const t = this.trunc(0);
    return this.unscaled > 0n && t.at(this.scale) !== this.unscaled ? new Numeric(FINITE, t.unscaled + 1n, 0) : t;
  }

  floor(): Numeric {
    if (this.kind !== FINITE) return this;
    const t = this.trunc(0);
    return this.unscaled < 0n && t.at(this.scale) !== this.unscaled ? new Numeric(FINITE, t.unscaled - 1n, 0) : t;
  }

  /** sign(numeric): -1, 0 or 1 with scale 0; NaN stays NaN. */
  sign(): Numeric {
    if (this.kind === NAN) return this;
    return new Numeric(FINITE, BigInt(this.signum()), 0);
  }

  /** Nearest double (via text, so it is correctly rounded). */
  toNumber(): number {
    if (this.kind === NAN) return NaN;
    if (this.kind === PINF) return Infinity;
    if (this.kind === NINF) return -Infinity;
    if (this.scale === 0 && this.unscaled <= 9007199254740991n && this.unscaled >= -9007199254740991n) return Number(this.unscaled);
    return Number(this.toString());
  }

  /** numeric → int8: rounds half away from zero; 22003 "bigint out of range" beyond int64 or for NaN/Infinity. */
  toBigInt(typeName = 'bigint', min = -9223372036854775808n, max = 9223372036854775807n): bigint {
    if (this.kind === NAN) throw new GatewayError(SqlState.feature_not_supported, `cannot convert NaN to ${typeName}`);
    if (this.kind !== FINITE) throw new GatewayError(SqlState.feature_not_supported, `cannot convert infinity to ${typeName}`);
    const v = this.round(0).unscaled;
    if (v < min || v > max) throw new GatewayError(SqlState.numeric_value_out_of_range, `${typeName} out of range`);
    return v;
  }

  /** numeric_out: plain notation, exactly dscale fraction digits. */
  toString(): string {
    if (this.kind !== FINITE) return this.kind === NAN ? 'NaN' : this.kind === PINF ? 'Infinity' : '-Infinity';
    const neg = this.unscaled < 0n;
    const digits = (neg ? -this.unscaled : this.unscaled).toString();
    if (this.scale === 0) return neg ? '-' + digits : digits;
    let s: string;
    if (digits.length > this.scale) {
      s = digits.slice(0, digits.length - this.scale) + '.' + digits.slice(digits.length - this.scale);
    } else {
      s = '0.' + '0'.repeat(this.scale - digits.length) + digits;
    }
    return neg ? '-' + s : s;
  }

  /**
   * apply_typmod for numeric(precision, scale): round to `scale`, then 22003 "numeric field overflow" when
   * more than precision - scale integer digits remain. NaN passes; infinities fail.
   */
  applyTypmod(precision: number, scale: number): Numeric {
    const maxdigits = precision - scale;
    if (this.kind === NAN) return this;
    if (this.kind !== FINITE) {
      throw new GatewayError(SqlState.numeric_value_out_of_range, 'numeric field overflow', {
        detail: `A field with precision ${precision}, scale ${scale} cannot hold an infinite value.`,
      });
    }
    const r = this.round(scale);
    if (r.unscaled !== 0n) {
      const ddigits = decimalWeight(r) + 1;
      if (ddigits > maxdigits) {
        throw new GatewayError(SqlState.numeric_value_out_of_range, 'numeric field overflow', {
          detail: `A field with precision ${precision}, scale ${scale} must round to an absolute value less than ${maxdigits !== 0 ? '10^' : ''}${maxdigits !== 0 ? maxdigits : 1}.`,
        });
      }
    }
    return r;
  }

  /** applyTypmod from an atttypmod ((p << 16 | s) + 4); -1 leaves the value alone. */
  applyAttTypmod(typmod: number): Numeric {
    if (typmod < 4) return this;
    const t = typmod - 4;
    return this.applyTypmod((t >> 16) & 0xffff, ((t & 0x7ff) ^ 1024) - 1024);
  }
}

function rank(n: Numeric): number {
  return n.kind === NAN ? 3 : n.kind === PINF ? 2 : n.kind === NINF ? -2 : n.signum();
}

function specialAdd(a: Numeric, b: Numeric): Numeric {
  if (a.kind === NAN || b.kind === NAN) return Numeric.NaN;
  if (a.kind === FINITE) return b;
  if (b.kind === FINITE) return a;
  return a.kind === b.kind ? a : Numeric.NaN;
}

/** a - b when either is NaN or ±Infinity: specialAdd(a, b.neg()) */
function specialSub(a: Numeric, b: Numeric): Numeric {
  if (a.kind === NAN || b.kind === NAN) return Numeric.NaN;
  if (b.kind === FINITE) return a;
  const nb = b.kind === PINF ? Numeric.NEGATIVE_INFINITY : Numeric.POSITIVE_INFINITY;
  if (a.kind === FINITE) return nb;
  return a.kind === nb.kind ? a : Numeric.NaN;
}

/** Decimal exponent of the leading digit: 123.4 → 2, 0.05 → -2 (finite, non-zero). */
export function decimalWeight(n: Numeric): number {
  const u = n.unscaled < 0n ? -n.unscaled : n.unscaled;
  return u.toString().length - 1 - n.scale;
}

/** Base-10000 weight and first digit, as numeric.c sees a NumericVar (zero → weight 0, digit 0). */
export function nbaseLead(n: Numeric): { weight: number; first: number } {
  if (n.unscaled === 0n) return { weight: 0, first: 0 };
  const s = (n.unscaled < 0n ? -n.unscaled : n.unscaled).toString();
  const e = s.length - 1 - n.scale;
  const weight = Math.floor(e / 4);
  const len = e - 4 * weight + 1; // decimal digits of the first base-10000 digit
  const first = Number(s.slice(0, len).padEnd(len, '0'));
  return { weight, first };
}

/** select_div_scale */
function selectDivScale(a: Numeric, b: Numeric): number {
  const l1 = nbaseLead(a), l2 = nbaseLead(b);
  let qweight = l1.weight - l2.weight;
  if (l1.first <= l2.first) qweight--;
  let rscale = NUMERIC_MIN_SIG_DIGITS - qweight * 4;
  rscale = Math.max(rscale, a.scale, b.scale, 0);
  return Math.min(rscale, NUMERIC_MAX_DISPLAY_SCALE);
}

function parseNumeric(text: string): Numeric | undefined {
  let i = 0, end = text.length;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  while (end > i && isSpace(text.charCodeAt(end - 1))) end--;
  let neg = false;
  const c0 = text.charCodeAt(i);
  if (c0 === 43 /* + */ || c0 === 45 /* - */) { neg = c0 === 45; i++; }
  const c = text.charCodeAt(i);
  if (!(c >= 48 && c <= 57) && c !== 46) {
    const word = text.slice(i, end).toLowerCase();
    if (word === 'nan') return c0 === 43 || c0 === 45 ? undefined : Numeric.NaN;
    if (word === 'infinity' || word === 'inf') return neg ? Numeric.NEGATIVE_INFINITY : Numeric.POSITIVE_INFINITY;
    return undefined;
  }
  let digits = '';
  let frac = 0, seenPoint = false, any = false;
  for (; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch >= 48 && ch <= 57) { digits += text[i]; any = true; if (seenPoint) frac++; }
    else if (ch === 46 && !seenPoint) seenPoint = true;
    else break;
  }
  if (!any) return undefined;
  let exp = 0;
  if (i < end && (text.charCodeAt(i) | 32) === 101 /* e */) {
    i++;
    let eneg = false;
    if (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45) { eneg = text.charCodeAt(i) === 45; i++; }
    let edigits = 0;
    for (; i < end; i++) {
      const ch = text.charCodeAt(i);
      if (ch < 48 || ch > 57) break;
      exp = exp * 10 + (ch - 48);
      edigits++;
      if (exp > 1000 * 2 + 100000) return undefined;
    }
    if (edigits === 0) return undefined;
    if (eneg) exp = -exp;
  }
  if (i !== end) return undefined;
  let u = BigInt(digits);
  if (neg) u = -u;
  const scale = frac - exp;
  if (scale < 0) return Numeric.of(u * pow10(-scale), 0);
  return Numeric.of(u, scale);
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
