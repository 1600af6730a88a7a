/**
 * ScanPool.worth: which scans go to the worker pool. Enough rows always do; fewer rows do when the columns the
 * scan reads are wide (their stored bytes, from the manifests' column_sizes) — TPC-H SF 1's customer, one file of
 * 150k rows — but tiny tables and point lookups stay on the main thread however wide their columns.
 */
import { describe, expect, it } from 'vitest';
import type { FileScanTask } from '../scan/table-scan.ts';
import { MIN_WIDE_ROWS, ScanPool } from './scan-pool.ts';

const MB = 1024 * 1024;

/** a task of a file of `rows` rows whose column `id` holds sizes[id] stored bytes (only what worth() reads) */
function task(rows: number, sizes: Record<number, number>): FileScanTask {
  const columnSizes = new Map(Object.entries(sizes).map(([id, n]) => [Number(id), BigInt(Math.round(n))]));
  return { file: { recordCount: BigInt(rows), columnSizes } } as unknown as FileScanTask;
}

describe('ScanPool.worth (which scans read on the pool)', () => {
  const pool = new ScanPool({ size: 2, minRows: 200_000, minBytes: 2 * MB });

  it('takes scans of at least minRows rows, whatever their columns', () => {
    expect(pool.worth([task(200_000, {})])).toBe(true);
    expect(pool.worth([task(100_000, {}), task(100_000, {})], () => [1])).toBe(true);
    expect(pool.worth([task(199_999, {})])).toBe(false);
  });

  it('takes fewer rows when the columns read hold minBytes stored bytes (SF 1 customer: 150k rows)', () => {
    const customer = [task(150_000, { 1: 0.6 * MB, 2: 1.5 * MB, 3: 0.9 * MB, 4: 9 * MB })];
    expect(pool.worth(customer, () => [1, 2, 3])).toBe(true);
    expect(pool.worth(customer, () => new Set([4]))).toBe(true);
    // one narrow column: the hand-off costs more than the decode saves
    expect(pool.worth(customer, () => [1])).toBe(false);
    expect(pool.worth(customer, () => [3, 1])).toBe(false);
    // no projection given: every column counts
    expect(pool.worth(customer)).toBe(true);
    // the bytes of several files add up
    const halves = [task(75_000, { 1: 0.3 * MB, 3: 0.5 * MB }), task(75_000, { 1: 0.3 * MB, 3: 0.5 * MB })];
    expect(pool.worth(halves, () => [1, 3])).toBe(false);
    expect(new ScanPool({ size: 2, minRows: 200_000, minBytes: 1.5 * MB }).worth(halves, () => [1, 3])).toBe(true);
  });

  it('keeps small tables and point lookups on the main thread however wide their columns', () => {
    expect(pool.worth([task(1000, { 1: 100 * MB })], () => [1])).toBe(false);
    expect(pool.worth([task(MIN_WIDE_ROWS - 1, { 1: 100 * MB })], () => [1])).toBe(false);
    expect(pool.worth([task(MIN_WIDE_ROWS, { 1: 100 * MB })], () => [1])).toBe(true);
    // files written without column sizes: rows decide alone
    expect(pool.worth([task(150_000, {})], () => [1, 2, 3])).toBe(false);
  });

  it('does not look at the columns when rows decide', () => {
    let asked = 0;
    const ids = (): number[] => {
      asked++;
      return [1];
    };
    expect(pool.worth([task(1000, { 1: 100 * MB })], ids)).toBe(false);
    expect(pool.worth([task(300_000, {})], ids)).toBe(true);
    expect(asked).toBe(0);
  });

  it('minRows 0 takes every scan (tests that send small tables to the pool)', () => {
    expect(new ScanPool({ size: 1, minRows: 0 }).worth([task(10, {})])).toBe(true);
  });
});
