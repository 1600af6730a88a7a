/**
 * A join's hash table hands its big typed arrays back when the join is over (JoinHashTable.release,
 * expr/spare-arrays.ts), so the next big table reuses mapped memory instead of faulting fresh pages in (JOIN,
 * session 24: TPC-H Q9's direct table over 1.5M order keys, 30 MB per run).
 */
import { describe, expect, it } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import type { Batch } from '../common/batch.ts';
import type { Cols } from './expr/compile-expr.ts';
import { buildJoinHashTable } from './join-hash-table.ts';
import { spareArrayBytes, takeInt32 } from './expr/spare-arrays.ts';

const col0 = (cols: Cols, i: number): unknown => cols[0]![i];
const batch = (vals: unknown[]): Batch => ({ columns: [vals], length: vals.length });
/** 100,000 rows: past spare-arrays' 65,536-entry minimum */
const ROWS = 100_000;

describe('releasing a join hash table', () => {
  it('hands a direct table\'s heads and chains back once, and the next table built over them is right', () => {
    // 1.5 rows per key: keys 0 … ROWS - 1, half of them twice
    const keys = Array.from({ length: ROWS * 1.5 }, (_v, i) => (i * 7) % ROWS);
    const before = spareArrayBytes();
    const t = buildJoinHashTable(batch(keys), [col0], [Oid.int4], [Oid.int4]);
    t.release();
    const kept = spareArrayBytes() - before;
    // heads (ROWS entries) and next (1.5 × ROWS entries), 4 bytes each
    expect(kept).toBe(4 * ROWS + 4 * ROWS * 1.5);
    t.release();
    expect(spareArrayBytes() - before).toBe(kept);
    // the same shape again reuses them: chains and heads start clean (next all -1, heads all 0)
    const u = buildJoinHashTable(batch(keys), [col0], [Oid.int4], [Oid.int4]);
    expect(spareArrayBytes()).toBe(before);
    const first = u.prober([col0]);
    for (const k of [0, 1, 7, ROWS - 1]) {
      const rows: number[] = [];
      for (let j = first([[k]], 0); j >= 0; j = u.next[j]!) rows.push(j);
      expect(rows).toEqual(keys.flatMap((v, j) => (v === k ? [j] : [])));
    }
    expect(first([[ROWS]], 0)).toBe(-1);
    u.release();
  });

  it('hands a hashed table\'s slots back; a reused Int32Array comes back filled as asked', () => {
    const keys = Array.from({ length: ROWS }, (_v, i) => i * 1000);
    const before = spareArrayBytes();
    const t = buildJoinHashTable(batch(keys), [col0], [Oid.int4], [Oid.int4]);
    t.release();
    expect(spareArrayBytes()).toBeGreaterThan(before);
    const again = takeInt32(ROWS, -1);
    expect(again.every((v) => v === -1)).toBe(true);
  });
});
