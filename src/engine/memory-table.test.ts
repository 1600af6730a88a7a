/**
 * MemoryTable's point lookups: a pushed `col = value` is answered from a hash index that follows the
 * table's copy-on-write contents (inserts, replace, restore), and gives the same rows as a scan.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../common/batch.ts';
import type { ScanContext, ScanPredicate } from '../catalog/table-source.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { MemoryTable } from './memory-table.ts';

const cols = [
  { name: 'id', type: { oid: Oid.int4, typmod: -1 }, nullable: false },
  { name: 'v', type: { oid: Oid.text, typmod: -1 }, nullable: true },
  { name: 'c', type: { oid: Oid.bpchar, typmod: 5 }, nullable: true },
];

async function rows(t: MemoryTable, filters?: ScanPredicate[]): Promise<unknown[][]> {
  const ctx = { signal: new AbortController().signal, ...(filters ? { filters } : {}) } as unknown as ScanContext;
  const out: unknown[][] = [];
  for await (const b of t.scan(ctx)) for (let r = 0; r < b.length; r++) out.push(b.columns.map((c) => c[r]));
  return out;
}

async function* batches(...bs: Batch[]): AsyncIterable<Batch> {
  yield* bs;
}

function batch(from: number, to: number): Batch {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  return { length: ids.length, columns: [ids, ids.map((i) => `v${i % 7}`), ids.map(() => 'x    ')] };
}

describe('MemoryTable equality lookups', () => {
  it('answers col = value from a hash index, same rows as a filtered scan', async () => {
    const t = new MemoryTable(cols, 't');
    await t.insert(batches(batch(0, 100), batch(100, 200)));
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 0, value: 150 }])).toEqual([[150, 'v3', 'x    ']]);
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 0, value: 999 }])).toEqual([]);
    const all = await rows(t);
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 1, value: 'v2' }])).toEqual(all.filter((r) => r[1] === 'v2'));
  });

  it('follows inserts, replace and restore', async () => {
    const t = new MemoryTable(cols, 't');
    await t.insert(batches(batch(0, 50)));
    const before = t.snapshot();
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 0, value: 60 }])).toEqual([]);
    await t.insert(batches(batch(50, 100)));
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 0, value: 60 }])).toHaveLength(1);
    t.restore(before);
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 0, value: 60 }])).toEqual([]);
  });

  it('ignores predicates it cannot index: bpchar, other operators, non-primitive values', async () => {
    const t = new MemoryTable(cols, 't');
    await t.insert(batches(batch(0, 100)));
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 2, value: 'x' }])).toHaveLength(100);
    expect(await rows(t, [{ kind: 'compare', op: '<', column: 0, value: 3 }])).toHaveLength(100);
    expect(await rows(t, [{ kind: 'compare', op: '=', column: 0, value: { weird: 1 } }])).toHaveLength(100);
  });
});
