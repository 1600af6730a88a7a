// A JS-written Parquet file's per-column bounds for its Iceberg metrics, taken from the min / max its column
// chunks' Statistics were made of (js-parquet-column.mjs), so the encode thread does not scan every value a
// second time for them (typedBounds over each batch was ≈ 10 % of that thread on a COPY of TPC-H lineitem).
// Same values and forms as typed-bounds.mjs gives: numbers for int32 (int, date), bigints for int64 and for a
// decimal's unscaled value, strings for utf8; null when every value is NULL.
// Plain JS (loaded by the encode worker without tsx).
import { PHYSICAL } from './js-parquet-column.mjs';

const utf8 = new TextDecoder();

/** a big-endian two's-complement FIXED_LEN_BYTE_ARRAY as a bigint */
function signedBigEndian(b) {
  let v = 0n;
  for (let k = 0; k < b.length; k++) v = (v << 8n) | BigInt(b[k]);
  return b.length > 0 && b[0] >= 0x80 ? v - (1n << BigInt(8 * b.length)) : v;
}

/** one statistics value (the chunk's raw bytes, never cut) in typedBounds' form for the layout's kind */
function boundValue(layout, b) {
  if (layout.kind === 'utf8') return utf8.decode(b);
  if (layout.physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY) return signedBigEndian(b);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (layout.physical === PHYSICAL.INT32) {
    const v = view.getInt32(0, true);
    return layout.kind === 'int32' ? v : BigInt(v);
  }
  return view.getBigInt64(0, true);
}

/**
 * [min, max] per column over every row group's chunk of that column (`groups[g].chunks[c]`: chunkMin, chunkMax
 * and the chunk's byte comparator `cmp`), in typedBounds' form; null for a column without a non-null value
 */
export function fileBoundsOfChunks(layouts, groups) {
  return layouts.map((layout, c) => {
    let lo = null;
    let hi = null;
    for (const g of groups) {
      const chunk = g.chunks[c];
      if (chunk.chunkMin === null) continue;
      if (lo === null || chunk.cmp(chunk.chunkMin, lo) < 0) lo = chunk.chunkMin;
      if (hi === null || chunk.cmp(chunk.chunkMax, hi) > 0) hi = chunk.chunkMax;
    }
    return lo === null ? null : [boundValue(layout, lo), boundValue(layout, hi)];
  });
}
