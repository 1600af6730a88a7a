/**
 * The RLE / bit-packing hybrid decoder of Parquet (definition levels and dictionary indices of data pages):
 * runs of `<varint header>` then either one repeated value (`header & 1 == 0`: header >> 1 copies of a value
 * in ceil(bitWidth / 8) little-endian bytes) or header >> 1 groups of 8 values bit-packed at `bitWidth`, least
 * significant bit first. Used by the JS page decoder (parquet-page-decoder.ts); the writer side is
 * write/rle-hybrid-remap.ts.
 * @see https://parquet.apache.org/docs/file-format/data-pages/encodings/ (Run Length Encoding / Bit-Packing Hybrid)
 */

/** bit widths above this do not fit the 32-bit accumulator (dictionaries of 16M entries; never written) */
const MAX_BIT_WIDTH = 24;

/**
 * Decodes `count` values from `src[pos, end)` into `out[at, at + count)`; returns the position after the
 * last run read. Throws on a stream that ends early or a width past 24 bits (the caller reports the file).
 */
export function decodeRleHybrid(src: Uint8Array, pos: number, end: number, bitWidth: number, out: Int32Array, at: number, count: number): number {
  if (bitWidth > MAX_BIT_WIDTH) throw new Error(`RLE bit width ${bitWidth} is not supported`);
  const stop = at + count;
  if (bitWidth === 0) {
    out.fill(0, at, stop);
    return pos;
  }
  const mask = (1 << bitWidth) - 1;
  const byteWidth = (bitWidth + 7) >> 3;
  while (at < stop) {
    // varint header
    let h = 0, shift = 0, b: number;
    do {
      if (pos >= end) throw new Error('RLE run header past the end of the page');
      b = src[pos++]!;
      h += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if ((h & 1) === 0) {
      const n = Math.min(h / 2, stop - at);
      if (pos + byteWidth > end) throw new Error('RLE run value past the end of the page');
      let v = 0;
      for (let k = 0; k < byteWidth; k++) v |= src[pos + k]! << (8 * k);
      pos += byteWidth;
      out.fill(v & mask, at, at + n);
      at += n;
    } else {
      const groups = (h - 1) / 2;
      const bytes = groups * bitWidth;
      if (pos + bytes > end) throw new Error('bit-packed run past the end of the page');
      const n = Math.min(groups * 8, stop - at);
      let acc = 0, bits = 0, p = pos;
      for (let k = 0; k < n; k++) {
        while (bits < bitWidth) {
          acc |= src[p++]! << bits;
          bits += 8;
        }
        out[at + k] = acc & mask;
        acc >>>= bitWidth;
        bits -= bitWidth;
      }
      at += n;
      pos += bytes;
    }
  }
  return pos;
}
