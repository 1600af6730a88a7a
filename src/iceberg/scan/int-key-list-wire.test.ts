/**
 * A runtime key filter's int8 key list as a scan worker sees it: marked on the main thread, packed into shared
 * memory, decoded with its typed words (parallel/filter-wire.ts) — the Arrow pass's key sets built from those words
 * (read/arrow-row-filter.ts via int64KeysSplit) keep exactly the rows an unmarked copy of the same keys keeps, for
 * keys on both sides of ±2^53 and of the 32-bit word boundary, NULL rows, and a list with keys no row holds.
 */
import { describe, expect, it } from 'vitest';
import { vectorFromArray, Int64 } from 'apache-arrow';
import { mulberry32 } from '../../common/prng.ts';
import type { BoundPredicate } from './bound-predicate.ts';
import { intKeyListRepr, markIntKeyList } from './int-key-list.ts';
import { fromWireFilter, toWireFilter } from '../parallel/filter-wire.ts';
import { compileArrowSelect } from '../read/arrow-row-filter.ts';

const LONG = { kind: 'primitive', name: 'long' } as const;
const EDGES = [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n), -(2n ** 53n) - 1n, 2n ** 32n, 2n ** 32n - 1n, -(2n ** 32n), 2n ** 63n - 1n, -(2n ** 63n), 0n, -1n];

describe('int8 key lists decoded in a scan worker', () => {
  it('keep the rows an unmarked copy of the keys keeps', () => {
    const rnd = mulberry32(20);
    const row = (k: number): bigint | null => (k % 23 === 0 ? null : k < EDGES.length ? EDGES[k]! : BigInt(Math.floor((rnd() - 0.5) * 2 ** 40)) * (k % 5 === 0 ? 100_003n : 1n));
    const rows = Array.from({ length: 3_000 }, (_v, k) => row(k));
    const data = vectorFromArray(rows, new Int64()).data[0]!;
    // every third row's key, the edges, and keys no row holds
    const keys = [...rows.filter((v, k): v is bigint => v !== null && k % 3 === 0), ...EDGES, 7n * 2n ** 54n, -123_456_789_012n];
    markIntKeyList(keys);
    const wire = structuredClone(toWireFilter({ kind: 'in', fieldId: 1, type: LONG, values: keys }));
    const decoded = fromWireFilter(wire);
    expect(decoded.kind === 'in' && intKeyListRepr(decoded.values)).toBe('bigint');
    const copy: BoundPredicate = { kind: 'in', fieldId: 1, type: LONG, values: [...keys] };
    const ids = new Map([[1, 0]]);
    const a = compileArrowSelect(decoded, ids)!([data], rows.length);
    const b = compileArrowSelect(copy, ids)!([data], rows.length);
    const want = new Set(keys);
    const expected = rows.flatMap((v, k) => (v !== null && want.has(v) ? [k] : []));
    expect(a?.rows).toEqual(expected);
    expect(b?.rows).toEqual(expected);
    expect(a?.complete).toBe(true);
  });
});
