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
        unpackGroups(src, p, bitWidth, out, at, full);
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
 * 8 values is `bitWidth` bytes. One loop per width with every shift written out, so each value is a load-free
 * shift and mask of the group's low / high 32-bit word: a loop over the 8 shifts of any width branched per value
 * on which word it lies in (2.2–3.4 ns a value at widths 2–8; TPC-H q1 unpacks ~7 M dictionary indices a run).
 */
function unpackGroups(src: Uint8Array, p: number, bitWidth: number, out: Int32Array, at: number, count: number): void {
  const end = at + count;
  switch (bitWidth) {
    case 1:
      for (; at < end; at += 8, p += 1) {
        const lo = src[p]!;
        out[at] = lo & 1; out[at + 1] = (lo >>> 1) & 1; out[at + 2] = (lo >>> 2) & 1; out[at + 3] = (lo >>> 3) & 1;
        out[at + 4] = (lo >>> 4) & 1; out[at + 5] = (lo >>> 5) & 1; out[at + 6] = (lo >>> 6) & 1; out[at + 7] = lo >>> 7;
      }
      return;
    case 2:
      for (; at < end; at += 8, p += 2) {
        const lo = src[p]! | (src[p + 1]! << 8);
        out[at] = lo & 3; out[at + 1] = (lo >>> 2) & 3; out[at + 2] = (lo >>> 4) & 3; out[at + 3] = (lo >>> 6) & 3;
        out[at + 4] = (lo >>> 8) & 3; out[at + 5] = (lo >>> 10) & 3; out[at + 6] = (lo >>> 12) & 3; out[at + 7] = lo >>> 14;
      }
      return;
    case 3:
      for (; at < end; at += 8, p += 3) {
        const lo = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16);
        out[at] = lo & 7; out[at + 1] = (lo >>> 3) & 7; out[at + 2] = (lo >>> 6) & 7; out[at + 3] = (lo >>> 9) & 7;
        out[at + 4] = (lo >>> 12) & 7; out[at + 5] = (lo >>> 15) & 7; out[at + 6] = (lo >>> 18) & 7; out[at + 7] = lo >>> 21;
      }
      return;
    case 4:
      for (; at < end; at += 8, p += 4) {
        const lo = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16) | (src[p + 3]! << 24);
        out[at] = lo & 15; out[at + 1] = (lo >>> 4) & 15; out[at + 2] = (lo >>> 8) & 15; out[at + 3] = (lo >>> 12) & 15;
        out[at + 4] = (lo >>> 16) & 15; out[at + 5] = (lo >>> 20) & 15; out[at + 6] = (lo >>> 24) & 15; out[at + 7] = lo >>> 28;
      }
      return;
    case 5:
      for (; at < end; at += 8, p += 5) {
        const lo = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16) | (src[p + 3]! << 24), hi = src[p + 4]!;
        out[at] = lo & 31; out[at + 1] = (lo >>> 5) & 31; out[at + 2] = (lo >>> 10) & 31; out[at + 3] = (lo >>> 15) & 31;
        out[at + 4] = (lo >>> 20) & 31; out[at + 5] = (lo >>> 25) & 31; out[at + 6] = ((lo >>> 30) | (hi << 2)) & 31; out[at + 7] = hi >>> 3;
      }
      return;
    case 6:
      for (; at < end; at += 8, p += 6) {
        const lo = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16) | (src[p + 3]! << 24), hi = src[p + 4]! | (src[p + 5]! << 8);
        out[at] = lo & 63; out[at + 1] = (lo >>> 6) & 63; out[at + 2] = (lo >>> 12) & 63; out[at + 3] = (lo >>> 18) & 63;
        out[at + 4] = (lo >>> 24) & 63; out[at + 5] = ((lo >>> 30) | (hi << 2)) & 63; out[at + 6] = (hi >>> 4) & 63; out[at + 7] = hi >>> 10;
      }
      return;
    case 7:
      for (; at < end; at += 8, p += 7) {
        const lo = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16) | (src[p + 3]! << 24);
        const hi = src[p + 4]! | (src[p + 5]! << 8) | (src[p + 6]! << 16);
        out[at] = lo & 127; out[at + 1] = (lo >>> 7) & 127; out[at + 2] = (lo >>> 14) & 127; out[at + 3] = (lo >>> 21) & 127;
        out[at + 4] = ((lo >>> 28) | (hi << 4)) & 127; out[at + 5] = (hi >>> 3) & 127; out[at + 6] = (hi >>> 10) & 127; out[at + 7] = hi >>> 17;
      }
      return;
    default: // 8: a byte a value
      for (; at < end; at += 8, p += 8) {
        out[at] = src[p]!; out[at + 1] = src[p + 1]!; out[at + 2] = src[p + 2]!; out[at + 3] = src[p + 3]!;
        out[at + 4] = src[p + 4]!; out[at + 5] = src[p + 5]!; out[at + 6] = src[p + 6]!; out[at + 7] = src[p + 7]!;
      }
      return;
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
