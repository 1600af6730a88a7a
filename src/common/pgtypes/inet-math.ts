/**
 * The value-level kernels of PostgreSQL's network functions and operators (network.c), over canonical
 * inet/cidr strings (values.ts): masks, containment, merge, bitwise and integer arithmetic.
 * @see https://www.postgresql.org/docs/15/functions-net.html
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { bitncmp, bitncommon, maskedAddress, maxBits, type InetParts } from './inet-address.ts';
import { inetShow, netNtop } from './inet-format.ts';
import { inetParts, inetValue } from './inet-value.ts';

function withAddr(p: InetParts, addr: Uint8Array, bits = p.bits): string {
  return inetValue({ family: p.family, bits, addr });
}

/** a mask of `bits` leading ones, as address bytes */
function maskBytes(bytes: number, bits: number): Uint8Array {
  return maskedAddress(new Uint8Array(bytes).fill(0xff), bits);
}

/** host(): the address without its mask */
export function inetHost(v: string): string {
  const p = inetParts(v);
  return netNtop(p, maxBits(p));
}

/** text(inet) / network_show: always with the mask */
export function inetShowText(v: string): string {
  return inetShow(inetParts(v));
}

export function inetMasklen(v: string): number {
  return inetParts(v).bits;
}

export function inetFamily(v: string): number {
  return inetParts(v).family;
}

/** netmask(): the mask as an address of full width */
export function inetNetmask(v: string): string {
  const p = inetParts(v);
  return withAddr(p, maskBytes(p.addr.length, p.bits), maxBits(p));
}

/** hostmask(): the bits right of the mask, as an address of full width */
export function inetHostmask(v: string): string {
  const p = inetParts(v);
  return withAddr(p, maskBytes(p.addr.length, p.bits).map((b) => ~b & 0xff), maxBits(p));
}

/** network() and inet::cidr (inet_to_cidr): the host bits cleared, the mask kept */
export function inetNetwork(v: string): string {
  const p = inetParts(v);
  return withAddr(p, maskedAddress(p.addr, p.bits));
}

/** broadcast(): the host bits set */
export function inetBroadcast(v: string): string {
  const p = inetParts(v);
  const mask = maskBytes(p.addr.length, p.bits);
  return withAddr(p, p.addr.map((b, i) => b | (~mask[i]! & 0xff)));
}

/** set_masklen(inet, int) / set_masklen(cidr, int): -1 means the full width; cidr also clears host bits */
export function inetSetMasklen(v: string, bits: number, isCidr: boolean): string {
  const p = inetParts(v);
  const b = bits === -1 ? maxBits(p) : bits;
  if (b < 0 || b > maxBits(p)) throw new GatewayError(SqlState.invalid_parameter_value, `invalid mask length: ${bits}`);
  return withAddr(p, isCidr ? maskedAddress(p.addr, b) : p.addr, b);
}

export function inetSameFamily(a: string, b: string): boolean {
  return inetParts(a).family === inetParts(b).family;
}

/** inet_merge(): the smallest network holding both */
export function inetMerge(a: string, b: string): string {
  const x = inetParts(a), y = inetParts(b);
  if (x.family !== y.family) throw new GatewayError(SqlState.invalid_parameter_value, 'cannot merge addresses from different families');
  const common = bitncommon(x.addr, y.addr, Math.min(x.bits, y.bits));
  return withAddr(x, maskedAddress(x.addr, common), common);
}

export type Containment = '<<' | '<<=' | '>>' | '>>=' | '&&';

/** network_sub / subeq / sup / supeq / overlap: false across families */
export function inetContains(op: Containment, a: string, b: string): boolean {
  const x = inetParts(a), y = inetParts(b);
  if (x.family !== y.family) return false;
  switch (op) {
    case '<<': return x.bits > y.bits && bitncmp(x.addr, y.addr, y.bits) === 0;
    case '<<=': return x.bits >= y.bits && bitncmp(x.addr, y.addr, y.bits) === 0;
    case '>>': return x.bits < y.bits && bitncmp(x.addr, y.addr, x.bits) === 0;
    case '>>=': return x.bits <= y.bits && bitncmp(x.addr, y.addr, x.bits) === 0;
    case '&&': return bitncmp(x.addr, y.addr, Math.min(x.bits, y.bits)) === 0;
  }
}

/** inetnot: ~ of every address bit, the mask kept */
export function inetNot(v: string): string {
  const p = inetParts(v);
  return withAddr(p, p.addr.map((b) => ~b & 0xff));
}

/** inetand / inetor: the wider mask of the two */
export function inetBitwise(op: '&' | '|', a: string, b: string): string {
  const x = inetParts(a), y = inetParts(b);
  if (x.family !== y.family) {
    throw new GatewayError(SqlState.invalid_parameter_value, `cannot ${op === '&' ? 'AND' : 'OR'} inet values of different sizes`);
  }
  const addr = x.addr.map((v, i) => (op === '&' ? v & y.addr[i]! : v | y.addr[i]!));
  return withAddr(x, addr, Math.max(x.bits, y.bits));
}

function addressNumber(addr: Uint8Array): bigint {
  let n = 0n;
  for (const b of addr) n = (n << 8n) | BigInt(b);
  return n;
}

function outOfRange(): GatewayError {
  return new GatewayError(SqlState.numeric_value_out_of_range, 'result is out of range');
}

/** inetpl / inetmi_int8: the address moved by `n`, refused past either end of the family's range */
export function inetAdd(v: string, n: bigint): string {
  const p = inetParts(v);
  const sum = addressNumber(p.addr) + n;
  if (sum < 0n || sum >> BigInt(p.addr.length * 8) !== 0n) throw outOfRange();
  const addr = new Uint8Array(p.addr.length);
  let rest = sum;
  for (let i = addr.length - 1; i >= 0; i--, rest >>= 8n) addr[i] = Number(rest & 0xffn);
  return withAddr(p, addr);
}

/** inetmi: the difference of two addresses of one family, as int8 */
export function inetDiff(a: string, b: string): bigint {
  const x = inetParts(a), y = inetParts(b);
  if (x.family !== y.family) throw new GatewayError(SqlState.invalid_parameter_value, 'cannot subtract inet values of different sizes');
  const d = addressNumber(x.addr) - addressNumber(y.addr);
  if (d < -(1n << 63n) || d >= 1n << 63n) throw outOfRange();
  return d;
}
