/**
 * Dictionary indices of a Parquet data page, renumbered: the values section of an RLE_DICTIONARY page is one
 * bit-width byte and an RLE / bit-packed hybrid stream of indices into the column chunk's dictionary. When the
 * row groups of several pieces become one (parquet-row-group-merge.ts), each piece's dictionary is folded into
 * one and its pages' indices are mapped onto it here. The run structure is kept as it is (an RLE run stays an
 * RLE run of the mapped value, a bit-packed run is repacked at the new width, padding included), so the page's
 * value count and levels do not change.
 * @see https://parquet.apache.org/docs/file-format/data-pages/encodings/ (RLE / bit-packing hybrid)
 */

/** bit widths above this do not fit the 32-bit accumulators below (a dictionary of 16M entries; never written) */
const MAX_BIT_WIDTH = 24;

/** bits needed to write indices of a dictionary of `size` entries (at least 1) */
export function indexBitWidth(size: number): number {
  return size <= 2 ? 1 : 32 - Math.clz32(size - 1);
}

class Out {
  buf: Uint8Array;
  pos = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(Math.max(16, size));
  }

  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  varint(v: number): void {
    this.reserve(10);
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }
}

/**
 * `src`: the values section of a dictionary-encoded page (bit-width byte + hybrid runs, to its end). Returns the
 * same runs with every index i replaced by map[i] (indices past the map, a last group's padding, become 0),
 * written at `bitWidth`.
 */
export function remapDictionaryIndices(src: Uint8Array, map: Int32Array, bitWidth: number): Uint8Array {
  const bw = src[0] ?? 0;
  if (bw > MAX_BIT_WIDTH || bitWidth > MAX_BIT_WIDTH) throw new Error(`dictionary index bit width ${Math.max(bw, bitWidth)} not supported`);
  const out = new Out(Math.ceil((src.length * Math.max(bitWidth, 1)) / Math.max(bw, 1)) + 16);
  out.buf[out.pos++] = bitWidth;
  const inBytes = (bw + 7) >> 3;
  const outBytes = (bitWidth + 7) >> 3;
  const inMask = bw === 0 ? 0 : 2 ** bw - 1;
  const mapped = (i: number): number => (i < map.length ? map[i]! : 0);
  let p = 1;
  while (p < src.length) {
    let h = 0;
    let mul = 1;
    let b: number;
    do {
      b = src[p++] ?? 0;
      h += (b & 0x7f) * mul;
      mul *= 0x80;
    } while ((b & 0x80) !== 0 && p < src.length);
    out.varint(h);
    if (h % 2 === 1) {
      // bit-packed: groups of 8 values, LSB first
      const n = Math.floor(h / 2) * 8;
      out.reserve(Math.ceil((n * bitWidth) / 8));
      const o = out.buf;
      let op = out.pos;
      let acc = 0;
      let bits = 0;
      let oacc = 0;
      let obits = 0;
      for (let k = 0; k < n; k++) {
        while (bits < bw) {
          acc |= (src[p++] ?? 0) << bits;
          bits += 8;
        }
        const v = mapped(acc & inMask);
        acc >>>= bw;
        bits -= bw;
        oacc |= v << obits;
        obits += bitWidth;
        while (obits >= 8) {
          o[op++] = oacc & 0xff;
          oacc >>>= 8;
          obits -= 8;
        }
      }
      out.pos = op;
    } else {
      // RLE run: one value in ceil(bw / 8) little-endian bytes
      let v = 0;
      for (let k = 0; k < inBytes; k++) v += (src[p++] ?? 0) * 2 ** (8 * k);
      let m = mapped(v);
      out.reserve(outBytes);
      for (let k = 0; k < outBytes; k++) {
        out.buf[out.pos++] = m & 0xff;
        m >>>= 8;
      }
    }
  }
  return out.buf.subarray(0, out.pos);
}
