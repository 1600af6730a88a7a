// Lower/upper bounds of one typed column (typed-columns.ts) computed over its buffers, for the Iceberg
// metrics of a data file. Plain JS without TypeScript imports: the encode worker (typed-file-encode.mjs)
// computes them next to the Parquet encoding, off the thread that decodes COPY input; typed-arrow-data.ts
// uses the same functions in-thread, so both give the bounds arrowColumn gives for the same JS values.

/** bit i of an Arrow validity bitmap (null bitmap: every row valid) */
const valid = (bitmap, i) => bitmap === null || (bitmap[i >> 3] & (1 << (i & 7))) !== 0;

/**
 * min/max of the values held as `stride` 32-bit words each (lo, hi, then sign words for decimals) when every
 * non-null one is a safe integer (hi within ±2^21, the words above it the sign): one loop without calls,
 * the common case of a bulk load. null when some value is not (the caller then takes bounds64).
 */
function safeBounds(w, stride, length, bitmap) {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < length; i++) {
    if (bitmap !== null && (bitmap[i >> 3] & (1 << (i & 7))) === 0) continue;
    const k = i * stride;
    const hi = w[k + 1];
    if (hi > 0x1fffff || hi < -0x200000) return null;
    if (stride === 4) {
      const sign = hi < 0 ? -1 : 0;
      if (w[k + 2] !== sign || w[k + 3] !== sign) return null;
    }
    const v = hi * 2 ** 32 + (w[k] >>> 0);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return [min, max];
}

/** min/max over 64-bit words read as numbers where exact (`at` returns null beyond 2^53), else as bigints */
function bounds64(length, bitmap, at, big) {
  let min = Infinity;
  let max = -Infinity;
  let bmin = null;
  let bmax = null;
  for (let i = 0; i < length; i++) {
    if (!valid(bitmap, i)) continue;
    const v = at(i);
    if (v !== null) {
      if (v < min) min = v;
      if (v > max) max = v;
      continue;
    }
    const b = big(i);
    if (bmin === null || b < bmin) bmin = b;
    if (bmax === null || b > bmax) bmax = b;
  }
  let lo = min === Infinity ? bmin : BigInt(min);
  let hi = max === -Infinity ? bmax : BigInt(max);
  if (lo === null || hi === null) return null;
  if (bmin !== null && bmin < lo) lo = bmin;
  if (bmax !== null && bmax > hi) hi = bmax;
  return [lo, hi];
}

/** byte order of UTF-8 = code point order, Iceberg's string order */
function compareUtf8(data, a0, a1, b0, b1) {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let k = 0; k < n; k++) {
    const d = data[a0 + k] - data[b0 + k];
    if (d !== 0) return d;
  }
  return (a1 - a0) - (b1 - b0);
}

const utf8 = new TextDecoder();

function utf8Bounds(col) {
  const { offsets, data, validity } = col;
  let min = -1;
  let max = -1;
  // first bytes of the bounds so far (-1: empty string): a value whose first byte lies strictly between
  // them is neither bound, the usual case for free text, and needs no full comparison
  let minFirst = 256;
  let maxFirst = -1;
  for (let i = 0; i < col.length; i++) {
    if (!valid(validity, i)) continue;
    const s = offsets[i];
    const e = offsets[i + 1];
    if (min < 0) {
      min = max = i;
      minFirst = maxFirst = s < e ? data[s] : -1;
      continue;
    }
    if (s < e) {
      const f = data[s];
      if (f > minFirst && f < maxFirst) continue;
    }
    if (compareUtf8(data, s, e, offsets[min], offsets[min + 1]) < 0) {
      min = i;
      minFirst = s < e ? data[s] : -1;
    } else if (compareUtf8(data, s, e, offsets[max], offsets[max + 1]) > 0) {
      max = i;
      maxFirst = s < e ? data[s] : -1;
    }
  }
  if (min < 0) return null;
  const str = (i) => utf8.decode(data.subarray(offsets[i], offsets[i + 1]));
  return [str(min), str(max)];
}

function int32Bounds(col) {
  const { values: v, validity, length } = col;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < length; i++) {
    if (validity !== null && !valid(validity, i)) continue;
    const x = v[i];
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return min === Infinity ? null : [min, max];
}

function int64Bounds(col) {
  const { length, validity } = col;
  const words = new Int32Array(col.values.buffer, col.values.byteOffset, length * 2);
  const safe = safeBounds(words, 2, length, validity);
  if (safe !== null) return safe[0] === Infinity ? null : [BigInt(safe[0]), BigInt(safe[1])];
  const at = (i) => {
    const hi = words[2 * i + 1];
    return hi > 0x1fffff || hi < -0x200000 ? null : hi * 2 ** 32 + (words[2 * i] >>> 0);
  };
  return bounds64(length, validity, at, (i) => col.values[i]);
}

/** the unscaled 128-bit value of decimal row i (two little-endian 64-bit words) */
function decimalUnscaledAt(words, i) {
  const lo = words[2 * i];
  const hi = words[2 * i + 1];
  if (hi === (lo < 0n ? -1n : 0n)) return lo;
  return (hi << 64n) | BigInt.asUintN(64, lo);
}

function decimalBounds(col) {
  const { length, validity } = col;
  const w32 = new Int32Array(col.words.buffer, col.words.byteOffset, length * 4);
  const safe = safeBounds(w32, 4, length, validity);
  if (safe !== null) return safe[0] === Infinity ? null : [BigInt(safe[0]), BigInt(safe[1])];
  const at = (i) => {
    const hi = w32[4 * i + 1];
    const sign = hi < 0 ? -1 : 0;
    if (w32[4 * i + 2] !== sign || w32[4 * i + 3] !== sign || hi > 0x1fffff || hi < -0x200000) return null;
    return hi * 2 ** 32 + (w32[4 * i] >>> 0);
  };
  return bounds64(length, validity, at, (i) => decimalUnscaledAt(col.words, i));
}

/**
 * [min, max] over the non-null values of a typed column, null when every value is NULL: numbers for int32
 * (int and date), bigints for int64, the unscaled bigint for decimals (at the column's scale), strings for utf8
 */
export function typedBounds(col) {
  switch (col.kind) {
    case 'int32': return int32Bounds(col);
    case 'int64': return int64Bounds(col);
    case 'decimal': return decimalBounds(col);
    case 'utf8': return utf8Bounds(col);
    default: throw new Error(`typedBounds: no buffer for a ${col.kind} column`);
  }
}
