/**
 * Text input of inet and cidr: PostgreSQL's network_in over its copy of BIND's inet_net_pton, ported rule for
 * rule so the same strings are accepted and refused (cidr's classful widths: '10' → 10.0.0.0/8, '192.168.1'
 * → /24; inet needs a mask covering every octet given; IPv6 '::' shorthand and a trailing dotted IPv4).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/port/inet_net_pton.c
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { addressOK, type InetParts } from './inet-address.ts';

/** the pton functions' ENOENT / EMSGSIZE: both end as "invalid input syntax" */
const BAD = -1;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;

/** the character at i, 0 at the end (C's NUL terminator) */
const at = (s: string, i: number): number => (i < s.length ? s.charCodeAt(i) : 0);

/** inet_net_pton_ipv4: dotted decimal, a mask that covers every octet given (defaults to /32 with four). */
function inetPtonV4(src: string, dst: Uint8Array): number {
  let i = 0, n = 0, ch = at(src, i++);
  while (isDigit(ch)) {
    let tmp = 0;
    do {
      tmp = tmp * 10 + (ch - 48);
      if (tmp > 255) return BAD;
    } while ((ch = at(src, i++)) !== 0 && isDigit(ch));
    if (n === 4) return BAD;
    dst[n++] = tmp;
    if (ch === 0 || ch === 47) break; // '/'
    if (ch !== 46) return BAD; // '.'
    ch = at(src, i++);
  }
  let bits = -1;
  if (ch === 47 && isDigit(at(src, i)) && n > 0) {
    ch = at(src, i++);
    bits = 0;
    do bits = bits * 10 + (ch - 48); while ((ch = at(src, i++)) !== 0 && isDigit(ch) && bits <= 1000);
    if (ch !== 0) return BAD;
    if (bits > 32) return BAD;
  }
  if (ch !== 0) return BAD;
  if (bits === -1) {
    if (n === 4) bits = 32;
    else return BAD;
  }
  if (n === 0) return BAD;
  if (bits >> 3 > n) return BAD;
  return bits;
}

/** inet_cidr_pton_ipv4: decimal or 0x hex octets; without a mask the width comes from the address class. */
function cidrPtonV4(src: string, dst: Uint8Array): number {
  let i = 0, n = 0, ch = at(src, i++);
  if (ch === 48 && (at(src, i) === 120 || at(src, i) === 88) && hexValue(at(src, i + 1)) >= 0) {
    i++; // skip x
    let dirty = 0, tmp = 0;
    while ((ch = at(src, i++)) !== 0 && hexValue(ch) >= 0) {
      tmp = dirty === 0 ? hexValue(ch) : (tmp << 4) | hexValue(ch);
      if (++dirty === 2) {
        if (n === 4) return BAD;
        dst[n++] = tmp;
        dirty = 0;
      }
    }
    if (dirty !== 0) {
      if (n === 4) return BAD;
      dst[n++] = (tmp << 4) & 0xff;
    }
  } else if (isDigit(ch)) {
    for (;;) {
      let tmp = 0;
      do {
        tmp = tmp * 10 + (ch - 48);
        if (tmp > 255) return BAD;
      } while ((ch = at(src, i++)) !== 0 && isDigit(ch));
      if (n === 4) return BAD;
      dst[n++] = tmp;
      if (ch === 0 || ch === 47) break;
      if (ch !== 46) return BAD;
      ch = at(src, i++);
      if (!isDigit(ch)) return BAD;
    }
  } else {
    return BAD;
  }
  let bits = -1;
  if (ch === 47 && isDigit(at(src, i)) && n > 0) {
    ch = at(src, i++);
    bits = 0;
    do bits = bits * 10 + (ch - 48); while ((ch = at(src, i++)) !== 0 && isDigit(ch) && bits <= 1000);
    if (ch !== 0) return BAD;
    if (bits > 32) return BAD;
  }
  if (ch !== 0) return BAD;
  if (n === 0) return BAD;
  if (bits === -1) {
    const first = dst[0]!;
    bits = first >= 240 ? 32 : first >= 224 ? 8 : first >= 192 ? 24 : first >= 128 ? 16 : 8; // classes E, D, C, B, A
    if (bits < n * 8) bits = n * 8; // a mask narrower than the octets given widens
    if (bits === 8 && first === 224) bits = 4;
  }
  return bits;
}

