/**
 * compileRowTest's IN lists: the answers (long, string, char(n) padded, NULL) and the lookup set built once per
 * values array and only when a row is tested — a runtime key filter's list is shared by every file task of a
 * scan (filter-wire.ts), and building its Set per file cost TPC-H Q4/Q8 a fifth of their scan-worker CPU.
 */
import { describe, expect, it } from 'vitest';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { compileRowTest } from './row-filter.ts';

const long = { kind: 'primitive', name: 'long' } as const;
const str = { kind: 'primitive', name: 'string' } as const;

/** an array whose iterations (what `new Set(array)` does) are counted */
function counted<T>(items: T[]): { values: T[]; iterations: () => number } {
  let n = 0;
  const values = [...items];
  const iter = values[Symbol.iterator].bind(values);
  Object.defineProperty(values, Symbol.iterator, { value: () => { n++; return iter(); } });
  return { values, iterations: () => n };
}

const rowsKept = (p: BoundPredicate, col: readonly unknown[]): number[] => {
  const test = compileRowTest(p, new Map([[1, 0]]))!;
  return col.flatMap((_v, r) => (test([col], r) ? [r] : []));
};

describe('compileRowTest IN lists', () => {
  it('keeps the rows whose value is listed; NULL never', () => {
    expect(rowsKept({ kind: 'in', fieldId: 1, type: long, values: [3n, 5n, 8n] }, [1n, 3n, null, 5n, 8n, 9n])).toEqual([1, 3, 4]);
    expect(rowsKept({ kind: 'in', fieldId: 1, type: str, values: ['AIR', 'RAIL'] }, ['AIR', 'AIR ', null, 'RAIL', 'SHIP'])).toEqual([0, 3]);
    // char(n): stored blanks are padding
    expect(rowsKept({ kind: 'in', fieldId: 1, type: str, values: ['AIR'], padded: true }, ['AIR   ', 'AIR', 'AIRX', null])).toEqual([0, 1]);
  });

  it('builds the lookup set on first use, once per values array', () => {
    const keys = counted(Array.from({ length: 1000 }, (_v, i) => BigInt(i * 3)));
    const p: BoundPredicate = { kind: 'and', args: [{ kind: 'in', fieldId: 1, type: long, values: keys.values }, { kind: 'isNotNull', fieldId: 1, type: long }] };
    // one compile per file task of the scan
    const tests = Array.from({ length: 5 }, () => compileRowTest(p, new Map([[1, 0]]))!);
    expect(keys.iterations()).toBe(0);
    const col = [0n, 1n, 2997n, 3000n];
    for (const t of tests) expect(col.map((_v, r) => t([col], r))).toEqual([true, false, true, false]);
    expect(keys.iterations()).toBe(1);
  });

  it('padded lists too', () => {
    const names = counted(['MAIL', 'SHIP']);
    const p: BoundPredicate = { kind: 'in', fieldId: 1, type: str, values: names.values, padded: true };
    const a = compileRowTest(p, new Map([[1, 0]]))!;
    const b = compileRowTest(p, new Map([[1, 0]]))!;
    expect(names.iterations()).toBe(0);
    expect([a([['SHIP  ']], 0), b([['TRUCK ']], 0), b([['MAIL']], 0)]).toEqual([true, false, true]);
    expect(names.iterations()).toBe(1);
  });
});
