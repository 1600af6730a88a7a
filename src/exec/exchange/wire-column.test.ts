import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { buffersOf, packColumn, unpackColumn, type WireColumn } from './wire-column.ts';

const N = (s: string): Numeric => Numeric.parse(s);
const show = (v: unknown): unknown => (Numeric.isNumeric(v) ? `N${v.toString()}` : typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : v);

/** packs, moves the buffers through a structured clone as postMessage would, unpacks */
function roundTrip(col: readonly unknown[]): { kind: WireColumn['kind']; back: unknown[]; moved: number } {
  const transfer: ArrayBufferLike[] = [];
  const w = packColumn(col, transfer);
  const listed: ArrayBufferLike[] = [];
  buffersOf([w], listed);
  expect(listed.length).toBe(transfer.length);
  const copy = structuredClone(w, { transfer: transfer as ArrayBuffer[] });
  // moved, not copied: the sender's buffers are detached
  for (const b of transfer) expect(b.byteLength).toBe(0);
  return { kind: w.kind, back: unpackColumn(copy), moved: transfer.length };
}

describe('wire columns', () => {
  it.each([
    ['f64', [1.5, null, -0, NaN, Infinity, 2 ** 53 + 2]],
    ['f64', [0, -0]], // not one constant: -0 kept
    ['const', [7, 7, 7]],
    ['const', [0n, 0n]],
    ['const', [null, null]],
    ['const', ['g1', 'g1']],
    ['i64', [1n, null, -(2n ** 63n), 2n ** 63n - 1n]],
    ['bool', [true, false, null, true]],
    ['numeric', [N('1.25'), null, N('-100000000000.5'), N('0'), N('1e-30')]],
    ['cloned', ['a', null, 'é', '']],
    ['cloned', [N('NaN'), N('1.5')]], // not finite: cloned and tagged
    ['cloned', [2n ** 64n, 1n]], // beyond int64
    ['cloned', [N('1e40'), N('1')]], // unscaled beyond int64
    ['cloned', [1, 'x']], // mixed types
    ['cloned', [1, undefined]], // undefined is not NULL
  ] as const)('%s %#', (kind, col) => {
    const r = roundTrip(col);
    expect(r.kind).toBe(kind);
    expect(r.back.map(show)).toEqual(col.map(show));
    if (kind !== 'cloned' && kind !== 'const') expect(r.moved).toBeGreaterThan(0);
  });

  it('an all-NULL or empty column', () => {
    expect(roundTrip([null, 1]).back).toEqual([null, 1]);
    expect(roundTrip([]).back).toEqual([]);
  });

  it('keeps a numeric display scale per value', () => {
    const r = roundTrip([N('1.50'), N('1.5'), N('2')]);
    expect(r.back.map((v) => (v as Numeric).toString())).toEqual(['1.50', '1.5', '2']);
  });
});
