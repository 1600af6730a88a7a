/**
 * Column pairs (bound `compareFields`) judged on Arrow buffers (compileArrowSelect → arrow-column-pair.ts) and on
 * JS values (parallel/row-filter.ts) against an oracle comparing bigints: every op, int against int, long against
 * long across the 32-bit word boundary and sign, int against long both ways (also 32-bit data of a promoted long
 * column), dates, timestamps, a date against a timestamp (JS only: the Arrow pass leaves it, `complete` false),
 * NULL on either side (never kept), and the pair inside an AND with a one-column test.
 */
import { describe, expect, it } from 'vitest';
import { vectorFromArray, Int32, Int64, DateDay, TimestampMicrosecond, type Data } from 'apache-arrow';
import type { BoundPredicate, CompareOp } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';

const N = 600;
const DAY = 86_400_000_000n;
/** small values (many equal pairs) and, every 5th row, values beyond 32 bits of either sign */
const long = (k: number, salt: number): bigint | null => (k % (11 + salt) === 0 ? null : k % 5 === 0 ? (BigInt((k * salt) % 7) - 3n) << 32n | BigInt((k * 13) % 3) : BigInt(((k * (7 + salt)) % 9) - 4));
const int = (k: number, salt: number): number | null => (k % (13 + salt) === 0 ? null : ((k * (5 + salt)) % 9) - 4);
const day = (k: number, salt: number): number | null => (k % (7 + salt) === 0 ? null : ((k * (3 + salt)) % 11) - 5);
/** half days around 2024-01-01 (19,723 days since 1970: the dates' range), every 4th a millisecond after */
const micros = (k: number): bigint | null => (k % 19 === 0 ? null : (2n * 19_723n + BigInt((k * 7) % 13) - 6n) * (DAY / 2n) + (k % 4 === 0 ? 1000n : 0n));
const P = (name: PrimitiveType['name']): PrimitiveType => ({ kind: 'primitive', name } as PrimitiveType);
const dateData = (f: (k: number) => number | null): Data => vectorFromArray(Array.from({ length: N }, (_v, k) => (f(k) === null ? null : new Date(Date.UTC(2024, 0, 1) + f(k)! * 86_400_000))), new DateDay()).data[0]!;
const columns: { type: PrimitiveType; data: Data }[] = [
  { type: P('long'), data: vectorFromArray(Array.from({ length: N }, (_v, k) => long(k, 1)), new Int64()).data[0]! },
  { type: P('long'), data: vectorFromArray(Array.from({ length: N }, (_v, k) => long(k, 2)), new Int64()).data[0]! },
  { type: P('int'), data: vectorFromArray(Array.from({ length: N }, (_v, k) => int(k, 1)), new Int32()).data[0]! },
  { type: P('int'), data: vectorFromArray(Array.from({ length: N }, (_v, k) => int(k, 2)), new Int32()).data[0]! },
  // an int column promoted to long: 32-bit data
  { type: P('long'), data: vectorFromArray(Array.from({ length: N }, (_v, k) => int(k, 3)), new Int32()).data[0]! },
  { type: P('date'), data: dateData((k) => day(k, 1)) },
  { type: P('date'), data: dateData((k) => day(k, 2)) },
  { type: P('timestamp'), data: vectorFromArray(Array.from({ length: N }, (_v, k) => { const m = micros(k); return m === null ? null : Number(m / 1000n); }), new TimestampMicrosecond()).data[0]! },
  { type: P('timestamp'), data: vectorFromArray(Array.from({ length: N }, (_v, k) => { const m = micros(k + 3); return m === null ? null : Number(m / 1000n); }), new TimestampMicrosecond()).data[0]! },
];
const values = columns.map((c) => arrowDataToValues(c.data, c.type, 'test'));
const data = columns.map((c) => c.data);
const ids = new Map(columns.map((_c, i) => [i + 1, i]));
const OPS: CompareOp[] = ['=', '<>', '<', '<=', '>', '>='];

