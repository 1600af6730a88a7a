/**
 * A runtime key filter's array literal in a worker fragment (expr-wire.ts via iceberg/parallel/key-list-wire.ts):
 * it travels as shared typed words, comes back with the same values (int8 beyond ±2^53 exact), as the same array
 * for every task that carries the same keys (so the IN probe's set is built once: exec/in-list-set.ts), and as
 * another array for other keys of the same length; unmarked literal arrays travel as before.
 */
import { describe, expect, it } from 'vitest';
import { isPgArray, pgArray, type PgArray } from '../../common/pgtypes/values.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { markIntKeyList } from '../../iceberg/scan/int-key-list.ts';
import type { Expr } from '../../sql/index.ts';
import { decodeExpr, encodeExpr } from './expr-wire.ts';

const literal = (values: unknown[]): Expr => ({ kind: 'Literal', value: pgArray(Oid.int8, values), type: { oid: Oid._int8, typmod: -1 } } as unknown as Expr);
const roundTrip = (e: Expr): PgArray => {
  const d = decodeExpr(structuredClone(encodeExpr(e))) as Expr & { value: unknown };
  if (!isPgArray(d.value)) throw new Error('expected an array');
  return d.value;
};

describe('key list literals across threads', () => {
  it('come back as the same keys, one array per list', () => {
    const a = [...Array.from({ length: 300 }, (_v, i) => BigInt(i * 11)), 2n ** 60n + 1n];
    const b = [...Array.from({ length: 300 }, (_v, i) => BigInt(i * 11)), 2n ** 60n + 2n];
    markIntKeyList(a);
    markIntKeyList(b);
    const ra = roundTrip(literal(a));
    expect(ra.values).toEqual(a);
    expect(ra.dims).toEqual([a.length]);
    const copy = [...a];
    markIntKeyList(copy);
    expect(roundTrip(literal(copy)).values).toBe(ra.values);
    const rb = roundTrip(literal(b));
    expect(rb.values).not.toBe(ra.values);
    expect(rb.values).toEqual(b);
    // not marked: as before (its own array each time)
    const plain = [...a];
    const rp = roundTrip(literal(plain));
    expect(rp.values).toEqual(a);
    expect(rp.values).not.toBe(roundTrip(literal(plain)).values);
  });
});
