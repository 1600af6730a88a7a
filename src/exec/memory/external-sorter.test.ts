import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';
import { ExternalSorter, type SortEntry } from './external-sorter.ts';
import { MemoryPool } from './memory-pool.ts';
import { ServerMemory } from './server-memory.ts';
import { liveSpillDirectories } from './spill-directory.ts';
import { estimateRowBytes } from './size-estimate.ts';
import { mulberry32 } from '../../common/prng.ts';

const rng = mulberry32;

const SPECS: KeySpec[] = [
  { oid: Oid.int4, descending: false, nullsFirst: true },
  { oid: Oid.text, descending: true, nullsFirst: false },
];

function makeRows(n: number, seed: number): SortEntry[] {
  const r = rng(seed);
  const out: SortEntry[] = [];
  for (let i = 0; i < n; i++) {
    const k1 = r() < 0.05 ? null : Math.floor(r() * 50);
    const k2 = r() < 0.05 ? null : `s${Math.floor(r() * 30)}`;
    // the row carries every value family a spill must keep exactly; column 0 is the input position
    const row = [i, Numeric.of(BigInt(Math.floor(r() * 1e6)) - 500000n, 2), r() < 0.1 ? NaN : r() < 0.1 ? -0 : r(), BigInt(i) * 1000003n,
      new Uint8Array([i & 255, 7]), pgArray(Oid.numeric, [Numeric.parse('1.50'), null, Numeric.NaN]), { months: 1, days: 2, micros: 3n }, k2];
    out.push({ key: [k1, k2], row });
  }
  return out;
}

async function sortAll(entries: SortEntry[], limit: number): Promise<{ rows: (readonly unknown[])[]; method: string; disk: number; pool: MemoryPool }> {
  const pool = new MemoryPool(limit, new ServerMemory(1e12));
  const sorter = new ExternalSorter(SPECS, pool.reserve('Sort'), () => {});
  try {
    for (let s = 0; s < entries.length; s += 500) {
      const part = entries.slice(s, s + 500);
      await sorter.add(part, part.reduce((n, e) => n + estimateRowBytes(e.row as unknown[]) + 64, 0));
    }
    await sorter.finishInput();
    const rows: (readonly unknown[])[] = [];
    for await (const chunk of sorter.sorted(1000)) rows.push(...chunk);
    return { rows, method: sorter.method, disk: sorter.diskBytes, pool };
  } finally {
    await sorter.close();
  }
}

describe('ExternalSorter', () => {
  const entries = makeRows(20000, 7);
  const expected = [...entries].sort((a, b) => compareKeys(SPECS, a.key, b.key)).map((e) => e.row);

  it('sorts in memory when the budget allows', async () => {
    const r = await sortAll(entries, 1e10);
    expect(r.method).toBe('quicksort');
    expect(r.rows).toEqual(expected);
  });

  it('spills runs and merges to the same order, stable, values intact (several merge passes)', async () => {
    const r = await sortAll(entries, 256 * 1024);
    expect(r.method).toBe('external merge');
    expect(r.disk).toBeGreaterThan(0);
    expect(r.rows.length).toBe(expected.length);
    expect(r.rows.map((x) => x[0])).toEqual(expected.map((x) => x[0]));
    expect(r.rows).toEqual(expected);
    const n = r.rows.find((x) => Numeric.isNumeric(x[1]))![1] as Numeric;
    expect(Numeric.isNumeric(n)).toBe(true);
    expect(Object.is((r.rows.find((x) => Object.is(x[2], -0)) ?? [0, 0, -0])[2], -0)).toBe(true);
    expect(r.pool.used).toBe(0);
    expect(liveSpillDirectories()).toEqual([]);
  });

  it('removes its spill files when the consumer stops early', async () => {
    const pool = new MemoryPool(128 * 1024, new ServerMemory(1e12));
    const sorter = new ExternalSorter(SPECS, pool.reserve('Sort'), () => {});
    for (let s = 0; s < entries.length; s += 500) await sorter.add(entries.slice(s, s + 500), 100_000);
    await sorter.finishInput();
    const dirs = liveSpillDirectories();
    expect(dirs.length).toBe(1);
    for await (const _ of sorter.sorted(10)) break;
    await sorter.close();
    expect(existsSync(dirs[0]!)).toBe(false);
    expect(pool.used).toBe(0);
  });

  it('a row larger than the whole budget is out of memory (53200)', async () => {
    const pool = new MemoryPool(64 * 1024, new ServerMemory(1e12));
    const sorter = new ExternalSorter(SPECS, pool.reserve('Sort'), () => {});
    await expect(sorter.add(entries.slice(0, 1), 1e6)).rejects.toMatchObject({ code: '53200' });
    await sorter.close();
  });
});
