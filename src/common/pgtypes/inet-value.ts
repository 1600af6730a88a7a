/**
 * inet and cidr values as lakegate keeps them: one canonical string for both types — inet_out's text
 * ('10.1.2.3', '10.0.0.0/8', '::ffff:1.2.3.4') — so cidr → inet is binary-coercible as in PostgreSQL,
 * equal values are equal strings (hash joins, GROUP BY, DISTINCT) and an Iceberg string column can hold
 * them. cidr's text output adds the mask back; ordering, functions and the binary format read the parts.
 * @see https://www.postgresql.org/docs/15/datatype-net-types.html
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { addressOK, PGSQL_AF_INET, PGSQL_AF_INET6, type InetParts } from './inet-address.ts';
import { cidrTextOf, inetText } from './inet-format.ts';
import { parseInet } from './inet-parse.ts';
import { compareInetSortKeys, inetSortKey } from './inet-sort-key.ts';
import { BoundedMemo } from '../bounded-memo.ts';

/** the parts of recently seen values: sorts and comparisons take the same strings apart many times */
const partsCache = new BoundedMemo<string, InetParts>(4096);
const partsOf = (value: string): InetParts => parseInet(value, false);

/** The parts of a canonical inet/cidr value. */
export function inetParts(value: string): InetParts {
  return partsCache.get(value, partsOf);
}

/** The canonical value of some parts. */
export function inetValue(p: InetParts): string {
  return inetText(p);
}

/** inet_in */
export function inetIn(text: string): string {
  return inetText(parseInet(text, false));
}

/** cidr_in */
export function cidrIn(text: string): string {
  return inetText(parseInet(text, true));
}

/** cidr_out */
export function cidrOut(value: string): string {
  return cidrTextOf(value, value.includes('/') ? undefined : inetParts(value).bits);
}

/** the sort keys of recently compared values (a key is cheaper to compare than parts, inet-sort-key.ts) */
const sortKeyCache = new BoundedMemo<string, string>(4096);

/** network_cmp over two canonical values */
export function compareInet(a: string, b: string): number {
  return a === b ? 0 : compareInetSortKeys(sortKeyCache.get(a, inetSortKey), sortKeyCache.get(b, inetSortKey));
}

/** network_send: family, bits, is_cidr, address length, address bytes. */
export function inetSend(value: string, isCidr: boolean): Uint8Array {
  const p = inetParts(value);
  const out = new Uint8Array(4 + p.addr.length);
  out[0] = p.family === 4 ? PGSQL_AF_INET : PGSQL_AF_INET6;
  out[1] = p.bits;
  out[2] = isCidr ? 1 : 0;
  out[3] = p.addr.length;
  out.set(p.addr, 4);
  return out;
}

function binaryError(message: string, detail?: string): GatewayError {
  return new GatewayError(SqlState.invalid_binary_representation, message, detail === undefined ? {} : { detail });
}

/** network_recv (the is_cidr byte is ignored, as PostgreSQL does) */
export function inetRecv(bytes: Uint8Array, isCidr: boolean): string {
  const typeName = isCidr ? 'cidr' : 'inet';
  if (bytes.length < 4) throw binaryError('insufficient data left in message');
  const family = bytes[0] === PGSQL_AF_INET ? 4 : bytes[0] === PGSQL_AF_INET6 ? 6 : 0;
  if (family === 0) throw binaryError(`invalid address family in external "${typeName}" value`);
  const bits = bytes[1]!;
  if (bits > (family === 4 ? 32 : 128)) throw binaryError(`invalid bits in external "${typeName}" value`);
  const nb = bytes[3]!;
  if (nb !== (family === 4 ? 4 : 16)) throw binaryError(`invalid length in external "${typeName}" value`);
  if (bytes.length < 4 + nb) throw binaryError('insufficient data left in message');
  if (bytes.length > 4 + nb) throw binaryError('incorrect binary data format');
  const addr = bytes.slice(4, 4 + nb);
  if (isCidr && !addressOK(addr, bits)) throw binaryError('invalid external "cidr" value', 'Value has bits set to right of mask.');
  return inetText({ family, bits, addr });
}

/**
 * A socket's address as an inet value: Node's text ('127.0.0.1', '::ffff:127.0.0.1', 'fe80::1%eth0') made
 * canonical, the zone dropped as PostgreSQL's client_addr has none; '' (a Unix-domain socket) is NULL.
 */
export function socketInet(address: string | undefined): string | null {
  if (address === undefined || address === '') return null;
  const zone = address.indexOf('%');
  try {
    return inetIn(zone === -1 ? address : address.slice(0, zone));
  } catch {
    return null;
  }
}
