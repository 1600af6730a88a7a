import { describe, expect, it } from 'vitest';
import { decodeRleHybrid, decodeRleHybridAt } from './rle-hybrid-decode.ts';

/** encodes `values` as alternating RLE runs (repeats ≥ 8) and bit-packed groups, as Parquet writers do */
function encode(values: readonly number[], bitWidth: number): Uint8Array {
  const out: number[] = [];
  const varint = (v: number) => { while (v >= 0x80) { out.push((v & 0x7f) | 0x80); v >>>= 7; } out.push(v); };
  let i = 0;
  while (i < values.length) {
    let run = 1;
    while (i + run < values.length && values[i + run] === values[i]) run++;
    if (run >= 8) {
      varint(run << 1);
      for (let k = 0; k < (bitWidth + 7) >> 3; k++) out.push((values[i]! >> (8 * k)) & 0xff);
      i += run;
      continue;
    }
    const groups = Math.ceil(Math.min(values.length - i, 64) / 8);
    varint((groups << 1) | 1);
    let acc = 0n, bits = 0n;
    for (let k = 0; k < groups * 8; k++) {
      acc |= BigInt(values[i + k] ?? 0) << bits;
      bits += BigInt(bitWidth);
    }
    for (let k = 0; k < groups * bitWidth; k++) out.push(Number((acc >> BigInt(8 * k)) & 0xffn));
    i += groups * 8;
  }
  return Uint8Array.from(out);
}

describe('decodeRleHybridAt', () => {
  it('writes exactly the picked values (RLE runs and bit-packed groups, every width) and leaves the rest', () => {
    for (let w = 1; w <= 24; w++) {
      const max = 2 ** w;
      const values = Array.from({ length: 1000 }, (_, i) => (i % 100 < 30 ? (i * 2654435761) % max : (i >> 5) % max) >>> 0);
      const bytes = encode(values, w);
      // picks of a stream starting at row 5000 of its row group: first, last, and a spread of others
      const local = [0, 1, 7, 8, 9, 63, 64, 299, 300, 301, 517, 998, 999];
      const picks = [4000, ...local.map((j) => 5000 + j), 9000];
      const out = new Int32Array(1000).fill(-1);
      decodeRleHybridAt(bytes, 0, bytes.length, w, out, 1000, picks, 1, picks.length - 1, 5000, max);
      for (let j = 0; j < 1000; j++) expect(out[j], `width ${w} value ${j}`).toBe(local.includes(j) ? values[j] : -1);
    }
  });

  it('checks dictionary indices of the picked values and the stream bounds', () => {
    const bytes = encode([0, 1, 2, 3, 4, 5, 6, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1], 3);
    const out = new Int32Array(17);
    expect(() => decodeRleHybridAt(bytes, 0, bytes.length, 3, out, 17, [7], 0, 1, 0, 5)).toThrow(/dictionary index 7 past 5 entries/);
    decodeRleHybridAt(bytes, 0, bytes.length, 3, out, 17, [2, 16], 0, 2, 0, 5);
    expect([out[2], out[16]]).toEqual([2, 1]);
    expect(() => decodeRleHybridAt(bytes, 0, 3, 3, out, 17, [16], 0, 1, 0)).toThrow(/past the end of the page/);
  });
});

