/**
 * locateRows over many chunks (join-chunked-rows.ts): rows are located through a directory of row blocks when
 * there are 16 chunks or more (JOIN, session 24) — each row must land in the chunk and at the offset a binary
 * search gives, for chunks of any lengths (a short last chunk, chunks of one row, uneven lengths) and -1 rows.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../common/batch.ts';
import { chunkAt, chunkedRows, locateRows } from './join-chunked-rows.ts';

let seed = 97;
const rand = (): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const batchOf = (len: number): Batch => ({ columns: [], length: len });

function check(lengths: readonly number[]): void {
  const rows = chunkedRows(lengths.map(batchOf));
  const n = rows.length;
  const idx = Int32Array.from({ length: 5000 }, (_v, k) => (k % 97 === 0 ? -1 : k < n ? k : Math.floor(rand() * n)));
  const chunk = new Int32Array(idx.length), local = new Int32Array(idx.length);
  locateRows(rows, idx, idx.length, chunk, local);
  for (let k = 0; k < idx.length; k++) {
    const r = idx[k]!;
    if (r < 0) { expect([chunk[k], local[k]]).toEqual([-1, -1]); continue; }
    const c = chunkAt(rows.starts, r);
    expect([chunk[k], local[k]], `row ${r}`).toEqual([c, r - rows.starts[c]!]);
  }
}

describe('locating rows among many chunks', () => {
  it('even chunks with a short last one (a scan\'s batches)', () => {
    check([...Array.from({ length: 40 }, () => 8192), 17]);
  });
  it('uneven chunks, some of one row', () => {
    check(Array.from({ length: 200 }, () => (rand() < 0.2 ? 1 : 1 + Math.floor(rand() * 3000))));
  });
  it('chunks of one row each, and exactly 16 chunks of powers of two', () => {
    check(Array.from({ length: 300 }, () => 1));
    check(Array.from({ length: 16 }, (_v, k) => 2 ** (k % 5 + 3)));
  });
});
