import { describe, expect, it } from 'vitest';
import snappy from 'snappyjs';
import { NATIVE_MIN_BYTES, nativeSnappyLoaded, snappyDecompressPage } from './native-snappy.ts';

/** decimal-like page bytes: little-endian int64s with small values (Snappy shrinks them ~1.5–2.5×) */
function decimalPage(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n * 8);
  const v = new DataView(out.buffer);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    v.setBigInt64(i * 8, BigInt(90_000 + (x % 10_000_000)), true);
  }
  return out;
}

function noise(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; out[i] = x >>> 24; }
  return out;
}

describe('snappyDecompressPage', () => {
  it('loads the native decoder on this platform', () => {
    expect(nativeSnappyLoaded()).toBe(process.env.LAKEGATE_NATIVE_SNAPPY !== 'off');
  });

  it('decodes compressible (native) and incompressible or small (JS) pages the same as snappyjs encoded them', () => {
    const scratch = new Uint8Array(1 << 20);
    for (const src of [decimalPage(16_384, 1), decimalPage(100, 2), noise(20_000, 3), noise(NATIVE_MIN_BYTES - 1, 4), new Uint8Array(50_000), new Uint8Array(0)]) {
      const c = snappy.compress(src);
      expect(new Uint8Array(snappyDecompressPage(c, src.length, scratch))).toEqual(src);
      expect(new Uint8Array(snappyDecompressPage(c, src.length))).toEqual(src);
    }
  });

  it('rejects a wrong length and a damaged block on the native path', () => {
    const src = decimalPage(8192, 5);
    const c = snappy.compress(src);
    expect(c.length).toBeLessThan(src.length * 0.9);
    expect(() => snappyDecompressPage(c, src.length - 1)).toThrow(/page header says 65535/);
    expect(() => snappyDecompressPage(c.subarray(0, c.length - 7), src.length)).toThrow(/snappy/);
    // a damaged preamble announcing 2^32 bytes is refused before anything is allocated
    expect(() => snappyDecompressPage(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x10, ...c.subarray(3)), src.length)).toThrow(/snappy/);
  });
});
