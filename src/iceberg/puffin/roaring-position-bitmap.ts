/**
 * Row positions as a 64-bit Roaring bitmap in the portable 64-bit serialization (RoaringFormatSpec
 * § Extension for 64-bit implementations), the vector inside a `deletion-vector-v1` blob:
 *   uint64 LE bitmap count, then per 32-bit key (ascending): uint32 LE key + a portable 32-bit bitmap
 * of the positions' low 32 bits. Like Iceberg Java's RoaringPositionBitmap, the writer emits every key from 0
 * to the highest one (empty bitmaps for keys without positions) and run-optimizes each bitmap.
 * Positions are JS numbers: row positions of one data file stay far below 2^53.
 * @see ../../../../shared/spec/iceberg-puffin-spec.md § deletion-vector-v1 blob type
 */
import { deserializeRoaring32, RoaringFormatError, serializeRoaring32 } from './roaring-bitmap32.ts';

const KEY_SPAN = 2 ** 32;
/** positions must be non-negative longs; keys above this would exceed 2^53 in a JS number */
const MAX_KEY = 2 ** 21 - 1;

/** sorted, distinct copy of `positions` */
export function normalizePositions(positions: Iterable<number>): number[] {
  const sorted = Float64Array.from(positions).sort();
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i]!;
    if (!(Number.isInteger(v) && v >= 0)) throw new RangeError(`row position ${v} is not a non-negative integer`);
    if (i === 0 || v !== sorted[i - 1]) out.push(v);
  }
  return out;
}

/** the portable 64-bit serialization of `positions` (any order; duplicates ignored) */
export function serializePositionBitmap(positions: Iterable<number>): Uint8Array {
  const sorted = normalizePositions(positions);
  const keyCount = sorted.length === 0 ? 0 : Math.floor(sorted.at(-1)! / KEY_SPAN) + 1;
  const parts: Uint8Array[] = [];
  let i = 0;
  for (let key = 0; key < keyCount; key++) {
    const lows: number[] = [];
    while (i < sorted.length && Math.floor(sorted[i]! / KEY_SPAN) === key) lows.push(sorted[i++]! - key * KEY_SPAN);
    const k = new Uint8Array(4);
    new DataView(k.buffer).setUint32(0, key, true);
    parts.push(k, serializeRoaring32(lows, true));
  }
  const total = 8 + parts.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(total);
  new DataView(out.buffer).setBigUint64(0, BigInt(keyCount), true);
  let p = 8;
  for (const part of parts) { out.set(part, p); p += part.byteLength; }
  return out;
}

/** positions (ascending) of a portable 64-bit bitmap occupying exactly `bytes` */
export function deserializePositionBitmap(bytes: Uint8Array): number[] {
  if (bytes.byteLength < 8) throw new RoaringFormatError('64-bit roaring bitmap shorter than its 8-byte count');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = dv.getBigUint64(0, true);
  // each bitmap takes at least 12 bytes (key + empty bitmap header)
  if (count > BigInt(Math.floor((bytes.byteLength - 8) / 12))) throw new RoaringFormatError(`64-bit roaring bitmap claims ${count} bitmaps in ${bytes.byteLength} bytes`);
  const out: number[] = [];
  let p = 8;
  let lastKey = -1;
  for (let i = 0; i < Number(count); i++) {
    if (p + 4 > bytes.byteLength) throw new RoaringFormatError('64-bit roaring bitmap truncated');
    const key = dv.getUint32(p, true); p += 4;
    if (key <= lastKey) throw new RoaringFormatError('64-bit roaring bitmap keys are not ascending');
    if (key > MAX_KEY) throw new RoaringFormatError(`row position key ${key} is out of range`);
    lastKey = key;
    const high = key * KEY_SPAN;
    p += deserializeRoaring32(bytes, p, (v) => out.push(high + v));
  }
  if (p !== bytes.byteLength) throw new RoaringFormatError(`64-bit roaring bitmap has ${bytes.byteLength - p} trailing bytes`);
  return out;
}
