/**
 * The tight Arrow → JS loops give exactly the values of the generic path: decimal128 around the 53-bit fast
 * path edges and beyond, utf8 chunks ASCII and not, dictionary strings, nulls, sliced (offset) chunks.
 */
import { describe, expect, it } from 'vitest';
import { DateDay, Dictionary, Int32, Utf8, vectorFromArray, type Data } from 'apache-arrow';
import { arrowDataToValues } from './arrow-values.ts';
import { codesOnlyField, fastPrimitiveValues, numericOfUnscaled, scaledOnlyField, withoutCodesOnly } from './arrow-fast-columns.ts';
import { parsePrimitive, type PrimitiveType } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { denseLazyNumerics, isLazyNumeric, isSparseNumerics, LAZY_NUMERIC, materializeAllNumerics, materializeNumerics, scaledColumnOf } from '../../common/pgtypes/numeric-column.ts';
import { pickRows } from './file-scan-task-reader.ts';
import { takeColumn } from '../../exec/join-gather.ts';
import { concatColumns } from '../../common/batch-concat.ts';
import { scaledToValues, toScaled } from '../../exec/expr/vector-numeric.ts';
import { setDictionaryCodes } from './dictionary-codes.ts';
import { dictionaryScaledOf } from './dictionary-scaled.ts';
import { dictionaryStringsOf, isLazyStrings, materializedStrings } from './dictionary-strings.ts';
import { setExactDoubles } from './exact-doubles.ts';
import { decimalData as decimal128 } from './testing/decimal-data.ts';

const decimalData = (vals: readonly (bigint | null)[], scale: number): Data => decimal128(vals, 38, scale);

const plain = (xs: unknown[]) => xs.map((x) => (Numeric.isNumeric(x) ? [x.kind, x.unscaled, x.scale] : x));

