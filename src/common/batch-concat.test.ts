/**
 * concatColumns keeps what the scan workers attach to int8 columns (pgtypes/exact-int64-column.ts) — their
 * words, or doubles once read — so a join's build side glued from many batches still hashes its keys as numbers.
 */
import { describe, expect, it } from 'vitest';
import { concatColumns } from './batch-concat.ts';
import type { Batch } from './batch.ts';
import { attachExactInt64, attachInt64Words, exactInt64Of } from './pgtypes/exact-int64-column.ts';

/** a one-column batch of int8 values (null: NULL) with the words a worker's unpacked column carries */
function wordsBatch(values: readonly (bigint | null)[]): Batch {
  const words = new BigInt64Array(values.map((v) => v ?? 0n));
  const nulls = values.some((v) => v === null) ? new Uint8Array(values.map((v) => (v === null ? 1 : 0))) : null;
  const col = [...values];
  attachInt64Words(col, words, values.length, nulls);
  return { length: values.length, columns: [col] };
}

describe('concatColumns with int8 exact doubles', () => {
  it('keeps the words of every piece, NULLs where the pieces have them', () => {
    const out = concatColumns([wordsBatch([1n, 2n, -(2n ** 40n)]), wordsBatch([]), wordsBatch([null, 9007199254740991n])], 1);
    expect(out.columns[0]).toEqual([1n, 2n, -(2n ** 40n), null, 9007199254740991n]);
    const x = exactInt64Of(out.columns[0]!, 5)!;
    expect([...x.f]).toEqual([1, 2, -(2 ** 40), 0, 9007199254740991]);
    expect([...x.nulls!]).toEqual([0, 0, 0, 1, 0]);
  });

  it('glues pieces already read as doubles to pieces with words', () => {
    const a = wordsBatch([5n, null]);
    expect(exactInt64Of(a.columns[0]!, 2)).toBeDefined();
    const b = { length: 2, columns: [[7n, 8n]] };
    attachExactInt64(b.columns[0]!, new Float64Array([7, 8]), null);
    const out = concatColumns([a, b, wordsBatch([-3n])], 1);
    const x = exactInt64Of(out.columns[0]!, 5)!;
    expect([...x.f]).toEqual([5, 0, 7, 8, -3]);
    expect([...x.nulls!]).toEqual([0, 1, 0, 0, 0]);
  });

  it('attaches nothing when a piece has no doubles, or one value is not a safe integer', () => {
    const plain = concatColumns([wordsBatch([1n]), { length: 1, columns: [[2n]] }], 1);
    expect(exactInt64Of(plain.columns[0]!, 2)).toBeUndefined();
    const big = concatColumns([wordsBatch([1n]), wordsBatch([2n ** 60n])], 1);
    expect(big.columns[0]).toEqual([1n, 2n ** 60n]);
    expect(exactInt64Of(big.columns[0]!, 2)).toBeUndefined();
  });
});