/** getbits: a mask length 0..128, no leading zeros */
function getBits(src: string, i: number): number {
  let val = 0, n = 0;
  for (; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (!isDigit(c)) return BAD;
    if (n++ !== 0 && val === 0) return BAD;
    val = val * 10 + (c - 48);
    if (val > 128) return BAD;
  }
  return n === 0 ? BAD : val;
}

/** getv4: the dotted IPv4 tail of an IPv6 address, maybe with /bits; returns the bits (-1: none), NaN if bad */
function getV4(src: string, i: number, dst: Uint8Array, at0: number): number {
  let val = 0, n = 0, o = 0;
  for (; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (isDigit(c)) {
      if (n++ !== 0 && val === 0) return NaN;
      val = val * 10 + (c - 48);
      if (val > 255) return NaN;
      continue;
    }
    if (c === 46 || c === 47) {
      if (o > 3) return NaN;
      dst[at0 + o++] = val;
      if (c === 47) { const b = getBits(src, i + 1); return b === BAD ? NaN : b; }
      val = 0;
      n = 0;
      continue;
    }
    return NaN;
  }
  if (n === 0 || o > 3) return NaN;
  dst[at0 + o] = val;
  return -1;
}

/** inet_cidr_pton_ipv6 (inet_net_pton_ipv6 is the same): hex groups, one '::', an IPv4 tail, /bits. */
function ptonV6(src: string, dst: Uint8Array): number {
  const tmp = new Uint8Array(16);
  let tp = 0, colonp = -1, i = 0;
  if (at(src, 0) === 58 && at(src, ++i) !== 58) return BAD; // a leading ':' must be '::'
  let curtok = i, sawXdigit = false, val = 0, digits = 0, bits = -1;
  let ch: number;
  while ((ch = at(src, i++)) !== 0) {
    const h = hexValue(ch);
    if (h >= 0) {
      val = (val << 4) | h;
      if (++digits > 4) return BAD;
      sawXdigit = true;
      continue;
    }
    if (ch === 58) {
      curtok = i;
      if (!sawXdigit) {
        if (colonp !== -1) return BAD;
        colonp = tp;
        continue;
      } else if (at(src, i) === 0) {
        return BAD;
      }
      // BIND returns 0 here (too many groups): the value is then ::/0 with the bytes untouched
      if (tp + 2 > 16) return 0;
      tmp[tp++] = (val >> 8) & 0xff;
      tmp[tp++] = val & 0xff;
      sawXdigit = false;
      digits = 0;
      val = 0;
      continue;
    }
    if (ch === 46 && tp + 4 <= 16) {
      const b = getV4(src, curtok, tmp, tp);
      if (!Number.isNaN(b)) {
        bits = b;
        tp += 4;
        sawXdigit = false;
        break;
      }
    }
    if (ch === 47) {
      const b = getBits(src, i);
      if (b !== BAD) { bits = b; break; }
    }
    return BAD;
  }
  if (sawXdigit) {
    if (tp + 2 > 16) return BAD;
    tmp[tp++] = (val >> 8) & 0xff;
    tmp[tp++] = val & 0xff;
  }
  if (bits === -1) bits = 128;
  if (colonp !== -1) {
    const n = tp - colonp;
    if (tp === 16) return BAD;
    for (let k = 1; k <= n; k++) {
      tmp[16 - k] = tmp[colonp + n - k]!;
      tmp[colonp + n - k] = 0;
    }
    tp = 16;
  }
  if (tp !== 16) return BAD;
  dst.set(tmp);
  return bits;
}

function invalidSyntax(typeName: string, text: string): GatewayError {
  return new GatewayError(SqlState.invalid_text_representation, `invalid input syntax for type ${typeName}: "${text}"`);
}

/** network_in: the parts of an inet ('1.2.3.4/24' keeps its host bits) or cidr (host bits refused) literal. */
export function parseInet(text: string, isCidr: boolean): InetParts {
  const family = text.includes(':') ? 6 : 4;
  const addr = new Uint8Array(family === 4 ? 4 : 16);
  const bits = family === 6 ? ptonV6(text, addr) : isCidr ? cidrPtonV4(text, addr) : inetPtonV4(text, addr);
  if (bits < 0 || bits > (family === 4 ? 32 : 128)) throw invalidSyntax(isCidr ? 'cidr' : 'inet', text);
  if (isCidr && !addressOK(addr, bits)) {
    throw new GatewayError(SqlState.invalid_text_representation, `invalid cidr value: "${text}"`, { detail: 'Value has bits set to right of mask.' });
  }
  return { family, bits, addr };
}
