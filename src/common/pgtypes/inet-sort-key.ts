/**
 * inetSortKey: one string per inet / cidr value whose plain string order (code units, all below 256) is
 * PostgreSQL's network_cmp order, so a sort takes each value apart once instead of at every comparison:
 *
 *   [family: 0 for IPv4, 1 for IPv6] [address masked to its mask length] [mask length] [whole address]
 *
 * Why this orders as network_cmp_internal (family, the first min(bits) bits, the mask length, the whole address):
 * two masked addresses first differ inside the common min(bits) prefix exactly when network_cmp's prefix test
 * does, in the same direction; past it the shorter mask's bytes are zero, so they are ≤ the longer mask's and
 * equal only when those bits are zero too — and then the mask byte decides, shorter first, as network_cmp does.
 * Equal keys ⇔ same family, mask and address ⇔ network_cmp = 0.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/network.c (network_cmp_internal)
 */
import { parseInet } from './inet-parse.ts';

/** an IPv6 key's code units, reused: the key is made from them by String.fromCharCode */
const codes6: number[] = new Array<number>(34).fill(0);
/** the address bytes of the value being keyed (4 or 16) */
const addr = new Uint8Array(16);

/** The sort key of a canonical inet / cidr value (values.ts): compare keys with < / > / ===. */
export function inetSortKey(value: string): string {
  const bits = readIpv4(value);
  if (bits >= 0) return ipv4Key(bits);
  const p = parseInet(value, false);
  if (p.family === 4) {
    addr.set(p.addr);
    return ipv4Key(p.bits);
  }
  return ipv6Key(p.bits, p.addr);
}

/** network_cmp over two sort keys */
export function compareInetSortKeys(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

/** the byte of `b` at position `i` of an address masked to `bits` */
function maskedByte(b: number, i: number, bits: number): number {
  const keep = bits - i * 8;
  return keep >= 8 ? b : keep <= 0 ? 0 : b & ((0xff00 >> keep) & 0xff);
}

/** the key of the IPv4 address in `addr` (one call with ten arguments: no array to spread) */
function ipv4Key(bits: number): string {
  const a0 = addr[0]!, a1 = addr[1]!, a2 = addr[2]!, a3 = addr[3]!;
  return String.fromCharCode(0, maskedByte(a0, 0, bits), maskedByte(a1, 1, bits), maskedByte(a2, 2, bits), maskedByte(a3, 3, bits), bits, a0, a1, a2, a3);
}

function ipv6Key(bits: number, bytes: Uint8Array): string {
  const codes = codes6;
  codes[0] = 1;
  for (let i = 0; i < 16; i++) {
    const b = bytes[i]!;
    codes[1 + i] = maskedByte(b, i, bits);
    codes[18 + i] = b;
  }
  codes[17] = bits;
  return String.fromCharCode.apply(null, codes);
}

/**
 * The common canonical IPv4 shape 'a.b.c.d' or 'a.b.c.d/n' read into `addr` without the general parser;
 * its mask length, or -1 for anything else (IPv6, or a text the general parser should judge).
 */
function readIpv4(s: string): number {
  const len = s.length;
  let i = 0;
  for (let octet = 0; octet < 4; octet++) {
    let v = 0, digits = 0;
    for (; i < len; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      v = v * 10 + c;
      digits++;
    }
    if (digits === 0 || digits > 3 || v > 255) return -1;
    addr[octet] = v;
    if (octet < 3) {
      if (i >= len || s.charCodeAt(i) !== 46) return -1; // '.'
      i++;
    }
  }
  if (i === len) return 32;
  if (s.charCodeAt(i) !== 47 || i + 1 === len || len - i > 3) return -1; // '/' and one or two digits
  let bits = 0;
  for (i++; i < len; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    bits = bits * 10 + c;
  }
  return bits <= 32 ? bits : -1;
}
