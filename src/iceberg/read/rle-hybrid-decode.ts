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
 * last run read. Throws on a stream that ends early, a width past 24 bits (the caller reports the file) or,
 * given `entries` (dictionary indices), an index past them — checked run by run, while the run is in cache.
 */
export function decodeRleHybrid(src: Uint8Array, pos: number, end: number, bitWidth: number, out: Int32Array, at: number, count: number, entries = Infinity): number {
  if (bitWidth > MAX_BIT_WIDTH) throw new Error(`RLE bit width ${bitWidth} is not supported`);
  const stop = at + count;
  if (bitWidth === 0) {
    if (count > 0 && entries <= 0) throw pastEntries(0, entries);
    out.fill(0, at, stop);
    return pos;
  }
  const mask = (1 << bitWidth) - 1;
  const byteWidth = (bitWidth + 7) >> 3;
  // indices below 2^bitWidth cannot pass a dictionary at least that long
  const check = mask >= entries;
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
      if (check && (v & mask) >= entries) throw pastEntries(v & mask, entries);
      out.fill(v & mask, at, at + n);
      at += n;
    } else {
      const groups = (h - 1) / 2;
      const bytes = groups * bitWidth;
      if (pos + bytes > end) throw new Error('bit-packed run past the end of the page');
      const n = Math.min(groups * 8, stop - at);
      let acc = 0, bits = 0, p = pos, k = 0;
      if (bitWidth <= 8) {
        // 8 values at a time: a group is bitWidth bytes, read as two words (dictionary indices, definition levels)
        const full = n & ~7;
        unpackGroups(src, p, bitWidth, mask, out, at, full);
        p += (full >> 3) * bitWidth;
        k = full;
      }
      for (; k < n; k++) {
        while (bits < bitWidth) {
          acc |= src[p++]! << bits;
          bits += 8;
        }
        out[at + k] = acc & mask;
        acc >>>= bitWidth;
        bits -= bitWidth;
      }
      if (check) {
        let max = 0;
        for (let k = at; k < at + n; k++) if (out[k]! > max) max = out[k]!;
        if (max >= entries) throw pastEntries(max, entries);
      }
      at += n;
      pos += bytes;
    }
  }
  return pos;
}

/** damaged data: a dictionary index past the dictionary's end */
const pastEntries = (index: number, entries: number): Error => new Error(`dictionary index ${index} past ${entries} entries`);

/**
 * `count` (a multiple of 8) values of `bitWidth` ≤ 8 bits bit-packed from src[p] into out[at…]: each group of
 * 8 values is `bitWidth` bytes, loaded as a low and a high 32-bit word, and each value shifted out of them
 */
function unpackGroups(src: Uint8Array, p: number, bitWidth: number, mask: number, out: Int32Array, at: number, count: number): void {
  const lowBytes = bitWidth < 4 ? bitWidth : 4;
  for (let end = at + count; at < end; at += 8, p += bitWidth) {
    let lo = 0, hi = 0;
    for (let b = 0; b < lowBytes; b++) lo |= src[p + b]! << (8 * b);
    for (let b = 4; b < bitWidth; b++) hi |= src[p + b]! << (8 * (b - 4));
    for (let k = 0, s = 0; k < 8; k++, s += bitWidth) {
      const v = s + bitWidth <= 32 ? lo >>> s : s >= 32 ? hi >>> (s - 32) : (lo >>> s) | (hi << (32 - s));
      out[at + k] = v & mask;
    }
  }
}

/**
 * decodeRleHybrid for a few values of a stream of `count`: out[j] for each j = picks[k] − base, k in [from, to)
 * (ascending, j < count), every other entry of `out` left as it is. Runs are passed by their headers and a
 * bit-packed value is read at its bit offset, so the cost is the runs plus the picks, not the values (late
 * materialization's rows that passed a runtime key filter: a few per page). Same checks as decodeRleHybrid.
 */
export function decodeRleHybridAt(src: Uint8Array, pos: number, end: number, bitWidth: number, out: Int32Array, count: number, picks: ArrayLike<number>, from: number, to: number, base: number, entries = Infinity): void {
  if (bitWidth > MAX_BIT_WIDTH) throw new Error(`RLE bit width ${bitWidth} is not supported`);
  if (bitWidth === 0) {
    if (to > from && entries <= 0) throw pastEntries(0, entries);
    for (let k = from; k < to; k++) out[picks[k]! - base] = 0;
    return;
  }
  const mask = (1 << bitWidth) - 1;
  const byteWidth = (bitWidth + 7) >> 3;
  let first = 0, k = from;
  while (k < to) {
    if (first >= count) throw new Error(`RLE value ${picks[k]! - base} past the ${count} of the page`);
    let h = 0, shift = 0, b: number;
    do {
      if (pos >= end) throw new Error('RLE run header past the end of the page');
      b = src[pos++]!;
      h += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if ((h & 1) === 0) {
      const n = Math.min(h / 2, count - first);
      if (pos + byteWidth > end) throw new Error('RLE run value past the end of the page');
      let v = 0;
      for (let q = 0; q < byteWidth; q++) v |= src[pos + q]! << (8 * q);
      pos += byteWidth;
      v &= mask;
      if (v >= entries) throw pastEntries(v, entries);
      for (; k < to && picks[k]! - base < first + n; k++) out[picks[k]! - base] = v;
      first += n;
    } else {
      const groups = (h - 1) / 2;
      const bytes = groups * bitWidth;
      if (pos + bytes > end) throw new Error('bit-packed run past the end of the page');
      const n = Math.min(groups * 8, count - first);
      for (; k < to; k++) {
        const j = picks[k]! - base;
        if (j >= first + n) break;
        // the value's bits start `s` bits into byte `p`; at most 7 + 24 bits: four bytes
        const bit = (j - first) * bitWidth, s = bit & 7;
        let p = pos + (bit >>> 3), acc = 0;
        for (let got = 0; got < s + bitWidth; got += 8) acc |= src[p++]! << got;
        const v = (acc >>> s) & mask;
        if (v >= entries) throw pastEntries(v, entries);
        out[j] = v;
      }
      first += n;
      pos += bytes;
    }
  }
}
