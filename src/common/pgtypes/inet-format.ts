/**
 * Text output of inet and cidr: PostgreSQL's copies of BIND's inet_net_ntop (inet_out: all four IPv4 octets,
 * IPv6 with the longest zero run as '::' and an embedded IPv4 tail, the mask hidden when it is the full
 * width; cidr_out adds it back) and inet_cidr_ntop (abbrev(cidr): only the octets the mask covers).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/port/inet_net_ntop.c
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/inet_cidr_ntop.c
 */
import type { InetParts } from './inet-address.ts';

function dotted(addr: Uint8Array, from: number): string {
  return `${addr[from]}.${addr[from + 1]}.${addr[from + 2]}.${addr[from + 3]}`;
}

/** inet_net_ntop_ipv6's address part (no mask) */
function ipv6Text(src: Uint8Array): string {
  const words: number[] = [];
  for (let i = 0; i < 8; i++) words.push((src[2 * i]! << 8) | src[2 * i + 1]!);
  let bestBase = -1, bestLen = 0, curBase = -1, curLen = 0;
  for (let i = 0; i < 8; i++) {
    if (words[i] === 0) {
      if (curBase === -1) { curBase = i; curLen = 1; } else curLen++;
    } else if (curBase !== -1) {
      if (bestBase === -1 || curLen > bestLen) { bestBase = curBase; bestLen = curLen; }
      curBase = -1;
    }
  }
  if (curBase !== -1 && (bestBase === -1 || curLen > bestLen)) { bestBase = curBase; bestLen = curLen; }
  if (bestBase !== -1 && bestLen < 2) bestBase = -1;
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (bestBase !== -1 && i >= bestBase && i < bestBase + bestLen) {
      if (i === bestBase) out += ':';
      continue;
    }
    if (i !== 0) out += ':';
    // an encapsulated IPv4 address (::a.b.c.d, ::ffff:a.b.c.d)
    if (i === 6 && bestBase === 0 && (bestLen === 6 || (bestLen === 7 && words[7] !== 1) || (bestLen === 5 && words[5] === 0xffff))) {
      out += dotted(src, 12);
      break;
    }
    out += words[i]!.toString(16);
  }
  if (bestBase !== -1 && bestBase + bestLen === 8) out += ':';
  return out;
}

/** inet_net_ntop with `bits`: the address, then /bits unless it is the full width. */
export function netNtop(p: InetParts, bits: number = p.bits): string {
  const text = p.family === 4 ? dotted(p.addr, 0) : ipv6Text(p.addr);
  return bits === (p.family === 4 ? 32 : 128) ? text : `${text}/${bits}`;
}

/** inet_out: the canonical text lakegate keeps as the value of both types (values.ts). */
export function inetText(p: InetParts): string {
  return netNtop(p);
}

/** cidr_out from the canonical text: the mask is always shown. */
export function cidrTextOf(inetValue: string, bits: number | undefined): string {
  if (inetValue.includes('/')) return inetValue;
  return `${inetValue}/${bits ?? (inetValue.includes(':') ? 128 : 32)}`;
}

/** network_show (text(inet), inet::text): the address with its mask, always. */
export function inetShow(p: InetParts): string {
  return `${netNtop(p, p.family === 4 ? 32 : 128)}/${p.bits}`;
}

/** inet_cidr_ntop_ipv4: the octets the mask covers, the partial one masked, then /bits ('10.1/16'). */
function cidrNtopV4(src: Uint8Array, bits: number): string {
  let out = bits === 0 ? '0' : '';
  const whole = bits >> 3;
  for (let b = 0; b < whole; b++) out += (b > 0 ? '.' : '') + String(src[b]);
  const rest = bits & 7;
  if (rest > 0) {
    if (out !== '') out += '.';
    out += String(src[whole]! & (((1 << rest) - 1) << (8 - rest)));
  }
  return `${out}/${bits}`;
}

/** inet_cidr_ntop_ipv6: only the words the mask covers (at least two), zero run as '::', IPv4 tails. */
function cidrNtopV6(src: Uint8Array, bits: number): string {
  if (bits === 0) return '::/0';
  const s = new Uint8Array(16);
  const p = (bits + 7) >> 3;
  s.set(src.subarray(0, p));
  if (bits % 8 !== 0) s[p - 1] = s[p - 1]! & ((0xff << (8 - (bits % 8))) & 0xff);
  let words = (bits + 15) >> 4;
  if (words === 1) words = 2;
  let zeroS = 0, zeroL = 0, tmpS = 0, tmpL = 0;
  for (let i = 0; i < words * 2; i += 2) {
    if ((s[i]! | s[i + 1]!) === 0) {
      if (tmpL === 0) tmpS = i / 2;
      tmpL++;
    } else if (tmpL !== 0 && zeroL < tmpL) {
      // BIND resets the running count only when it became the longest (kept as PostgreSQL has it)
      zeroS = tmpS;
      zeroL = tmpL;
      tmpL = 0;
    }
  }
  if (tmpL !== 0 && zeroL < tmpL) { zeroS = tmpS; zeroL = tmpL; }
  const isV4 = zeroL !== words && zeroS === 0 && (zeroL === 6 || (zeroL === 5 && s[10] === 0xff && s[11] === 0xff) || (zeroL === 7 && s[14] !== 0 && s[15] !== 1));
  let out = '';
  let k = 0;
  for (let w = 0; w < words; w++) {
    if (zeroL !== 0 && w >= zeroS && w < zeroS + zeroL) {
      if (w === zeroS) out += ':';
      if (w === words - 1) out += ':';
      k += 2;
      continue;
    }
    if (isV4 && w > 5) {
      out += (w === 6 ? ':' : '.') + String(s[k++]);
      if (w !== 7 || bits > 120) out += '.' + String(s[k++]);
    } else {
      if (out !== '') out += ':';
      out += ((s[k]! << 8) | s[k + 1]!).toString(16);
      k += 2;
    }
  }
  return `${out}/${bits}`;
}

/** abbrev(cidr) */
export function cidrAbbrev(p: InetParts): string {
  return p.family === 4 ? cidrNtopV4(p.addr, p.bits) : cidrNtopV6(p.addr, p.bits);
}
