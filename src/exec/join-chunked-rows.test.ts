/**
 * join-chunked-rows.ts: a build side kept as its batches gathers, hashes and lists its keys exactly as the same
 * rows glued into one batch (common/batch-concat.ts) — values, NULL rows (-1), shared NULL columns, numeric and
 * int8 exact doubles (lazy numerics beside other scales materialized), chains in ascending row order across
 * chunks, the fallback key table (text, int8 beyond 2^53) — and join-key-list.ts makes the runtime key filter's
 * list from the table's numbers, marked with its words.
 */
import { describe, expect, it } from 'vitest';
import { nullColumn, type Batch } from '../common/batch.ts';
import { concatColumns } from '../common/batch-concat.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { attachLazyScaled, attachScaled, LAZY_NUMERIC, scaledColumnOf } from '../common/pgtypes/numeric-column.ts';
import { attachExactInt64, exactInt64Of, keyOnlyInt64Column } from '../common/pgtypes/exact-int64-column.ts';
import { intKeyListRepr, intKeyListWords } from '../iceberg/scan/int-key-list.ts';
import { chunkAt, chunkedRows, locateRows } from './join-chunked-rows.ts';
import { take, takeColumnOf } from './join-gather.ts';
import { buildJoinHashTable, type JoinHashTable } from './join-hash-table.ts';
import { builtKeyList } from './join-key-list.ts';
import type { Cols } from './expr/compile-expr.ts';

const col0 = (cols: Cols, i: number): unknown => cols[0]![i] ?? null;
const col1 = (cols: Cols, i: number): unknown => cols[1]![i] ?? null;

/** every row's chain as lists of rows, by each probe key */
function chains(t: JoinHashTable, probe: Batch, fns: ((cols: Cols, i: number) => unknown)[]): number[][] {
  const firsts = t.batchProber(fns)(probe.columns, probe.length);
  const out: number[][] = [];
  for (let i = 0; i < probe.length; i++) {
    const c: number[] = [];
    for (let j = firsts[i]!; j >= 0; j = t.next[j]!) c.push(j);
    out.push(c);
  }
  return out;
}

/** the batches of `keys`, cut at `cuts`, with a second column of the row number */
function cut(keys: unknown[], cuts: number[]): Batch[] {
  const out: Batch[] = [];
  let from = 0;
  for (const to of [...cuts, keys.length]) {
    out.push({ columns: [keys.slice(from, to), Array.from({ length: to - from }, (_, i) => from + i)], length: to - from });
    from = to;
  }
  return out;
}

