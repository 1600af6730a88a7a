/**
 * GroupTable's per-column memo of string keys (#stringKey): a GROUP BY of few distinct strings — TPC-H q7 / q8 / q9's
 * nation names, bpchar(25) — normalizes (trims) and hashes each distinct value once, not once per row, and groups
 * exactly as before: bpchar equal up to trailing blanks, text not, NULL one group, the first value seen shown; past
 * the memo's size the column goes back to normalizing every row, with the same groups.
 */
import { describe, expect, it, vi } from 'vitest';
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { trimTrailingBlanks } from '../functions/compare-values.ts';
import { GroupTable } from './group-table.ts';

vi.mock('../functions/compare-values.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../functions/compare-values.ts')>();
  return { ...m, trimTrailingBlanks: vi.fn(m.trimTrailingBlanks) };
});

const NATIONS = ['ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'FRANCE', 'GERMANY', 'SAUDI ARABIA'];

/** the groups of rows by (trimmed a, b) as a reference: ids in first-seen order */
function referenceIds(a: readonly (string | null)[], b: readonly unknown[], trim: boolean): number[] {
  const ids = new Map<string, number>();
  return a.map((v, i) => {
    const key = JSON.stringify([v === null ? null : trim ? v.replace(/ +$/, '') : v, String(b[i])]);
    let g = ids.get(key);
    if (g === undefined) ids.set(key, (g = ids.size));
    return g;
  });
}

/** assigns the rows in batches of `size` and returns every row's group */
function assignAll(t: GroupTable, cols: readonly (readonly unknown[])[], size: number): number[] {
  const out: number[] = [];
  const ids = new Int32Array(size);
  for (let s = 0; s < cols[0]!.length; s += size) {
    const part = cols.map((c) => c.slice(s, s + size));
    const n = part[0]!.length;
    t.assign(part, n, ids);
    out.push(...ids.subarray(0, n));
  }
  return out;
}

describe('GroupTable: string keys remembered per column', () => {
  it('trims each distinct bpchar value once (q9: nation × year), grouping as valueKey does', () => {
    const rows = 20_000;
    // padded and unpadded spellings of one name are one bpchar key; NULL is a group of its own
    const a = Array.from({ length: rows }, (_v, i) => (i % 97 === 0 ? null : i % 3 === 0 ? NATIONS[i % 8]! : NATIONS[i % 8]!.padEnd(25, ' ')));
    const b = Array.from({ length: rows }, (_v, i) => Numeric.of(BigInt(1992 + (i % 7))));
    const trim = vi.mocked(trimTrailingBlanks);
    trim.mockClear();
    const t = new GroupTable([Oid.bpchar, Oid.numeric]);
    expect(assignAll(t, [a, b], 1024)).toEqual(referenceIds(a, b, true));
    expect(t.size).toBe(8 * 7 + 7);
    // 16 distinct strings (8 names, padded or not): one trim each, not one per row
    expect(trim.mock.calls.length).toBeLessThanOrEqual(16);
    // the first value seen is what the group shows
    expect(t.keyAt(0, 0)).toBeNull();
    expect(t.keyAt(0, 1)).toBe(NATIONS[1]!.padEnd(25, ' '));
  });

  it('keeps text keys apart by their trailing blanks', () => {
    const a = ['x', 'x ', 'x', 'y', 'x ', null, 'y'];
    const b = [1, 1, 1, 1, 1, 1, 1];
    const t = new GroupTable([Oid.text, Oid.int4]);
    expect(assignAll(t, [a, b], 4)).toEqual([0, 1, 0, 2, 1, 3, 2]);
  });

  it('past the memo size (mostly distinct strings) groups exactly as before', () => {
    const distinct = 10_000;
    const a = Array.from({ length: 3 * distinct }, (_v, i) => `k${i % distinct}`.padEnd(12, ' '));
    const b = a.map(() => 0);
    const t = new GroupTable([Oid.bpchar, Oid.int4]);
    expect(assignAll(t, [a, b], 4096)).toEqual(referenceIds(a, b, true));
    expect(t.size).toBe(distinct);
    // lookups (a join's build keys) find the same groups
    const found = new Int32Array(4);
    t.lookup([['k3', 'k9999   ', 'k10000', null], [0, 0, 0, 0]], 4, found);
    expect([...found]).toEqual([3, 9999, -1, -1]);
  });
});
