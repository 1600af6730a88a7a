import { describe, expect, it } from 'vitest';
import { compareInetParts } from './inet-address.ts';
import { parseInet } from './inet-parse.ts';
import { compareInetSortKeys, inetSortKey } from './inet-sort-key.ts';
import { cidrIn, inetIn } from './inet-value.ts';

/** a small deterministic generator (xorshift) so a failure is reproducible */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

/** values that share prefixes, differ past their masks and mix families, so every branch of network_cmp is hit */
function sampleValues(n: number): string[] {
  const r = rng(26);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = () => pick([0, 1, 10, 127, 128, 192, 255, Math.floor(r() * 256)]);
    if (r() < 0.7) out.push(inetIn(`${pick([10, 192, o()])}.${o()}.${o()}.${o()}/${Math.floor(r() * 33)}`));
    else {
      const g = () => pick(['0', '1', 'ffff', 'db8', Math.floor(r() * 65536).toString(16)]);
      const text = r() < 0.2 ? `::ffff:${o()}.${o()}.${o()}.${o()}` : `${pick(['2001', 'fe80', '0'])}:${g()}:${g()}::${g()}:${g()}`;
      out.push(inetIn(`${text}/${Math.floor(r() * 129)}`));
    }
  }
  return out;
}

const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);

describe('inetSortKey', () => {
  it('orders every pair as network_cmp (compareInetParts) does', () => {
    const values = sampleValues(600);
    const keys = values.map(inetSortKey);
    for (let i = 0; i < values.length; i++) {
      for (let j = 0; j < values.length; j++) {
        const expected = sign(compareInetParts(parseInet(values[i]!, false), parseInet(values[j]!, false)));
        if (compareInetSortKeys(keys[i]!, keys[j]!) !== expected) expect([values[i], values[j], compareInetSortKeys(keys[i]!, keys[j]!)]).toEqual([values[i], values[j], expected]);
      }
    }
  });

  it('puts a shorter mask before a longer one over the same prefix, and IPv4 before IPv6 (as PostgreSQL 15 sorts them)', () => {
    const sorted = ['10.1.0.0/16', '::1', '10.0.0.0/8', '10.0.0.0/16', '9.255.255.255', '10.0.0.1/8', '10.0.0.0', '0.0.0.0/0', '::/0']
      .map(inetIn).sort((a, b) => compareInetSortKeys(inetSortKey(a), inetSortKey(b)));
    expect(sorted).toEqual(['0.0.0.0/0', '9.255.255.255', '10.0.0.0/8', '10.0.0.1/8', '10.0.0.0/16', '10.0.0.0', '10.1.0.0/16', '::/0', '::1']);
  });

  it('keys a cidr value as the inet value it is stored as', () => {
    expect(inetSortKey(cidrIn('10/8'))).toBe(inetSortKey(inetIn('10.0.0.0/8')));
    expect(inetSortKey(cidrIn('2001:db8::/32'))).toBe(inetSortKey(inetIn('2001:db8::/32')));
  });

  it('reads the IPv4 shapes it takes itself exactly as the general parser does', () => {
    for (const v of ['0.0.0.0', '255.255.255.255/0', '1.2.3.4/32', '1.2.3.4/9', '100.20.3.0/24']) {
      const p = parseInet(v, false);
      const slow = String.fromCharCode(0, ...p.addr.map((b, i) => b & ((0xff00 >> Math.max(0, Math.min(8, p.bits - 8 * i))) & 0xff)), p.bits, ...p.addr);
      expect(inetSortKey(v)).toBe(slow);
    }
  });
});