describe('decodeRleHybrid', () => {
  it('decodes RLE runs and bit-packed groups at every width up to 24', () => {
    for (let w = 1; w <= 24; w++) {
      const max = 2 ** w;
      const values = Array.from({ length: 1000 }, (_, i) => (i % 100 < 30 ? (i * 2654435761) % max : (i >> 5) % max) >>> 0);
      const bytes = encode(values, w);
      const out = new Int32Array(1000);
      const end = decodeRleHybrid(bytes, 0, bytes.length, w, out, 0, 1000);
      expect([...out], `width ${w}`).toEqual(values);
      expect(end).toBeLessThanOrEqual(bytes.length);
    }
  });

  it('decodes bit-packed runs 8 values at a time up to width 8, cut mid-group, at an offset', () => {
    for (let w = 1; w <= 8; w++) {
      const values = Array.from({ length: 1000 }, (_, i) => ((i * 2654435761) >>> 7) % 2 ** w);
      const bytes = encode(values, w);
      for (const count of [1000, 995, 7, 64, 65]) {
        const out = new Int32Array(count + 5).fill(-1);
        decodeRleHybrid(bytes, 0, bytes.length, w, out, 3, count);
        expect([...out.subarray(3, 3 + count)], `width ${w}, ${count} values`).toEqual(values.slice(0, count));
        expect([out[0], out[1], out[2], out[3 + count]]).toEqual([-1, -1, -1, -1]);
      }
    }
  });

  it('unpacks each of the 8 slots of a group alone at widths 1–8: all bits set beside zeros and zero beside all bits set', () => {
    for (let w = 1; w <= 8; w++) {
      const top = 2 ** w - 1;
      // group g: slot g % 8 differs from the other seven — all bits set among zeros for g < 32, then zero among all bits set
      const packed: number[] = [];
      for (let g = 0; g < 64; g++) for (let k = 0; k < 8; k++) packed.push((k === g % 8) === g < 32 ? top : 0);
      // an RLE run of 9 first (the bit-packed run starts at an odd offset), then all 512 values in one bit-packed run
      const bytes = [18, ...[top, 0].slice(0, (w + 7) >> 3)];
      let h = (64 << 1) | 1;
      while (h >= 0x80) { bytes.push((h & 0x7f) | 0x80); h >>>= 7; }
      bytes.push(h);
      for (let g = 0; g < 64; g++) {
        let acc = 0n;
        for (let k = 0; k < 8; k++) acc |= BigInt(packed[8 * g + k]!) << BigInt(k * w);
        for (let b = 0; b < w; b++) bytes.push(Number((acc >> BigInt(8 * b)) & 0xffn));
      }
      const values = [...new Array<number>(9).fill(top), ...packed];
      const out = new Int32Array(values.length);
      expect(decodeRleHybrid(Uint8Array.from(bytes), 0, bytes.length, w, out, 0, values.length, top + 1), `width ${w}`).toBe(bytes.length);
      expect([...out], `width ${w}`).toEqual(values);
    }
  });

  it('given the dictionary size, throws on an index past it in a bit-packed or an RLE run', () => {
    const packed = encode([0, 1, 2, 3, 4, 5, 6, 2], 3);
    expect(decodeRleHybrid(packed, 0, packed.length, 3, new Int32Array(8), 0, 8, 7)).toBe(packed.length);
    expect(() => decodeRleHybrid(packed, 0, packed.length, 3, new Int32Array(8), 0, 8, 6)).toThrow('dictionary index 6 past 6 entries');
    const run = encode(new Array<number>(20).fill(5), 3);
    expect(() => decodeRleHybrid(run, 0, run.length, 3, new Int32Array(20), 0, 20, 5)).toThrow('dictionary index 5 past 5 entries');
    expect(() => decodeRleHybrid(new Uint8Array(0), 0, 0, 0, new Int32Array(4), 0, 4, 0)).toThrow(/past 0 entries/);
    // a width whose every value fits the dictionary is not checked value by value; none is past it
    const wide = encode([3, 2, 1, 0, 3, 2, 1, 0], 2);
    expect(decodeRleHybrid(wide, 0, wide.length, 2, new Int32Array(8), 0, 8, 4)).toBe(wide.length);
  });

  it('fills zeros at width 0, decodes at an offset, and throws past the end', () => {
    const out = new Int32Array(10).fill(7);
    decodeRleHybrid(new Uint8Array(0), 0, 0, 0, out, 2, 5);
    expect([...out]).toEqual([7, 7, 0, 0, 0, 0, 0, 7, 7, 7]);
    const bytes = encode([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 1);
    expect(() => decodeRleHybrid(bytes, 0, bytes.length, 1, new Int32Array(20), 0, 20)).toThrow(/past the end/);
  });
});
