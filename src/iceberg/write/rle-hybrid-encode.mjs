// Parquet's RLE / bit-packing hybrid encoding (definition levels and dictionary indices) and the growable byte
// buffer the JS Parquet writer assembles pages in. Plain JS (loaded by the encode worker without tsx).
// @see https://parquet.apache.org/docs/file-format/data-pages/encodings/#run-length-encoding--bit-packing-hybrid-rle--3

/** a growable byte buffer, reused page after page (`reset`) */
export class ByteSink {
  constructor(initial = 1 << 16) {
    this.buf = new Uint8Array(initial);
    this.pos = 0;
  }

  reset() {
    this.pos = 0;
  }

  ensure(n) {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  varint(n) {
    this.ensure(5);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  u32le(v) {
    this.ensure(4);
    const b = this.buf;
    const p = this.pos;
    b[p] = v & 0xff;
    b[p + 1] = (v >>> 8) & 0xff;
    b[p + 2] = (v >>> 16) & 0xff;
    b[p + 3] = (v >>> 24) & 0xff;
    this.pos += 4;
  }

  bytes(src) {
    this.ensure(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  view() {
    return this.buf.subarray(0, this.pos);
  }
}

/** bits needed for values 0 … maxValue (at least 1: a width of 0 is legal but not read by every reader) */
export function bitWidthOf(maxValue) {
  return maxValue <= 1 ? 1 : 32 - Math.clz32(maxValue);
}

function rleRun(out, value, count, width) {
  out.varint(count << 1);
  const bytes = (width + 7) >> 3;
  out.ensure(bytes);
  for (let k = 0; k < bytes; k++) out.buf[out.pos++] = (value >>> (8 * k)) & 0xff;
}

/**
 * values[from, to) bit-packed, LSB first; the last group of 8 padded with zeros. The padding is written without a
 * branch: a path first taken after the function was optimized (a page's last, partial group) deopts it again at
 * every page (a soft deopt keeps the code; measured 178 deopts per 4 files).
 */
function bitPacked(out, values, from, to, width) {
  const groups = (to - from + 7) >> 3;
  if (groups === 0) return;
  out.varint((groups << 1) | 1);
  if (width > 24) {
    bitPackedWide(out, values, from, to, width, groups);
    return;
  }
  out.ensure(groups * width + 1);
  const buf = out.buf;
  let p = out.pos;
  const stop = p + groups * width;
  let acc = 0;
  let bits = 0;
  for (let i = from; i < to; i++) {
    acc |= values[i] << bits;
    bits += width;
    while (bits >= 8) {
      buf[p++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
  }
  // the last partial byte (or, when none, a zero past the run that the next write overwrites), then zeros
  buf[p] = acc;
  buf.fill(0, p + 1, stop);
  out.pos = stop;
}

/** bitPacked for widths above 24: the accumulator as a double (exact below 2^53) */
function bitPackedWide(out, values, from, to, width, groups) {
  out.ensure(groups * width);
  const buf = out.buf;
  let p = out.pos;
  const end = from + groups * 8;
  let acc = 0;
  let bits = 0;
  for (let i = from; i < end; i++) {
    acc += (i < to ? values[i] >>> 0 : 0) * 2 ** bits;
    bits += width;
    while (bits >= 8) {
      buf[p++] = acc % 256;
      acc = Math.floor(acc / 256);
      bits -= 8;
    }
  }
  out.pos = p;
}

/**
 * values[from, to) (non-negative ints below 2^width) as RLE / bit-packed runs: a run of ≥ 8 equal values
 * becomes an RLE run once the literals before it fill whole groups of 8 (a bit-packed run's padding would
 * otherwise be read as values), everything else is bit-packed.
 */
export function encodeRleHybrid(out, values, from, to, width) {
  let lit = from;
  let i = from;
  while (i < to) {
    const v = values[i];
    let j = i + 1;
    while (j < to && values[j] === v) j++;
    const pad = (8 - ((i - lit) & 7)) & 7;
    if (j - i >= pad + 8) {
      bitPacked(out, values, lit, i + pad, width);
      rleRun(out, v, j - i - pad, width);
      lit = j;
    }
    i = j;
  }
  bitPacked(out, values, lit, to, width);
}

/**
 * definition levels (width 1) of rows [from, to) from an Arrow validity bitmap (null: all defined), into
 * `levels` (scratch, at least to − from bytes) then RLE-hybrid encoded; returns the rows that are NULL
 */
export function encodeDefLevels(out, validity, from, to, levels) {
  if (validity === null) {
    rleRun(out, 1, to - from, 1);
    return 0;
  }
  let nulls = 0;
  for (let i = from; i < to; i++) {
    const d = (validity[i >> 3] >> (i & 7)) & 1;
    levels[i - from] = d;
    nulls += 1 - d;
  }
  if (nulls === 0) rleRun(out, 1, to - from, 1);
  else encodeRleHybrid(out, levels, 0, to - from, 1);
  return nulls;
}