describe('chunked build rows', () => {
  it('locates rows across chunks (empty batches dropped) and gathers like the glued batch', () => {
    const batches = cut([5, 6, 7, 8, 9, 10, 11], [2, 2, 5]);
    const rows = chunkedRows(batches);
    expect(rows.chunks.length).toBe(3);
    expect([...rows.starts]).toEqual([0, 2, 5, 7]);
    expect([0, 1, 2, 4, 5, 6].map((r) => chunkAt(rows.starts, r))).toEqual([0, 0, 1, 1, 2, 2]);
    const idx = Int32Array.from([6, 0, -1, 2, 3, 1, 5]);
    const chunk = new Int32Array(7), local = new Int32Array(7);
    locateRows(rows, idx, 7, chunk, local);
    expect([...chunk]).toEqual([2, 0, -1, 1, 1, 0, 2]);
    expect([...local]).toEqual([1, 0, -1, 0, 1, 1, 0]);
    const glued = concatColumns(batches, 2);
    expect(take(rows, idx, 7, 2)).toEqual(take(glued, idx, 7, 2));
    expect(takeColumnOf(rows, 1, idx, 7)).toEqual([6, 0, null, 2, 3, 1, 5]);
  });

  it('a column NULL in every chunk stays a shared NULL column; NULL in some chunks reads NULL there', () => {
    const a: Batch = { columns: [nullColumn(2), [1, 2]], length: 2 };
    const b: Batch = { columns: [nullColumn(3), nullColumn(3)], length: 3 };
    const rows = chunkedRows([a, b]);
    const [c0, c1] = take(rows, Int32Array.from([4, 1, 2]), 3, 2);
    expect(c0).toBe(nullColumn(3));
    expect(c1).toEqual([null, 2, null]);
  });

  it('keeps numeric exact doubles of one scale, and int8 doubles when every chunk has them', () => {
    const n1 = [Numeric.of(125n, 2), null], n2 = [Numeric.of(-7n, 2)];
    attachScaled(n1, Float64Array.from([125, 0]), 2);
    attachScaled(n2, Float64Array.from([-7]), 2);
    const i1 = [3n, null], i2 = [-(2n ** 52n)];
    attachExactInt64(i1, Float64Array.from([3, 0]), Uint8Array.from([0, 1]));
    attachExactInt64(i2, Float64Array.from([-(2 ** 52)]), null);
    const rows = chunkedRows([{ columns: [n1, i1], length: 2 }, { columns: [n2, i2], length: 1 }]);
    const [num, int] = take(rows, Int32Array.from([2, 0, 1, -1]), 4, 2);
    expect(num).toEqual([Numeric.of(-7n, 2), Numeric.of(125n, 2), null, null]);
    expect(scaledColumnOf(num!)?.scale).toBe(2);
    expect([...scaledColumnOf(num!)!.f.subarray(0, 2)]).toEqual([-7, 125]);
    expect(int).toEqual([-(2n ** 52n), 3n, null, null]);
    const x = exactInt64Of(int!, 4)!;
    expect([...x.f.subarray(0, 2)]).toEqual([-(2 ** 52), 3]);
    expect([...x.nulls!]).toEqual([0, 0, 1, 1]);
    // one chunk without doubles: none attached, values as they are
    const plain = [5n];
    const mixed = chunkedRows([{ columns: [i1], length: 2 }, { columns: [plain], length: 1 }]);
    const [m] = take(mixed, Int32Array.from([2, 0]), 2, 1);
    expect(m).toEqual([5n, 3n]);
    expect(exactInt64Of(m!, 2)).toBeUndefined();
  });

  it('materializes lazy numerics gathered beside another scale; keeps them lazy at one scale', () => {
    const lazy = [LAZY_NUMERIC, null];
    attachLazyScaled(lazy, Float64Array.from([250, 0]), 2);
    const other = [Numeric.of(3n, 1)];
    attachScaled(other, Float64Array.from([3]), 1);
    const [m] = take(chunkedRows([{ columns: [lazy], length: 2 }, { columns: [other], length: 1 }]), Int32Array.from([0, 2]), 2, 1);
    expect(m).toEqual([Numeric.of(250n, 2), Numeric.of(3n, 1)]);
    const lazy2 = [LAZY_NUMERIC];
    attachLazyScaled(lazy2, Float64Array.from([-1]), 2);
    const lazy3 = [LAZY_NUMERIC];
    attachLazyScaled(lazy3, Float64Array.from([9]), 2);
    const [l] = take(chunkedRows([{ columns: [lazy2], length: 1 }, { columns: [lazy3], length: 1 }]), Int32Array.from([1, 0]), 2, 1);
    expect(scaledColumnOf(l!)).toMatchObject({ scale: 2, lazy: true });
    expect([...scaledColumnOf(l!)!.f]).toEqual([9, -1]);
  });

  it('hashes across chunks as the glued rows: dense, sparse, int4 pairs, text and int8 beyond 2^53', () => {
    const cases: { keys: unknown[]; oids: number[]; two?: boolean; probe: unknown[] }[] = [
      { keys: [5, null, 7, 5, -3, 0, 5, 7], oids: [Oid.int4], probe: [5, 7, null, -3, 1, 0] },
      { keys: [10, 1_000_000, null, 10, -2_000_000_000, 1_000_000], oids: [Oid.int4], probe: [10, 1_000_000, -2_000_000_000, 11] },
      { keys: ['a', 'b', null, 'a', 'c'], oids: [Oid.text], probe: ['a', 'c', 'z', null] },
      { keys: [1n, 2n ** 53n + 1n, null, 1n, -(2n ** 63n)], oids: [Oid.int8], probe: [1n, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 53n] },
      { keys: [1, 2, 1, null, 2, 1], oids: [Oid.int4, Oid.int4], two: true, probe: [1, 2, 3] },
    ];
    for (const c of cases) {
      const batches = cut(c.keys, [1, 3, 3, c.keys.length - 1]);
      const fns = c.two ? [col0, col1] : [col0];
      const probe: Batch = { columns: [c.probe, c.probe.map((_, i) => (c.two ? i : 0))], length: c.probe.length };
      const glued = buildJoinHashTable(concatColumns(batches, 2), fns, c.oids, c.oids);
      const chunked = buildJoinHashTable(chunkedRows(batches), fns, c.oids, c.oids);
      expect(chunked.size).toBe(glued.size);
      expect([...chunked.heads()]).toEqual([...glued.heads()]);
      expect(chains(chunked, probe, fns)).toEqual(chains(glued, probe, fns));
      expect(chunked.keyNumbers()).toEqual(glued.keyNumbers());
    }
  });

  it('reads key-only int8 chunks from their doubles, a NULL where a chunk says so', () => {
    const k1 = keyOnlyInt64Column(Float64Array.from([40, 0, 44]), 3, Uint8Array.from([0, 1, 0]));
    const k2 = keyOnlyInt64Column(Float64Array.from([40, 48]), 2, null);
    const rows = chunkedRows([{ columns: [k1], length: 3 }, { columns: [k2], length: 2 }]);
    const t = buildJoinHashTable(rows, [col0], [Oid.int8], [Oid.int8], [0]);
    expect(t.size).toBe(3);
    expect(chains(t, { columns: [[40n, 44n, 48n, 46n]], length: 4 }, [col0])).toEqual([[0, 3], [2], [4], []]);
    expect([...t.keyNumbers()!]).toEqual([40, 44, 48]);
  });
});