/** a value as µs / an integer bigint (dates at midnight when against a timestamp), or null */
function big(v: unknown, t: PrimitiveType, other: PrimitiveType): bigint | null {
  if (v === null || v === undefined) return null;
  const b = BigInt(v as number | bigint);
  return t.name === 'date' && other.name === 'timestamp' ? b * DAY : b;
}

function holds(op: CompareOp, x: bigint, y: bigint): boolean {
  switch (op) {
    case '=': return x === y;
    case '<>': return x !== y;
    case '<': return x < y;
    case '<=': return x <= y;
    case '>': return x > y;
    case '>=': return x >= y;
  }
}

function oracle(op: CompareOp, a: number, b: number): number[] {
  const ta = columns[a]!.type, tb = columns[b]!.type;
  return Array.from({ length: N }, (_v, r) => r).filter((r) => {
    const x = big(values[a]![r], ta, tb), y = big(values[b]![r], tb, ta);
    return x !== null && y !== null && holds(op, x, y);
  });
}

const pair = (op: CompareOp, a: number, b: number): BoundPredicate =>
  ({ kind: 'compareFields', op, leftId: a + 1, leftType: columns[a]!.type, rightId: b + 1, rightType: columns[b]!.type });

const jsRows = (p: BoundPredicate): number[] => {
  const test = compileRowTest(p, ids)!;
  return Array.from({ length: N }, (_v, r) => r).filter((r) => test(values, r));
};

describe('column pairs', () => {
  it('are judged exactly on Arrow buffers and on JS values', () => {
    const pairs: [number, number][] = [[0, 1], [1, 0], [2, 3], [2, 0], [0, 2], [4, 1], [1, 4], [4, 2], [5, 6], [7, 8], [0, 0]];
    let nonTrivial = 0;
    for (const [a, b] of pairs) {
      for (const op of OPS) {
        const want = oracle(op, a, b);
        if (want.length > 0 && want.length < N / 2) nonTrivial++;
        const p = pair(op, a, b);
        expect(compileArrowSelect(p, ids)!(data, N), `${a} ${op} ${b}`).toEqual({ rows: want, complete: true });
        expect(jsRows(p), `${a} ${op} ${b} (JS)`).toEqual(want);
      }
    }
    expect(nonTrivial).toBeGreaterThan(20);
    // the data has values beyond 32 bits and NULLs on each side
    expect(values[0]!.some((v) => typeof v === 'bigint' && (v > 2n ** 32n || v < -(2n ** 32n)))).toBe(true);
    expect(values[1]!.includes(null) && values[0]!.includes(null)).toBe(true);
  });

  it('a date against a timestamp: the JS test at midnight, the Arrow pass leaves it to that test', () => {
    for (const [a, b] of [[5, 7], [7, 6]] as const) {
      for (const op of OPS) {
        const want = oracle(op, a, b);
        const p = pair(op, a, b);
        expect(jsRows(p), `${a} ${op} ${b}`).toEqual(want);
        const got = compileArrowSelect({ kind: 'and', args: [p, { kind: 'isNotNull', fieldId: 1, type: columns[0]!.type }] }, ids)!(data, N);
        expect(got!.complete).toBe(false);
        expect(want.filter((r) => values[0]![r] !== null).every((r) => got!.rows.includes(r))).toBe(true);
      }
    }
    // equal at midnight exists in the data (timestamps on whole and half days)
    expect(oracle('=', 5, 7).length).toBeGreaterThan(0);
  });

  it('runs after the one-column tests of an AND and keeps only rows both pass', () => {
    const p: BoundPredicate = { kind: 'and', args: [pair('<', 5, 6), { kind: 'compare', op: '>=', fieldId: 3, type: columns[2]!.type, value: 0 }] };
    const want = oracle('<', 5, 6).filter((r) => values[2]![r] !== null && (values[2]![r] as number) >= 0);
    expect(want.length).toBeGreaterThan(0);
    expect(compileArrowSelect(p, ids)!(data, N)).toEqual({ rows: want, complete: true });
  });
});
