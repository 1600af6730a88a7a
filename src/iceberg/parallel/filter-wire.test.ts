/**
 * toWireFilter / fromWireFilter: long integer IN lists travel as typed arrays and come back as the same
 * values (negative, beyond 2^53, nested under AND / OR); short, mixed or NULL-holding lists travel as they
 * are; the structured clone is the one postMessage makes; wireFilterFor decodes once per scan id; a worker keeps
 * decoded key lists by content digest — the same keys come back as the same array (its sorted copy and sets built
 * once), a different list of the same length never gets another's array, int8 keys beyond ±2^53 compared exactly.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../common/prng.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { vectorFromArray, Int64 } from 'apache-arrow';
import { compileArrowSelect } from '../read/arrow-row-filter.ts';
import { sortedIntegerKeys } from '../scan/sorted-in-keys.ts';
import { intKeyListDigest, markIntKeyList } from '../scan/int-key-list.ts';
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

  /** the values of `p` decoded as a worker does for a new scan (a new clone of the wire form every time) */
  const decodedValues = (p: BoundPredicate): readonly unknown[] => {
    const b = fromWireFilter(structuredClone(toWireFilter(p)));
    if (b.kind !== 'in') throw new Error('expected an IN list');
    return b.values;
  };

  it('keeps decoded key lists by content: the same keys give the same array, different keys of the same length never', () => {
    const a = Array.from({ length: 500 }, (_v, i) => BigInt(i * 7));
    const b = Array.from({ length: 500 }, (_v, i) => BigInt(i * 7 + 1));
    markIntKeyList(a);
    const first = decodedValues({ kind: 'in', fieldId: 1, type: long, values: a });
    // the next run of the query: a new array of the same keys (from the join), a new scan, a new shared buffer
    const again = decodedValues({ kind: 'in', fieldId: 1, type: long, values: [...a] });
    expect(again).toBe(first);
    expect(sortedIntegerKeys(again)).toBe(sortedIntegerKeys(first));
    const other = decodedValues({ kind: 'in', fieldId: 1, type: long, values: b });
    expect(other).not.toBe(first);
    expect(other).toEqual(b);
    expect(first).toEqual(a);
    expect(intKeyListDigest(other)).not.toBe(intKeyListDigest(first));
    // the same keys in another order are another list (the digest follows the order): the right keys either way
    const reversed = decodedValues({ kind: 'in', fieldId: 1, type: long, values: [...a].reverse() });
    expect(reversed).toEqual([...a].reverse());
    // int4 keys of the same values are another representation
    const ints = decodedValues({ kind: 'in', fieldId: 2, type: int, values: a.map(Number) });
    expect(ints).toEqual(a.map(Number));
    expect(decodedValues({ kind: 'in', fieldId: 1, type: long, values: [...a] })).toBe(first);
  });

  it('tells int8 key lists apart that differ only beyond ±2^53 (the same doubles)', () => {
    const base = Array.from({ length: 200 }, (_v, i) => BigInt(i) * 3n);
    // 2^60 + 1 and 2^60 + 2 are the same double; so are their negatives
    const p = [...base, 2n ** 60n + 1n, -(2n ** 60n) - 1n];
    const q = [...base, 2n ** 60n + 2n, -(2n ** 60n) - 2n];
    expect(p.map(Number)).toEqual(q.map(Number));
    const dp = decodedValues({ kind: 'in', fieldId: 1, type: long, values: p });
    const dq = decodedValues({ kind: 'in', fieldId: 1, type: long, values: q });
    expect(dq).not.toBe(dp);
    expect(dq).toEqual(q);
    const rows = [2n ** 60n + 1n, 2n ** 60n + 2n, -(2n ** 60n) - 1n, -(2n ** 60n) - 2n, 3n, 4n, null];
    const data = vectorFromArray(rows, new Int64()).data[0]!;
    const ids = new Map([[1, 0]]);
    const kept = (values: readonly unknown[]) => compileArrowSelect({ kind: 'in', fieldId: 1, type: long, values }, ids)!([data], rows.length)?.rows;
    expect(kept(dp)).toEqual([0, 2, 4]);
    expect(kept(dq)).toEqual([1, 3, 4]);
    // served again from the memo: still each list's own keys
    expect(kept(decodedValues({ kind: 'in', fieldId: 1, type: long, values: [...p] }))).toEqual([0, 2, 4]);
    expect(kept(decodedValues({ kind: 'in', fieldId: 1, type: long, values: [...q] }))).toEqual([1, 3, 4]);
  });
});
