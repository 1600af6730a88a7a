import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors.ts';
import { Oid } from './oids.ts';
import { textIn, textOut } from './text-io.ts';
import { binaryIn, binaryOut } from './binary-io.ts';
import { cidrAbbrev } from './inet-format.ts';
import { compareInet, inetParts, socketInet } from './inet-value.ts';
import { inetShowText } from './inet-math.ts';
import { pgArray } from './values.ts';

/**
 * [type, input, text(x) | 'ERR', output (null: not recorded for inet) | SQLSTATE, abbrev(x) | message], as
 * PostgreSQL 15 answered them (a plpgsql probe over 61 inputs, both types).
 */
type Row = [string, string, string, string | null, string];
const rows = JSON.parse(readFileSync(new URL('./testdata/inet-pg15.json', import.meta.url), 'utf8')) as Row[];

function errorOf(f: () => unknown): GatewayError {
  try {
    f();
  } catch (e) {
    if (GatewayError.is(e)) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('inet / cidr text input and output as PostgreSQL 15', () => {
  it.each(rows.map((r) => [`${r[0]} '${r[1]}'`, r] as const))('%s', (_title, [type, input, show, out, abbrev]) => {
    const oid = type === 'cidr' ? Oid.cidr : Oid.inet;
    if (show === 'ERR') {
      const e = errorOf(() => textIn(oid, -1, input));
      expect([e.code, e.message]).toEqual([out, abbrev]);
      if (abbrev.startsWith('invalid cidr value')) expect(e.detail).toBe('Value has bits set to right of mask.');
      return;
    }
    const v = textIn(oid, -1, input) as string;
    expect(inetShowText(v)).toBe(show);
    if (out !== null) expect(textOut(oid, v)).toBe(out);
    expect(oid === Oid.cidr ? cidrAbbrev(inetParts(v)) : v).toBe(abbrev);
  });

  it('keeps one value form for both types: inet hides the full-width mask, cidr shows it', () => {
    expect(textIn(Oid.cidr, -1, '10.1.2.3')).toBe('10.1.2.3');
    expect(textOut(Oid.cidr, '10.1.2.3')).toBe('10.1.2.3/32');
    expect(textOut(Oid.inet, '10.1.2.3')).toBe('10.1.2.3');
    expect(textOut(Oid._cidr, pgArray(Oid.cidr, ['::1', null]))).toBe('{::1/128,NULL}');
  });
});

describe('inet / cidr binary send and receive (network_send / network_recv)', () => {
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
  it('sends family, bits, is_cidr, length and address bytes as PostgreSQL', () => {
    // inet_send('10.1.2.3/24'), cidr_send('10/8'), inet_send('::1') on PostgreSQL 15
    expect(hex(binaryOut(Oid.inet, '10.1.2.3/24'))).toBe('021800040a010203');
    expect(hex(binaryOut(Oid.cidr, '10.0.0.0/8'))).toBe('020801040a000000');
    expect(hex(binaryOut(Oid.inet, '::1'))).toBe('0380001000000000000000000000000000000001');
    // array_send(ARRAY['10.1.2.3'::inet, NULL])
    expect(hex(binaryOut(Oid._inet, pgArray(Oid.inet, ['10.1.2.3', null])))).toBe('000000010000000100000365000000020000000100000008022000040a010203ffffffff');
  });

  it('receives them back, refusing what network_recv refuses', () => {
    expect(binaryIn(Oid.inet, Buffer.from('021800040a010203', 'hex'))).toBe('10.1.2.3/24');
    expect(binaryIn(Oid.cidr, Buffer.from('020801040a000000', 'hex'))).toBe('10.0.0.0/8');
    expect(binaryIn(Oid.inet, Buffer.from('0380001000000000000000000000000000000001', 'hex'))).toBe('::1');
    const bad = (oid: number, h: string): string => errorOf(() => binaryIn(oid, Buffer.from(h, 'hex'))).message;
    expect(bad(Oid.inet, '071800040a010203')).toBe('invalid address family in external "inet" value');
    expect(bad(Oid.cidr, '022100040a010203')).toBe('invalid bits in external "cidr" value');
    expect(bad(Oid.inet, '021800100a010203')).toBe('invalid length in external "inet" value');
    expect(bad(Oid.cidr, '021800040a010203')).toBe('invalid external "cidr" value');
    expect(errorOf(() => binaryIn(Oid.inet, Buffer.from('0218', 'hex'))).code).toBe('22P03');
  });
});

describe('network_cmp ordering', () => {
  it('orders by family, network bits, mask length, then the whole address', () => {
    const values = ['::1', '10.1.2.3', '10.0.0.0/16', '10.1.2.3/24', '0.0.0.0/0', '10.0.0.0/8', '9.255.255.255', '::/0'];
    expect([...values].sort(compareInet)).toEqual(['0.0.0.0/0', '9.255.255.255', '10.0.0.0/8', '10.0.0.0/16', '10.1.2.3/24', '10.1.2.3', '::/0', '::1']);
    expect(compareInet('10.1.2.3', '10.1.2.3')).toBe(0);
  });
});

describe('socketInet', () => {
  it('makes a socket address an inet value: zone dropped, Unix socket NULL', () => {
    expect(socketInet('::ffff:127.0.0.1')).toBe('::ffff:127.0.0.1');
    expect(socketInet('fe80::1%eth0')).toBe('fe80::1');
    expect(socketInet('')).toBeNull();
    expect(socketInet(undefined)).toBeNull();
  });
});
