/** A low-cardinality string column crosses threads as codes plus its distinct values, and arrives with every value. */
import { describe, expect, it } from 'vitest';
import type { IcebergType } from '../spec/schema.ts';
import { attachDictionaryStrings } from '../read/dictionary-strings.ts';
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

  it("takes a dictionary-decoded column's own codes and entries, and arrives with every value", () => {
    const entries = [...TYPES, 'UNUSED IN THIS BATCH'];
    const codes = Int32Array.from({ length: 4096 }, (_, i) => (i * 31) % TYPES.length);
    const col = Array.from(codes, (c) => entries[c]!);
    attachDictionaryStrings(col, { codes, entries });
    const transfer: ArrayBufferLike[] = [];
    const packed = packBatch({ length: col.length, columns: [col] }, [STRING], transfer);
    const p = packed.columns[0]!;
    expect(p.kind === 'strcodes' && p.dict).toBe(entries);
    expect(roundTrip(col)).toEqual({ kind: 'strcodes', out: col });
  });

  it('packs an attached column by its values when its dictionary is too big for the batch', () => {
    const entries = Array.from({ length: 3000 }, (_, i) => `e${i}`);
    const codes = Int32Array.from({ length: 2048 }, (_, i) => i % 4);
    const col = Array.from(codes, (c) => entries[c]!);
    attachDictionaryStrings(col, { codes, entries });
    const transfer: ArrayBufferLike[] = [];
    const p = packBatch({ length: col.length, columns: [col] }, [STRING], transfer).columns[0]!;
    expect(p.kind === 'strcodes' && p.dict).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(roundTrip(col)).toEqual({ kind: 'strcodes', out: col });
  });
});
