/**
 * Raw Snappy block decompression (no framing) for Parquet pages, into a buffer of the size the page header
 * gives. Literals and non-overlapping back-references are copied with TypedArray.set / copyWithin (snappyjs,
 * used by the Avro reader, copies byte by byte: ≈ 3× slower on data pages); overlapping ones (a run) byte by byte.
 * @see https://github.com/google/snappy/blob/main/format_description.txt
 */

/** the uncompressed length in the block's varint preamble, and where the tagged elements start */
function preamble(src: Uint8Array): { length: number; pos: number } {
  let length = 0, shift = 0, pos = 0;
  for (;;) {
    if (pos >= src.length || shift > 28) throw new Error('snappy: bad length preamble');
    const b = src[pos++]!;
    length += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return { length, pos };
    shift += 7;
  }
}

/** the uncompressed length a Snappy block announces in its preamble (throws on a malformed preamble) */
export const snappyUncompressedLength = (src: Uint8Array): number => preamble(src).length;

/**
 * Decompresses `src`; throws on a malformed block or when the result is not `expected` bytes long. With `into`
 * (a scratch buffer of at least `expected` bytes, whose contents the caller consumes before its next use) the
 * result is a view of it: a scan decompresses a page per call, and a fresh buffer per page made the garbage
 * collector the biggest cost of a big-file scan.
 */
export function snappyDecompress(src: Uint8Array, expected: number, into?: Uint8Array): Uint8Array {
  const { length, pos: start } = preamble(src);
  if (length !== expected) throw new Error(`snappy: block holds ${length} bytes, page header says ${expected}`);
  const out = into !== undefined && into.length >= length ? into.subarray(0, length) : new Uint8Array(length);
  let pos = start, o = 0;
  const end = src.length;
  while (pos < end) {
    const tag = src[pos++]!;
    const type = tag & 3;
    if (type === 0) {
      // literal: length - 1 in the tag's upper 6 bits, or in the next 1–4 bytes
      let n = tag >>> 2;
      if (n >= 60) {
        const bytes = n - 59;
        if (pos + bytes > end) throw new Error('snappy: literal length past the end');
        n = 0;
        for (let k = 0; k < bytes; k++) n += src[pos + k]! * 2 ** (8 * k);
        pos += bytes;
      }
      n += 1;
      if (pos + n > end || o + n > length) throw new Error('snappy: literal past the end');
      if (n < 16) for (let k = 0; k < n; k++) out[o + k] = src[pos + k]!;
      else out.set(src.subarray(pos, pos + n), o);
      pos += n;
      o += n;
      continue;
    }
    let n: number, offset: number;
    if (type === 1) {
      if (pos >= end) throw new Error('snappy: copy past the end');
      n = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[pos++]!;
    } else if (type === 2) {
      if (pos + 2 > end) throw new Error('snappy: copy past the end');
      n = (tag >>> 2) + 1;
      offset = src[pos]! | (src[pos + 1]! << 8);
      pos += 2;
    } else {
      if (pos + 4 > end) throw new Error('snappy: copy past the end');
      n = (tag >>> 2) + 1;
      offset = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
      pos += 4;
    }
    if (offset === 0 || offset > o || o + n > length) throw new Error('snappy: bad copy offset');
    const from = o - offset;
    if (offset >= n && n >= 16) out.copyWithin(o, from, from + n);
    else for (let k = 0; k < n; k++) out[o + k] = out[from + k]!;
    o += n;
  }
  if (o !== length) throw new Error(`snappy: block ends after ${o} of ${length} bytes`);
  return out;
}
