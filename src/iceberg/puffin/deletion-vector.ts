/**
 * The `deletion-vector-v1` Puffin blob: the set of deleted row positions of one data file.
 *   4 bytes BE  length of magic + vector
 *   4 bytes     magic D1 D3 39 64
 *   n bytes     the positions as a portable 64-bit Roaring bitmap (roaring-position-bitmap.ts)
 *   4 bytes BE  CRC-32 of magic + vector
 * The blob is never compressed; its Puffin metadata carries `referenced-data-file` and `cardinality`.
 * @see ../../../../shared/spec/iceberg-puffin-spec.md § deletion-vector-v1 blob type
 */
import { crc32 } from 'node:zlib';
import { deserializePositionBitmap, normalizePositions, serializePositionBitmap } from './roaring-position-bitmap.ts';
import { RoaringFormatError } from './roaring-bitmap32.ts';

export const DELETION_VECTOR_V1 = 'deletion-vector-v1';
export const DV_MAGIC = Uint8Array.of(0xd1, 0xd3, 0x39, 0x64);
/** `fields` of a DV blob: the `_pos` metadata column (Iceberg Java's MetadataColumns.ROW_POSITION) */
export const ROW_POSITION_FIELD_ID = 2147483545;

export interface DeletionVector {
  /** the blob bytes */
  readonly bytes: Uint8Array;
  /** number of deleted positions */
  readonly cardinality: number;
}

/** the blob for `positions` (any order, duplicates ignored) */
export function serializeDeletionVector(positions: Iterable<number>): DeletionVector {
  const sorted = normalizePositions(positions);
  const bitmap = serializePositionBitmap(sorted);
  const out = new Uint8Array(4 + 4 + bitmap.byteLength + 4);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 4 + bitmap.byteLength, false);
  out.set(DV_MAGIC, 4);
  out.set(bitmap, 8);
  dv.setUint32(8 + bitmap.byteLength, crc32(out.subarray(4, 8 + bitmap.byteLength)) >>> 0, false);
  return { bytes: out, cardinality: sorted.length };
}

/** the deleted positions (ascending) of a blob; RoaringFormatError when it is malformed or its CRC is wrong */
export function deserializeDeletionVector(blob: Uint8Array): number[] {
  if (blob.byteLength < 12) throw new RoaringFormatError(`deletion vector blob is ${blob.byteLength} bytes`);
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const length = dv.getUint32(0, false);
  if (length + 8 !== blob.byteLength) throw new RoaringFormatError(`deletion vector length ${length} does not match blob size ${blob.byteLength}`);
  for (let i = 0; i < 4; i++) if (blob[4 + i] !== DV_MAGIC[i]) throw new RoaringFormatError('deletion vector magic is not D1 D3 39 64');
  const expected = dv.getUint32(4 + length, false);
  const actual = crc32(blob.subarray(4, 4 + length)) >>> 0;
  if (expected !== actual) throw new RoaringFormatError(`deletion vector CRC-32 mismatch (stored ${expected.toString(16)}, computed ${actual.toString(16)})`);
  return deserializePositionBitmap(blob.subarray(8, 4 + length));
}
