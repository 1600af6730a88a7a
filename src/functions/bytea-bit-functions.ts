/**
 * The bit and byte access functions of bytea (get_byte, set_byte, get_bit, set_bit, bit_count) with PostgreSQL 15's
 * pg_proc OIDs. Bits are numbered from the right within each byte (bit 0 is the low-order bit of the first byte),
 * unlike the bit type's get_bit, which counts from the left. Values are Uint8Array (values.ts).
 * @see https://www.postgresql.org/docs/15/functions-binarystring.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { ScalarFunctionDef } from './registry-types.ts';

const { bytea, int4, int8 } = Oid;

const b = (v: unknown): Uint8Array => v as Uint8Array;

function fn(oid: number, name: string, args: number[], returns: number, impl: (a: unknown[]) => unknown): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility: 'i', impl: (a) => impl(a) };
}

function checkIndex(n: number | bigint, count: number): number {
  if (n < 0 || n >= count) {
    throw new GatewayError(SqlState.array_subscript_error, `index ${n} out of valid range, 0..${count - 1}`);
  }
  return Number(n);
}

function setBit(bytes: Uint8Array, n: bigint, value: number): Uint8Array {
  const i = checkIndex(n, bytes.length * 8);
  if (value !== 0 && value !== 1) throw new GatewayError(SqlState.invalid_parameter_value, 'new bit must be 0 or 1');
  const out = Uint8Array.from(bytes);
  out[i >> 3] = value === 1 ? out[i >> 3]! | (1 << (i & 7)) : out[i >> 3]! & ~(1 << (i & 7));
  return out;
}

function setByte(bytes: Uint8Array, n: number, value: number): Uint8Array {
  const i = checkIndex(n, bytes.length);
  const out = Uint8Array.from(bytes);
  out[i] = value & 0xff; // the low byte, as C's (unsigned char) newByte
  return out;
}

function popCount(bytes: Uint8Array): bigint {
  let n = 0;
  for (let x of bytes) for (; x !== 0; x &= x - 1) n++;
  return BigInt(n);
}

export const byteaBitFunctions: readonly ScalarFunctionDef[] = [
  fn(721, 'get_byte', [bytea, int4], int4, ([a, n]) => b(a)[checkIndex(n as number, b(a).length)]!),
  fn(722, 'set_byte', [bytea, int4, int4], bytea, ([a, n, v]) => setByte(b(a), n as number, v as number)),
  fn(723, 'get_bit', [bytea, int8], int4, ([a, n]) => {
    const i = checkIndex(n as bigint, b(a).length * 8);
    return (b(a)[i >> 3]! >> (i & 7)) & 1;
  }),
  fn(724, 'set_bit', [bytea, int8, int4], bytea, ([a, n, v]) => setBit(b(a), BigInt(n as bigint), v as number)),
  fn(6163, 'bit_count', [bytea], int8, ([a]) => popCount(b(a))),
];
