import { describe, expect, it } from 'vitest';
import snappy from 'snappyjs';
import { snappyDecompress } from './snappy-decompress.ts';

/** deterministic bytes: text-like runs, repeats at short and long distances, and noise */
function sample(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const mode = (i >> 9) % 4;
    out[i] = mode === 0 ? x >>> 24 : mode === 1 ? 97 + (i % 7) : mode === 2 ? out[Math.max(0, i - 3)]! : (i * 31) & 0xff;
  }
  return out;
}

describe('snappyDecompress', () => {
  it('inverts snappyjs.compress on literals, short and long copies, overlapping runs', () => {
    for (const [n, seed] of [[0, 1], [1, 2], [15, 3], [16, 4], [61, 5], [300, 6], [70_000, 7], [300_000, 8]] as const) {
      const src = sample(n, seed);
      expect(snappyDecompress(snappy.compress(src), n)).toEqual(src);
    }
    const zeros = new Uint8Array(100_000);
    expect(snappyDecompress(snappy.compress(zeros), zeros.length)).toEqual(zeros);
  });

  it('rejects a wrong length, a bad offset and a cut-short block', () => {
    const src = sample(5000, 9);
    const c = snappy.compress(src);
    expect(() => snappyDecompress(c, 4999)).toThrow(/page header says 4999/);
    expect(() => snappyDecompress(c.subarray(0, c.length - 3), 5000)).toThrow(/snappy/);
    // preamble 8, then a 2-byte-offset copy (tag type 2) reaching before the start
    expect(() => snappyDecompress(Uint8Array.of(8, (3 << 2) | 2, 9, 0), 8)).toThrow(/bad copy offset/);
  });
});
