import { describe, expect, it } from 'vitest';
import { compareInetParts } from '../../common/pgtypes/inet-address.ts';
import { parseInet } from '../../common/pgtypes/inet-parse.ts';
import { inetIn } from '../../common/pgtypes/inet-value.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { KeySpec } from './sort-compare.ts';
import { sortByKeyRanks } from './sort-key-ranks.ts';
import { sortByValueKeys, valueSortKeyOf } from './sort-value-keys.ts';

interface Entry { readonly key: readonly unknown[]; readonly row: number }

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

/** the reference order written from network_cmp's parts (not compareValues, which the sort keys now serve) */
function referenceOrder(specs: readonly KeySpec[], entries: readonly Entry[]): number[] {
  const cmp = (s: KeySpec, x: unknown, y: unknown): number => {
    if (x === null || y === null) return x === y ? 0 : (x === null) === s.nullsFirst ? -1 : 1;
    const c = s.oid === Oid.int4 ? (x as number) - (y as number) : compareInetParts(parseInet(x as string, false), parseInet(y as string, false));
    return s.descending ? -c : c;
  };
  return [...entries].sort((a, b) => {
    for (let k = 0; k < specs.length; k++) {
      const c = cmp(specs[k]!, a.key[k], b.key[k]);
      if (c !== 0) return c;
    }
    return 0;
  }).map((e) => e.row);
}

function addresses(n: number, distinct: number): (string | null)[] {
  const r = rng(distinct);
  const pool: string[] = [];
  for (let i = 0; i < distinct; i++) {
    const a = Math.floor(r() * 2 ** 32);
    pool.push(r() < 0.25
      ? inetIn(`2001:db8::${(a >>> 16).toString(16)}:${(a & 0xffff).toString(16)}/${Math.floor(r() * 129)}`)
      : inetIn(`${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/${Math.floor(r() * 33)}`));
  }
  return Array.from({ length: n }, () => (r() < 0.03 ? null : pool[Math.floor(r() * distinct)]!));
}

const spec = (oid: number, descending = false, nullsFirst = descending): KeySpec => ({ oid, descending, nullsFirst });

describe('sortByValueKeys', () => {
  it('keys inet and cidr only', () => {
    expect(valueSortKeyOf(Oid.inet)).toBeDefined();
    expect(valueSortKeyOf(Oid.cidr)).toBeDefined();
    expect(valueSortKeyOf(Oid.text)).toBeUndefined();
    expect(sortByValueKeys([spec(Oid.text)], [{ key: ['b'] }, { key: ['a'] }], sortByKeyRanks)).toBeUndefined();
  });

  it('keys a mostly distinct leading inet key, and leaves few distinct values to the ranks', () => {
    const many = addresses(3000, 3000).map((v) => ({ key: [v] }));
    const few = addresses(3000, 20).map((v) => ({ key: [v] }));
    expect(sortByValueKeys([spec(Oid.inet)], many, sortByKeyRanks)).toBeDefined();
    expect(sortByValueKeys([spec(Oid.inet)], few, sortByKeyRanks)).toBeUndefined();
    expect(sortByValueKeys([spec(Oid.int4), spec(Oid.inet)], many.map((e, i) => ({ key: [i, e.key[0]] })), sortByKeyRanks)).toBeUndefined();
  });

  it.each([[5000, 4000], [5000, 40]])('sorts %i rows of %i distinct addresses as network_cmp, stably, in every direction', (n, distinct) => {
    const values = addresses(n, distinct);
    const r = rng(3);
    for (const [desc, nullsFirst] of [[false, false], [false, true], [true, true], [true, false]] as const) {
      for (const specs of [[spec(Oid.inet, desc, nullsFirst)], [spec(Oid.cidr, desc, nullsFirst), spec(Oid.int4, !desc)]]) {
        const entries: Entry[] = values.map((v, i) => ({ key: [v, Math.floor(r() * 3)], row: i }));
        const before = entries.map((e) => e.key);
        const sorted = sortByKeyRanks(specs, entries.slice());
        expect(sorted.map((e) => e.row)).toEqual(referenceOrder(specs, entries));
        // the caller's key arrays still hold the values (a spilled run compares them again under the specs)
        expect(entries.map((e) => e.key)).toEqual(before);
      }
    }
  });
});
