/**
 * Numeric's binary wire form (numeric_send / numeric_recv): int16 ndigits, int16 weight, uint16 sign,
 * uint16 dscale, then ndigits base-10000 int16 digits.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/numeric.c (numeric_send)
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { Numeric, pow10 } from './numeric.ts';

const NUMERIC_POS = 0x0000, NUMERIC_NEG = 0x4000, NUMERIC_NAN = 0xc000, NUMERIC_PINF = 0xd000, NUMERIC_NINF = 0xf000;

/** numeric_send */
export function numericToBinary(n: Numeric): Uint8Array {
  if (!n.isFinite()) {
    const out = new Uint8Array(8);
    const dv = new DataView(out.buffer);
    dv.setUint16(4, n.isNaN() ? NUMERIC_NAN : n.signum() > 0 ? NUMERIC_PINF : NUMERIC_NINF);
    return out;
  }
  const neg = n.unscaled < 0n;
  let s = (neg ? -n.unscaled : n.unscaled).toString();
  const digits: number[] = [];
  let weight = 0;
  if (n.unscaled !== 0n) {
    // Pad the fraction to whole base-10000 digits on the right and the integer part on the left.
    const fracPad = (4 - (n.scale % 4)) % 4;
    s += '0'.repeat(fracPad);
    const intLen = s.length - n.scale - fracPad; // may be ≤ 0
    const leftPad = intLen > 0 ? (4 - (intLen % 4)) % 4 : 0;
    if (intLen > 0) {
      s = '0'.repeat(leftPad) + s;
      weight = (intLen + leftPad) / 4 - 1;
    } else {
      // pure fraction: leading zero groups of the fraction are skipped below
      const fracLen = n.scale + fracPad;
      s = '0'.repeat(fracLen - s.length) + s;
      weight = -1;
    }
    for (let i = 0; i < s.length; i += 4) digits.push(Number(s.slice(i, i + 4)));
    while (digits.length > 0 && digits[0] === 0) { digits.shift(); weight--; }
    while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop();
  }
  const out = new Uint8Array(8 + digits.length * 2);
  const dv = new DataView(out.buffer);
  dv.setInt16(0, digits.length);
  dv.setInt16(2, digits.length === 0 ? 0 : weight);
  dv.setUint16(4, neg ? NUMERIC_NEG : NUMERIC_POS);
  dv.setUint16(6, n.scale);
  for (let i = 0; i < digits.length; i++) dv.setInt16(8 + i * 2, digits[i]!);
  return out;
}

/** numeric_recv: digits beyond dscale are truncated, as PostgreSQL does. */
export function numericFromBinary(bytes: Uint8Array): Numeric {
  if (bytes.length < 8) throw insufficient();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ndigits = dv.getInt16(0);
  const weight = dv.getInt16(2);
  const sign = dv.getUint16(4);
  const dscale = dv.getUint16(6);
  if (sign === NUMERIC_NAN) return Numeric.NaN;
  if (sign === NUMERIC_PINF) return Numeric.POSITIVE_INFINITY;
  if (sign === NUMERIC_NINF) return Numeric.NEGATIVE_INFINITY;
  if ((sign !== NUMERIC_POS && sign !== NUMERIC_NEG) || ndigits < 0 || (dscale & 0xc000) !== 0) {
    throw new GatewayError(SqlState.invalid_binary_representation, 'invalid sign in external "numeric" value');
  }
  if (bytes.length < 8 + ndigits * 2) throw insufficient();
  let u = 0n;
  for (let i = 0; i < ndigits; i++) {
    const d = dv.getInt16(8 + i * 2);
    if (d < 0 || d >= 10000) throw new GatewayError(SqlState.invalid_binary_representation, 'invalid digit in external "numeric" value');
    u = u * 10000n + BigInt(d);
  }
  // value = u × 10000^(weight - ndigits + 1)
  const exp10 = (weight - ndigits + 1) * 4;
  let scaled: bigint; // at dscale
  if (exp10 + dscale >= 0) scaled = u * pow10(exp10 + dscale);
  else scaled = u / pow10(-(exp10 + dscale));
  return Numeric.of(sign === NUMERIC_NEG ? -scaled : scaled, dscale);
}

function insufficient(): GatewayError {
  return new GatewayError(SqlState.invalid_binary_representation, 'insufficient data left in message');
}
