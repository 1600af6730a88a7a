/**
 * The three integer table kinds of join-hash-table.ts — direct (key − min), hashed over Int32Array slots, hashed over
 * Float64Array slots — each probe a batch in a loop of its own: a batch's first rows must be the row prober's, for
 * keys inside and outside the built range, NULL, non-integers, keys past 32 bits and infinite dates.
 */
import { describe, expect, it } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import { buildJoinHashTable } from './join-hash-table.ts';
import type { Cols } from './expr/compile-expr.ts';

const col0 = (cols: Cols, i: number): unknown => cols[0]![i];
const col1 = (cols: Cols, i: number): unknown => cols[1]![i];

/** the batch prober's first rows against the row prober's, and against a scan of the built keys */
function agree(built: unknown[], probe: unknown[], oid: number = Oid.int8): void {
  const t = buildJoinHashTable({ columns: [built], length: built.length }, [col0], [oid], [oid]);
  const firsts = [...t.batchProber([col0])([probe], probe.length).subarray(0, probe.length)];
  const row = t.prober([col0]);
  expect(firsts).toEqual(probe.map((_, i) => row([probe], i)));
  const want = probe.map((v) => (v === null ? -1 : built.findIndex((b) => b !== null && Number(b) === Number(v) && Number.isInteger(Number(v)) === Number.isInteger(Number(b)))));
  expect(firsts).toEqual(want);
}

describe('join hash table kinds, probed a batch at a time', () => {
  const probe = [0, 1, 2, 7, -5, 1e6, 2 ** 31, -(2 ** 31), 2 ** 40, null, 3.5, -0];
  it('direct: dense keys', () => agree([0, 1, 2, 3, 7, 7, null, -5], probe));
  it('hashed over 32-bit slots: sparse 32-bit keys', () => agree([0, 1, 2, 1e6, 7, -(2 ** 31), null, 2 ** 31 - 1], probe));
  it('hashed over 64-bit slots: a key past 32 bits', () => agree([0, 1, 2 ** 40, -5, null, 2 ** 31], probe));
  it('dates with infinities go to the 64-bit slots', () => agree([19000, Infinity, -Infinity, 19000], [19000, Infinity, -Infinity, 0, null], Oid.date));
  it('packed pairs (64-bit slots) agree with the row prober', () => {
    const a = [1, 2, 3, null, 5], b = [10, 20, 30, 40, null];
    const t = buildJoinHashTable({ columns: [a, b], length: a.length }, [col0, col1], [Oid.int4, Oid.int4], [Oid.int4, Oid.int4]);
    const pa = [1, 2, 3, 5, 1, null], pb = [10, 20, 31, null, 10, 40];
    const firsts = [...t.batchProber([col0, col1])([pa, pb], pa.length).subarray(0, pa.length)];
    const row = t.prober([col0, col1]);
    expect(firsts).toEqual(pa.map((_, i) => row([pa, pb], i)));
    expect(firsts).toEqual([0, 1, -1, -1, 0, -1]);
  });
});
