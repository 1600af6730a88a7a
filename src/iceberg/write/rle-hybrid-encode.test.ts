/**
 * Parquet's RLE / bit-packing hybrid encoder decoded back by a reference reader: every width 1–32, lengths that do
 * and do not fill the last group of 8, runs long enough for RLE, and zero padding written over a reused sink's
 * stale bytes.
 */
import { describe, expect, it } from 'vitest';
import { ByteSink, encodeRleHybrid } from './rle-hybrid-encode.mjs';

/** the first `count` values of an RLE / bit-packed hybrid run sequence (the padding values checked to be 0) */
function decodeRleHybrid(bytes: Uint8Array, width: number, count: number): number[] {
  const out: number[] = [];
  let p = 0;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  while (p < bytes.length) {
    const header = varint();
    if (header % 2 === 0) {
      let v = 0;
      for (let k = 0; k < (width + 7) >> 3; k++) v += bytes[p++]! * 2 ** (8 * k);
      for (let k = 0; k < header / 2; k++) out.push(v);
    } else {
      const n = ((header - 1) / 2) * 8;
      let bit = 0;
      for (let k = 0; k < n; k++) {
        let v = 0;
        for (let b = 0; b < width; b++, bit++) v += ((bytes[p + (bit >> 3)]! >> (bit & 7)) & 1) * 2 ** b;
        out.push(v);
      }
      p += (n * width) / 8;
    }
  }
  for (const v of out.slice(count)) expect(v).toBe(0);
  return out.slice(0, count);
}

describe('encodeRleHybrid', () => {
  it('round-trips every width and length, padding with zeros over stale bytes', () => {
    let seed = 1;
    const next = (): number => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    const sink = new ByteSink(16);
    for (let width = 1; width <= 32; width++) {
      for (const length of [1, 7, 8, 9, 23, 64, 101]) {
        const max = width === 32 ? 2 ** 31 - 1 : 2 ** width - 1;
        const values = Int32Array.from({ length }, (_, i) => (i % 17 < 10 ? max : next() % (max + 1)));
        sink.reset();
        sink.buf.fill(0xff); // stale bytes of an earlier page
        encodeRleHybrid(sink, values, 0, length, width);
        expect(decodeRleHybrid(sink.view(), width, length)).toEqual([...values]);
      }
    }
  });
});
