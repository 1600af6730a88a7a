/** key-domain.ts: the distinct key tuples a scan's files can hold, from their manifest bounds */
import { describe, expect, it } from 'vitest';
import type { DataFile } from '../spec/manifest.ts';
import type { NestedField } from '../spec/schema.ts';
import type { FileScanTask } from './table-scan.ts';
import { filesRows, keyDomainSize } from './key-domain.ts';

const int32 = (v: number): Uint8Array => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, v, true); return b; };
const int64 = (v: bigint): Uint8Array => { const b = new Uint8Array(8); new DataView(b.buffer).setBigInt64(0, v, true); return b; };

const SUPP: NestedField = { id: 3, name: 'l_suppkey', required: true, type: { kind: 'primitive', name: 'long' } };
const NUM: NestedField = { id: 4, name: 'l_linenumber', required: false, type: { kind: 'primitive', name: 'int' } };
const NAME: NestedField = { id: 5, name: 'l_comment', required: true, type: { kind: 'primitive', name: 'string' } };

function task(path: string, rows: number, lower: Map<number, Uint8Array>, upper: Map<number, Uint8Array>): FileScanTask {
  const file = { filePath: path, recordCount: BigInt(rows), lowerBounds: lower, upperBounds: upper } as unknown as DataFile;
  return { file, spec: { specId: 0, fields: [] }, dataSequenceNumber: 1n, positionDeletes: [], equalityDeletes: [] } as unknown as FileScanTask;
}

const a = task('a', 75_000, new Map([[3, int64(1n)], [4, int32(1)]]), new Map([[3, int64(9_000n)], [4, int32(7)]]));
const b = task('b', 70_000, new Map([[3, int64(5n)], [4, int32(2)]]), new Map([[3, int64(10_000n)], [4, int32(6)]]));

describe('keyDomainSize', () => {
  it('spans the smallest lower to the largest upper bound over the files', () => {
    expect(keyDomainSize([a, b], [SUPP])).toBe(10_000);
  });
  it('multiplies the columns, counting the NULL group of a nullable one', () => {
    expect(keyDomainSize([a, b], [SUPP, NUM])).toBe(10_000 * 8);
  });
  it('is unknown for a column that is not an integer or a file without bounds', () => {
    expect(keyDomainSize([a, b], [NAME])).toBeNull();
    expect(keyDomainSize([a, task('c', 10, new Map(), new Map())], [SUPP])).toBeNull();
    expect(keyDomainSize([], [SUPP])).toBeNull();
  });
});

describe('filesRows', () => {
  it('counts a file split into several tasks once', () => {
    expect(filesRows([a, { ...a, rowRange: [0, 32_768] }, b])).toBe(145_000);
  });
});
