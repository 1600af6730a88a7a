import { describe, expect, it } from 'vitest';
import type { Batch } from '../../common/batch.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { ExecOperator } from '../operator.ts';
import { keyPartition } from './key-partition.ts';
import { repartitionRows } from './repartition-rows.ts';
import { unpackColumn } from './wire-column.ts';

const source = (batches: readonly Batch[]): ExecOperator => ({
  name: 'Test', children: [], execute: async function* () { yield* batches; },
});

describe('repartitionRows', () => {
  it('sends every row once, to its key\'s partition; unread columns as one NULL constant', async () => {
    const nulls = new Array<unknown>(1000).fill(null);
    const batches: Batch[] = [0, 1, 2].map((b) => {
      const ids = Array.from({ length: 1000 }, (_x, i) => b * 1000 + i);
      return { length: 1000, columns: [ids.map((i) => (i % 37 === 0 ? null : BigInt(i % 250))), nulls, ids.map((i) => `v${i}`)] };
    });
    const transfer: ArrayBufferLike[] = [];
    const r = (await repartitionRows(source(batches), [(cols, i) => cols[0]![i]], [Oid.int8], 3, () => false, transfer))!;
    expect(r.rows).toBe(3000);
    expect(r.parts.reduce((n, p) => n + p.length, 0)).toBe(3000);
    expect(transfer.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    r.parts.forEach((p, k) => {
      expect(p.columns[1]).toEqual({ kind: 'const', value: null, length: p.length });
      const [keys, , vals] = p.columns.map(unpackColumn);
      for (let i = 0; i < p.length; i++) {
        expect(keyPartition([keys![i]], [Oid.int8], 3)).toBe(k);
        seen.add(vals![i] as string);
      }
    });
    expect(seen.size).toBe(3000);
  });

  it('one partition: every row in input order, a set per non-empty batch, no key read (a serial aggregate\'s rows, partial/worker-rows.ts)', async () => {
    const batches: Batch[] = [0, 1].map((b) => ({ length: 3, columns: [[b * 3, b * 3 + 1, null], ['x', 'y', 'z']] }));
    batches.splice(1, 0, { length: 0, columns: [[], []] });
    const r = (await repartitionRows(source(batches), [() => { throw new Error('key read'); }], [Oid.int4], 1, () => false, []))!;
    expect(r.rows).toBe(6);
    expect(r.parts.map((p) => p.length)).toEqual([3, 3]);
    expect(r.parts.map((p) => p.columns.map((w) => unpackColumn(w)))).toEqual([[[0, 1, null], ['x', 'y', 'z']], [[3, 4, null], ['x', 'y', 'z']]]);
  });

  it('stops when canceled', async () => {
    const b: Batch = { length: 10, columns: [Array.from({ length: 10 }, (_x, i) => i)] };
    expect(await repartitionRows(source([b]), [(cols, i) => cols[0]![i]], [Oid.int4], 2, () => true, [])).toBeNull();
  });
});