describe('fastPrimitiveValues', () => {
  const edges = [0n, 1n, -1n, 8191n, 8192n, -8192n, -8193n, 4294967295n, 4294967296n, -4294967296n, -4294967297n,
    2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) + 1n, -(2n ** 53n), -(2n ** 53n) - 1n,
    2n ** 63n, -(2n ** 64n), 10n ** 37n, -(10n ** 37n), 2n ** 127n - 1n, -(2n ** 127n), null, 12345n];

  it('decimal128 equals Numeric.of(unscaled, scale) across the 53-bit edges, with nulls and slices', () => {
    const d = decimalData(edges, 2);
    const want = edges.map((v) => (v === null ? null : Numeric.of(v, 2)));
    expect(plain(arrowDataToValues(d, parsePrimitive('decimal(38, 2)')))).toEqual(plain(want));
    expect(plain(arrowDataToValues(d.slice(10, 15), parsePrimitive('decimal(38, 2)')))).toEqual(plain(want.slice(10, 25)));
    // shared small values still carry their own scale
    const s0 = arrowDataToValues(decimalData([5n], 0), parsePrimitive('decimal(9, 0)'))[0] as Numeric;
    expect([s0.unscaled, s0.scale, s0.toString()]).toEqual([5n, 0, '5']);
  });

  it('utf8: ASCII chunk, non-ASCII chunk, one-byte strings, empty strings, nulls, slices', () => {
    const ascii = ['A', 'N', '', null, 'hello world, a longer string', 'R', 'x'];
    const mixed = ['A', 'é', '', null, '日本語', 'F', '\u{1F600}x'];
    for (const xs of [ascii, mixed]) {
      const d = vectorFromArray(xs, new Utf8()).data[0]!;
      expect(arrowDataToValues(d, parsePrimitive('string'))).toEqual(xs);
      expect(arrowDataToValues(d.slice(2, 4), parsePrimitive('string'))).toEqual(xs.slice(2, 6));
    }
    expect(arrowDataToValues(vectorFromArray([], new Utf8()).data[0]!, parsePrimitive('string'))).toEqual([]);
  });

  it('dictionary<utf8> decodes entries once and maps indices, nulls kept', () => {
    const xs = ['O', 'F', null, 'O', 'é', 'F'];
    const v = vectorFromArray(xs, new Dictionary(new Utf8(), new Int32()));
    const d = v.data[0]!;
    expect(fastPrimitiveValues(d, parsePrimitive('string'))).not.toBeNull();
    expect(arrowDataToValues(d, parsePrimitive('string'))).toEqual(xs);
  });

  it('dictionary<utf8> without NULLs keeps its codes and entries beside the column; with NULLs or picked rows none', () => {
    const xs = ['O', 'F', 'F', 'O', 'é', 'F'];
    const d = vectorFromArray(xs, new Dictionary(new Utf8(), new Int32())).data[0]!;
    const col = fastPrimitiveValues(d, parsePrimitive('string'))!;
    expect(col).toEqual(xs);
    const kept = dictionaryStringsOf(col)!;
    expect([...kept.codes].map((c) => kept.entries[c])).toEqual(xs);
    // the batches of one chunk share one entries array (dictionary-key-groups.ts keeps its code table by identity)
    expect(dictionaryStringsOf(fastPrimitiveValues(d, parsePrimitive('string'))!)!.entries).toBe(kept.entries);
    const withNulls = vectorFromArray(['O', null, 'F'], new Dictionary(new Utf8(), new Int32())).data[0]!;
    expect(dictionaryStringsOf(fastPrimitiveValues(withNulls, parsePrimitive('string'))!)).toBeUndefined();
    expect(dictionaryStringsOf(fastPrimitiveValues(d, parsePrimitive('string'), [1, 4])!)).toBeUndefined();
  });

  it('codesOnly dictionary<utf8>: a whole chunk without NULLs is a lazy column of its codes; else the values', () => {
    const xs = ['O', 'F', 'F', 'O', 'é', 'F'];
    const d = vectorFromArray(xs, new Dictionary(new Utf8(), new Int32())).data[0]!;
    const field = codesOnlyField({ id: 1, name: 's', required: false, type: parsePrimitive('string') });
    const t = field.type as PrimitiveType;
    const lazy = fastPrimitiveValues(d, t)!;
    expect(isLazyStrings(lazy)).toBe(true);
    expect(lazy.length).toBe(xs.length);
    expect(materializedStrings(lazy)).toEqual(xs);
    // picked rows, NULLs: the values as usual
    expect(fastPrimitiveValues(d, t, [1, 4])).toEqual(['F', 'é']);
    const withNulls = vectorFromArray(['O', null, 'F'], new Dictionary(new Utf8(), new Int32())).data[0]!;
    expect(fastPrimitiveValues(withNulls, t)).toEqual(['O', null, 'F']);
    // the mark survives structured clone (fields travel to the workers) and can be taken off again
    expect(isLazyStrings(fastPrimitiveValues(d, structuredClone(field).type as PrimitiveType)!)).toBe(true);
    const plain = withoutCodesOnly(field);
    expect(isLazyStrings(fastPrimitiveValues(d, plain.type as PrimitiveType)!)).toBe(false);
    expect(plain.type).toEqual(parsePrimitive('string'));
  });

  it('date32, int, long (int64 and promoted int32), double, float', () => {
    const dates = vectorFromArray([19000, null, -1], new Int32()).data[0]!;
    expect(arrowDataToValues(dates, parsePrimitive('int'))).toEqual([19000, null, -1]);
    expect(arrowDataToValues(dates, parsePrimitive('long'))).toEqual([19000n, null, -1n]);
    expect(arrowDataToValues(vectorFromArray([1n, null, -(2n ** 63n)]).data[0]!, parsePrimitive('long'))).toEqual([1n, null, -(2n ** 63n)]);
    expect(arrowDataToValues(vectorFromArray([0.1, null, NaN, -0]).data[0]!, parsePrimitive('double'))).toEqual([0.1, null, NaN, -0]);
    expect(arrowDataToValues(vectorFromArray([0.1, null]).data[0]!, parsePrimitive('float'))).toEqual([Math.fround(0.1), null]);
    const day = vectorFromArray([new Date(Date.UTC(2020, 0, 2)), null, new Date(Date.UTC(1969, 11, 31))], new DateDay()).data[0]!;
    expect(arrowDataToValues(day, parsePrimitive('date'))).toEqual([18263, null, -1]);
  });

  it('numericOfUnscaled equals Numeric.of at the shared-range edges and shares small values per scale', () => {
    for (const u of [-8193n, -8192n, -1n, 0n, 1n, 8191n, 8192n, 2n ** 63n - 1n, -(2n ** 63n)]) {
      for (const scale of [0, 2, 38]) {
        const v = numericOfUnscaled(u, scale);
        expect([v.kind, v.unscaled, v.scale]).toEqual([0, u, scale]);
      }
    }
    expect(numericOfUnscaled(42n, 2)).toBe(numericOfUnscaled(42n, 2));
    expect(numericOfUnscaled(42n, 2)).not.toBe(numericOfUnscaled(42n, 3));
  });

  describe('scaledOnly decimals (lazy columns)', () => {
    const lazyType = scaledOnlyField({ id: 1, name: 'x', required: false, type: parsePrimitive('decimal(15, 2)') }).type as PrimitiveType;
    const small = [0n, 1n, -1n, 8191n, 8192n, -8193n, 123456789n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, null, 4294967296n];

    it('gives placeholders and the exact doubles; materializing gives the eager values', () => {
      const d = decimalData(small, 2);
      const col = fastPrimitiveValues(d, lazyType)!;
      expect(isLazyNumeric(col)).toBe(true);
      expect(col.map((v) => (v === null ? null : v === LAZY_NUMERIC))).toEqual(small.map((v) => (v === null ? null : true)));
      const att = scaledColumnOf(col)!;
      expect([...att.f].filter((_x, i) => small[i] !== null)).toEqual(small.filter((v) => v !== null).map(Number));
      expect(() => (col[0] as Numeric).unscaled).toThrow(/lazy numeric/);
      materializeNumerics(col);
      expect(isLazyNumeric(col)).toBe(false);
      expect(plain(col)).toEqual(plain(arrowDataToValues(d, parsePrimitive('decimal(15, 2)'))));
      // the type mark survives structured clone (it travels to the scan workers)
      expect(structuredClone(lazyType)).toEqual(lazyType);
    });

    it('a chunk without NULLs says so (the kernels skip their NULL scan); one with NULLs marks them', () => {
      const none = fastPrimitiveValues(decimalData([150n, -2n, 99n], 2), lazyType)!;
      expect(scaledColumnOf(none)).toMatchObject({ lazy: true, noNulls: true });
      expect(toScaled({ tag: 'values', v: none }, null, 3)!.nul).toBeNull();
      const some = fastPrimitiveValues(decimalData([150n, null, 99n], 2), lazyType)!;
      expect(scaledColumnOf(some)!.noNulls).toBeUndefined();
      expect([...toScaled({ tag: 'values', v: some }, null, 3)!.nul!]).toEqual([0, 1, 0]);
      expect([...toScaled({ tag: 'values', v: some }, Int32Array.from([1, 2]), 3)!.nul!]).toEqual([0, 1, 0]);
      // taken rows may be NULL (a -1 index): the copy does not claim it (a Filter is handed the dense column)
      expect(scaledColumnOf(takeColumn(denseLazyNumerics(none), Int32Array.from([0, -1]), 2))!.noNulls).toBeUndefined();
    });

    it('a chunk without NULLs is sparse: no element, and reading or testing any index is an internal error', () => {
      const vals = [150n, -2n, 99n, 0n];
      const col = fastPrimitiveValues(decimalData(vals, 2), lazyType)!;
      expect(isSparseNumerics(col)).toBe(true);
      expect(col.length).toBe(4);
      // one element: the last row's placeholder
      expect(Object.keys(col)).toEqual(['3']);
      expect(col[3]).toBe(LAZY_NUMERIC);
      // a consumer that forgot to materialize fails: no hole reads as undefined (a NULL to `== null`)
      for (const read of [() => col[1], () => col[0] == null, () => col.includes(null), () => col.some((v) => v == null), () => [...col], () => col.map((v) => v), () => 2 in col]) {
        expect(read).toThrow(/internal error: a lazy numeric column was read/);
      }
      expect([...scaledColumnOf(col)!.f]).toEqual(vals.map(Number));
      // the kernels' view: doubles, no NULL scan; values wanted: the Numerics, in place
      expect(toScaled({ tag: 'values', v: col }, null, 4)).toMatchObject({ tag: 'scaled', scale: 2, nul: null });
      const dense = denseLazyNumerics(col);
      expect(dense).not.toBe(col);
      expect(dense.every((v) => v === LAZY_NUMERIC)).toBe(true);
      expect(scaledColumnOf(dense)).toBe(scaledColumnOf(col));
      const taken = takeColumn(dense, Int32Array.from([2, 0]), 2);
      expect(isLazyNumeric(taken)).toBe(true);
      expect([...scaledColumnOf(taken)!.f]).toEqual([99, 150]);
      materializeNumerics(col);
      expect(isSparseNumerics(col)).toBe(false);
      expect(isLazyNumeric(col)).toBe(false);
      expect(plain(col)).toEqual(plain(vals.map((u) => Numeric.of(u, 2))));
      expect(scaledColumnOf(col)).toMatchObject({ scale: 2, noNulls: true });
      // picked rows (position deletes) stay sparse and lazy, with their doubles
      const again = fastPrimitiveValues(decimalData(vals, 2), lazyType)!;
      const picked = pickRows(again, [3, 1]);
      expect(isSparseNumerics(picked) && isLazyNumeric(picked)).toBe(true);
      expect(scaledColumnOf(picked)).toMatchObject({ scale: 2, noNulls: true, lazy: true });
      materializeAllNumerics([picked]);
      expect(plain(picked)).toEqual(plain([0n, -2n].map((u) => Numeric.of(u, 2))));
      // glued (a scan worker's small batches before packing, batch-concat.ts): sparse when every piece is, else dense
      const glued = concatColumns([{ length: 4, columns: [again] }, { length: 2, columns: [pickRows(again, [0, 2])] }], 1).columns[0]!;
      expect(isSparseNumerics(glued)).toBe(true);
      expect(scaledColumnOf(glued)).toMatchObject({ scale: 2, lazy: true, noNulls: true });
      expect([...scaledColumnOf(glued)!.f]).toEqual([150, -2, 99, 0, 150, 99]);
      const withNull = fastPrimitiveValues(decimalData([7n, null], 2), lazyType)!;
      const mixed = concatColumns([{ length: 4, columns: [again] }, { length: 2, columns: [withNull] }], 1).columns[0]!;
      expect(isSparseNumerics(mixed)).toBe(false);
      materializeNumerics(mixed);
      expect(plain([...mixed])).toEqual(plain([150n, -2n, 99n, 0n, 7n, null].map((u) => (u === null ? null : Numeric.of(u, 2)))));
      // selected rows of a chunk without NULLs: sparse too
      expect(isSparseNumerics(fastPrimitiveValues(decimalData(vals, 2), lazyType, [0, 2])!)).toBe(true);
    });

    it('selected rows and sliced chunks', () => {
      const d = decimalData(small, 2).slice(2, 8);
      const col = fastPrimitiveValues(d, lazyType, [0, 3, 5])!;
      materializeAllNumerics([col]);
      expect(plain(col)).toEqual(plain([-1n, -8193n, 2n ** 53n - 1n].map((u) => Numeric.of(u, 2))));
    });

    it('a value past 2^53 makes the chunk eager (no doubles can hold it)', () => {
      const d = decimalData([5n, 2n ** 53n, null], 2);
      const col = fastPrimitiveValues(d, lazyType)!;
      expect(isLazyNumeric(col)).toBe(false);
      expect(plain(col)).toEqual(plain([Numeric.of(5n, 2), Numeric.of(2n ** 53n, 2), null]));
    });

    it('stays lazy through take and concat, and the vector kernels hand out Numerics when values are wanted', () => {
      const d = decimalData([150n, null, -2n, 99n], 2);
      const col = fastPrimitiveValues(d, lazyType)!;
      const taken = takeColumn(col, Int32Array.from([3, -1, 0]), 3);
      expect(isLazyNumeric(taken)).toBe(true);
      const glued = concatColumns([{ length: 4, columns: [col] }, { length: 3, columns: [taken] }], 1).columns[0]!;
      expect(isLazyNumeric(glued)).toBe(true);
      // glued to a column without doubles: Numerics first
      const mixed = concatColumns([{ length: 3, columns: [taken] }, { length: 1, columns: [[Numeric.of(7n, 2)]] }], 1).columns[0]!;
      expect(plain([...mixed])).toEqual(plain([Numeric.of(99n, 2), null, Numeric.of(150n, 2), Numeric.of(7n, 2)]));
      const s = toScaled({ tag: 'values', v: glued }, null, 7)!;
      expect([...s.nul!]).toEqual([0, 1, 0, 0, 0, 1, 0]);
      expect(plain([...scaledToValues(s, null, 7)])).toEqual(plain([150n, null, -2n, 99n, 99n, null, 150n].map((u) => (u === null ? null : Numeric.of(u, 2)))));
      expect(isLazyNumeric(glued)).toBe(false);
    });

    it('a dictionary-coded chunk without NULLs keeps its codes and gathers its doubles only when read', () => {
      const entries = [5n, -120n, 0n, 9007199254740991n];
      const codes = Uint8Array.from([1, 0, 3, 3, 2, 1, 0]);
      const dictionary = decimalData(entries, 2);
      setExactDoubles(dictionary, Float64Array.from(entries, Number));
      const coded = (vals: (bigint | null)[]): { d: Data; gathers: () => number } => {
        const d = decimalData(vals, 2);
        let gathers = 0;
        const all = (): Float64Array => { gathers++; return Float64Array.from(vals, (v) => Number(v ?? 0n)); };
        setExactDoubles(d, { all, at: (i) => Number(vals[i] ?? 0n) });
        setDictionaryCodes(d, { codes, dictionary });
        return { d, gathers: () => gathers };
      };
      const vals = [...codes].map((c) => entries[c]!);
      const { d, gathers } = coded(vals);
      const col = fastPrimitiveValues(d, lazyType)!;
      expect(dictionaryScaledOf(col)).toEqual({ codes, entries: Float64Array.from(entries, Number) });
      expect(gathers()).toBe(0);
      expect(scaledColumnOf(col)).toMatchObject({ scale: 2, lazy: true, noNulls: true });
      expect([...scaledColumnOf(col)!.f]).toEqual(vals.map(Number));
      expect(gathers()).toBe(1);
      materializeNumerics(col);
      expect(plain(col)).toEqual(plain(vals.map((u) => Numeric.of(u, 2))));
      // NULLs, or a pick of rows: no codes beside the column
      const withNull = coded([...vals.slice(0, 6), null]);
      expect(dictionaryScaledOf(fastPrimitiveValues(withNull.d, lazyType)!)).toBeUndefined();
      expect(dictionaryScaledOf(fastPrimitiveValues(coded(vals).d, lazyType, [0, 2])!)).toBeUndefined();
    });
  });
});
