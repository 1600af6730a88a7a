/**
 * The portable Roaring serialization against hand-built bytes (RoaringFormatSpec layouts) and against CRoaring
 * (the `roaring` npm package, a devDependency used only here): same bytes after runOptimize, and each side
 * reads the other's output, for array, bitmap and run containers, with and without offsets.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { deserializeRoaring32, RoaringFormatError, serializeRoaring32, SERIAL_COOKIE, SERIAL_COOKIE_NO_RUNCONTAINER } from './roaring-bitmap32.ts';

interface CRoaringBitmap {
  runOptimize(): boolean;
  serialize(format: 'portable'): Buffer;
  toArray(): number[];
}
interface CRoaring {
  RoaringBitmap32: { new (values?: Iterable<number>): CRoaringBitmap; deserialize(b: Uint8Array, format: 'portable'): CRoaringBitmap };
}
const roaring = createRequire(import.meta.url)('roaring') as CRoaring;

const read = (b: Uint8Array, at = 0): { values: number[]; used: number } => {
  const values: number[] = [];
  const used = deserializeRoaring32(b, at, (v) => values.push(v));
  return { values, used };
};
const range = (from: number, to: number, step = 1): number[] => Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const CASES: Record<string, number[]> = {
  'empty': [],
  'one array container': [1, 2, 3, 100],
  'a run beats an array': range(10, 1000),
  'bitmap container (5000 values, no runs)': range(0, 15000, 3),
  'run beats a bitmap': range(0, 70000),
  'many containers, offsets with runs': [...range(0, 5), ...range(65536, 65546), ...range(131072, 131073), ...range(196608, 196700), 4294967295],
  'sparse across the key space': range(0, 2 ** 32 - 1, 2 ** 20 + 7),
  'mixed kinds': [...range(0, 10000, 2), ...range(65536, 65536 + 3000), 200000, 200002],
};

describe('portable 32-bit roaring bitmap', () => {
  it('hand-built bytes: one array container (cookie 12346, offsets)', () => {
    const b = serializeRoaring32([1, 2, 3]);
    // cookie 12346, 1 container, key 0 / card-1 2, offset 16, values 1 2 3
    expect(hex(b)).toBe('3a300000' + '01000000' + '00000200' + '10000000' + '010002000300');
    expect(read(b)).toEqual({ values: [1, 2, 3], used: b.byteLength });
  });

  it('hand-built bytes: one run container (cookie 12347, no offsets below 4 containers)', () => {
    const b = serializeRoaring32(range(5, 105));
    // cookie 12347 | (1-1)<<16, run flags 0b1, key 0 / card-1 99, 1 run: start 5, length-1 99
    expect(hex(b)).toBe('3b300000' + '01' + '00006300' + '0100' + '05006300');
    expect(read(b).values).toEqual(range(5, 105));
    expect(hex(serializeRoaring32(range(5, 105), false)).slice(0, 8)).toBe('3a300000');
  });

  it.each(Object.entries(CASES))('%s: same bytes as CRoaring after runOptimize, and both read each other', (_name, values) => {
    const theirs = new roaring.RoaringBitmap32(values);
    theirs.runOptimize();
    const theirBytes = theirs.serialize('portable');
    const mine = serializeRoaring32(values);
    expect(hex(mine)).toBe(hex(theirBytes));
    expect(read(theirBytes).values).toEqual(values);
    expect(roaring.RoaringBitmap32.deserialize(serializeRoaring32(values, false), 'portable').toArray()).toEqual(values);
    const cookie = new DataView(mine.buffer).getUint32(0, true) & 0xffff;
    expect([SERIAL_COOKIE, SERIAL_COOKIE_NO_RUNCONTAINER]).toContain(cookie);
  });

  it('reads a bitmap at an offset inside a larger buffer and reports its length', () => {
    const inner = serializeRoaring32([7, 70000]);
    const outer = new Uint8Array(inner.byteLength + 9);
    outer.set(inner, 5);
    expect(read(outer, 5)).toEqual({ values: [7, 70000], used: inner.byteLength });
  });

  it('rejects malformed bytes with RoaringFormatError', () => {
    const good = serializeRoaring32(range(0, 50, 2));
    expect(() => read(good.subarray(0, good.byteLength - 1))).toThrow(RoaringFormatError);
    expect(() => read(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8))).toThrow(/cookie/);
    const unsorted = good.slice();
    unsorted.set([9, 0, 3, 0], unsorted.byteLength - 4);
    expect(() => read(unsorted)).toThrow(/ascending/);
  });
});
