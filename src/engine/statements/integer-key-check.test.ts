/**
 * IntegerKeyCheck must name the same duplicated key as the Set of key texts it replaces (memory-table-keys.ts
 * keyTextAt: the first row, in scan order, whose key an earlier row has), over NULLs, several batches, int8
 * columns with and without attached exact doubles, negative values and composite keys whose ranges do not
 * fold into 2^53.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../common/batch.ts';
import { attachExactInt64 } from '../../common/pgtypes/exact-int64-column.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { keyTextAt } from '../memory-table-keys.ts';
import { IntegerKeyCheck, integerKeyColumns } from './integer-key-check.ts';

/** what the text Set answers: the first repeated key's values, or null */
function textAnswer(batches: readonly Batch[], columns: readonly number[], oids: readonly number[]): unknown[] | null {
  const seen = new Set<string>();
  for (const b of batches) {
    for (let i = 0; i < b.length; i++) {
      const k = keyTextAt(b, i, columns, oids);
      if (k === null) continue;
      if (seen.has(k)) return columns.map((c) => b.columns[c]![i]);
      seen.add(k);
    }
  }
  return null;
}

function checkAnswer(batches: readonly Batch[], columns: readonly number[], oids: readonly number[]): unknown[] | null {
  const check = new IntegerKeyCheck(columns, oids);
  for (const b of batches) expect(check.add(b)).toBe(true);
  const dup = check.firstDuplicate();
  return dup === null ? null : [...dup];
}

/** a seeded generator, so a failure repeats */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function randomBatches(seed: number, int8: boolean, spread: number, nullRate: number, attach: boolean): Batch[] {
  const r = rng(seed);
  const out: Batch[] = [];
  for (let b = 0; b < 4; b++) {
    const n = 1 + Math.floor(r() * 50);
    const a: unknown[] = [], x: unknown[] = [], c: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const v = Math.floor(r() * spread) - Math.floor(spread / 3);
      a.push(r() < nullRate ? null : int8 ? BigInt(v) : v);
      x.push('pad');
      c.push(r() < nullRate ? null : Math.floor(r() * 7) + 1);
    }
    if (int8 && attach && !a.includes(null)) attachExactInt64(a, Float64Array.from(a as bigint[], Number), null);
    out.push({ length: n, columns: [a, x, c] });
  }
  return out;
}

describe('IntegerKeyCheck', () => {
  it('takes int2 / int4 / int8 keys only', () => {
    expect(integerKeyColumns([Oid.int8, Oid.int4, Oid.int2])).toBe(true);
    expect(integerKeyColumns([Oid.int4, Oid.text])).toBe(false);
    expect(integerKeyColumns([])).toBe(false);
  });

  it('names the same first duplicate as the text Set (random one- and two-column keys, NULLs, int8 with and without doubles)', () => {
    let duplicates = 0, unique = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const int8 = seed % 2 === 0;
      const batches = randomBatches(seed, int8, seed % 3 === 0 ? 100_000 : 300, seed % 5 === 0 ? 0.1 : 0, seed % 4 < 2);
      const oidA = int8 ? Oid.int8 : Oid.int4;
      for (const [columns, oids] of [[[0], [oidA]], [[0, 2], [oidA, Oid.int2]], [[2, 0], [Oid.int4, oidA]]] as const) {
        const expected = textAnswer(batches, columns, oids);
        expect(checkAnswer(batches, columns, oids), `seed ${seed} columns ${columns.join(',')}`).toEqual(expected);
        if (expected === null) unique++; else duplicates++;
      }
    }
    // both outcomes were exercised
    expect(duplicates).toBeGreaterThan(50);
    expect(unique).toBeGreaterThan(50);
  });

  it('composite keys whose ranges do not fold into 2^53 are checked as text', () => {
    const big = 2 ** 40;
    const a = [big, -big, big, 0];
    const b = [1, 2 ** 20, 1, 5];
    const batch: Batch = { length: 4, columns: [a, b] };
    expect(checkAnswer([batch], [0, 1], [Oid.int8, Oid.int8])).toEqual([BigInt(big), 1n]);
    const distinct: Batch = { length: 3, columns: [a.slice(0, 2).concat([0]), b.slice(0, 3)] };
    expect(checkAnswer([distinct], [0, 1], [Oid.int8, Oid.int8])).toBeNull();
  });

  it('refuses int8 values beyond ±2^53 and keeps the keys so far for the text Set, in scan order', () => {
    const check = new IntegerKeyCheck([0], [Oid.int8]);
    expect(check.add({ length: 3, columns: [[5n, 7n, 5n]] })).toBe(true);
    expect(check.add({ length: 1, columns: [[2n ** 60n]] })).toBe(false);
    const seen = new Set<string>();
    expect(check.replayAsText(seen, (k) => k.join(','))).toEqual([5n]);
    const clean = new IntegerKeyCheck([0], [Oid.int8]);
    clean.add({ length: 2, columns: [[5n, 7n]] });
    const seen2 = new Set<string>();
    expect(clean.replayAsText(seen2, (k) => k.join(','))).toBeNull();
    expect([...seen2]).toEqual(['5', '7']);
  });

  it('no rows, or only NULL keys: unique', () => {
    expect(checkAnswer([], [0], [Oid.int4])).toBeNull();
    expect(checkAnswer([{ length: 2, columns: [[null, null]] }], [0], [Oid.int4])).toBeNull();
  });
});
