/**
 * `deletion-vector-v1` blobs: byte-exact layouts built by hand from the Puffin spec (BE length, magic
 * D1 D3 39 64, portable 64-bit Roaring with every key from 0 written as Java does, BE CRC-32 computed
 * independently with Python's zlib), round trips, and the corruptions a reader must refuse.
 */
import { describe, expect, it } from 'vitest';
import { deserializeDeletionVector, serializeDeletionVector } from './deletion-vector.ts';
import { deserializePositionBitmap, serializePositionBitmap } from './roaring-position-bitmap.ts';
import { RoaringFormatError } from './roaring-bitmap32.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const KEY = 2 ** 32;

describe('deletion vector blob', () => {
  it('positions {1, 2, 3}: the exact blob', () => {
    const dv = serializeDeletionVector([3, 1, 2, 2]);
    expect(dv.cardinality).toBe(3);
    expect(hex(dv.bytes)).toBe(
      '00000026' + 'd1d33964' + '0100000000000000' + '00000000' + '3a300000' + '01000000' + '00000200' + '10000000' + '010002000300' + 'b4789dda',
    );
    expect(deserializeDeletionVector(dv.bytes)).toEqual([1, 2, 3]);
  });

  it('64-bit positions: one 32-bit bitmap per key, ascending keys, empty bitmaps for keys in between', () => {
    expect(hex(serializePositionBitmap([KEY + 5, 7]))).toBe(
      '0200000000000000' + '00000000' + '3a300000010000000000000010000000' + '0700' + '01000000' + '3a300000010000000000000010000000' + '0500',
    );
    const gap = serializePositionBitmap([2 * KEY + 7]);
    expect(hex(gap)).toBe('0300000000000000' + '00000000' + '3a30000000000000' + '01000000' + '3a30000000000000' + '02000000' + '3a300000010000000000000010000000' + '0700');
    expect(deserializePositionBitmap(gap)).toEqual([2 * KEY + 7]);
    expect(hex(serializePositionBitmap([]))).toBe('0000000000000000');
  });

  it('round-trips large and mixed sets', () => {
    const positions = [...Array.from({ length: 100_000 }, (_, i) => i * 2), ...Array.from({ length: 70_000 }, (_, i) => 1_000_000 + i), 5 * KEY + 1];
    expect(deserializeDeletionVector(serializeDeletionVector(positions).bytes)).toEqual(positions);
  });

  it('refuses a wrong CRC, magic, length or trailing bytes', () => {
    const good = serializeDeletionVector([1, 5, 9]).bytes;
    const flip = (at: number): Uint8Array => { const b = good.slice(); b[at] = b[at]! ^ 0x01; return b; };
    expect(() => deserializeDeletionVector(flip(good.byteLength - 10))).toThrow(/CRC-32/);
    expect(() => deserializeDeletionVector(flip(5))).toThrow(/magic/);
    expect(() => deserializeDeletionVector(flip(3))).toThrow(/length/);
    expect(() => deserializeDeletionVector(good.subarray(0, 10))).toThrow(RoaringFormatError);
    expect(() => deserializePositionBitmap(Uint8Array.of(...serializePositionBitmap([1]), 0))).toThrow(/trailing/);
    expect(() => serializeDeletionVector([-1])).toThrow(RangeError);
  });
});
