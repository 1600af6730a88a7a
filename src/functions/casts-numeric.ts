/**
 * Conversions among int2/int4/int8/float4/float8/numeric/bool/"char"/oid with PostgreSQL's range checks:
 * float → int rounds half to even (rint), numeric → int half away from zero, float → numeric keeps
 * DBL_DIG (15) / FLT_DIG (6) significant digits as float8_numeric does.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/int8.c
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { GatewayError, outOfRange } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { checkInt2, checkInt4, checkInt8, floatOverflow, floatUnderflow } from './int-arith.ts';

const TYPE_NAME: Record<number, string> = { [Oid.int2]: 'smallint', [Oid.int4]: 'integer', [Oid.int8]: 'bigint' };
const INT_MIN: Record<number, bigint> = { [Oid.int2]: -32768n, [Oid.int4]: -2147483648n, [Oid.int8]: -9223372036854775808n };
const INT_MAX: Record<number, bigint> = { [Oid.int2]: 32767n, [Oid.int4]: 2147483647n, [Oid.int8]: 9223372036854775807n };

/** C rint(): round half to even. */
export function rint(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  // Math.round rounds .5 up; fix exact ties toward even
  if (Math.abs(x % 1) === 0.5 && r % 2 !== 0) return r - 1;
  return r;
}

export function isIntOid(oid: number): boolean {
  return oid === Oid.int2 || oid === Oid.int4 || oid === Oid.int8;
}

/** Integer → integer with the target's range check. */
export function intToInt(v: number | bigint, target: number): number | bigint {
  if (target === Oid.int8) return typeof v === 'bigint' ? v : BigInt(v);
  const n = typeof v === 'bigint' ? (v < -2147483649n || v > 2147483648n ? Infinity : Number(v)) : v;
  return target === Oid.int2 ? checkInt2(n) : checkInt4(n);
}

/** float4/float8 → integer: rint, then range check (NaN is out of range). */
export function floatToInt(v: number, target: number): number | bigint {
  const r = rint(v);
  if (target === Oid.int8) {
    if (!Number.isFinite(r) || r < -9223372036854775808 || r >= 9223372036854775808) throw outOfRange('bigint');
    return BigInt(r);
  }
  return target === Oid.int2 ? checkInt2(r) : checkInt4(r);
}

/** numeric → integer: rounds half away from zero; NaN/Infinity → 0A000 as numeric_int4 does. */
export function numericToInt(v: Numeric, target: number): number | bigint {
  const name = TYPE_NAME[target]!;
  const b = v.toBigInt(name, INT_MIN[target], INT_MAX[target]);
  return target === Oid.int8 ? b : Number(b);
}

/** %.{digits}g then numeric_in, as float8_numeric / float4_numeric. */
export function floatToNumeric(v: number, digits: number): Numeric {
  if (Number.isNaN(v)) return Numeric.NaN;
  if (!Number.isFinite(v)) return v > 0 ? Numeric.POSITIVE_INFINITY : Numeric.NEGATIVE_INFINITY;
  if (v === 0) return Numeric.ZERO;
  // %g drops trailing zeros of the mantissa
  const g = v.toPrecision(digits).replace(/(\.\d*?)0+(?=$|e)/, '$1').replace(/\.(?=$|e)/, '');
  return Numeric.parse(g);
}

/** numeric → float4/float8 goes through the text form, so out-of-range values fail as float8in does. */
export function numericToFloat(v: Numeric, target: number): number {
  const d = v.toNumber();
  if (!v.isFinite() || v.isZero()) return target === Oid.float4 ? Math.fround(d) : d;
  const f = target === Oid.float4 ? Math.fround(d) : d;
  if (!Number.isFinite(f) || f === 0) {
    const typeName = target === Oid.float4 ? 'real' : 'double precision';
    throw new GatewayError(SqlState.numeric_value_out_of_range, `"${v.toString()}" is out of range for type ${typeName}`);
  }
  return f;
}

/** float8 → float4 (dtof): overflow / underflow errors. */
export function float8ToFloat4(d: number): number {
  const f = Math.fround(d);
  if (!Number.isFinite(f) && Number.isFinite(d)) throw floatOverflow();
  if (f === 0 && d !== 0) throw floatUnderflow();
  return f;
}

/** Any number type → Numeric. */
export function toNumeric(v: unknown, source: number): Numeric {
  if (Numeric.isNumeric(v)) return v;
  if (typeof v === 'bigint') return Numeric.fromBigInt(v);
  if (source === Oid.float4) return floatToNumeric(v as number, 6);
  if (source === Oid.float8) return floatToNumeric(v as number, 15);
  return Numeric.fromBigInt(BigInt(v as number));
}

/** int4 → "char" (i4tochar): one signed byte. */
export function int4ToChar(v: number): string {
  if (v < -128 || v > 127) throw new GatewayError(SqlState.numeric_value_out_of_range, '"char" out of range');
  const b = v & 0xff;
  return b === 0 ? '' : String.fromCharCode(b);
}

/** "char" → int4 (chartoi4): the byte as a signed char. */
export function charToInt4(s: string): number {
  if (s.length === 0) return 0;
  const b = Buffer.from(s, 'utf8')[0]!;
  return b > 127 ? b - 256 : b;
}

/** int8 → oid (oidin range): 22003 "OID out of range". */
export function int8ToOid(v: bigint): number {
  if (v < -2147483648n || v > 4294967295n) throw new GatewayError(SqlState.numeric_value_out_of_range, 'OID out of range');
  return Number(BigInt.asUintN(32, v));
}

export { checkInt8 };
