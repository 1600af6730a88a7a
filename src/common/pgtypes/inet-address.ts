/**
 * The parts of an inet / cidr value (PostgreSQL's inet_struct: family, mask bits, address bytes) and the
 * bit-level helpers network.c builds its operators from. The SQL value itself is a string (values.ts); the
 * functions and operators take it apart with inetParts and put it back with inetValue.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/network.c
 */

/** PGSQL_AF_INET (AF_INET + 0) and PGSQL_AF_INET6 (AF_INET + 1): the family byte of the binary format */
export const PGSQL_AF_INET = 2;
export const PGSQL_AF_INET6 = 3;

export interface InetParts {
  /** 4 or 6 */
  readonly family: 4 | 6;
  /** mask length: 0..32 (IPv4) or 0..128 (IPv6) */
  readonly bits: number;
  /** 4 or 16 address bytes, network order */
  readonly addr: Uint8Array;
}

export function maxBits(p: { readonly family: 4 | 6 }): number {
  return p.family === 4 ? 32 : 128;
}

/** bitncmp: compares the first `n` bits of two addresses (negative, 0, positive). */
export function bitncmp(a: Uint8Array, b: Uint8Array, n: number): number {
  const whole = n >> 3;
  for (let i = 0; i < whole; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  const rest = n & 7;
  if (rest === 0) return 0;
  const mask = (0xff << (8 - rest)) & 0xff;
  const x = a[whole]! & mask, y = b[whole]! & mask;
  return x - y;
}

/** bitncommon: how many leading bits (at most n) two addresses share. */
export function bitncommon(a: Uint8Array, b: Uint8Array, n: number): number {
  let bits = 0;
  for (let i = 0; bits < n; i++, bits += 8) {
    const diff = a[i]! ^ b[i]!;
    if (diff === 0) continue;
    let k = 0;
    while ((diff & (0x80 >> k)) === 0) k++;
    return Math.min(n, bits + k);
  }
  return n;
}

/** addressOK: no bits set to the right of the mask (what a cidr value requires). */
export function addressOK(addr: Uint8Array, bits: number): boolean {
  for (let i = 0; i < addr.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    if ((addr[i]! & (0xff >> keep)) !== 0) return false;
  }
  return true;
}

/** The address with the bits right of the mask cleared (network(), inet::cidr, set_masklen(cidr)). */
export function maskedAddress(addr: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(addr.length);
  for (let i = 0; i < addr.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] = addr[i]! & ((0xff00 >> keep) & 0xff);
  }
  return out;
}

/**
 * network_cmp_internal: family (IPv4 first), then the common network bits, then the mask length, then the
 * whole address — so 10.0.0.0/8 < 10.0.0.0/16 < 10.1.0.0/16.
 */
export function compareInetParts(a: InetParts, b: InetParts): number {
  if (a.family !== b.family) return a.family === 4 ? -1 : 1;
  const order = bitncmp(a.addr, b.addr, Math.min(a.bits, b.bits));
  if (order !== 0) return order < 0 ? -1 : 1;
  if (a.bits !== b.bits) return a.bits < b.bits ? -1 : 1;
  const whole = bitncmp(a.addr, b.addr, maxBits(a));
  return whole < 0 ? -1 : whole > 0 ? 1 : 0;
}
