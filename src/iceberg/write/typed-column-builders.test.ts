/**
 * The typed builders' fast appends (typed-column-builders.ts) write what the general rule writes: a safe integer as
 * two (int64) or four (decimal, sign-extended) little-endian 32-bit words whatever its size — the int32 shortcut
 * included, at and around its edges — and a string's bytes followed by exactly `pad` blanks, for every length and
 * pad on both sides of the four-byte steps.
 */
import { describe, expect, it } from 'vitest';
import { DecimalBuilder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';

const EDGES = [
  0, -0, 1, -1, 7, -7, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 32 - 1, 2 ** 32, -(2 ** 32), 2 ** 32 + 1,
  123456789012, -123456789012, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 10495, -999999999999999,
];

describe('typed builders', () => {
  it('appendNumber: each value as its signed 64-bit integer', () => {
    const b = new Int64Builder(EDGES.length);
    for (const v of EDGES) b.appendNumber(v);
    const col = b.finish();
    expect(col.kind === 'int64' ? [...col.values] : []).toEqual(EDGES.map((v) => BigInt(v)));
  });

  it('appendUnscaled: each value as its signed 128-bit unscaled integer', () => {
    const b = new DecimalBuilder(EDGES.length, 38, 2);
    for (const v of EDGES) b.appendUnscaled(v);
    const col = b.finish();
    const got: bigint[] = [];
    if (col.kind === 'decimal') for (let i = 0; i < col.length; i++) got.push(BigInt.asIntN(128, (col.words[2 * i + 1]! << 64n) | BigInt.asUintN(64, col.words[2 * i]!)));
    expect(got).toEqual(EDGES.map((v) => BigInt(v)));
  });

  it('appendBytes: the bytes, then exactly `pad` blanks, at every length and pad', () => {
    const src = new TextEncoder().encode('x'.repeat(3) + 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    const want: string[] = [];
    const b = new Utf8Builder(60 * 24, 1);
    for (let len = 0; len < 60; len++) {
      for (let pad = 0; pad < 24; pad++) {
        b.appendBytes(src, 3, 3 + len, pad);
        want.push(new TextDecoder().decode(src.subarray(3, 3 + len)) + ' '.repeat(pad));
      }
    }
    const col = b.finish();
    const got: string[] = [];
    if (col.kind === 'utf8') for (let i = 0; i < col.length; i++) got.push(new TextDecoder().decode(col.data.subarray(col.offsets[i], col.offsets[i + 1])));
    expect(got).toEqual(want);
  });
});
