import { describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import { attachExactInt64 } from '../../common/pgtypes/exact-int64-column.ts';
import { DistinctRows } from './distinct-rows.ts';
import { IntPairSet } from './int-pair-set.ts';
import type { Sel } from './vector-types.ts';

/** the reference: a row is first when its (group, value) text pair was not seen and its value is not NULL */
function referenceFirst(seen: Set<string>, sel: Sel, vals: readonly unknown[], n: number, gids: Int32Array): number[] {
  const out: number[] = [];
  const m = sel === null ? n : sel.length;
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const x = vals[i];
    if (x === null || x === undefined) continue;
    const key = `${gids[i]}:${String(x)}`;
    if (!seen.has(key)) { seen.add(key); out.push(i); }
  }
  return out;
}

function batches(oid: number, big: (b: number) => boolean): { vals: unknown[]; gids: Int32Array; sel: Sel }[] {
  const out: { vals: unknown[]; gids: Int32Array; sel: Sel }[] = [];
  for (let b = 0; b < 6; b++) {
    const n = 3000;
    const vals: unknown[] = [];
    const gids = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      gids[i] = (i * 7 + b) % 50;
      const v = (i * 13 + b * 5) % 400 - 200;
      vals.push(i % 17 === 0 ? null : oid === Oid.int8 ? (big(b) && i % 5 === 0 ? 2n ** 60n + BigInt(v) : BigInt(v)) : v);
    }
    const sel = b % 2 === 0 ? null : Int32Array.from({ length: n / 3 }, (_, j) => j * 3);
    out.push({ vals, gids, sel });
  }
  return out;
}

describe('DistinctRows', () => {
  for (const [name, oid, big] of [
    ['int4', Oid.int4, () => false],
    ['int8 below 2^53', Oid.int8, () => false],
    ['int8 reaching 2^60 in the fourth batch (pairs move to the GroupTable)', Oid.int8, (b: number) => b >= 3],
  ] as const) {
    it(`keeps the first row of each new (group, value) pair over batches: ${name}`, () => {
      const d = new DistinctRows([oid]);
      const seen = new Set<string>();
      for (const { vals, gids, sel } of batches(oid, big)) {
        const expected = referenceFirst(seen, sel, vals, vals.length, gids);
        expect([...d.firstRows(sel, [{ tag: 'values', v: vals }], vals.length, gids)]).toEqual(expected);
        expect(d.size).toBe(seen.size);
      }
    });
  }

  it('reads an int8 column by its attached exact doubles and NULL marks', () => {
    const n = 1000;
    const f = new Float64Array(n);
    const nulls = new Uint8Array(n);
    const vals: unknown[] = [];
    for (let i = 0; i < n; i++) {
      nulls[i] = i % 9 === 0 ? 1 : 0;
      f[i] = nulls[i] ? 0 : (i * 31) % 97;
      vals.push(nulls[i] ? null : BigInt(f[i]!));
    }
    attachExactInt64(vals, f, nulls);
    const gids = Int32Array.from({ length: n }, (_, i) => i % 4);
    const expected = referenceFirst(new Set(), null, vals, n, gids);
    expect([...new DistinctRows([Oid.int8]).firstRows(null, [{ tag: 'values', v: vals }], n, gids)]).toEqual(expected);
  });
});

describe('IntPairSet', () => {
  it('tells new pairs from seen ones through growth, over both words of the value', () => {
    const set = new IntPairSet(4);
    const seen = new Set<string>();
    for (let i = 0; i < 20000; i++) {
      const g = i % 13;
      const x = ((i * 7919) % 5003) * 4294967296 + ((i * 104729) % 7) - 3;
      expect(set.add(g, x)).toBe(!seen.has(`${g}:${x}`));
      seen.add(`${g}:${x}`);
    }
    expect(set.size).toBe(seen.size);
  });
});
