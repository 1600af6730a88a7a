/**
 * A key-only int8 column from decode to the main thread (a hash join's build key: exec/join-key-only.ts): the
 * scan worker converts an int64 chunk of a keyOnly field to exact doubles and placeholders, no BigInt
 * (arrow-fast-columns.ts), glues the pieces (batch-concat.ts) and packs the doubles (column-transfer.ts); the
 * main thread unpacks a key-only column again. Values of 2^53 or more in magnitude convert as bigints, and a
 * key-only piece glued to such a chunk turns into bigints too; fields a filter reads, and tasks with deletes or a
 * row range (their rows are picked) stay unmarked (keyOnlyFields).
 */
import { describe, expect, it } from 'vitest';
import { vectorFromArray, type Data } from 'apache-arrow';
import { arrowDataToValues } from '../read/arrow-values.ts';
import { fastPrimitiveValues, keyOnlyField, keyOnlyFields } from '../read/arrow-fast-columns.ts';
import { parsePrimitive, type NestedField, type PrimitiveType } from '../spec/schema.ts';
import { exactInt64Of, KEY_ONLY_INT64 } from '../../common/pgtypes/exact-int64-column.ts';
import { concatColumns } from '../../common/batch-concat.ts';
import { packBatch, unpackBatch } from './column-transfer.ts';

const field = (id: number, name: string, type: string): NestedField => ({ id, name, required: false, type: parsePrimitive(type) });
const keyType = keyOnlyField(field(1, 'k', 'long')).type as PrimitiveType;
const int64 = (xs: readonly (bigint | null)[]): Data => vectorFromArray([...xs]).data[0]!;

/** the bigints a key-only column stands for (NULL where it holds null) */
const valuesOf = (col: readonly unknown[]): unknown[] => {
  const x = exactInt64Of(col, col.length)!;
  return col.map((v, i) => (v === null ? null : v === KEY_ONLY_INT64 ? BigInt(x.f[i]!) : v));
};

const trip = (cols: readonly (readonly unknown[])[], n: number): readonly unknown[] => {
  const transfer: ArrayBufferLike[] = [];
  const packed = packBatch({ length: n, columns: cols }, cols.map(() => parsePrimitive('long')), transfer);
  expect(packed.columns[0]!.kind).toBe('i64exact');
  return unpackBatch(structuredClone(packed, { transfer: transfer as ArrayBuffer[] })).columns[0]!;
};

describe('key-only int8 columns', () => {
  const keys = [1n, null, -1n, 0n, 2n ** 32n, -(2n ** 32n) - 1n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, 4294967295n, -4294967296n];

  it('a keyOnly int64 chunk converts to placeholders and exact doubles, whole, sliced and at picked rows', () => {
    const d = int64(keys);
    const col = arrowDataToValues(d, keyType);
    expect(col.every((v) => v === null || v === KEY_ONLY_INT64)).toBe(true);
    expect(valuesOf(col)).toEqual(keys);
    expect(Array.from(exactInt64Of(col, col.length)!.nulls!)).toEqual(keys.map((v) => (v === null ? 1 : 0)));
    expect(valuesOf(arrowDataToValues(d.slice(3, 5), keyType))).toEqual(keys.slice(3, 8));
    expect(valuesOf(fastPrimitiveValues(d, keyType, [1, 4, 6, 7])!)).toEqual([null, 2n ** 32n, 2n ** 53n - 1n, -(2n ** 53n) + 1n]);
    // unmarked: bigints as always
    expect(arrowDataToValues(d, parsePrimitive('long'))).toEqual(keys);
  });

  it('a chunk with a value at or beyond ±2^53 converts as bigints', () => {
    for (const far of [2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n)]) {
      const xs = [5n, null, far];
      expect(arrowDataToValues(int64(xs), keyType)).toEqual(xs);
      // a pick without the far value is exact again
      expect(valuesOf(fastPrimitiveValues(int64(xs), keyType, [0, 1])!)).toEqual([5n, null]);
    }
  });

  it('crosses threads as its doubles and arrives key-only; glued pieces too', () => {
    const a = arrowDataToValues(int64(keys), keyType);
    const out = trip([a], a.length);
    expect(out.every((v) => v === null || v === KEY_ONLY_INT64)).toBe(true);
    expect(valuesOf(out)).toEqual(keys);
    const b = arrowDataToValues(int64([7n, 8n]), keyType);
    const glued = concatColumns([{ length: a.length, columns: [a] }, { length: 2, columns: [b] }], 1);
    expect(valuesOf(trip(glued.columns, glued.length))).toEqual([...keys, 7n, 8n]);
  });

  it('glued to a piece that converted as bigints, the key-only piece turns into bigints', () => {
    const a = arrowDataToValues(int64([3n, null, 4n]), keyType);
    const far = arrowDataToValues(int64([2n ** 60n, null]), keyType);
    const glued = concatColumns([{ length: 3, columns: [a] }, { length: 2, columns: [far] }], 1);
    expect(glued.columns[0]).toEqual([3n, null, 4n, 2n ** 60n, null]);
    const transfer: ArrayBufferLike[] = [];
    const packed = packBatch(glued, [parsePrimitive('long')], transfer);
    expect(packed.columns[0]!.kind).toBe('i64');
    expect(unpackBatch(packed).columns[0]).toEqual([3n, null, 4n, 2n ** 60n, null]);
  });

  it('keyOnlyFields marks the wanted long fields no filter reads, of tasks without deletes or row ranges', () => {
    const fields = [field(1, 'k', 'long'), field(2, 'd', 'date'), field(3, 'j', 'long')];
    const wanted = [0, 4, 5];
    const clean = [{ positionDeletes: [], equalityDeletes: [] }];
    const marked = (fs: readonly NestedField[]): boolean[] => fs.map((f) => (f.type as unknown as Record<string, unknown>)['lakegate:keyOnly'] === true);
    expect(marked(keyOnlyFields(fields, wanted, [0, 4, 5], new Set(), clean))).toEqual([true, false, true]);
    expect(marked(keyOnlyFields(fields, wanted, [5], new Set([3]), clean))).toEqual([false, false, false]);
    expect(keyOnlyFields(fields, wanted, undefined, new Set(), clean)).toBe(fields);
    expect(keyOnlyFields(fields, wanted, [0], new Set(), [...clean, { positionDeletes: [{}], equalityDeletes: [] }])).toBe(fields);
    expect(keyOnlyFields(fields, wanted, [0], new Set(), [...clean, { positionDeletes: [], equalityDeletes: [], rowRange: [0, 10] as const }])).toBe(fields);
  });
});
