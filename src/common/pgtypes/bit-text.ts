/**
 * bit(n) and bit varying(n): a string of '0' / '1' (values.ts; B'101' literals bind to one), read as bit_in /
 * varbit_in read text (binary digits, or `x` / `X` and hex digits; an optional leading `b` / `B`) with their length
 * checks, and sent / received as bit_send / bit_recv do (int32 bit count, then the bits, first bit in the high-order
 * bit of the first byte).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/varbit.c
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';

/** bit_in (`varying` false: the length must equal typmod) / varbit_in (`varying`: at most typmod bits) */
export function bitIn(text: string, typmod: number, varying: boolean): string {
  const first = text[0];
  const hex = first === 'x' || first === 'X';
  const digits = hex || first === 'b' || first === 'B' ? text.slice(1) : text;
  let bits = '';
  for (const c of digits) {
    if (hex) {
      const v = parseInt(c, 16);
      if (Number.isNaN(v) || !/[0-9a-fA-F]/.test(c)) {
        throw new GatewayError(SqlState.invalid_text_representation, `"${c}" is not a valid hexadecimal digit`);
      }
      bits += v.toString(2).padStart(4, '0');
    } else if (c === '0' || c === '1') bits += c;
    else throw new GatewayError(SqlState.invalid_text_representation, `"${c}" is not a valid binary digit`);
  }
  if (typmod > 0) {
    if (!varying && bits.length !== typmod) {
      throw new GatewayError(SqlState.string_data_length_mismatch, `bit string length ${bits.length} does not match type bit(${typmod})`);
    }
    if (varying && bits.length > typmod) {
      throw new GatewayError(SqlState.string_data_right_truncation, `bit string too long for type bit varying(${typmod})`);
    }
  }
  return bits;
}

/** bit_send / varbit_send */
export function bitSend(bits: string): Uint8Array {
  const out = new Uint8Array(4 + Math.ceil(bits.length / 8));
  new DataView(out.buffer).setInt32(0, bits.length);
  for (let i = 0; i < bits.length; i++) if (bits.charCodeAt(i) === 49) out[4 + (i >> 3)]! |= 0x80 >> (i & 7);
  return out;
}

/** bit_recv / varbit_recv */
export function bitRecv(bytes: Uint8Array): string {
  if (bytes.length < 4) throw new GatewayError(SqlState.invalid_binary_representation, 'insufficient data left in message');
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0);
  if (length < 0 || bytes.length !== 4 + Math.ceil(length / 8)) {
    throw new GatewayError(SqlState.invalid_binary_representation, 'invalid length in external bit string');
  }
  let bits = '';
  for (let i = 0; i < length; i++) bits += (bytes[4 + (i >> 3)]! & (0x80 >> (i & 7))) !== 0 ? '1' : '0';
  return bits;
}
