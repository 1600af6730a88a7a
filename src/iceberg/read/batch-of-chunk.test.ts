/**
 * readFileScanTask's per-chunk step on its own (file-scan-task-reader.ts batchOfChunk): position and equality
 * deletes, a row-range piece's foreign rows, the projected width, row ids and the exactness mark — and that
 * readFileScanTask stays a driver (its per-chunk work out of the async generator V8 re-optimizes whole).
 */
import { describe, expect, it } from 'vitest';
import { batchOfChunk, readFileScanTask, type ChunkRows } from './file-scan-task-reader.ts';
import { tupleKey } from './delete-loader.ts';
import { isExact, markExact } from '../parallel/exact-rows.ts';
import type { ColumnChunk } from './parquet-reader.ts';

const none: ChunkRows = { path: 'f.parquet', deleted: new Set(), eqSets: [], eqCols: [], rowRange: undefined, width: 1, rowIds: false };
/** 4 rows at file positions 10..13: column 0 = 1..4, column 1 (an extra filter/equality column) = a..d */
const chunk = (): ColumnChunk => ({ firstRowPosition: 10, length: 4, columns: [[1, 2, 3, 4], ['a', 'b', 'c', 'd']] });

describe('batchOfChunk', () => {
  it('keeps every row and only the projected columns when nothing is deleted; keeps the exact mark', () => {
    expect(batchOfChunk(chunk(), none)).toEqual({ length: 4, columns: [[1, 2, 3, 4]] });
    expect(isExact(batchOfChunk(markExact(chunk()), none)!)).toBe(true);
    expect(isExact(batchOfChunk(chunk(), none)!)).toBe(false);
  });

  it('drops position-deleted rows, equality-deleted rows and rows outside the row range; null when none is left', () => {
    expect(batchOfChunk(chunk(), { ...none, deleted: new Set([11, 13]) })).toEqual({ length: 2, columns: [[1, 3]] });
    const eq = { ...none, eqSets: [{ fieldIds: [2], keys: new Set([tupleKey(['c'])]) }], eqCols: [[1]] };
    expect(batchOfChunk(chunk(), eq)).toEqual({ length: 3, columns: [[1, 2, 4]] });
    expect(batchOfChunk(chunk(), { ...none, rowRange: [11, 13] })).toEqual({ length: 2, columns: [[2, 3]] });
    expect(batchOfChunk(chunk(), { ...none, deleted: new Set([10, 11, 12, 13]) })).toBeNull();
  });

  it('late materialization positions and row ids (path, file position) of the kept rows', () => {
    const picked: ColumnChunk = { firstRowPosition: 10, positions: [10, 12, 13], length: 3, columns: [[1, 3, 4]] };
    expect(batchOfChunk(picked, { ...none, deleted: new Set([12]), rowIds: true })).toEqual({
      length: 2, columns: [[1, 4], ['f.parquet', 'f.parquet'], [10n, 13n]],
    });
  });

  it('readFileScanTask stays a driver (its per-chunk loop lives in batchOfChunk)', () => {
    // session 25: ≈ 4,900 characters of source before, ≈ 3,500 after
    expect(readFileScanTask.toString().length).toBeLessThan(4200);
  });
});
