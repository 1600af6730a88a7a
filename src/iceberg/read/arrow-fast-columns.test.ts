/**
 * The tight Arrow → JS loops give exactly the values of the generic path: decimal128 around the 53-bit fast
 * path edges and beyond, utf8 chunks ASCII and not, dictionary strings, nulls, sliced (offset) chunks.
 */
import { describe, expect, it } from 'vitest';
import { DateDay, Decimal, Dictionary, Int32, Utf8, makeData, vectorFromArray, type Data } from 'apache-arrow';
import { arrowDataToValues } from './arrow-values.ts';
import { fastPrimitiveValues, numericOfUnscaled } from './arrow-fast-columns.ts';
import { parsePrimitive } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';

function decimalData(vals: (bigint | null)[], scale: number): Data {
  const words = new Uint32Array(vals.length * 4);
  const bitmap = new Uint8Array(Math.ceil(vals.length / 8));
  vals.forEach((v, i) => {
    if (v === null) return;
    bitmap[i >> 3]! |= 1 << (i & 7);
    let u = BigInt.asUintN(128, v);
    for (let w = 0; w < 4; w++, u >>= 32n) words[i * 4 + w] = Number(u & 0xffffffffn);
  });
  const nullCount = vals.filter((v) => v === null).length;
  return makeData({ type: new Decimal(scale, 38, 128), length: vals.length, nullCount, nullBitmap: bitmap, data: words });
}

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
});
