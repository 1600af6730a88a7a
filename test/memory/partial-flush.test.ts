/**
 * A scan worker's partial aggregate with a bounded group table (src/exec/partial/run-fragment.ts `flushBytes`):
 * when the table's estimate passes the threshold it is packed and emptied, and the task returns the earlier
 * packs in `earlier`. Merging every pack gives the same groups and sums as one unflushed table, in order of
 * first appearance; with partitions, every pack is split the same way. Runs the worker code in this thread
 * (the function a worker runs), over real batches.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../src/common/batch.ts';
import { Oid, sqlType } from '../../src/common/pgtypes/oids.ts';
import type { Expr } from '../../src/sql/index.ts';
import { encodeExpr } from '../../src/exec/partial/expr-wire.ts';
import { runFragment, type FragmentRequest, type PartialGroups } from '../../src/exec/partial/run-fragment.ts';
import type { WireFragment } from '../../src/exec/partial/worker-fragment.ts';
import { isPartitionedPartial, type PartitionedPartial } from '../../src/exec/exchange/partition-groups.ts';
import { unpackColumn } from '../../src/exec/exchange/wire-column.ts';
import { workerFlushBytes } from '../../src/exec/partial/worker-flush-bytes.ts';
import type { WireEvalContext } from '../../src/exec/partial/worker-eval-context.ts';

const int4 = sqlType(Oid.int4);
const col = (index: number, name: string): Expr => ({ kind: 'ColumnRef', index, levelsUp: 0, type: int4, name });

/** SELECT k, sum(v), count(v) FROM t GROUP BY k over columns (k int4, v int4) */
const fragment: WireFragment = {
  width: 2,
  projection: [0, 1],
  ops: [],
  groupKeys: [encodeExpr(col(0, 'k'))],
  keyOids: [Oid.int4],
  aggregates: [
    { def: 'r:aggregate:sum(23)', args: [encodeExpr(col(1, 'v'))], argTypes: [int4], type: sqlType(Oid.int8), filter: null },
    { def: 'r:aggregate:count(2276)', args: [encodeExpr(col(1, 'v'))], argTypes: [sqlType(Oid.any)], type: sqlType(Oid.int8), filter: null },
  ],
};

const evalContext: WireEvalContext = {
  settings: [], user: 'u', database: 'd', backendPid: 1, serverStartTime: 0n, localAddress: '127.0.0.1', localPort: 0,
  searchPath: [], transactionTimestamp: 0n, statementTimestamp: 0n, params: [],
};

/** 40 batches of 1,000 rows, keys 0 … 19,999 each met twice (in two batches far apart), v = k % 7 */
async function* batches(): AsyncIterable<Batch> {
  for (let b = 0; b < 40; b++) {
    const k: number[] = [], v: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const key = (b % 20) * 1000 + i;
      k.push(key);
      v.push(key % 7);
    }
    yield { length: 1000, columns: [k, v] };
  }
}

/** keys in order of first appearance across the packs, in pack order (how the main thread merges them) */
function keyOrder(packs: readonly PartialGroups[]): number[] {
  const seen = new Set<number>();
  for (const p of packs) for (const k of p.keys[0]! as number[]) seen.add(k);
  return [...seen];
}

const run = async (extra: Partial<FragmentRequest>): Promise<unknown> =>
  runFragment({ fragment, eval: evalContext, ...extra }, batches(), () => false);

describe('worker partial aggregate flushes its group table', () => {
  it('without a threshold, one table of 20,000 groups', async () => {
    const r = (await run({})) as PartialGroups;
    expect(r.count).toBe(20_000);
    expect(r.earlier).toBeUndefined();
  });

  it('with a small threshold, several packs that merge to the same groups in the same order', async () => {
    const whole = (await run({})) as PartialGroups;
    const r = (await run({ flushBytes: 256 * 1024 })) as PartialGroups;
    const packs = [...(r.earlier ?? []), r];
    expect(packs.length).toBeGreaterThan(3);
    // more pack entries than groups: keys met again after a flush come back twice
    const entries = packs.reduce((n, p) => n + p.count, 0);
    expect(entries).toBeGreaterThan(20_000);
    expect(keyOrder(packs)).toEqual(whole.keys[0]);
    // every key's states add up across packs to its two rows: count 2, sum 2 × (k % 7)
    const totals = new Map<number, [number, number]>();
    for (const p of packs) {
      const field = (a: number, name: string): readonly unknown[] => p.states[a]!.columns[p.states[a]!.paths.findIndex((path) => path.join('.') === name)]!;
      const [n, small, big] = [field(1, 'n'), field(0, 'small'), field(0, 'big')];
      for (let g = 0; g < p.count; g++) {
        const key = p.keys[0]![g] as number;
        const t = totals.get(key) ?? [0, 0];
        totals.set(key, [t[0] + Number(n[g]), t[1] + Number(small[g]) + Number(big[g] ?? 0)]);
      }
    }
    expect(totals.size).toBe(20_000);
    for (const [key, [count, sum]] of totals) if (count !== 2 || sum !== 2 * (key % 7)) expect({ key, count, sum }).toBe('two rows per key');
  });

  it('partitioned: every pack split into the same partitions, no key in two partitions', async () => {
    const r = await run({ flushBytes: 256 * 1024, partitions: 2 });
    expect(isPartitionedPartial(r)).toBe(true);
    const p = r as PartitionedPartial;
    const packs = [...(p.earlier ?? []), p];
    expect(packs.length).toBeGreaterThan(3);
    const partOf = new Map<number, number>();
    for (const pack of packs) {
      expect(pack.parts.length).toBe(2);
      pack.parts.forEach((set, part) => {
        for (const key of unpackColumn(set.keys[0]!) as number[]) {
          expect(partOf.get(key) ?? part).toBe(part);
          partOf.set(key, part);
        }
      });
    }
    expect(partOf.size).toBe(20_000);
  });

  it('the threshold is a slice of the query budget per worker, between 256kB and 64MB', () => {
    expect(workerFlushBytes(1024 * 1024, 2)).toBe(256 * 1024);
    expect(workerFlushBytes(64 * 1024 * 1024, 2)).toBe(8 * 1024 * 1024);
    expect(workerFlushBytes(4 * 1024 ** 3, 2)).toBe(64 * 1024 * 1024);
  });
});
