/**
 * toWireFilter / fromWireFilter: long integer IN lists travel as typed arrays and come back as the same
 * values (negative, beyond 2^53, nested under AND / OR); short, mixed or NULL-holding lists travel as they
 * are; the structured clone is the one postMessage makes; wireFilterFor decodes once per scan id.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../common/prng.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { fromWireFilter, toWireFilter, wireFilterFor } from './filter-wire.ts';

const long = { kind: 'primitive', name: 'long' } as const;
const int = { kind: 'primitive', name: 'int' } as const;

describe('filter wire', () => {
  it('round-trips IN lists of every shape through structured clone', () => {
    const rnd = mulberry32(12);
    const bigs = Array.from({ length: 1000 }, () => BigInt(Math.floor(rnd() * 2 ** 40)) * (rnd() < 0.5 ? -1n : 1n) * 1000n);
    bigs.push(2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n);
    const ints = Array.from({ length: 500 }, () => Math.floor(rnd() * 2 ** 31) - 2 ** 30);
    const p: BoundPredicate = {
      kind: 'and', args: [
        { kind: 'in', fieldId: 1, type: long, values: bigs },
        { kind: 'or', args: [{ kind: 'in', fieldId: 2, type: int, values: ints }, { kind: 'in', fieldId: 2, type: int, values: [1, 2] }] },
        { kind: 'in', fieldId: 2, type: int, values: [...ints, null] },
        { kind: 'compare', op: '>', fieldId: 1, type: long, value: 5n },
      ],
    };
    const wire = toWireFilter(p) as { args: { values: unknown }[] };
    expect(wire.args[0]!.values).toEqual({ $inI64: expect.any(BigInt64Array) });
    expect(Array.isArray(wire.args[2]!.values)).toBe(true); // a NULL in the list: as it is
    expect(fromWireFilter(structuredClone(wire))).toEqual(p);
  });

  it('decodes once per scan id', () => {
    const p: BoundPredicate = { kind: 'in', fieldId: 1, type: int, values: Array.from({ length: 100 }, (_v, i) => i * 3 - 50) };
    const a = wireFilterFor('scan-a', structuredClone(toWireFilter(p)));
    expect(a).toEqual(p);
    expect(wireFilterFor('scan-a', structuredClone(toWireFilter(p)))).toBe(a);
    expect(wireFilterFor('scan-b', structuredClone(toWireFilter(p)))).not.toBe(a);
  });
});
