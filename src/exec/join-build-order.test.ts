/**
 * join-build-order.ts: an inner join whose built rows each meet one probe row goes out a built chunk at a time, the
 * chunks' own column arrays when every row met; a built row met twice (or too many probe rows kept) hands the kept
 * probe batches back to be joined as usual. The same rows as joinBlock's either way.
 */
import { describe, expect, it } from 'vitest';
import { rowsOfBatch, type Batch } from '../common/batch.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { BuildOrderJoin } from './join-build-order.ts';
import { chunkedRows } from './join-chunked-rows.ts';
import { joinBlock } from './join-core.ts';
import { buildJoinHashTable, type JoinHashTable } from './join-hash-table.ts';
import type { Cols } from './expr/compile-expr.ts';

const col0 = (cols: Cols, i: number): unknown => cols[0]![i];
const CHUNK = 12_000;
const BUILT = 40_000;

/** built rows [key, tag]: key r >> 1 (every key twice), in chunks of CHUNK rows */
function builtChunks(): Batch[] {
  const out: Batch[] = [];
  for (let at = 0; at < BUILT; at += CHUNK) {
    const n = Math.min(CHUNK, BUILT - at);
    out.push({ length: n, columns: [Array.from({ length: n }, (_, i) => (at + i) >> 1), Array.from({ length: n }, (_, i) => `b${at + i}`)] });
  }
  return out;
}

/** probe batches [key, value] of `keys` in batches of 7,000 */
function probeBatches(keys: readonly number[]): Batch[] {
  const out: Batch[] = [];
  for (let at = 0; at < keys.length; at += 7000) {
    const ks = keys.slice(at, at + 7000);
    out.push({ length: ks.length, columns: [ks, ks.map((k) => k * 10)] });
  }
  return out;
}

/** the join as HashJoinExec runs it with the helper: every output row, sorted */
async function joined(table: JoinHashTable, probes: readonly Batch[]): Promise<{ rows: unknown[][]; out: Batch[]; gaveUp: boolean }> {
  const prober = table.batchProber([col0], [0]);
  let order = BuildOrderJoin.of('inner', null, table.rows);
  let gaveUp = false;
  const out: Batch[] = [];
  const cands = (firsts: Int32Array) => ({ first: (i: number): number => firsts[i]!, next: table.next });
  for (const pb of probes) {
    const firsts = prober(pb.columns, pb.length);
    if (order !== null) {
      if (order.add(pb, firsts, table.next)) continue;
      gaveUp = true;
      for (const k of order.kept()) out.push(...(await joinBlock('inner', k.batch, table.rows, 2, 2, cands(k.firsts), null, null)));
      order = null;
    }
    out.push(...(await joinBlock('inner', pb, table.rows, 2, 2, cands(firsts), null, null)));
  }
  if (order !== null) out.push(...order.finish(2, 2));
  return { rows: out.flatMap(rowsOfBatch).sort(byRow), out, gaveUp };
}

const byRow = (a: unknown[], b: unknown[]): number => String(a).localeCompare(String(b));

/** every (probe row, built row) pair with equal keys, sorted */
function expected(probeKeys: readonly number[]): unknown[][] {
  const rows: unknown[][] = [];
  for (const k of probeKeys) for (const r of [2 * k, 2 * k + 1]) if (r < BUILT) rows.push([k, k * 10, k, `b${r}`]);
  return rows.sort(byRow);
}

describe('BuildOrderJoin', () => {
  const chunks = builtChunks();
  const table = buildJoinHashTable(chunkedRows(chunks), [col0], [Oid.int4], [Oid.int4], [0]);

  it('emits each built chunk as it is beside its probe rows when every built row met one', async () => {
    // every key once, in a shuffled order, plus keys with no built row
    const keys = Array.from({ length: BUILT / 2 + 500 }, (_, i) => (i * 7919) % (BUILT / 2 + 500));
    const { rows, out, gaveUp } = await joined(table, probeBatches(keys));
    expect(gaveUp).toBe(false);
    expect(out).toHaveLength(chunks.length);
    out.forEach((b, c) => {
      expect(b.length).toBe(chunks[c]!.length);
      expect(b.columns[2]).toBe(chunks[c]!.columns[0]);
      expect(b.columns[3]).toBe(chunks[c]!.columns[1]);
    });
    expect(rows).toEqual(expected(keys));
  });

  it('gathers the met rows of a chunk some of whose rows met none', async () => {
    const keys = Array.from({ length: 3000 }, (_, i) => i * 5);
    const { rows, out, gaveUp } = await joined(table, probeBatches(keys));
    expect(gaveUp).toBe(false);
    expect(out[0]!.columns[2]).not.toBe(chunks[0]!.columns[0]);
    expect(rows).toEqual(expected(keys));
  });

  it('hands the kept batches back when a built row meets a second probe row', async () => {
    // keys once over the first batches, then a key again in the last one
    const keys = [...Array.from({ length: 15_000 }, (_, i) => i), 3, 14_999, 20_001];
    const { rows, gaveUp } = await joined(table, probeBatches(keys));
    expect(gaveUp).toBe(true);
    expect(rows).toEqual(expected(keys));
  });
});