describe('builtKeyList', () => {
  it('int8 keys: bigints in heads order, marked with their words; int4: numbers', () => {
    const keys = [9_007_199_254_740_991n, -5n, null, 7n, -5n];
    const t = buildJoinHashTable({ columns: [keys], length: keys.length }, [col0], [Oid.int8], [Oid.int8]);
    const list = builtKeyList(t, Oid.int8)!;
    const heads = [...t.heads()].map((j) => keys[j]);
    expect(list).toEqual(heads);
    expect(intKeyListRepr(list)).toBe('bigint');
    expect([...(intKeyListWords(list) as BigInt64Array)]).toEqual(heads);
    const t4 = buildJoinHashTable({ columns: [[3, null, 3, -2_147_483_648]], length: 4 }, [col0], [Oid.int4], [Oid.int4]);
    const list4 = builtKeyList(t4, Oid.int4)!;
    expect(list4).toEqual([...t4.heads()].map((j) => [3, null, 3, -2_147_483_648][j]));
    expect(intKeyListRepr(list4)).toBe('number');
  });

  it('no list without one integer key the table holds as numbers: dates, pairs, int8 beyond 2^53, text', () => {
    const one = (keys: unknown[], oid: number): JoinHashTable => buildJoinHashTable({ columns: [keys, keys], length: keys.length }, [col0], [oid], [oid]);
    expect(builtKeyList(one([19000, 19001], Oid.date), Oid.date)).toBeNull();
    expect(builtKeyList(one([2n ** 53n + 1n, 1n], Oid.int8), Oid.int8)).toBeNull();
    expect(builtKeyList(one(['a'], Oid.text), Oid.text)).toBeNull();
    const pair = buildJoinHashTable({ columns: [[1, 2], [3, 4]], length: 2 }, [col0, col1], [Oid.int4, Oid.int4], [Oid.int4, Oid.int4]);
    expect(builtKeyList(pair, Oid.int4)).toBeNull();
  });
});
