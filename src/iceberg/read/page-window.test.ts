/**
 * Page windows: which bytes of a column chunk hold rows [from, to) — the dictionary page (the bytes before the
 * first data page) and the run of data pages overlapping the rows — from the OffsetIndex's page locations.
 */
import { describe, expect, it } from 'vitest';
import { pageWindow, rowsInWindow, windowBytes } from './page-window.ts';

// a chunk at 1,000 of 1,000 bytes: a 100-byte dictionary page, then four data pages of 225 bytes and 100 rows each
const chunk = { offset: 1_000, length: 1_000 };
const index = { firstRows: [0, 100, 200, 300], locations: { offsets: [1_100, 1_325, 1_550, 1_775], sizes: [225, 225, 225, 225] } };

describe('page windows', () => {
  it('takes the dictionary page and the data pages overlapping the rows', () => {
    expect(pageWindow(index, chunk, 400, 150, 250)).toEqual({
      first: 100, end: 300, head: { offset: 1_000, length: 100 }, pages: { offset: 1_325, length: 450 }, share: 0.55,
    });
    // from the first page: one run from the chunk's start (the dictionary page included)
    expect(pageWindow(index, chunk, 400, 0, 100)).toMatchObject({ first: 0, end: 100, head: null, pages: { offset: 1_000, length: 325 } });
    expect(pageWindow(index, chunk, 400, 300, 400)).toMatchObject({ first: 300, end: 400, pages: { offset: 1_775, length: 225 } });
  });

  it('answers null when the window is the whole chunk or the index cannot tell', () => {
    expect(pageWindow(index, chunk, 400, 0, 400)).toBeNull();
    expect(pageWindow({ firstRows: index.firstRows }, chunk, 400, 150, 250)).toBeNull();
    expect(pageWindow(index, { offset: 1_200, length: 800 }, 400, 150, 250)).toBeNull(); // pages outside the chunk
  });

  it('shifts the rows read into the window and joins its bytes', () => {
    expect([...rowsInWindow([5, 120, 199, 250, 310], 100, 300)]).toEqual([20, 99, 150]);
    expect([...windowBytes(Uint8Array.of(1, 2), Uint8Array.of(3))]).toEqual([1, 2, 3]);
    const pages = Uint8Array.of(9);
    expect(windowBytes(null, pages)).toBe(pages);
  });
});
