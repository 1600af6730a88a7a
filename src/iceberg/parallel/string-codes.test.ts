/** A low-cardinality string column crosses threads as codes plus its distinct values, and arrives with every value. */
import { describe, expect, it } from 'vitest';
import type { IcebergType } from '../spec/schema.ts';
import { packBatch, unpackBatch } from './column-transfer.ts';

const STRING: IcebergType = { kind: 'primitive', name: 'string' };
const TYPES = ['PROMO BRUSHED COPPER', 'STANDARD PLATED TIN', 'ECONOMY ANODIZED STEEL', 'é ü 😀', ''];

function roundTrip(col: readonly unknown[]): { kind: string; out: readonly unknown[] } {
  const transfer: ArrayBufferLike[] = [];
  const packed = packBatch({ length: col.length, columns: [col] }, [STRING], transfer);
  const arrived = structuredClone(packed, { transfer: transfer as ArrayBuffer[] });
  return { kind: packed.columns[0]!.kind, out: unpackBatch(arrived).columns[0]! };
}

describe('string column transfer (string-codes.ts)', () => {
  it('sends a column of few distinct values as codes, NULLs and all values kept', () => {
    const col = Array.from({ length: 5000 }, (_, i) => (i % 7 === 3 ? null : TYPES[(i * 31) % TYPES.length]!));
    const { kind, out } = roundTrip(col);
    expect(kind).toBe('strcodes');
    expect(out).toEqual(col);
  });

  it('keeps the cloned form for many distinct values, short batches and non-string values', () => {
    expect(roundTrip(Array.from({ length: 5000 }, (_, i) => `comment ${i}`)).kind).toBe('cloned');
    // distinct values turning up late (past the first probe) still stop the dictionary at one per 8 rows
    const late = Array.from({ length: 8192 }, (_, i) => (i < 4096 ? 'x' : `v${i}`));
    expect(roundTrip(late)).toEqual({ kind: 'cloned', out: late });
    expect(roundTrip(['a', null, 'a']).kind).toBe('cloned');
    const mixed: unknown[] = Array.from({ length: 2000 }, () => 'a');
    mixed[1500] = 42;
    expect(roundTrip(mixed)).toEqual({ kind: 'cloned', out: mixed });
  });
});
