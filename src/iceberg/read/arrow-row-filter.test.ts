/**
 * compileArrowSelect against the JS-value row test (parallel/row-filter.ts) on the same columns: every op on
 * int, date, long and timestamp data with nulls, negative values and constants on both sides of the 32-bit
 * word boundary, 32-bit data of a promoted long column, IS [NOT] NULL, and conjunctions with conjuncts it
 * cannot judge (then `complete` is false and the rows kept include every row the full test keeps).
 */
import { describe, expect, it } from 'vitest';
import { vectorFromArray, Int32, Int64, DateDay, TimestampMicrosecond, type Data } from 'apache-arrow';
import type { BoundPredicate, CompareOp } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';

const N = 500;
const big = (k: number): bigint | null => (k % 17 === 0 ? null : (BigInt(k - 250) << 31n) + BigInt((k * 7919) % 1000) - 500n);
const int = (k: number): number | null => (k % 13 === 0 ? null : ((k * 7919) % 2001) - 1000);
const columns: { type: PrimitiveType; data: Data }[] = [
  { type: { kind: 'primitive', name: 'long' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => big(k)), new Int64()).data[0]! },
  { type: { kind: 'primitive', name: 'int' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => int(k)), new Int32()).data[0]! },
  { type: { kind: 'primitive', name: 'date' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => (int(k) === null ? null : new Date(Date.UTC(2024, 0, 1) + int(k)! * 86_400_000))), new DateDay()).data[0]! },
  { type: { kind: 'primitive', name: 'timestamptz' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => (big(k) === null ? null : Number(big(k)! / 1000n))), new TimestampMicrosecond()).data[0]! },
  // an int column promoted to long: 32-bit data, bigint constants
  { type: { kind: 'primitive', name: 'long' }, data: vectorFromArray(Array.from({ length: N }, (_v, k) => int(k)), new Int32()).data[0]! },
];
const values = columns.map((c) => arrowDataToValues(c.data, c.type, 'test'));
const ids = new Map(columns.map((_c, i) => [i + 1, i]));
const OPS: CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];

function expected(p: BoundPredicate): number[] {
  const test = compileRowTest(p, ids);
  return Array.from({ length: N }, (_v, r) => r).filter((r) => test === null || test(values, r));
}

describe('compileArrowSelect', () => {
  it('selects the rows the JS test keeps, for every op and type', () => {
    let checked = 0;
    for (const [i, c] of columns.entries()) {
      const nonNull = values[i]!.filter((v) => v !== null);
      const consts = [nonNull[0], nonNull[77], nonNull[200], ...(c.type.name === 'int' || c.type.name === 'date' ? [0, -1001, 5000] : [0n, -1n, 2n ** 40n, -(2n ** 40n), 2n ** 31n, -(2n ** 31n) - 1n])];
      for (const value of consts) {
        for (const op of OPS) {
          const p: BoundPredicate = { kind: 'compare', op, fieldId: i + 1, type: c.type, value };
          const got = compileArrowSelect(p, ids)!(columns.map((x) => x.data), N);
          expect(got, `${c.type.name} ${op} ${String(value)}`).toEqual({ rows: expected(p), complete: true });
          checked++;
        }
      }
      for (const kind of ['isNull', 'isNotNull'] as const) {
        const p: BoundPredicate = { kind, fieldId: i + 1, type: c.type };
        expect(compileArrowSelect(p, ids)!(columns.map((x) => x.data), N)).toEqual({ rows: expected(p), complete: true });
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('narrows by the conjuncts it judges and says when others remain', () => {
    const long = columns[0]!.type;
    const handled: BoundPredicate = { kind: 'compare', op: '>', fieldId: 2, type: columns[1]!.type, value: 0 };
    const other: BoundPredicate = { kind: 'in', fieldId: 1, type: long, values: [big(3), big(4)] };
    const p: BoundPredicate = { kind: 'and', args: [handled, other] };
    const got = compileArrowSelect(p, ids)!(columns.map((x) => x.data), N)!;
    expect(got.complete).toBe(false);
    expect(got.rows).toEqual(expected(handled));
    for (const r of expected(p)) expect(got.rows).toContain(r);
    // nothing judged: null (the caller filters on values)
    expect(compileArrowSelect(other, ids)).toBeNull();
    expect(compileArrowSelect(handled, ids)!([], N)).toBeNull();
  });
});
